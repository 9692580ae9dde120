package lightgbm

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// TestRounds checks the round size of every test model, with and without
// average_output, and that FirstRounds(n) predicts what LightGBM's
// num_iteration=n does (the reference evaluator on the first n iterations'
// trees), bit for bit.
func TestRounds(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) < 6 {
		t.Fatalf("test models: %v %v", files, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		for _, average := range []bool{false, true} {
			text := string(readTestdata(t, name))
			if average {
				text = strings.Replace(text, "feature_names=", "average_output\nfeature_names=", 1)
			}
			data := []byte(text)
			m, err := Decode(data, name)
			if err != nil {
				t.Fatal(err)
			}
			ref := parseRef(t, data)
			// Only a forest of several outputs needs the field: the IR's
			// default says num_tree_per_iteration for summed models.
			wantField := 0
			if average && ref.perIter > 1 {
				wantField = ref.perIter
			}
			if m.TreesPerRound != wantField || m.RoundSize() != ref.perIter || m.Rounds() != len(ref.trees)/ref.perIter {
				t.Errorf("%s (average %v): trees_per_round %d, RoundSize %d, Rounds %d; want %d, %d, %d",
					name, average, m.TreesPerRound, m.RoundSize(), m.Rounds(), wantField, ref.perIter, len(ref.trees)/ref.perIter)
			}
			if v := m.MinFormatVersion(); m.FormatVersion != v {
				t.Errorf("%s: format version %s, want %s", name, m.FormatVersion, v)
			}
			rows := testRows(ref, m.NumFeatures, 500, 7)
			for n := 1; n <= m.Rounds(); n++ {
				c, err := m.FirstRounds(n)
				if err != nil {
					t.Fatal(err)
				}
				cut := *ref
				cut.trees = ref.trees[:n*ref.perIter]
				p, err := runtime.New[float64](c)
				if err != nil {
					t.Fatal(err)
				}
				got := make([]float64, c.NumOutputs)
				for _, x := range rows {
					p.PredictMargin(x, got)
					for k, w := range cut.predictRaw(x) {
						if !same(got[k], w) && got[k] != w { // ±0 aside (see the package documentation)
							t.Fatalf("%s (average %v): FirstRounds(%d): row %v: margin[%d] = %v, LightGBM %v", name, average, n, x, k, got[k], w)
						}
					}
				}
			}
		}
	}
}

// TestLeafIndices checks that the IR leaf runtime.PredictLeaves gives for a
// tree holds the value of the LightGBM leaf that Tree::GetLeaf (the
// reference, LightGBM's pred_leaf) reaches. The numbers differ: LightGBM
// numbers leaves 0..num_leaves-1, the IR indexes nodes in pre-order.
func TestLeafIndices(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) < 6 {
		t.Fatalf("test models: %v %v", files, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		data := readTestdata(t, name)
		m, err := Decode(data, name)
		if err != nil {
			t.Fatal(err)
		}
		ref := parseRef(t, data)
		p, err := runtime.New[float64](m)
		if err != nil {
			t.Fatal(err)
		}
		leaves := make([]int, p.NumTrees())
		differ := 0
		for _, x := range testRows(ref, m.NumFeatures, 2000, 11) {
			if err := p.PredictLeaves(x, leaves); err != nil {
				t.Fatal(err)
			}
			for i, l := range leaves {
				rt := ref.trees[i]
				lgb := 0
				if rt.numLeaves > 1 {
					lgb = rt.getLeaf(x)
				}
				n := &m.Trees[i].Nodes[l]
				if n.Kind != ir.Leaf || !same(n.Value[0], rt.leafValue[lgb]) {
					t.Fatalf("%s row %v: tree %d: IR leaf %d (%v), LightGBM leaf %d (value %v)", name, x, i, l, n.Value, lgb, rt.leafValue[lgb])
				}
				if l != lgb {
					differ++
				}
			}
		}
		t.Logf("%s: IR index and LightGBM leaf number differ in %d cases", name, differ)
	}
}
