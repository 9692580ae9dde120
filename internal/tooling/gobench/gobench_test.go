package gobench_test

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/gobench"
	"github.com/treegen/treegen/ir"
)

// stumps is a binary classifier of two features: two decision stumps,
// missing values going left.
var stumps = &ir.Model{
	FormatVersion: ir.FormatVersion,
	Task:          ir.Binary,
	NumFeatures:   2,
	NumOutputs:    1,
	Aggregation:   ir.Sum,
	Link:          ir.Sigmoid,
	Trees: []ir.Tree{
		{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Left: 1, Right: 2, Feature: 0, Threshold: 2, DefaultLeft: true},
			{Kind: ir.Leaf, Value: []float64{1.5}},
			{Kind: ir.Leaf, Value: []float64{-0.5}},
		}},
		{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Left: 1, Right: 2, Feature: 1, Threshold: -1, DefaultLeft: true},
			{Kind: ir.Leaf, Value: []float64{-0.25}},
			{Kind: ir.Leaf, Value: []float64{0.75}},
		}},
	},
}

// generate writes the package of stumps in precision p into a temporary
// directory named after the package.
func generate(t *testing.T, pkg string, p codegen.Precision) string {
	t.Helper()
	files, err := codegen.Generate(stumps, codegen.Options{Package: pkg, Precision: p})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := codegen.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	return dir
}

var rows = [][]float64{{0, 0}, {3, -2}, {math.NaN(), 5}, {1, math.Inf(1)}}

func TestRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a benchmark with the go command")
	}
	for _, tc := range []struct {
		pkg  string
		prec codegen.Precision
	}{{"stumps", codegen.Float64}, {"testing", codegen.Float32}} { // a package named like an import of the benchmark file
		t.Run(tc.prec.String(), func(t *testing.T) {
			dir := generate(t, tc.pkg, tc.prec)
			res, err := gobench.Run(context.Background(), dir, rows, gobench.Options{BenchTime: 10 * time.Millisecond, Count: 2})
			if err != nil {
				t.Fatal(err)
			}
			if res.Rows != len(rows) || !(res.NsPerRow > 0) || !(res.NsPerRowBatch > 0) || res.Build <= 0 {
				t.Errorf("result %+v: want positive times", res)
			}
			if res.AllocsPerOp != 0 || res.AllocsPerOpBatch != 0 || res.AllocsPerRow() != 0 {
				t.Errorf("result %+v: generated code allocates", res)
			}
		})
	}
}

func TestRunErrors(t *testing.T) {
	if _, err := gobench.Run(context.Background(), t.TempDir(), nil, gobench.Options{}); err == nil || !strings.Contains(err.Error(), "no rows") {
		t.Errorf("no rows: %v", err)
	}
	if _, err := gobench.Run(context.Background(), t.TempDir(), rows, gobench.Options{}); err == nil || !strings.Contains(err.Error(), "no generated predictor") {
		t.Errorf("empty directory: %v", err)
	}
	dir := generate(t, "stumps", codegen.Float64)
	_, err := gobench.Run(context.Background(), dir, [][]float64{{1, 2}, {3}}, gobench.Options{})
	if err == nil || !strings.Contains(err.Error(), "row 1 has 1 values, row 0 has 2") {
		t.Errorf("ragged rows: %v", err)
	}
	if testing.Short() {
		return
	}
	_, err = gobench.Run(context.Background(), dir, [][]float64{{1, 2, 3}}, gobench.Options{BenchTime: time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "not a positive multiple of 16 (rows of 2 features)") {
		t.Errorf("rows of 3 values for 2 features: %v", err)
	}
}
