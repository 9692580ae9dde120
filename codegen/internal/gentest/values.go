package gentest

import (
	"testing"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// ModelValues returns the numbers of m that inputs should hit: every number
// that generated code may write as a literal (emit.ModelValues), and for
// each category c of a categorical split, c and c ± 0.5.
func ModelValues(m *ir.Model) []float64 {
	vs := emit.ModelValues(m)
	for i := range m.Trees {
		for _, n := range m.Trees[i].Nodes {
			for _, c := range n.Categories {
				vs = append(vs, float64(c), float64(c)+0.5, float64(c)-0.5)
			}
		}
	}
	return vs
}

// Inputs returns n rows for m that reach its corners (randmodel.Inputs):
// numbers of randmodel.Pool, the model's own numbers and their neighbours,
// NaN, ±Inf and random values.
func Inputs(seed uint64, m *ir.Model, n int) [][]float64 {
	return randmodel.Inputs(seed, n, m.NumFeatures, ModelValues(m))
}

// Load loads the model file at path, failing t if it cannot.
func Load(t testing.TB, path string) *ir.Model {
	t.Helper()
	m, err := ir.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
