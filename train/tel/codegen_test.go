package tel_test

import (
	"context"
	"math"
	"os/exec"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/harness"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/tel"
)

// TestGeneratedEqualsInterpreter trains a model on 70% of a real data set,
// compiles it with the smoothstep backend and checks that the generated
// package predicts every held-out row exactly as the interpreter does, in
// both precisions: the trainer's output goes through the whole pipeline.
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
	opts := tel.DefaultOptions(tel.Logistic)
	opts.Depth, opts.Epochs, opts.LearningRate = 6, 20, 0.05
	m, err := tel.Train(d.Subset(trainRows), nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	test := d.Subset(testRows)
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
		files, err := codegen.Generate(m, codegen.Options{Package: "bcw", Backend: "smoothstep", Precision: prec})
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
