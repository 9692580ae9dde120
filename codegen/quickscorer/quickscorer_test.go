package quickscorer_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/quickscorer"
	"github.com/treegen/treegen/golden"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/xgboost"
)

var (
	models = flag.Int("models", 0, "number of random models of TestGenerated (default 80, 20 with -short)")
	seed   = flag.Uint64("seed", 1, "seed of the random models of TestGenerated")
)

// fixtures is where the XGBoost fixtures live.
const fixtures = "../../../shared/fixtures/xgboost"

// precisions are the two working precisions, in test order.
var precisions = []codegen.Precision{codegen.Float64, codegen.Float32}

var nan, inf = math.NaN(), math.Inf(1)

func generate(t testing.TB, m *ir.Model, pkg string, prec codegen.Precision) []codegen.File {
	t.Helper()
	files, err := codegen.Generate(m, codegen.Options{Package: pkg, Backend: quickscorer.Name, Precision: prec, Source: "test", OmitVersion: true})
	if err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	return files
}

// literalModel returns a copy of m whose axis thresholds are the ones the
// generated tables hold: "<=" folded into "<" in the comparison precision.
func literalModel(m *ir.Model, f32 bool) *ir.Model {
	c := *m
	c.Trees = make([]ir.Tree, len(m.Trees))
	for i, t := range m.Trees {
		t.Nodes = append([]ir.Node(nil), t.Nodes...)
		for j := range t.Nodes {
			n := &t.Nodes[j]
			if n.Kind == ir.Axis && n.LessEqual {
				n.Threshold, _ = quickscorer.Fold(n.Threshold, true, f32 || m.Float32Compare)
				n.LessEqual = false
			}
		}
		c.Trees[i] = t
	}
	return &c
}

// buildCase is a model to build in the shared module, with what to check.
type buildCase struct {
	gentest.Case
	model *ir.Model
	// want, if set, holds expected margins (hand computed, or a fixture's).
	want [][]float64
}

func newCase(t *testing.T, m *ir.Model, name string, prec codegen.Precision, rows [][]float64) buildCase {
	t.Helper()
	files := generate(t, m, name, prec)
	f32 := prec == codegen.Float32
	if _, err := gentest.CheckLiterals(files, literalModel(m, f32), f32); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if err := gentest.CheckImports(files); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	return buildCase{
		Case: gentest.Case{
			Name: name, Files: files, Float32: f32,
			NumFeatures: m.NumFeatures, NumOutputs: m.NumOutputs, Classifier: m.IsClassifier(),
			Inputs: rows,
		},
		model: m,
	}
}

// nanModel is x0 < 1 (NaN left) ? 1 : (x0 <= 2 (NaN right) ? 2 : 3), and a
// second tree x0 < 1 (NaN right) ? 10 : (x0 < 2 (NaN left) ? 20 : 30).
func nanModel() *ir.Model {
	leaf := func(v float64) ir.Node { return ir.Node{Kind: ir.Leaf, Value: []float64{v}} }
	return &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity, Trees: []ir.Tree{
			{Output: 0, Nodes: []ir.Node{
				{Kind: ir.Axis, Feature: 0, Threshold: 1, DefaultLeft: true, Left: 1, Right: 2},
				leaf(1),
				{Kind: ir.Axis, Feature: 0, Threshold: 2, LessEqual: true, Left: 3, Right: 4},
				leaf(2), leaf(3),
			}},
			{Output: 0, Nodes: []ir.Node{
				{Kind: ir.Axis, Feature: 0, Threshold: 1, Left: 1, Right: 2},
				leaf(10),
				{Kind: ir.Axis, Feature: 0, Threshold: 2, DefaultLeft: true, Left: 3, Right: 4},
				leaf(20), leaf(30),
			}},
		}}
}

