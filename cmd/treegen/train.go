package main

import (
	"flag"
	"fmt"
	"math"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/cart"
)

func (a *app) trainCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "train",
		Short: "Train a model on a data file and write it as IR JSON",
	}
	cmd.AddCommand(a.trainCartCmd(), a.trainGBDTCmd(), a.trainTELCmd(), a.trainE2ECmd(), a.trainTAOCmd(), a.trainLatentCmd())
	refuseUnknown(cmd, "trainer")
	return cmd
}

// commonTrainFlags are the flags every trainer shares.
type commonTrainFlags struct {
	data, target, test, out, name string
	// positive is --positive: the class whose probability a binary model
	// outputs ("": the second class in sorted order).
	positive string
	absent   data.Absent
	base     data.IndexBase
	model    *ir.Model // the model written, for --test
	// compact reads the data files with data.Options.Compact, for a
	// trainer that reads compact data sets.
	compact bool
	// valid and validFraction are --valid and --valid-fraction, quiet is
	// --quiet (registerValidation).
	valid         string
	validFraction float64
	quiet         bool
}

// save writes the trained model m to --out ("-": the standard output) and
// keeps it for the scoring of --test. With --positive it first makes that
// class the one whose probability the model outputs
// (ir.Model.SetPositiveClass).
func (f *commonTrainFlags) save(a *app, m *ir.Model) error {
	if f.positive != "" {
		if err := m.SetPositiveClass(f.positive); err != nil {
			return fmt.Errorf("--positive %s: %v", f.positive, err)
		}
	}
	f.model = m
	return a.saveModel(f.out, m)
}

// saveModel writes m to path atomically, or to the standard output when
// path is "-".
func (a *app) saveModel(path string, m *ir.Model) error {
	if path != "-" {
		return ir.Save(path, m)
	}
	if err := m.Validate(); err != nil {
		return fmt.Errorf("refusing to write an invalid model: %w", err)
	}
	b, err := ir.Marshal(m)
	if err != nil {
		return err
	}
	_, err = a.stdout.Write(b)
	return err
}

// read reads a labelled data file (training, validation or test data) as
// the flags say.
func (f *commonTrainFlags) read(path string) (*data.Dataset, error) {
	return readDataWith(path, data.Options{Target: f.target, RequireTarget: true, Absent: f.absent, IndexBase: f.base, Compact: f.compact})
}

// register adds the flags to cmd, and scores the model written on the
// --test data once cmd has run.
func (f *commonTrainFlags) register(a *app, cmd *cobra.Command) {
	cmd.Flags().StringVar(&f.data, "data", "", "training data: TSV/CSV (optionally gzipped) with a header, or LibSVM")
	cmd.Flags().StringVar(&f.target, "target", "target", "name of the target column")
	cmd.Flags().StringVar(&f.test, "test", "", "optional test data, scored after training")
	cmd.Flags().StringVarP(&f.out, "out", "o", "", `output model file (IR JSON; "-": the standard output)`)
	cmd.Flags().StringVar(&f.name, "name", "", "model name (default: the data file's name)")
	cmd.Flags().StringVar(&f.positive, "positive", "", "binary models: the class whose probability the model outputs (default: the second label in sorted order)")
	cmd.Flags().Var(&f.absent, "libsvm-absent", absentUsage)
	cmd.Flags().Var(&f.base, "libsvm-base", baseUsage)
	cmd.PostRunE = func(cmd *cobra.Command, args []string) error {
		if f.test == "" {
			return nil
		}
		m := f.model
		if m == nil {
			var err error
			if m, err = ir.Load(f.out); err != nil {
				return err
			}
		}
		d, err := f.read(f.test)
		if err != nil {
			return err
		}
		return a.reportScores(m, f.test, f.target, "test", d)
	}
}

// reportTraining scores the model m on its training rows d and, when
// there are any, its validation rows v, on stderr.
func (a *app) reportTraining(m *ir.Model, f commonTrainFlags, d, v *data.Dataset) error {
	if err := a.reportScores(m, f.data, f.target, "train", d); err != nil {
		return err
	}
	if v != nil {
		return a.reportScores(m, "validation", f.target, "valid", v)
	}
	return nil
}

