package codegen_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/tooling/fuzzmodel"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// FuzzBackends is the differential fuzzing of the backends: each input
// decodes (internal/fuzzmodel) into 8 to 12 valid models with rows that
// reach their corners; every backend that accepts a model (its Check)
// compiles it in each precision the input asks for, smoothstep also
// pruned when it asks, and auto must give the source of the backend it
// picks; the packages of the models are built in one Go module with one go
// build, run on the rows, and compared with the interpreter bit for bit:
// margins, predictions and classes, signed zeros included, NaN equal to
// NaN. The driver also checks that each package's entry points agree
// (harness.Options.Check), and the interpreter's PredictBatch must agree
// with its Predict.
//
// Building is what costs: about 0.6 s a go build and 30 ms a small package.
// So an input holds many models, built together up to a budget
// (maxPackages, maxSource) that keeps an input well under the 10 s after
// which the fuzzing engine kills its process as deadlocked.
//
//	go test -run XXX -fuzz FuzzBackends -fuzzminimizetime 0 ./codegen
//
// Minimizing costs a build a try, and removing bytes changes the models
// that the chunk's pseudo-random tail draws (see internal/fuzzmodel), so
// it seldom shrinks a failing input: -fuzzminimizetime 0 turns it off. A
// failure logs the model as JSON and the rows that differ, bit for bit.
// With TREEGEN_FUZZ_STATS set to a file name, every input appends to it a
// line "models built packages rows source-bytes gen-ms build-ms total-ms" (the processes
// of the fuzzing engine share it). Without -fuzz, go test runs the seed
// corpus in testdata/fuzz/FuzzBackends.
func FuzzBackends(f *testing.F) {
	gentest.SkipIfNoGo(f)
	warmUp(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		checkBackends(t, fuzzmodel.Decode(data))
	})
}

// The budget of one input: the packages of its models are built, model
// by model, unless one would take the input over this many packages or
// bytes of source (the first model is always built). An input must be
// checked in less than 10 s, or the fuzzing engine takes its process for
// deadlocked (Go 1.26's internal/fuzz) and reports a crash. A go build costs
// about 0.6 s, 30 ms a package and 1.2 ms a kilobyte of source with two
// cores; fuzzing with two processes on two cores, inputs of 30 packages
// took 3.3 s on average, 7.3 s at worst, generation included, which is why
// the budget is smaller.
const (
	maxPackages = 24
	maxSource   = 500_000
)

