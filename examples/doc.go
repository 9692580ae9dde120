// Package examples tests the example programs in its subdirectories, each a
// separate Go module that uses treegen the way a downstream project would.
package examples
