package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strconv"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
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
// predictions of eff are from those of m.
func (a *app) measureApproximation(m, eff *ir.Model, f *dataFlags, prec codegen.Precision) (string, error) {
	d, err := f.readFor(m, false, a.stderr)
	if err != nil {
		return "", err
	}
	if d.Rows == 0 {
		return "", fmt.Errorf("%s has no rows", f.path)
	}
	rows := make([][]float64, d.Rows)
	for i := range rows {
		rows[i] = d.Row(i)
	}
	var dev deviation
	if prec.Is32() {
		dev, err = measure[float32](m, eff, rows)
	} else {
		dev, err = measure[float64](m, eff, rows)
	}
	if err != nil {
		return "", err
	}
	return dev.sentence(len(rows), filepath.Base(f.path), m.IsClassifier()), nil
}

// deviation is how far the predictions of one model are from another's.
type deviation struct {
	// maxDiff is the largest absolute difference of two predictions that
	// are both numbers.
	maxDiff float64
	// nanRows counts the rows with a prediction that is NaN for one model
	// and not for the other.
	nanRows int
	// classes counts the rows whose predicted classes differ.
	classes int
}

// measure compares the predictions of got with those of want on rows, in
// precision F.
func measure[F runtime.Float](want, got *ir.Model, rows [][]float64) (deviation, error) {
	var dev deviation
	pw, err := runtime.New[F](want)
	if err != nil {
		return dev, err
	}
	pg, err := runtime.New[F](got)
	if err != nil {
		return dev, err
	}
	x := make([]F, want.NumFeatures)
	yw := make([]F, want.NumOutputs)
	yg := make([]F, got.NumOutputs)
	for _, row := range rows {
		for j, v := range row {
			x[j] = F(v)
		}
		if err := pw.Predict(x, yw); err != nil {
			return dev, err
		}
		if err := pg.Predict(x, yg); err != nil {
			return dev, err
		}
		nan := false
		for k := range yw {
			a, b := float64(yw[k]), float64(yg[k])
			switch {
			case a == b || math.IsNaN(a) && math.IsNaN(b):
			case math.IsNaN(a) || math.IsNaN(b):
				nan = true
			default:
				dev.maxDiff = math.Max(dev.maxDiff, math.Abs(a-b))
			}
		}
		if nan {
			dev.nanRows++
		}
		if want.IsClassifier() {
			cw, _ := pw.PredictClass(x)
			cg, _ := pg.PredictClass(x)
			if cw != cg {
				dev.classes++
			}
		}
	}
	return dev, nil
}

// sentence says what dev is on the n rows of the file name, for the header
// of generated code: "On the 303 rows of heart.tsv.gz, predictions are at
// most 0.0021 from the interpreter's; 2 predicted classes differ."
func (dev deviation) sentence(n int, name string, classifier bool) string {
	s := fmt.Sprintf("On the %s of %s, ", plural(n, "row"), name)
	if dev.maxDiff == 0 && dev.nanRows == 0 {
		s += "predictions equal the interpreter's"
	} else {
		s += "predictions are at most " + upperBound(dev.maxDiff) + " from the interpreter's"
	}
	if dev.nanRows > 0 {
		s += fmt.Sprintf(", except on %s where one of them is NaN and the other is not", plural(dev.nanRows, "row"))
	}
	if classifier {
		switch dev.classes {
		case 0:
			s += "; no predicted class differs"
		case 1:
			s += "; 1 predicted class differs"
		default:
			s += fmt.Sprintf("; %d predicted classes differ", dev.classes)
		}
	}
	return s + "."
}

// upperBound formats v with two significant digits (three when rounding
// up carries into a new digit), rounded up so that the number shown is not
// below v.
func upperBound(v float64) string {
	s := strconv.FormatFloat(v, 'g', 2, 64)
	if p, err := strconv.ParseFloat(s, 64); err == nil && p >= v || math.IsInf(v, 0) || !(v > 0) {
		return s
	}
	e := int(math.Floor(math.Log10(v))) - 1 // v/10^e has two digits before the point
	u := math.Ceil(v/math.Pow(10, float64(e))) * math.Pow(10, float64(e))
	if e >= -8 {
		return strconv.FormatFloat(u, 'f', max(0, -e), 64)
	}
	return strconv.FormatFloat(u, 'g', 3, 64)
}

// plural returns "1 row" or "n rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
