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
nothing per prediction.

Where output goes: a command's result is written to the standard output, or
to the file that -o names: predictions, the scores of eval, the table or
JSON of bench, the summary, trees and JSON of inspect, the "ok" line of
check, the report of demo and of cluster, and a model or JSON written with
-o -. Progress, summaries of what was written ("trained ...; wrote m.json"),
the scores of a training run, notes and warnings go to the standard error,
so that "treegen predict ... > preds.csv" holds predictions only and
"treegen train ... -o m.json > log" leaves log empty. An error is one line
on the standard error, "treegen: ...", and a non-zero exit status.

Flags: "treegen CMD --help" lists the flags of a command; an unknown flag
gets the closest ones it has. "treegen completion bash|zsh|fish|powershell"
writes a completion script, which completes commands, flags, and the values
of flags that take one of a fixed set (--backend, --precision, --objective,
...).`,
		Version:       version.Version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(a.trainCmd(), a.importCmd(), a.genCmd(), a.predictCmd(), a.evalCmd(), a.checkCmd(), a.benchCmd(), a.inspectCmd(), a.clusterCmd(), a.demoCmd())
	registerCompletions(root)
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
