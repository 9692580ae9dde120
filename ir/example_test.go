package ir_test

import (
	"fmt"

	"github.com/treegen/treegen/ir"
)

func ExampleDecode() {
	doc := []byte(`{
  "format_version": "1.0",
  "task": "regression",
  "num_features": 1,
  "num_outputs": 1,
  "aggregation": "sum",
  "link": "identity",
  "trees": [{"output": 0, "nodes": [
    {"kind": "axis", "feature": 0, "threshold": 0.5, "left": 1, "right": 2},
    {"kind": "leaf", "value": [-1]},
    {"kind": "leaf", "value": [1]}
  ]}]
}`)
	m, err := ir.Decode(doc, "model.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(m.Validate(), len(m.Trees), m.Trees[0].Depth(), m.Trees[0].NumLeaves())
	// Output: <nil> 1 1 2
}

func ExampleModel_Validate() {
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 2, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 2, Threshold: 0.5, Left: 1, Right: 2},
			{Kind: ir.Leaf, Value: []float64{-1}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}}},
	}
	fmt.Println(m.Validate())
	// Output: trees[0].nodes[0].feature: feature 2 out of range: the model has 2 features
}

func ExampleSmoothStep() {
	for _, t := range []float64{-1, -0.25, 0, 0.25, 1} {
		fmt.Printf("S(%v) = %.5f\n", t, ir.SmoothStep(t, 1))
	}
	// Output:
	// S(-1) = 0.00000
	// S(-0.25) = 0.15625
	// S(0) = 0.50000
	// S(0.25) = 0.84375
	// S(1) = 1.00000
}

func ExampleModel_FirstRounds() {
	// Two classes boosted for three rounds, one tree per class and round:
	// the trees write outputs 0, 1, 0, 1, 0, 1.
	leaf := func(out int, v float64) ir.Tree {
		return ir.Tree{Output: out, Nodes: []ir.Node{{Kind: ir.Leaf, Value: []float64{v}}}}
	}
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Multiclass, NumFeatures: 1, NumOutputs: 2,
		Aggregation: ir.Sum, Link: ir.Softmax,
		Trees: []ir.Tree{leaf(0, 1), leaf(1, -1), leaf(0, 0.5), leaf(1, -0.5), leaf(0, 0.25), leaf(1, -0.25)},
	}
	fmt.Println(m.Rounds(), "rounds of", m.RoundSize(), "trees")
	first, err := m.FirstRounds(2) // XGBoost's iteration_range=(0, 2), LightGBM's num_iteration=2
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(first.Trees), "trees kept,", len(m.Trees), "in the original")
	_, err = m.FirstRounds(4)
	fmt.Println(err)
	// Output:
	// 3 rounds of 2 trees
	// 4 trees kept, 6 in the original
	// FirstRounds(4): out of range: the model has 3 rounds of 2 trees (6 trees), so n must be in 1..3
}

// ExampleModel_SetPositiveClass makes a binary model score the class
// "fraud" instead of "ok": the leaves change sign, and so does the margin.
func ExampleModel_SetPositiveClass() {
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Binary, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Sigmoid,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Left: 1, Right: 2, Threshold: 100},
			{Kind: ir.Leaf, Value: []float64{1.5}},
			{Kind: ir.Leaf, Value: []float64{-2}},
		}}},
	}
	if err := m.SetClassNames([]string{"fraud", "ok"}); err != nil {
		fmt.Println(err)
	}
	if err := m.SetPositiveClass("fraud"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(m.ClassNames, m.Trees[0].Nodes[1].Value, m.Trees[0].Nodes[2].Value)
	fmt.Println(m.SetPositiveClass("chargeback"))
	// Output:
	// [ok fraud] [-1.5] [2]
	// no class "chargeback": the model's classes are "ok" and "fraud"
}
