package tel_test

import (
	"context"
	"math"
	"os/exec"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/tel"
)

// TestGeneratedEqualsInterpreter trains models on 70% of a real data set
// (dense; sparse, with Options.L1, compiled as level groups and as
// unrolled trees; with a projection folded in), compiles them with the
// smoothstep backend and checks that the generated package predicts every
// held-out row exactly as the interpreter does, in both precisions: the
// trainer's output goes through the whole pipeline.
func TestGeneratedEqualsInterpreter(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	d, err := data.ReadFile("testdata/breast_cancer_wisconsin.tsv.gz", data.Options{RequireTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	_, class, err := data.Classes(d.Y)
	if err != nil {
		t.Fatal(err)
	}
	trainRows, testRows := data.StratifiedSplit(class, 0.3, 1)
	for _, c := range []struct {
		name string
		edit func(*tel.Options)
		path string // the smoothstep backend's Path
	}{
		{"dense", func(*tel.Options) {}, smoothstep.PathAuto},
		{"l1/level", func(o *tel.Options) { o.L1 = 0.003 }, smoothstep.PathLevel},
		{"l1/unrolled", func(o *tel.Options) { o.L1 = 0.003 }, smoothstep.PathUnrolled},
		{"project", func(o *tel.Options) { o.Project = 8 }, smoothstep.PathAuto},
	} {
		t.Run(c.name, func(t *testing.T) {
			opts := tel.DefaultOptions(tel.Logistic)
			opts.Depth, opts.Epochs, opts.LearningRate = 6, 20, 0.05
			c.edit(&opts)
			m, err := tel.Train(d.Subset(trainRows), nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkGenerated(t, m, d.Subset(testRows), &smoothstep.Options{Path: c.path})
		})
	}
}

// checkGenerated compiles m with the smoothstep backend and its options
// bo, in both precisions, and checks that the generated package predicts
// every row of test exactly as the interpreter does.
func checkGenerated(t *testing.T, m *ir.Model, test *data.Dataset, bo *smoothstep.Options) {
	t.Helper()
	rows := make([][]float64, test.Rows)
	for r := range rows {
		rows[r] = test.Row(r)
	}
	p64, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	p32, err := runtime.New[float32](m)
	if err != nil {
		t.Fatal(err)
	}
	// margin is the interpreter's margin of row x in precision prec.
	margin := func(prec codegen.Precision, x []float64) float64 {
		if prec == codegen.Float32 {
			x32 := make([]float32, len(x))
			for j, v := range x {
				x32[j] = float32(v)
			}
			var out [1]float32
			if err := p32.PredictMargin(x32, out[:]); err != nil {
				t.Fatal(err)
			}
			return float64(out[0])
		}
		var out [1]float64
		if err := p64.PredictMargin(x, out[:]); err != nil {
			t.Fatal(err)
		}
		return out[0]
	}
	for _, prec := range []codegen.Precision{codegen.Float64, codegen.Float32} {
		files, err := codegen.Generate(m, codegen.Options{Package: "bcw", Backend: "smoothstep", Precision: prec, BackendOptions: bo})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := codegen.WriteDir(dir, files); err != nil {
			t.Fatal(err)
		}
		res, err := harness.Run(context.Background(), dir, rows, harness.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for r, x := range rows {
			want := margin(prec, x)
			if got := res.Margins[r][0]; math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s, test row %d: generated margin %v, interpreter %v", prec, r, got, want)
			}
		}
	}
}
