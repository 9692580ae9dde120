package gbdt_test

import (
	"fmt"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/train/gbdt"
)

func ExampleParseMonotone() {
	features := []string{"age", "income", "debt"}
	cs, err := gbdt.ParseMonotone("monotone", "income:+1,debt:-1", features)
	fmt.Println(cs, err)
	cs, err = gbdt.ParseMonotone("monotone", "(0,1,-1)", features) // XGBoost's form
	fmt.Println(cs, err)
	_, err = gbdt.ParseMonotone("monotone", "savings:+1", features)
	fmt.Println(err)
	// Output:
	// [0 1 -1] <nil>
	// [0 1 -1] <nil>
	// monotone names the feature "savings", which the data lacks (its features: age, income, debt)
}

func ExampleFeatureIndices() {
	fs, err := gbdt.FeatureIndices("categorical", "colour, size", []string{"size", "weight", "colour"})
	fmt.Println(fs, err)
	// Output:
	// [2 0] <nil>
}

func ExampleTakeWeights() {
	rows := "x\tweight\ttarget\n1\t2\t0\n2\t0.5\t1\n3\t1\t1\n"
	d, err := data.Read(strings.NewReader(rows), "rows.tsv", data.Options{Target: "target"})
	if err != nil {
		fmt.Println(err)
		return
	}
	w, d, err := gbdt.TakeWeights(d, "weight")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("weights", w, "features", d.Features)
	// Output:
	// weights [2 0.5 1] features [x]
}
