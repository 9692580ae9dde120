// Command treegen trains tree models, imports them, and compiles them into
// dependency-free Go packages.
//
// A typical use, from a go:generate line in the package that wants a model:
//
//	//go:generate go run github.com/treegen/treegen/cmd/treegen gen --model model.json --package iris --out .
//
// Run "treegen help" for the commands; docs/CLI.md in the repository has the
// full reference. A command's result (predictions, scores, JSON, reports)
// goes to stdout or to the file -o names; progress, summaries of what was
// written, notes and warnings go to stderr. Errors are one line on stderr,
// prefixed "treegen: ", with a non-zero exit status; an unknown flag gets
// the closest flags of its command. Output files are written atomically, so
// a failed run never leaves a half-written or clobbered file.
//
// "treegen completion bash" (or zsh, fish, powershell) writes a shell
// completion script, which also completes the values of the flags that take
// one of a fixed set, such as --backend and --precision.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit status. An
// error writing the standard output (a full disk, a closed pipe) is an
// error of the command: its output is incomplete.
func run(args []string, stdout, stderr io.Writer) int {
	out := &errWriter{w: stdout}
	root := newRoot(out, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil && out.err != nil {
		err = fmt.Errorf("writing the standard output: %w", out.err)
	}
	if err != nil {
		fmt.Fprintln(stderr, "treegen: "+err.Error())
		return 1
	}
	return 0
}

// errWriter is a writer that keeps the first error of the writer it wraps
// and writes nothing after it.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = err
	}
	return n, err
}
