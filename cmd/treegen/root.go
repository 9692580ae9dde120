package main

import (
	"io"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/internal/version"
)

// app carries the output streams to every command.
type app struct {
	stdout, stderr io.Writer
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	a := &app{stdout: stdout, stderr: stderr}
	root := &cobra.Command{
		Use:   "treegen",
		Short: "Train tree models and compile them into dependency-free Go",
		Long: `treegen trains tree models (CART, ...), keeps them in one intermediate
representation (IR, a versioned JSON file), interprets them, and compiles them
into Go packages that import nothing beyond the standard library and allocate
nothing per prediction.`,
		Version:       version.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.CompletionOptions.DisableDefaultCmd = true
	root.AddCommand(a.trainCmd(), a.importCmd(), a.genCmd(), a.predictCmd(), a.evalCmd(), a.checkCmd(), a.benchCmd(), a.inspectCmd(), a.demoCmd())
	return root
}
