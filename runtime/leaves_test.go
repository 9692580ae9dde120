package runtime

import (
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// refLeaves walks each tree of m, all of them hard, to its leaf for row x,
// on the IR itself, with the reference evaluator's tests (soft nodes with
// γ = 0 go left iff their margin is > 0).
func refLeaves[F Float](m *ir.Model, x []F) []int {
	xp := make([]F, len(x))
	copy(xp, x)
	if a := m.Preprocess; a != nil {
		for j := range xp {
			xp[j] = (x[j] - F(a.Shift[j])) * F(a.Scale[j])
		}
	}
	out := make([]int, len(m.Trees))
	for ti := range m.Trees {
		t := &m.Trees[ti]
		i := 0
		for t.Nodes[i].IsSplit() {
			n := &t.Nodes[i]
			var left bool
			if n.Kind == ir.Soft {
				v := refDot(n.Indices, n.Weights, n.Bias, xp)
				left = v > 0 || (v != v && n.DefaultLeft)
			} else {
				left = refLeft(m, n, xp)
			}
			if left {
				i = n.Left
			} else {
				i = n.Right
			}
		}
		out[ti] = i
	}
	return out
}

// singleLeaf reports whether every tree of m sends a row to one leaf.
func singleLeaf(m *ir.Model) bool {
	for _, t := range m.Trees {
		if t.Latent {
			return false
		}
		for _, n := range t.Nodes {
			if n.Kind == ir.Soft && n.Gamma != 0 {
				return false
			}
		}
	}
	return true
}

// checkLeaves checks PredictLeaves in both layouts against refLeaves, and
// that the leaves' values add up to the margin for models whose trees have
// constant leaves and are summed.
func checkLeaves[F Float](t *testing.T, m *ir.Model, rows [][]float64, layouts map[treeKind]int) {
	t.Helper()
	fast, err := New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := build[F](m, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range fast.trees {
		layouts[tr.kind]++
	}
	leaves := make([]int, len(m.Trees))
	margin := make([]F, m.NumOutputs)
	for _, p := range []*Predictor[F]{fast, gen} {
		if p.NumTrees() != len(m.Trees) {
			t.Fatalf("NumTrees = %d, want %d", p.NumTrees(), len(m.Trees))
		}
		if !p.HardTrees() {
			t.Fatalf("%s: HardTrees is false", m.Name)
		}
		for ri, row := range rows {
			x := toF[F](row)
			if err := p.PredictLeaves(x, leaves); err != nil {
				t.Fatal(err)
			}
			want := refLeaves(m, x)
			for i := range want {
				if leaves[i] != want[i] {
					t.Fatalf("%s row %d %v: tree %d: leaf %d, reference %d", m.Name, ri, row, i, leaves[i], want[i])
				}
			}
			if m.Aggregation != ir.Sum || m.Readout != nil || hasSoftmaxLeaf(m) {
				continue
			}
			// The leaves' values, added as ir/doc.go says, are the margin.
			acc := make([]F, m.NumOutputs)
			for k := range acc {
				acc[k] = F(m.Base(k))
				if m.Float32Sum {
					acc[k] = F(float32(m.Base(k)))
				}
			}
			for i, tr := range m.Trees {
				v := tr.Nodes[leaves[i]].Value
				for k := range acc {
					if tr.Output >= 0 && k != tr.Output {
						continue
					}
					val := F(v[0])
					if tr.Output < 0 {
						val = F(v[k])
					}
					if tr.HasSoft() {
						val = 0 + val // a soft tree's value is a sum from 0: -0 becomes +0
					}
					if m.Float32Sum {
						acc[k] = F(float32(acc[k]) + float32(val))
					} else {
						acc[k] += val
					}
				}
			}
			if err := p.PredictMargin(x, margin); err != nil {
				t.Fatal(err)
			}
			for k := range acc {
				if !bitsEqual(acc[k], margin[k]) {
					t.Fatalf("%s row %d: the leaves add up to margin[%d] = %v, PredictMargin %v", m.Name, ri, k, acc[k], margin[k])
				}
			}
		}
	}
}

func hasSoftmaxLeaf(m *ir.Model) bool {
	for _, t := range m.Trees {
		for _, n := range t.Nodes {
			if n.Kind == ir.SoftmaxLeaf {
				return true
			}
		}
	}
	return false
}

func TestPredictLeaves(t *testing.T) {
	kinds := []struct {
		name  string
		opts  randmodel.Options
		seeds uint64
	}{
		{"axis", randmodel.Options{AxisOnly: true, Float32Sum: true}, 0},
		{"axis many", randmodel.Options{AxisOnly: true, Trees: 12, MaxDepth: 5}, 0}, // perfect layout
		{"axis full", randmodel.Options{AxisOnly: true, Trees: 9, Full: true, MaxDepth: 4}, 0},
		{"tricky axis", randmodel.Options{AxisOnly: true, Tricky: true, Trees: 8}, 0},
		{"oblique", randmodel.Options{Oblique: 0.5, SoftmaxLeaf: 0.3, Float32Sum: true}, 0},
		{"categorical", randmodel.Options{Categorical: 0.5}, 0},
		{"tricky", randmodel.Options{Tricky: true, Oblique: 0.3, Categorical: 0.3, Soft: 0.2, Gammas: []float64{0}}, 0},
		{"soft gamma 0", randmodel.Options{Soft: 0.7, Oblique: 0.1, SoftmaxLeaf: 0.2, Gammas: []float64{0}}, 0},
		{"deep", randmodel.Options{AxisOnly: true, MinDepth: 10, MaxDepth: 14, Trees: 3}, 10},
	}
	checked := 0
	layouts := map[treeKind]int{}
	for _, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) {
			seeds := kind.seeds
			if seeds == 0 {
				seeds = 100
			}
			for seed := uint64(1); seed <= seeds; seed++ {
				m := randmodel.Model(seed, kind.opts)
				if !singleLeaf(m) {
					continue
				}
				rows := randmodel.Rows(seed, 30, m.NumFeatures)
				rows = append(rows, randmodel.Inputs(seed, 30, m.NumFeatures, nil)...)
				checkLeaves[float64](t, m, rows, layouts)
				checkLeaves[float32](t, m, rows, layouts)
				checked++
			}
		})
	}
	if checked < 500 {
		t.Errorf("only %d models checked", checked)
	}
	for _, k := range []treeKind{fastTree, perfTree, hardTree, softTree} {
		if layouts[k] < 100 {
			t.Errorf("only %d trees of kind %d checked", layouts[k], k)
		}
	}
}

