package gentest

import (
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// Oracle is what the interpreter computes for some rows (values widened to
// float64; Class is -1 for models that are not classifiers).
type Oracle struct {
	Margin, Predict [][]float64
	Class           []int
}

// Interpret runs rows through the interpreter in float32 or float64.
func Interpret(t testing.TB, m *ir.Model, rows [][]float64, f32 bool) Oracle {
	t.Helper()
	if f32 {
		return interpretF[float32](t, m, rows)
	}
	return interpretF[float64](t, m, rows)
}

func interpretF[F runtime.Float](t testing.TB, m *ir.Model, rows [][]float64) Oracle {
	t.Helper()
	p, err := runtime.New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	var o Oracle
	widen := func(v []F) []float64 {
		w := make([]float64, len(v))
		for i, x := range v {
			w[i] = float64(x)
		}
		return w
	}
	for _, row := range rows {
		x := make([]F, len(row))
		for j, v := range row {
			x[j] = F(v)
		}
		mg := make([]F, m.NumOutputs)
		pr := make([]F, m.NumOutputs)
		if err := p.PredictMargin(x, mg); err != nil {
			t.Fatal(err)
		}
		if err := p.Predict(x, pr); err != nil {
			t.Fatal(err)
		}
		c := -1
		if m.IsClassifier() {
			if c, err = p.PredictClass(x); err != nil {
				t.Fatal(err)
			}
		}
		o.Margin = append(o.Margin, widen(mg))
		o.Predict = append(o.Predict, widen(pr))
		o.Class = append(o.Class, c)
	}
	return o
}
