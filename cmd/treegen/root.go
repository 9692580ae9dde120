package main

import (
	"fmt"
	"io"
	"strings"

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
	root.AddCommand(a.trainCmd(), a.importCmd(), a.genCmd(), a.predictCmd(), a.evalCmd(), a.checkCmd(), a.benchCmd(), a.inspectCmd(), a.clusterCmd(), a.demoCmd())
	return root
}

// refuseUnknown makes cmd, a command whose work its subcommands do (train,
// import), refuse a subcommand it does not have with a non-zero exit and the
// list of those it has, naming them as noun ("trainer", "importer"), instead
// of printing its help, or failing on the unknown subcommand's flags.
func refuseUnknown(cmd *cobra.Command, noun string) {
	cmd.DisableFlagParsing = true // flags belong to the subcommand
	cmd.Args = cobra.ArbitraryArgs
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
			return c.Help()
		}
		var known []string
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				known = append(known, sub.Name())
			}
		}
		return fmt.Errorf("unknown %s %q for \"%s\"; known: %s", noun, args[0], c.CommandPath(), strings.Join(known, ", "))
	}
}
