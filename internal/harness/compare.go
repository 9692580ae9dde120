package harness

import (
	"fmt"
	"math"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// Diff is one disagreement between the generated package and the interpreter.
type Diff struct {
	Row       int
	What      string // "margin[k]", "prediction[k]" or "class"
	Got, Want float64
}

func (d Diff) String() string {
	return fmt.Sprintf("row %d: %s = %v (generated), %v (interpreter)", d.Row, d.What, d.Got, d.Want)
}

// Compare runs rows through the interpreter for m, in the precision of the
// generated package, and returns every disagreement with res, bit for bit
// (any two NaNs are equal).
func Compare(m *ir.Model, rows [][]float64, res *Result, single bool) ([]Diff, error) {
	if single {
		return compare[float32](m, rows, res)
	}
	return compare[float64](m, rows, res)
}

func compare[F runtime.Float](m *ir.Model, rows [][]float64, res *Result) ([]Diff, error) {
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	var diffs []Diff
	x := make([]F, m.NumFeatures)
	out := make([]F, m.NumOutputs)
	for i, row := range rows {
		for j, v := range row {
			x[j] = F(v)
		}
		p.PredictMargin(x, out)
		for k, v := range out {
			if !same(float64(v), res.Margins[i][k]) {
				diffs = append(diffs, Diff{i, fmt.Sprintf("margin[%d]", k), res.Margins[i][k], float64(v)})
			}
		}
		p.Predict(x, out)
		for k, v := range out {
			if !same(float64(v), res.Preds[i][k]) {
				diffs = append(diffs, Diff{i, fmt.Sprintf("prediction[%d]", k), res.Preds[i][k], float64(v)})
			}
		}
		if res.Classes != nil {
			c, _ := p.PredictClass(x)
			if c != res.Classes[i] {
				diffs = append(diffs, Diff{i, "class", float64(res.Classes[i]), float64(c)})
			}
		}
	}
	return diffs, nil
}

func same(a, b float64) bool {
	if math.IsNaN(a) && math.IsNaN(b) {
		return true
	}
	return math.Float64bits(a) == math.Float64bits(b)
}