// deepTree returns a random axis tree with the given number of leaves (at
// least 1), of a random shape, in canonical (preorder) form.
func deepTree(r *rand.Rand, m *ir.Model, leaves, out int) ir.Tree {
	t := ir.Tree{Output: out}
	var grow func(n, depth int) int
	grow = func(n, depth int) int {
		i := len(t.Nodes)
		t.Nodes = append(t.Nodes, ir.Node{})
		if n == 1 {
			k := 1
			if out == ir.AllOutputs {
				k = m.NumOutputs
			}
			v := make([]float64, k)
			for c := range v {
				v[c] = gentest.Pool[r.IntN(len(gentest.Pool))]
				if r.IntN(2) == 0 {
					v[c] = math.Round(r.NormFloat64()*1000) / 256
				}
			}
			t.Nodes[i] = ir.Node{Kind: ir.Leaf, Value: v}
			return i
		}
		left := 1 + r.IntN(n-1)
		if depth > 20 { // keep within ir.MaxDepth: balance deep paths
			left = n / 2
		}
		nd := ir.Node{Kind: ir.Axis, Feature: r.IntN(m.NumFeatures), LessEqual: r.IntN(2) == 0, DefaultLeft: r.IntN(2) == 0}
		if r.IntN(3) == 0 {
			nd.Threshold = gentest.Pool[r.IntN(len(gentest.Pool))]
		} else {
			nd.Threshold = math.Round(r.NormFloat64()*64) / 32
		}
		nd.Left = grow(left, depth+1)
		nd.Right = grow(n-left, depth+1)
		t.Nodes[i] = nd
		return i
	}
	grow(leaves, 0)
	return t
}

// deepModel returns a random ensemble of trees with 2 to 256 leaves.
func deepModel(r *rand.Rand, trees int) *ir.Model {
	m := gentest.RandomModel(r, gentest.RandomOptions{MaxDepth: 1, MaxTrees: 1})
	m.Trees = nil
	for i := 0; i < trees; i++ {
		out := ir.AllOutputs
		if r.IntN(3) > 0 {
			out = r.IntN(m.NumOutputs)
		}
		n := 2 + r.IntN(255)
		if r.IntN(3) == 0 {
			n = 2 + r.IntN(30)
		}
		m.Trees = append(m.Trees, deepTree(r, m, n, out))
	}
	if m.Aggregation == ir.Mean {
		for out, n := range m.TreesPerOutput() {
			if n == 0 {
				m.Trees = append(m.Trees, deepTree(r, m, 3, out))
			}
		}
	}
	return m
}

