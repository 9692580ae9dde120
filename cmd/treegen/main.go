// Command treegen trains tree models, imports them, and compiles them into
// dependency-free Go packages.
//
// A typical use, from a go:generate line in the package that wants a model:
//
//	//go:generate go run github.com/treegen/treegen/cmd/treegen gen --model model.json --package iris --out .
//
// Run "treegen help" for the commands; docs/CLI.md in the repository has the
// full reference. Errors are one line on stderr, prefixed "treegen: ", with a
// non-zero exit status; output files are written atomically, so a failed run
// never leaves a half-written or clobbered file.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	if err := root.Execute(); err != nil {
		fmt.Fprintln(stderr, "treegen: "+err.Error())
		return 1
	}
	return 0
}
