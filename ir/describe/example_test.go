package describe_test

import (
	"os"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/describe"
	"github.com/treegen/treegen/ir/importance"
)

// stump is a binary classifier: "yes" when income >= 0.5.
func stump() *ir.Model {
	return &ir.Model{
		FormatVersion: "1.0", Name: "stump", Task: ir.Binary,
		NumFeatures: 2, FeatureNames: []string{"age", "income"},
		NumOutputs: 1, ClassNames: []string{"no", "yes"},
		Aggregation: ir.Sum, Link: ir.Sigmoid,
		Provenance: &ir.Provenance{Producer: "hand", Params: map[string]string{"depth": "1"}},
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 1, Threshold: 0.5, Left: 1, Right: 2, DefaultLeft: true},
			{Kind: ir.Leaf, Value: []float64{-1}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}}},
	}
}

func ExampleSummary() {
	m := stump()
	if err := describe.Summary(os.Stdout, m); err != nil {
		panic(err)
	}
	// Output:
	// name         "stump"
	// format       1.0
	// task         binary (2 classes: "no", "yes")
	// features     2
	// outputs      1
	// link         sigmoid
	// aggregation  sum
	// preprocess   false
	// float32 cmp  false
	// trees        1 (depth 1 to 1, 2 leaves)
	// nodes        axis 1, leaf 2
	// producer     hand
	//   param      depth=1
	// sha256       45ad0b60f8404aa9e05c35d5a00225723f28998bfdbab207c21558ac93b86331
}

func ExampleImportance() {
	m := stump()
	if err := describe.Importance(os.Stdout, importance.Compute(m), 10); err != nil {
		panic(err)
	}
	// Output:
	// importance   1 feature by split count; gain and cover unknown: the model's splits record no statistics
	//   feature   weight
	//   income         1
}

func ExampleDot() {
	if err := describe.Dot(os.Stdout, stump()); err != nil {
		panic(err)
	}
	// Output:
	// digraph "stump" {
	//   node [shape=box, fontname="Helvetica"];
	//   subgraph cluster_0 {
	//     label="tree 0 (output 0)";
	//     t0_0 [label="income < 0.5"];
	//     t0_0 -> t0_1 [label="yes, NaN"];
	//     t0_0 -> t0_2 [label="no"];
	//     t0_1 [label="[-1]", shape=ellipse];
	//     t0_2 [label="[1]", shape=ellipse];
	//   }
	// }
}