func TestPredictLeavesErrors(t *testing.T) {
	soft := randmodel.Model(3, randmodel.Options{Soft: 1, Gammas: []float64{1}, Trees: 3})
	latent := randmodel.Model(3, randmodel.Options{Oblique: 0.5, Latent: true})
	for name, m := range map[string]*ir.Model{"soft": soft, "latent": latent} {
		p, err := New[float64](m)
		if err != nil {
			t.Fatal(err)
		}
		if p.HardTrees() {
			t.Errorf("%s: HardTrees is true", name)
		}
		err = p.PredictLeaves(make([]float64, m.NumFeatures), make([]int, p.NumTrees()))
		if !errors.Is(err, ErrNotHard) {
			t.Errorf("%s: %v, want ErrNotHard", name, err)
		}
		t.Logf("%s: %v", name, err)
	}
	if err := soft.Validate(); err != nil {
		t.Fatal(err)
	}
	p, _ := New[float64](soft)
	want := "runtime: leaf indices need hard trees: tree 0 has a soft node with gamma > 0, which sends a row to several leaves"
	if err := p.PredictLeaves(nil, nil); err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	m := randmodel.Model(5, randmodel.Options{AxisOnly: true, Trees: 4})
	p, err := New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]float64, m.NumFeatures)
	if err := p.PredictLeaves(x[1:], make([]int, 4)); err != ErrFeatureCount {
		t.Errorf("short row: %v", err)
	}
	if err := p.PredictLeaves(x, make([]int, 3)); err != ErrOutputSize {
		t.Errorf("short leaves: %v", err)
	}
}

func TestPredictLeavesNoAllocations(t *testing.T) {
	kinds := map[string]randmodel.Options{
		"axis":    {AxisOnly: true, Trees: 20},
		"tricky":  {AxisOnly: true, Tricky: true, Trees: 6},
		"oblique": {Oblique: 0.5, SoftmaxLeaf: 0.5, Trees: 20},
		"soft":    {Soft: 0.8, Trees: 5, Gammas: []float64{0}},
	}
	for _, name := range []string{"axis", "tricky", "oblique", "soft"} {
		for seed := uint64(1); seed <= 5; seed++ {
			m := randmodel.Model(seed, kinds[name])
			p64, p32 := mustNew[float64](t, m), mustNew[float32](t, m)
			x := randmodel.Rows(1, 1, m.NumFeatures)[0]
			x32 := toF[float32](x)
			leaves := make([]int, len(m.Trees))
			if err := p64.PredictLeaves(x, leaves); err != nil {
				t.Fatal(err)
			}
			if n := testing.AllocsPerRun(100, func() { p64.PredictLeaves(x, leaves) }); n != 0 {
				t.Errorf("%s seed %d: PredictLeaves allocates %v times per row", name, seed, n)
			}
			if n := testing.AllocsPerRun(100, func() { p32.PredictLeaves(x32, leaves) }); n != 0 {
				t.Errorf("%s seed %d: float32 PredictLeaves allocates %v times per row", name, seed, n)
			}
		}
	}
}

func mustNew[F Float](t *testing.T, m *ir.Model) *Predictor[F] {
	t.Helper()
	p, err := New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func ExamplePredictor_PredictLeaves() {
	// Two stumps on x0 and x1; NaN follows the default direction.
	stump := func(f int, defaultLeft bool) ir.Tree {
		return ir.Tree{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: f, Threshold: 0.5, Left: 1, Right: 2, DefaultLeft: defaultLeft},
			{Kind: ir.Leaf, Value: []float64{-1}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}}
	}
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 2, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity,
		Trees: []ir.Tree{stump(0, true), stump(1, false)},
	}
	p, err := New[float64](m)
	if err != nil {
		panic(err)
	}
	leaves := make([]int, p.NumTrees())
	for _, x := range [][]float64{{0, 0}, {1, 0}, {math.NaN(), math.NaN()}} {
		if err := p.PredictLeaves(x, leaves); err != nil {
			panic(err)
		}
		fmt.Println(x, "->", leaves)
	}
	// Output:
	// [0 0] -> [1 1]
	// [1 0] -> [2 1]
	// [NaN NaN] -> [1 2]
}
