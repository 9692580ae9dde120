package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/verify"
)

// backendFlags are the options of every backend, each bound to flags of one
// command, so that a backend's options reach that backend and no other.
type backendFlags struct {
	byBackend map[string]codegen.BackendOptions // by backend name
	flags     []string                          // flag names, in order of definition
	owner     map[string]string                 // backend name by flag name
}

// addBackendFlags defines the flags of every backend's options on cmd: each
// backend registers its options on a flag set of its own, which cmd then
// takes in.
func addBackendFlags(cmd *cobra.Command) *backendFlags {
	bf := &backendFlags{byBackend: map[string]codegen.BackendOptions{}, owner: map[string]string{}}
	for _, b := range codegen.Backends() {
		opts := b.NewOptions()
		fs := flag.NewFlagSet(b.Name(), flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		opts.RegisterFlags(fs)
		fs.VisitAll(func(f *flag.Flag) {
			if cmd.Flags().Lookup(f.Name) != nil {
				panic(fmt.Sprintf("flag --%s of the %s backend is already a flag of treegen %s", f.Name, b.Name(), cmd.Name()))
			}
			bf.flags = append(bf.flags, f.Name)
			bf.owner[f.Name] = b.Name()
		})
		cmd.Flags().AddGoFlagSet(fs)
		bf.byBackend[b.Name()] = opts
	}
	return bf
}

// options returns the options of backend b as the command line set them,
// validated, after checking that no flag of another backend was given.
// auto says that b was not named but picked for the model.
func (bf *backendFlags) options(cmd *cobra.Command, b codegen.Backend, auto bool) (codegen.BackendOptions, error) {
	for _, name := range bf.flags {
		if owner := bf.owner[name]; owner != b.Name() && cmd.Flags().Changed(name) {
			if auto {
				return nil, fmt.Errorf("--%s is an option of the %s backend, not of %s, which %s picked for this model (choose one with --backend)",
					name, owner, b.Name(), codegen.Auto)
			}
			return nil, fmt.Errorf("--%s is an option of the %s backend, not of %s", name, owner, b.Name())
		}
	}
	opts, ok := bf.byBackend[b.Name()]
	if !ok {
		return nil, fmt.Errorf("the %s backend has no flags on this command", b.Name())
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return opts, nil
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
