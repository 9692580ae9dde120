package evaluate_test

import (
	"fmt"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/evaluate"
	"github.com/treegen/treegen/ir"
)

// stump is a binary classifier of classes "no" and "yes": "yes" when
// income >= 0.5, with probability sigmoid(1) = 0.73.
func stump() *ir.Model {
	return &ir.Model{
		FormatVersion: ir.FormatVersion, Name: "stump", Task: ir.Binary,
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

func ExampleDataset() {
	rows := "age\tincome\ttarget\n30\t0.2\tno\n40\t0.9\tyes\n50\t0.7\tno\n60\t0.1\tno\n"
	d, err := data.Read(strings.NewReader(rows), "people.tsv", data.Options{Target: "target", RequireTarget: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	s, err := evaluate.Dataset(stump(), d, ir.Float64)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(s)
	fmt.Printf("one line:%s\n", s.Line())
	// Output:
	// rows      4
	// accuracy  0.75
	// auc       0.833333
	// log_loss  0.563262
	// one line: accuracy 0.7500 auc 0.8333 log_loss 0.5633
}

func ExampleStream() {
	rows := "age,income,target\n30,0.2,no\n40,0.9,yes\n"
	s, err := data.OpenStream(strings.NewReader(rows), "people.csv", data.Options{Target: "target", RequireTarget: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	scores, err := evaluate.Stream(stump(), s, ir.Float32)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d rows, accuracy %.2f\n", scores.Rows, *scores.Accuracy)
	// Output:
	// 2 rows, accuracy 1.00
}

func ExampleClassMapper() {
	m := stump()
	classOf := evaluate.ClassMapper(m)
	for _, label := range []string{"yes", "maybe"} {
		c, err := classOf(label, 0, true)
		fmt.Println(c, err)
	}
	m.ClassNames = nil // classes are then the integers 0 and 1
	classOf = evaluate.ClassMapper(m)
	fmt.Println(classOf("1", 1, false))
	fmt.Println(classOf("2", 2, false))
	// Output:
	// 1 <nil>
	// 0 target maybe is not a class of the model (classes: [no yes])
	// 1 <nil>
	// 0 target 2 is not a class index 0..1
}