// registerValidation adds --valid (its help: usage), --valid-fraction and
// --quiet to cmd, for a trainer that takes validation data and reports its
// progress.
func (f *commonTrainFlags) registerValidation(cmd *cobra.Command, usage string) {
	cmd.Flags().StringVar(&f.valid, "valid", "", usage)
	cmd.Flags().Float64Var(&f.validFraction, "valid-fraction", 0, "hold out this fraction of the training rows as validation data")
	cmd.Flags().BoolVar(&f.quiet, "quiet", false, "no progress output")
}

// addTrainerFlags adds to cmd the flags that a trainer's options define on
// a flag set of their own (register: the options' RegisterFlags). A flag
// of one letter (--k) gets no short form.
func addTrainerFlags(cmd *cobra.Command, register func(*flag.FlagSet)) {
	fs := flag.NewFlagSet(cmd.Name(), flag.ContinueOnError)
	register(fs)
	fs.VisitAll(func(g *flag.Flag) {
		p := pflag.PFlagFromGoFlag(g)
		p.Shorthand = ""
		cmd.Flags().AddFlag(p)
	})
}

// modelName returns --name, or the data file's name.
func (f *commonTrainFlags) modelName() string {
	if f.name != "" {
		return f.name
	}
	return baseName(f.data)
}

// split returns the training and validation sets: d and the --valid file,
// or d split by --valid-fraction (stratified by class unless regression,
// deterministic for seed), or d and nil.
func (f *commonTrainFlags) split(d *data.Dataset, regression bool, seed uint64) (train, v *data.Dataset, err error) {
	switch fraction := f.validFraction; {
	case f.valid != "" && fraction > 0:
		return nil, nil, fmt.Errorf("--valid and --valid-fraction exclude each other")
	case f.valid != "":
		v, err := f.read(f.valid)
		return d, v, err
	case fraction >= 1 || fraction < 0:
		return nil, nil, fmt.Errorf("--valid-fraction must be in [0, 1), got %v", fraction)
	case fraction > 0:
		return d.HoldOut(fraction, !regression, seed)
	}
	return d, nil, nil
}

// requireClasses refuses a training set d whose target holds numbers that
// are not all integers, for a trainer (what: "E2E trees") that only
// classifies.
func (f *commonTrainFlags) requireClasses(d *data.Dataset, what string) error {
	if d.Labels != nil {
		return nil
	}
	labels, _, err := data.Classes(d.Y)
	if err != nil {
		return nil
	}
	for _, x := range labels {
		if x != math.Trunc(x) {
			return fmt.Errorf("%s: the target %q holds non-integer numbers (%v, ...): %s are for classification", f.data, f.target, labels[0], what)
		}
	}
	return nil
}

func (f *commonTrainFlags) check() error {
	if f.data == "" {
		return fmt.Errorf("--data is required")
	}
	if f.out == "" {
		return fmt.Errorf("-o/--out is required")
	}
	return nil
}

func (a *app) trainCartCmd() *cobra.Command {
	var f commonTrainFlags
	var o cart.Options
	cmd := &cobra.Command{
		Use:   "cart --data FILE -o MODEL.json",
		Short: "Train a CART decision tree (Gini, entropy or MSE)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := firstError(f.check(), o.Validate()); err != nil {
				return err
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			o.Name = f.modelName()
			start := time.Now()
			m, err := cart.Train(d, o)
			if err != nil {
				return err
			}
			elapsed := time.Since(start)
			if err := f.save(a, m); err != nil {
				return err
			}
			t := &m.Trees[0]
			fmt.Fprintf(a.stderr, "trained CART on %d rows in %s: depth %d, %d leaves; wrote %s\n",
				d.Rows, elapsed.Round(10*time.Microsecond), t.Depth(), t.NumLeaves(), f.out)
			return a.reportScores(m, f.data, f.target, "train", d)
		},
	}
	f.register(a, cmd)
	addTrainerFlags(cmd, o.RegisterFlags)
	return cmd
}
