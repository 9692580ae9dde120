package codegen_test

import (
	"fmt"
	"strings"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
)

// A decision stump on one feature: 1.5 if x[0] < 2, else -0.5, with
// missing values going left.
var stump = &ir.Model{
	FormatVersion: ir.FormatVersion,
	Task:          ir.Regression,
	NumFeatures:   1,
	NumOutputs:    1,
	Aggregation:   ir.Sum,
	Link:          ir.Identity,
	Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
		{Kind: ir.Axis, Left: 1, Right: 2, Feature: 0, Threshold: 2, DefaultLeft: true},
		{Kind: ir.Leaf, Value: []float64{1.5}},
		{Kind: ir.Leaf, Value: []float64{-0.5}},
	}}},
}

func ExampleGenerate() {
	files, err := codegen.Generate(stump, codegen.Options{Package: "stump", Source: "stump.json", OmitVersion: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range files {
		fmt.Println(f.Name)
	}
	// The tree function, from the tree file.
	src := string(files[1].Data)
	start := strings.Index(src, "func tree0")
	end := strings.Index(src[start:], "\n}\n") + start + 3
	fmt.Print(src[start:end])
	// Output:
	// predict.go
	// trees_000.go
	// func tree0(x *[NumFeatures]float64) float64 {
	// 	if !(x[0] >= 2) {
	// 		return 1.5
	// 	}
	// 	return -0.5
	// }
}

func ExampleGenerate_float32() {
	files, err := codegen.Generate(stump, codegen.Options{Package: "stump", Precision: codegen.Float32, OmitVersion: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	// The signatures of the API.
	for _, line := range strings.Split(string(files[0].Data), "\n") {
		if strings.HasPrefix(line, "func ") {
			fmt.Println(strings.TrimSuffix(line, " {"))
		}
	}
	// Output:
	// func Predict(x *[NumFeatures]float32) [NumOutputs]float32
	// func PredictMargin(x *[NumFeatures]float32) [NumOutputs]float32
	// func PredictSlice(x []float32) ([NumOutputs]float32, error)
	// func PredictBatch(x, out []float32) error
}

func ExampleValidPackageName() {
	for _, name := range []string{"iris", "1abc", "type"} {
		fmt.Println(name, codegen.ValidPackageName(name))
	}
	// Output:
	// iris <nil>
	// 1abc package name "1abc" is not a Go identifier
	// type package name "type" is a Go keyword
}
