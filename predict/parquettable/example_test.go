package parquettable_test

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/predict"
	"github.com/treegen/treegen/predict/parquettable"
)

// Predictions of a stump written as a Parquet file, then read back.
func ExampleWrite() {
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Binary,
		NumFeatures: 1, FeatureNames: []string{"income"},
		NumOutputs: 1, ClassNames: []string{"no", "yes"},
		Aggregation: ir.Sum, Link: ir.Sigmoid,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 0, Threshold: 0.5, Left: 1, Right: 2, DefaultLeft: true},
			{Kind: ir.Leaf, Value: []float64{-1}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}}},
	}
	s, err := data.OpenStream(strings.NewReader("income\n0.2\n0.9\n"), "rows.csv", data.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	t, err := predict.Outputs(m, false, ir.Float64)
	if err != nil {
		fmt.Println(err)
		return
	}
	var buf bytes.Buffer
	if err := parquettable.Write(&buf, t, s); err != nil {
		fmt.Println(err)
		return
	}
	d, err := data.Read(bytes.NewReader(buf.Bytes()), "p.parquet", data.Options{Target: "class"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(parquettable.IsName("p.parquet"), d.Features, d.Rows)
	for i := 0; i < d.Rows; i++ {
		fmt.Printf("%.4f %s\n", d.Row(i)[0], d.LabelName(d.Y[i]))
	}
	// Output:
	// true [p_yes] 2
	// 0.2689 no
	// 0.7311 yes
}
