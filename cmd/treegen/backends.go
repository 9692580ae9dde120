package main

import (
	"flag"
	"fmt"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/verify"
)

// addBackendFlags defines the flags of every backend's options on cmd
// (codegen.BackendFlags).
func addBackendFlags(cmd *cobra.Command) *codegen.BackendFlags {
	fs := flag.NewFlagSet("treegen "+cmd.Name(), flag.ContinueOnError)
	cmd.Flags().VisitAll(func(f *pflag.Flag) { fs.Var(f.Value, f.Name, f.Usage) }) // so that a clash is found
	bf, err := codegen.NewBackendFlags(fs)
	if err != nil {
		panic(err) // two meanings of one flag: a bug of treegen's own
	}
	fs.VisitAll(func(f *flag.Flag) {
		if cmd.Flags().Lookup(f.Name) == nil {
			cmd.Flags().AddGoFlag(f)
		}
	})
	return bf
}

// measureApproximation runs the interpreter in precision prec on the rows of
// the data file at path with the model m and with eff, the model that
// approximate code computes exactly, and says in a sentence how far the
// predictions of eff are from those of m (verify.Deviation.Sentence).
func (a *app) measureApproximation(m, eff *ir.Model, f *dataFlags, prec codegen.Precision) (string, error) {
	d, err := f.readFor(m, false, a.stderr)
	if err != nil {
		return "", err
	}
	rows := firstRows(d, 0)
	if len(rows) == 0 {
		return "", fmt.Errorf("%s has no rows", f.path)
	}
	dev, err := verify.Measure(m, eff, rows, prec)
	if err != nil {
		return "", err
	}
	return dev.Sentence(len(rows), filepath.Base(f.path), m.IsClassifier()), nil
}

// plural returns "1 row" or "n rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
