package importance_test

import (
	"fmt"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/importance"
)

// A model of two trees whose splits carry their statistics, as train/gbdt
// and the XGBoost and LightGBM importers record them.
func ExampleCompute() {
	leaf := func(v float64) ir.Node { return ir.Node{Kind: ir.Leaf, Value: []float64{v}} }
	split := func(f int, t, gain, cover float64, left, right int) ir.Node {
		return ir.Node{Kind: ir.Axis, Feature: f, Threshold: t, Gain: gain, Cover: cover, Left: left, Right: right}
	}
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Task:          ir.Regression,
		NumFeatures:   3,
		FeatureNames:  []string{"age", "income", "visits"},
		NumOutputs:    1,
		Link:          ir.Identity,
		Aggregation:   ir.Sum,
		Trees: []ir.Tree{
			{Nodes: []ir.Node{split(1, 50, 40, 100, 1, 2), leaf(-1), split(0, 30, 10, 60, 3, 4), leaf(0.5), leaf(1)}},
			{Nodes: []ir.Node{split(1, 70, 20, 100, 1, 2), leaf(-0.5), leaf(0.5)}},
		},
	}
	if err := m.Validate(); err != nil {
		fmt.Println(err)
		return
	}
	r := importance.Compute(m)
	fmt.Println("ranked by", r.RankedBy())
	for _, f := range r.Features {
		fmt.Printf("%-7s weight %d  gain %g  total_gain %g  cover %g\n", f.Name, f.Weight, f.Gain, f.TotalGain, f.Cover)
	}
	// Output:
	// ranked by total_gain
	// income  weight 2  gain 30  total_gain 60  cover 100
	// age     weight 1  gain 10  total_gain 10  cover 60
}