// readCSV reads a fixture CSV, skipping its header line if it has one; an
// empty cell is NaN.
func readCSV(t *testing.T, path string, header bool, maxRows int) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]float64
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() && len(rows) < maxRows {
		line := sc.Text()
		if header {
			header = false
			continue
		}
		var row []float64
		for _, cell := range strings.Split(line, ",") {
			if cell == "" {
				row = append(row, nan)
				continue
			}
			v, err := strconv.ParseFloat(cell, 64)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			row = append(row, v)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestGenerated builds, in one module, hand-computed NaN cases, random
// axis-aligned models, deep random ensembles (2 to 256 leaves per tree), a
// model of several blocks, the axis-only golden models and XGBoost fixtures
// in both precisions, and checks that the generated packages compute
// exactly what the interpreter computes, pass go vet, hold only model values
// as float literals and do not allocate.
func TestGenerated(t *testing.T) {
	gentest.SkipIfNoGo(t)
	var cases []buildCase
	suffix := func(prec codegen.Precision) string { return string(prec[len(prec)-2:]) }

	// Hand-computed: NaN follows the default direction at each node.
	nm := nanModel()
	nanRows := [][]float64{{0}, {1}, {2}, {math.Nextafter(2, 3)}, {3}, {nan}, {inf}, {-inf}}
	nanWant := [][]float64{{11}, {22}, {32}, {33}, {33}, {1 + 20}, {33}, {11}}
	for _, prec := range precisions {
		c := newCase(t, nm, "nan"+suffix(prec), prec, nanRows)
		if prec == codegen.Float64 {
			c.want = nanWant
		}
		c.Allocs = true
		cases = append(cases, c)
	}

	n := 80
	if testing.Short() {
		n = 20
	}
	if *models > 0 {
		n = *models
	}
	r := rand.New(rand.NewPCG(*seed, 7))
	add := func(m *ir.Model, name string, rows [][]float64, allocs bool) {
		if err := m.Validate(); err != nil {
			t.Fatalf("%s is invalid: %v", name, err)
		}
		for _, prec := range precisions {
			c := newCase(t, m, name+suffix(prec), prec, rows)
			c.Allocs = allocs
			cases = append(cases, c)
		}
	}
	axisOnly := gentest.RandomOptions{MaxDepth: 8, MaxTrees: 6}
	for i := 0; i < n; i++ {
		m := gentest.RandomModel(r, axisOnly)
		add(m, fmt.Sprintf("r%03d", i), gentest.RandomInputs(r, m, 40), i < 3)
	}
	for i := 0; i < n/4; i++ {
		m := deepModel(r, 1+r.IntN(4))
		add(m, fmt.Sprintf("d%03d", i), gentest.RandomInputs(r, m, 40), i < 3)
	}
	// More than maxBlockWords words: several blocks.
	blocks := deepModel(r, 0)
	for i := 0; i < 1100; i++ {
		blocks.Trees = append(blocks.Trees, deepTree(r, blocks, 2+r.IntN(3), r.IntN(blocks.NumOutputs)))
	}
	blocks.Trees = append(blocks.Trees, deepTree(r, blocks, 200, ir.AllOutputs))
	add(blocks, "blocks", gentest.RandomInputs(r, blocks, 40), true)

	for _, name := range []string{"cart_binary", "cart_multiclass", "cart_regression", "axis100"} {
		for _, prec := range precisions {
			gc, err := golden.Load(name, prec == codegen.Float32)
			if err != nil {
				t.Fatal(err)
			}
			c := newCase(t, gc.Model, name+suffix(prec), prec, gc.Inputs)
			c.want = gc.Margins
			if prec == codegen.Float32 {
				c.want = round32(gc.Margins)
			}
			cases = append(cases, c)
		}
	}
	for _, name := range []string{"bcw_binary_d4", "spambase_nan_d6", "houses_reg_d8"} {
		dir := filepath.Join(fixtures, name)
		m, err := xgboost.Load(filepath.Join(dir, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		rows := readCSV(t, filepath.Join(dir, "inputs.csv"), true, 300)
		margins := readCSV(t, filepath.Join(dir, "margin.csv"), false, len(rows))
		for _, prec := range precisions {
			c := newCase(t, m, strings.SplitN(name, "_", 2)[0]+suffix(prec), prec, rows)
			if prec == codegen.Float32 {
				c.want = round32(margins) // XGBoost's own float32 margins
			}
			cases = append(cases, c)
		}
	}
	if t.Failed() {
		return
	}

	exp := make([]gentest.Expect, len(cases))
	for i, c := range cases {
		exp[i] = gentest.Expect{Case: c.Case, Model: c.model, Margins: c.want}
	}
	gentest.BuildAndCompare(t, exp)
}

// round32 rounds every value to float32 (CSV files print float32 values
// with as few digits as identify them).
func round32(rows [][]float64) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = make([]float64, len(r))
		for j, v := range r {
			out[i][j] = float64(float32(v))
		}
	}
	return out
}

func TestRefusals(t *testing.T) {
	base := nanModel()
	with := func(n ir.Node) *ir.Model {
		m := nanModel()
		m.Trees = append(m.Trees, m.Trees[0], m.Trees[0], m.Trees[0])
		nodes := append([]ir.Node(nil), m.Trees[3].Nodes...)
		nodes[2] = n
		m.Trees[3].Nodes = nodes
		return m
	}
	cat := with(ir.Node{Kind: ir.Categorical, Feature: 0, Categories: []int{1, 2}, Left: 3, Right: 4})
	obl := with(ir.Node{Kind: ir.Oblique, Indices: []int{0}, Weights: []float64{1}, Left: 3, Right: 4})
	soft := with(ir.Node{Kind: ir.Soft, Indices: []int{0}, Weights: []float64{1}, Gamma: 1, Left: 3, Right: 4})
	smx := nanModel()
	smx.Task, smx.NumOutputs, smx.Link = ir.Multiclass, 2, ir.Softmax
	smx.Trees = append(smx.Trees, ir.Tree{Output: ir.AllOutputs, Nodes: []ir.Node{{Kind: ir.SoftmaxLeaf,
		Softmax: &ir.SoftmaxParams{Classes: []int{0, 1}, Bias: []float64{0, 1}, Rows: []ir.SparseRow{{}, {}}}}}})
	act := 0.5
	latent := nanModel()
	latent.Trees = append(latent.Trees, ir.Tree{Output: ir.AllOutputs, Latent: true, Nodes: []ir.Node{{Kind: ir.Leaf, Activity: &act}}})
	latent.Readout = &ir.Readout{Weights: [][]float64{{0, 0}}, Bias: []float64{0}}
	for _, tc := range []struct {
		name string
		m    *ir.Model
		want string
	}{
		{"categorical", cat, "quickscorer backend: tree 3 has a categorical split: use the ifelse backend"},
		{"oblique", obl, "quickscorer backend: tree 3 has an oblique split: use the ifelse backend"},
		{"soft", soft, "quickscorer backend: tree 3 has soft nodes: use the smoothstep backend"},
		{"softmax", smx, "quickscorer backend: tree 2 has a softmax leaf: use the ifelse backend"},
		{"latent", latent, "quickscorer backend: tree 2 is latent: the quickscorer backend compiles only axis-aligned trees with constant leaves"},
	} {
		if err := tc.m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err := codegen.Generate(tc.m, codegen.Options{Package: "p", Backend: quickscorer.Name})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := quickscorer.Check(base); err != nil {
		t.Errorf("Check refuses an axis model: %v", err)
	}
}

func TestFold(t *testing.T) {
	for _, tc := range []struct {
		t       float64
		le, f32 bool
		want    float64
		always  bool
	}{
		{1, false, false, 1, false},
		{1, true, false, math.Nextafter(1, 2), false},
		{1, true, true, float64(math.Nextafter32(1, 2)), false},
		{0.1, false, true, float64(float32(0.1)), false},
		{math.MaxFloat64, true, false, inf, false},
		{math.MaxFloat32, true, true, inf, false},
		{1e39, true, true, 0, true},
		{1e39, false, true, inf, false},
		{inf, true, false, 0, true},
		{-inf, true, false, -math.MaxFloat64, false},
	} {
		got, always := quickscorer.Fold(tc.t, tc.le, tc.f32)
		if always != tc.always || (!always && got != tc.want) {
			t.Errorf("Fold(%v, %v, %v) = %v, %v; want %v, %v", tc.t, tc.le, tc.f32, got, always, tc.want, tc.always)
		}
	}
}

// TestDeterministic generates the same models twice and compares the bytes.
func TestDeterministic(t *testing.T) {
	for i := 0; i < 5; i++ {
		r := rand.New(rand.NewPCG(uint64(i), 9))
		m := deepModel(r, 3)
		for _, prec := range precisions {
			a := generate(t, m, "p", prec)
			b := generate(t, m, "p", prec)
			if len(a) != len(b) {
				t.Fatalf("model %d: %d files, then %d", i, len(a), len(b))
			}
			for j := range a {
				if a[j].Name != b[j].Name || !bytes.Equal(a[j].Data, b[j].Data) {
					t.Errorf("model %d %s: %s differs between two runs", i, prec, a[j].Name)
				}
			}
		}
	}
}
