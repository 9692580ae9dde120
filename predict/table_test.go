package predict

import (
	"bytes"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

func multiclass() *ir.Model {
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Multiclass, NumFeatures: 1, NumOutputs: 3,
		ClassNames: []string{"a,b", `say "hi"`, "c"}, Aggregation: ir.Sum, Link: ir.Softmax,
	}
	for k := range 3 {
		m.Trees = append(m.Trees, ir.Tree{Output: k, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 0, Threshold: float64(k), Left: 1, Right: 2},
			{Kind: ir.Leaf, Value: []float64{0}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}})
	}
	return m
}

func TestWriteCSV(t *testing.T) {
	soft := multiclass()
	soft.Trees[0].Nodes[0] = ir.Node{Kind: ir.Soft, Indices: []int{0}, Weights: []float64{1}, Gamma: 1, Left: 1, Right: 2}
	tests := []struct {
		name  string
		table func() (*Table, error)
		want  string
	}{
		{"classes quoted", func() (*Table, error) { return Outputs(multiclass(), false, ir.Float64) },
			`"p_a,b","p_say ""hi""",p_c,class` + "\n" +
				`0.3333333333333333,0.3333333333333333,0.3333333333333333,"a,b"` + "\n" +
				`0.5761168847658291,0.21194155761708544,0.21194155761708544,"a,b"` + "\n"},
		{"margins", func() (*Table, error) { return Outputs(multiclass(), true, ir.Float32) },
			`"margin_a,b","margin_say ""hi""",margin_c,class` + "\n0,0,0,\"a,b\"\n1,0,0,\"a,b\"\n"},
		{"leaves", func() (*Table, error) { return Leaves(multiclass(), ir.Float32) },
			"tree_0,tree_1,tree_2\n1,1,1\n2,1,1\n"},
		{"soft trees have no leaf", func() (*Table, error) { return Leaves(soft, ir.Float64) },
			"the model has soft or latent trees, which send a row to several leaves: leaf indices need hard trees"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			table, err := tc.table()
			if err != nil {
				if err.Error() != tc.want {
					t.Fatalf("error %v, want %q", err, tc.want)
				}
				return
			}
			s, err := data.OpenStream(strings.NewReader("x\n-1\n0.5\n"), "x.csv", data.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var b bytes.Buffer
			if err := table.WriteCSV(&b, s); err != nil {
				t.Fatal(err)
			}
			if b.String() != tc.want {
				t.Errorf("wrote\n%s\nwant\n%s", b.String(), tc.want)
			}
		})
	}
}
