package predict_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/predict"
)

// stump is a binary classifier of classes "no" and "yes": "yes" when
// income >= 0.5.
func stump() *ir.Model {
	return &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Binary,
		NumFeatures: 2, FeatureNames: []string{"age", "income"},
		NumOutputs: 1, ClassNames: []string{"no", "yes"},
		Aggregation: ir.Sum, Link: ir.Sigmoid,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 1, Threshold: 0.5, Left: 1, Right: 2, DefaultLeft: true},
			{Kind: ir.Leaf, Value: []float64{-1}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}}},
	}
}

func ExampleTable_WriteCSV() {
	rows := "age,income\n30,0.2\n40,0.9\n50,NA\n"
	for _, prec := range []ir.Precision{ir.Float64, ir.Float32} {
		s, err := data.OpenStream(strings.NewReader(rows), "rows.csv", data.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		t, err := predict.Outputs(stump(), false, prec)
		if err != nil {
			fmt.Println(err)
			return
		}
		if err := t.WriteCSV(os.Stdout, s); err != nil {
			fmt.Println(err)
		}
		s.Close()
	}
	// Output:
	// p_yes,class
	// 0.2689414213699951,no
	// 0.7310585786300049,yes
	// 0.2689414213699951,no
	// p_yes,class
	// 0.26894143,no
	// 0.7310586,yes
	// 0.26894143,no
}

func ExampleLeaves() {
	s, err := data.OpenStream(strings.NewReader("age,income\n30,0.2\n40,0.9\n"), "rows.csv", data.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	t, err := predict.Leaves(stump(), ir.Float64)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := t.WriteCSV(os.Stdout, s); err != nil {
		fmt.Println(err)
	}
	// Output:
	// tree_0
	// 1
	// 2
}

func ExampleOutputNames() {
	m := stump()
	fmt.Println(predict.OutputNames(m, false), predict.OutputNames(m, true))
	m.Task, m.ClassNames = ir.Regression, nil
	fmt.Println(predict.OutputNames(m, false), predict.OutputNames(m, true))
	// Output:
	// [p_yes] [margin_yes]
	// [output_0] [margin_0]
}
