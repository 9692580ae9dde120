package cart

import (
	"math"
	"slices"
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// TestInterpreterAgrees checks the trained trees against treegen's
// interpreter, the executable definition of the IR: for every training row
// (missing values and infinities included) and for rows at and around every
// threshold, the interpreter returns the value of the leaf this package's
// own tree walk reaches.
func TestInterpreterAgrees(t *testing.T) {
	for _, tt := range []struct {
		name    string
		c       Criterion
		classes int
	}{{"binary", Gini, 2}, {"multiclass", Entropy, 4}, {"regression", MSE, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			d := randomData(11, 600, 4, tt.classes, 0.1)
			for r := 0; r < d.Rows; r += 37 {
				d.Row(r)[r%d.Cols] = math.Inf(1 - 2*(r%2))
			}
			m, err := Train(d, Options{Criterion: tt.c, MaxDepth: 9})
			if err != nil {
				t.Fatal(err)
			}
			p, err := runtime.New[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			rows := make([][]float64, 0, d.Rows)
			for r := range d.Rows {
				rows = append(rows, d.Row(r))
			}
			for _, n := range m.Trees[0].Nodes {
				if n.Kind != ir.Axis {
					continue
				}
				for _, v := range []float64{n.Threshold, math.Nextafter(n.Threshold, math.Inf(-1)), math.Nextafter(n.Threshold, math.Inf(1))} {
					x := slices.Clone(d.Row(0))
					x[n.Feature] = v
					rows = append(rows, x)
				}
			}
			out := make([]float64, m.NumOutputs)
			for i, x := range rows {
				if err := p.Predict(x, out); err != nil {
					t.Fatal(err)
				}
				if want := leafValue(m, x); !slices.Equal(out, want) {
					t.Fatalf("row %d %v: interpreter %v, tree walk %v", i, x, out, want)
				}
			}
		})
	}
}
