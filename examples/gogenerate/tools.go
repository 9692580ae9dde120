//go:build tools

// This file records the treegen command as a dependency of the module, so
// that the go:generate line in heart/generate.go can run it with go run.
package tools

import _ "github.com/treegen/treegen/cmd/treegen"