// warmUp builds and runs one small package as the fuzzed ones are built:
// the first such build compiles the standard packages that the driver
// imports, which takes a minute on a cold build cache, far beyond the
// fuzzing engine's 10 s per input. Every fuzzing process runs it before it
// fuzzes.
func warmUp(f *testing.F) {
	mod, err := harness.NewModule(f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	mod.Trimpath = true
	files, err := codegen.Generate(obliqueStump(), codegen.Options{Package: "warm", Precision: codegen.Float32, OmitVersion: true})
	if err != nil {
		f.Fatal(err)
	}
	if err := gentest.WritePackage(mod, "warm", files); err != nil {
		f.Fatal(err)
	}
	if err := mod.Add("warm", [][]float64{{1, 2}}, harness.Options{Check: true}); err != nil {
		f.Fatal(err)
	}
	if _, err := mod.Run(context.Background()); err != nil {
		f.Fatal(err)
	}
}

// fuzzPackage is a generated package of a fuzzed model.
type fuzzPackage struct {
	name    string
	c       *fuzzmodel.Case
	index   int    // of c among the input's cases
	backend string // "smoothstep prune 0.5" for pruned code
	prec    ir.Precision
	model   *ir.Model // the model the package computes exactly
	files   []codegen.File
}

// checkBackends generates the packages of cases, builds and checks those
// of the models that the budget allows, and checks the interpreter on all
// of them.
func checkBackends(t *testing.T, cases []fuzzmodel.Case) {
	var pkgs []*fuzzPackage
	failed := map[int]bool{} // cases whose model a message should show
	defer func() {
		for i := range cases {
			if failed[i] {
				logModel(t, &cases[i])
			}
		}
	}()
	start := time.Now()
	built, rows, size := 0, 0, 0
	for i := range cases {
		c := &cases[i]
		if err := checkInterpreter(c); err != nil {
			t.Errorf("%s: the interpreter: %v", c.Name(), err)
			failed[i] = true
		}
		if len(pkgs) >= maxPackages || size >= maxSource {
			continue // nothing more fits
		}
		ps, err := generateAll(c, i)
		if err != nil {
			t.Errorf("%s: %v", c.Name(), err)
			failed[i] = true
		}
		n := 0
		for _, p := range ps {
			for _, f := range p.files {
				n += len(f.Data)
			}
		}
		if i > 0 && (len(pkgs)+len(ps) > maxPackages || size+n > maxSource) {
			continue // over budget: only the interpreter checks it
		}
		pkgs, size, built, rows = append(pkgs, ps...), size+n, built+1, rows+len(c.Rows)
	}

	gen := time.Since(start)
	mod, err := harness.NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mod.Trimpath = true
	for _, p := range pkgs {
		if err := gentest.WritePackage(mod, p.name, p.files); err != nil {
			t.Fatal(err)
		}
		if err := mod.Add(p.name, p.c.Rows, harness.Options{Check: true}); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	results, err := mod.Run(ctx)
	if err != nil {
		// A package that does not compile, or that crashes the driver:
		// the go command's or the driver's output names it.
		for _, p := range pkgs {
			failed[p.index] = true
		}
		t.Fatalf("%d packages of %d models: %v", len(pkgs), built, err)
	}
	t.Logf("%d models of %d built: %d packages, %d KB, %d rows: go build %v, run %v", built, len(cases), len(pkgs), size>>10, rows,
		mod.BuildTime.Round(time.Millisecond), mod.RunTime.Round(time.Millisecond))
	if path := os.Getenv("TREEGEN_FUZZ_STATS"); path != "" {
		if f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644); err == nil {
			fmt.Fprintf(f, "%d %d %d %d %d %d %d %d\n", len(cases), built, len(pkgs), rows, size,
				gen.Milliseconds(), mod.BuildTime.Milliseconds(), time.Since(start).Milliseconds())
			f.Close()
		}
	}
	for k, p := range pkgs {
		if !comparePackage(t, p, results[k]) {
			failed[p.index] = true
		}
	}
}

// generateAll generates the packages of case c, the i-th model of the
// input: every backend that accepts the model, in each precision of the
// case, and pruned smoothstep code when the case asks. It checks what the
// backends say of the model against each other and that auto gives the
// code of the backend it picks (in the case's first precision).
func generateAll(c *fuzzmodel.Case, i int) ([]*fuzzPackage, error) {
	m := c.Model
	var pkgs []*fuzzPackage
	byBackend := map[string][]*fuzzPackage{}
	for _, b := range codegen.Backends() {
		if b.Check(m) != nil {
			if b.Suited(m) {
				return nil, fmt.Errorf("%s: suited to a model it does not compile: %v", b.Name(), b.Check(m))
			}
			continue
		}
		variants := []codegen.BackendOptions{nil}
		if b.Name() == smoothstep.Name && c.Prune > 0 {
			variants = append(variants, &smoothstep.Options{Prune: c.Prune})
		}
		for v, opts := range variants {
			for _, prec := range c.Precisions {
				p := &fuzzPackage{name: fmt.Sprintf("m%02d%s%d", i, b.Name(), prec.BitSize()), c: c, index: i, backend: b.Name(), prec: prec, model: m}
				if opts != nil {
					p.name = fmt.Sprintf("m%02d%sprune%d", i, b.Name(), prec.BitSize())
					p.backend = b.Name() + " " + opts.String()
					p.model, _ = opts.Effective(m)
				}
				files, err := codegen.Generate(m, codegen.Options{Package: p.name, Backend: b.Name(), BackendOptions: opts,
					Precision: prec, OmitVersion: true})
				if err != nil {
					return nil, fmt.Errorf("%s accepts the model but cannot generate it in %s: %v", p.backend, prec, err)
				}
				if err := gentest.CheckImports(files); err != nil {
					return nil, fmt.Errorf("%s, %s: %v", p.backend, prec, err)
				}
				p.files = files
				pkgs = append(pkgs, p)
				if v == 0 {
					byBackend[b.Name()] = append(byBackend[b.Name()], p)
				}
			}
		}
	}
	// auto: the source of the backend it picks, but for the header lines
	// that say why, or an error when no backend compiles the model.
	want, err := codegen.AutoBackend(m)
	for _, prec := range c.Precisions[:1] { // generation costs too
		var pick *fuzzPackage
		name := fmt.Sprintf("m%02dauto%d", i, prec.BitSize())
		if err == nil {
			for _, p := range byBackend[want.Name()] {
				if p.prec == prec {
					pick = p
				}
			}
			if pick == nil {
				return nil, fmt.Errorf("auto picks %s, which does not accept the model", want.Name())
			}
			name = pick.name
		}
		files, gerr := codegen.Generate(m, codegen.Options{Package: name, Backend: codegen.Auto, Precision: prec, OmitVersion: true})
		switch {
		case err != nil && gerr == nil:
			return nil, fmt.Errorf("auto generates code for a model that no backend is suited to (%v)", err)
		case err != nil && !strings.HasPrefix(gerr.Error(), "no backend compiles this model"):
			return nil, fmt.Errorf("auto: %v", gerr)
		case err == nil && gerr != nil:
			return nil, fmt.Errorf("auto, %s: %v", prec, gerr)
		case err == nil && !bytes.Equal(codegen.StripAutoLines(gentest.Source(files)), codegen.StripAutoLines(gentest.Source(pick.files))):
			return nil, fmt.Errorf("auto, %s: the source differs from that of %s, the backend it picks, beyond the lines on auto", prec, want.Name())
		}
	}
	return pkgs, nil
}

// comparePackage reports what package p computed wrong, res being its
// results: the problems of its entry points, and its differences from the
// interpreter. It returns false when it reports any.
func comparePackage(t *testing.T, p *fuzzPackage, res *harness.Result) bool {
	t.Helper()
	ok := true
	for _, pr := range res.Problems {
		t.Errorf("%s, %s %s (package %s): %s", p.c.Name(), p.backend, p.prec, p.name, pr)
		ok = false
	}
	want, err := harness.Interpret(p.model, p.c.Rows, p.prec)
	if err != nil {
		t.Errorf("%s: the interpreter: %v", p.c.Name(), err)
		return false
	}
	diffs := harness.Differences(res, want)
	for i, d := range diffs {
		if i == 2 {
			t.Errorf("%s, %s %s: %d differences in all", p.c.Name(), p.backend, p.prec, len(diffs))
			break
		}
		t.Errorf("%s, %s %s (package %s): row %d %s: %s = %v (bits %#x), interpreter %v (bits %#x)",
			p.c.Name(), p.backend, p.prec, p.name, d.Row, rowString(p.c.Rows[d.Row]), d.What,
			d.Got, math.Float64bits(d.Got), d.Want, math.Float64bits(d.Want))
		ok = false
	}
	return ok
}

// rowString writes a row with each value exactly: %v, and the bits of the
// values that %v rounds.
func rowString(row []float64) string {
	parts := make([]string, len(row))
	for j, v := range row {
		parts[j] = fmt.Sprint(v)
		if s := fmt.Sprint(v); s != "NaN" && !strings.Contains(s, "Inf") && len(s) > 12 {
			parts[j] = fmt.Sprintf("%v (%#x)", v, math.Float64bits(v))
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// logModel logs the model of c, when it is small enough to read.
func logModel(t *testing.T, c *fuzzmodel.Case) {
	t.Helper()
	if data, err := ir.Marshal(c.Model); err == nil && len(data) < 30000 {
		t.Logf("%s: model:\n%s", c.Name(), data)
	} else {
		t.Logf("%s: model of %d bytes", c.Name(), len(data))
	}
}

// checkInterpreter checks that the interpreter's PredictBatch gives what
// Predict gives, row by row, in each precision of c.
func checkInterpreter(c *fuzzmodel.Case) error {
	for _, prec := range c.Precisions {
		want, err := harness.Interpret(c.Model, c.Rows, prec)
		if err != nil {
			return err
		}
		var got [][]float64
		if prec.Is32() {
			got, err = predictBatch[float32](c.Model, c.Rows)
		} else {
			got, err = predictBatch[float64](c.Model, c.Rows)
		}
		if err != nil {
			return err
		}
		diffs := harness.Differences(&harness.Result{Preds: got}, &harness.Result{Preds: want.Preds})
		if len(diffs) > 0 {
			d := diffs[0]
			return fmt.Errorf("%s: PredictBatch differs from Predict in %d values, first row %d %s: %s = %v, Predict %v",
				prec, len(diffs), d.Row, rowString(c.Rows[d.Row]), d.What, d.Got, d.Want)
		}
	}
	return nil
}

// predictBatch returns the interpreter's predictions of rows by
// PredictBatch, in precision F, widened to float64.
func predictBatch[F runtime.Float](m *ir.Model, rows [][]float64) ([][]float64, error) {
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	x := make([]F, 0, len(rows)*m.NumFeatures)
	for _, r := range rows {
		for _, v := range r {
			x = append(x, F(v))
		}
	}
	out := make([]F, len(rows)*m.NumOutputs)
	if err := p.PredictBatch(x, out, false); err != nil {
		return nil, err
	}
	got := make([][]float64, len(rows))
	for i := range got {
		for _, v := range out[i*m.NumOutputs : (i+1)*m.NumOutputs] {
			got[i] = append(got[i], float64(v))
		}
	}
	return got, nil
}
