package randmodel

import (
	"math"
	"reflect"
	"testing"

	"github.com/treegen/treegen/ir"
)

// TestModels draws models of every kind of options (Model panics on an
// invalid one) and checks that a seed always makes the same model.
func TestModels(t *testing.T) {
	kinds := map[string]Options{
		"default":  {},
		"axis":     {AxisOnly: true, Float32Sum: true},
		"mixed":    {Oblique: 0.3, Soft: 0.3, Categorical: 0.2, SoftmaxLeaf: 0.3, Latent: true},
		"tricky":   {Tricky: true, MaxDepth: 8, Oblique: 0.2, Soft: 0.2, Categorical: 0.2, SoftmaxLeaf: 0.33, Float32Sum: true, Gammas: []float64{0, 1e-320, 3e38}},
		"leaves":   {Tricky: true, AxisOnly: true, Leaves: 256},
		"exactly":  {AxisOnly: true, MinLeaves: 200, Leaves: 200, Trees: 1},
		"full":     {Soft: 1, Full: true, Dense: true, MinDepth: 4, MaxDepth: 4},
		"features": {Features: 3, Task: ir.Regression, Oblique: 0.5},
	}
	for name, o := range kinds {
		empty := 0
		for seed := uint64(0); seed < 200; seed++ {
			m := Model(seed, o)
			if !reflect.DeepEqual(m, Model(seed, o)) {
				t.Fatalf("%s: seed %d makes two different models", name, seed)
			}
			if len(m.Trees) == 0 {
				empty++
			}
			if o.MinLeaves > 0 {
				if n := m.Trees[0].NumLeaves(); n != o.MinLeaves {
					t.Errorf("%s: seed %d: %d leaves, want %d", name, seed, n, o.MinLeaves)
				}
			}
		}
		if (empty > 0) != o.Tricky {
			t.Errorf("%s: %d models of 200 without trees", name, empty)
		}
	}
}

func TestInputs(t *testing.T) {
	rows := Inputs(1, 400, 3, []float64{0.125})
	if len(rows) != 400 || len(rows[0]) != 3 {
		t.Fatalf("Inputs: %d rows of %d values, want 400 of 3", len(rows), len(rows[0]))
	}
	var nan, inf, hit, next bool
	for _, r := range rows {
		for _, v := range r {
			nan = nan || math.IsNaN(v)
			inf = inf || math.IsInf(v, 0)
			hit = hit || v == 0.125
			next = next || v == math.Nextafter(0.125, 1)
		}
	}
	if !nan || !inf || !hit || !next {
		t.Errorf("Inputs: NaN %v, ±Inf %v, the value %v, its neighbour %v: want all", nan, inf, hit, next)
	}
}
