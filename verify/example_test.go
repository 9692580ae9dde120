package verify_test

import (
	"fmt"
	"strings"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/verify"
)

// regression returns a model of one feature whose prediction is low when
// x < 0.5, else high.
func regression(low, high float64) *ir.Model {
	return &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 0, Threshold: 0.5, Left: 1, Right: 2},
			{Kind: ir.Leaf, Value: []float64{low}},
			{Kind: ir.Leaf, Value: []float64{high}},
		}}},
	}
}

func ExampleMeasure() {
	exact, approx := regression(1, 2), regression(1, 2.00213)
	rows := [][]float64{{0}, {0.7}, {0.9}}
	dev, err := verify.Measure(exact, approx, rows, ir.Float64)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(dev.Sentence(len(rows), "rows.tsv", false))
	// Output:
	// On the 3 rows of rows.tsv, predictions are at most 0.0022 from the interpreter's.
}

func ExampleUpperBound() {
	for _, v := range []float64{0.0021, 0.00213, 99.01, 1.234e-12} {
		fmt.Println(verify.UpperBound(v))
	}
	// Output:
	// 0.0021
	// 0.0022
	// 100
	// 1.3e-12
}

func ExampleExpected_Compare() {
	m := regression(1.0/3, 2)
	// Predictions as a library computing in float32 writes them: no
	// header line, nine significant digits.
	e, err := verify.ParseExpected(strings.NewReader("0.333333343\n2\n"), "pred.csv", m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("header:", e.Header, "rows:", len(e.Rows), "compares:", e.What())
	// The predictions of a float64 package.
	preds := [][]float64{{1.0 / 3}, {2}}
	fmt.Println(e.Compare("package p", preds, nil, ir.Float64))
	// The predictions of a float32 package, widened to float64.
	preds = [][]float64{{float64(float32(1.0 / 3))}, {2}}
	fmt.Println(e.Compare("package p", preds, nil, ir.Float32))
	// Output:
	// header: false rows: 2 compares: predictions
	// package p differs from pred.csv: row 0: prediction[0] = 0.3333333333333333 (generated), 0.333333343 (pred.csv); the package is float64 and the expected values look float32: regenerate it with --precision float32
	// <nil>
}

func ExampleParseExpected() {
	// XGBoost's multi:softmax predicts class ids: one column.
	m := &ir.Model{Task: ir.Multiclass, NumFeatures: 1, NumOutputs: 3}
	e, err := verify.ParseExpected(strings.NewReader("0\n2\n1\n"), "pred.csv", m)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(e.What(), e.Rows)
	// Output:
	// predicted classes [[0] [2] [1]]
}
