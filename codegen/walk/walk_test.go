package walk_test

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/walk"
	"github.com/treegen/treegen/golden"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/xgboost"
)

// suite is the conformance suite of the walk backend: axis-aligned models
// of every task, link and aggregation, with trees of mixed depths up to 4
// (which always pad cheaply), perfect trees of depth 7, and many trees.
var suite = gentest.Suite{
	Backend: walk.Name,
	Golden:  []string{"testdata/nan.json", "testdata/always.json"},
	Random: []gentest.Random{
		{Name: "r", Models: 80, Short: 20, Options: randmodel.Options{
			Tricky: true, AxisOnly: true, MaxDepth: 4, Float32Sum: true}},
		{Name: "f", Models: 16, Short: 4, Options: randmodel.Options{
			Tricky: true, AxisOnly: true, Full: true, MaxDepth: 7, Trees: 11, Float32Sum: true}},
		{Name: "m", Models: 16, Short: 4, Options: randmodel.Options{
			Tricky: true, AxisOnly: true, MinDepth: 2, MaxDepth: 4, Trees: 37, Float32Sum: true}},
	},
	Constants: folded,
	Cases:     ownCases,
}

// TestConformance runs the suite that every backend passes, with
// hand-computed NaN cases, a model of several units, the axis-aligned
// golden models and XGBoost fixtures.
func TestConformance(t *testing.T) { gentest.Conformance(t, suite) }

// folded returns the thresholds of the "<=" tests of m folded into "<"
// tests in the comparison precision: the tables hold them.
func folded(m *ir.Model, _ codegen.BackendOptions, prec codegen.Precision) []float64 {
	var thrs []float64
	for _, t := range m.Trees {
		for _, n := range t.Nodes {
			if n.Kind != ir.Axis || !n.LessEqual {
				continue
			}
			if thr, always := emit.Fold(n.Threshold, true, prec.Is32() || m.Float32Compare); !always {
				thrs = append(thrs, thr)
			}
		}
	}
	return thrs
}

var nan, inf = math.NaN(), math.Inf(1)

// load loads a model of testdata.
func load(t testing.TB, name string) *ir.Model {
	return gentest.Load(t, filepath.Join("testdata", name))
}

// ownCases are hand-computed NaN cases, a model of several units, the
// axis-aligned golden models and XGBoost fixtures.
func ownCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	// nan.json: x0 < 1 (NaN left) ? 1 : (x0 <= 2 (NaN right) ? 2 : 3),
	// plus x0 < 1 (NaN right) ? 10 : (x0 < 2 (NaN left) ? 20 : 30).
	rows := [][]float64{{0}, {1}, {2}, {math.Nextafter(2, 3)}, {3}, {nan}, {inf}, {-inf}}
	cases := s.Both(t, load(t, "nan.json"), "nan", rows)
	for i := range cases {
		if cases[i].Precision == codegen.Float64 { // 2 + 2^-51 is 2 in float32
			cases[i].Margins = [][]float64{{11}, {22}, {32}, {33}, {33}, {1 + 20}, {33}, {11}}
		}
	}
	// always.json compares in float32, where x1 <= 1e39 holds for every
	// value but NaN, which goes right in tree 0 and left in tree 1.
	rows = [][]float64{{0, 0}, {1, nan}, {nan, inf}, {2, 1e39}, {nan, nan}, {inf, -inf}}
	always := s.Both(t, load(t, "always.json"), "always", rows)
	for i := range always {
		always[i].Margins = [][]float64{{11}, {110}, {11}, {12}, {110}, {12}}
	}
	cases = append(cases, always...)
	// Many trees of mixed depths: several units, runs of every length.
	many := randmodel.Model(43, randmodel.Options{Tricky: true, AxisOnly: true, MaxDepth: 4, Trees: 1300, Task: ir.Binary})
	cases = append(cases, s.Both(t, many, "many", gentest.Inputs(44, many, 40))...)
	for i := range cases {
		cases[i].Allocs = true
	}
	for _, name := range []string{"cart_binary", "cart_multiclass", "cart_regression", "axis100"} {
		gc, err := golden.Load(name, false)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, s.Both(t, gc.Model, name, gc.Inputs)...)
	}
	for _, name := range []string{"bcw_binary_d4", "churn_logitraw_d5", "houses_reg_d8", "twonorm_1000x64"} {
		m, err := xgboost.Load(filepath.Join("../../testdata/xgboost", name, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, s.Both(t, m, strings.SplitN(name, "_", 2)[0], gentest.Inputs(45, m, 60))...)
	}
	return cases
}

// TestCheck checks what the backend refuses, and why: the error of the
// shared check of axis-aligned trees and those of padding.
func TestCheck(t *testing.T) {
	// plus returns nan.json with tree 2 added.
	plus := func(tree ir.Tree) *ir.Model {
		m := load(t, "nan.json")
		m.Trees = append(m.Trees, tree)
		return m
	}
	leaf := func(v float64) ir.Node { return ir.Node{Kind: ir.Leaf, Value: []float64{v}} }
	// chain is a tree of depth d whose splits each have a leaf on their
	// left: d+1 leaves.
	chain := func(d int) ir.Tree {
		var nodes []ir.Node
		for j := 0; j < d; j++ {
			nodes = append(nodes, ir.Node{Kind: ir.Axis, Threshold: float64(j), Left: 2*j + 1, Right: 2*j + 2}, leaf(float64(j)))
		}
		return ir.Tree{Nodes: append(nodes, leaf(-1))}
	}
	cat := plus(ir.Tree{Nodes: []ir.Node{{Kind: ir.Categorical, Categories: []int{1, 2}, Left: 1, Right: 2}, leaf(1), leaf(2)}})
	act := 0.5
	latent := plus(ir.Tree{Output: ir.AllOutputs, Latent: true, Nodes: []ir.Node{{Kind: ir.Leaf, Activity: &act}}})
	latent.Readout = &ir.Readout{Weights: [][]float64{{0, 0}}, Bias: []float64{0}}
	for _, tc := range []struct {
		name string
		m    *ir.Model
		want string // "" when the backend compiles m
	}{
		{"categorical", cat, "walk backend: tree 2 has a categorical split: use the ifelse backend"},
		{"latent", latent, "walk backend: tree 2 is latent: use the ifelse backend"},
		{"chain 6", plus(chain(6)), ""},
		{"chain 7", plus(chain(7)), "walk backend: tree 2 is not for walk (8 leaves, too few for its depth 7: a perfect tree of that depth has 128, more than 4 times as many): use the quickscorer backend"},
		{"chain 13", plus(chain(13)), "walk backend: tree 2 is not for walk (13 deep, more than 12): use the quickscorer backend"},
		{"nan", load(t, "nan.json"), ""},
	} {
		if err := tc.m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err := codegen.Generate(tc.m, codegen.Options{Package: "p", Backend: walk.Name})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
		if suited := (walk.Backend{}).Suited(tc.m); suited != (tc.want == "") {
			t.Errorf("%s: Suited = %v", tc.name, suited)
		}
	}
}
