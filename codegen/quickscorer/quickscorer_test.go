package quickscorer_test

import (
	"bufio"
	"github.com/treegen/treegen/codegen/internal/emit"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/quickscorer"
	"github.com/treegen/treegen/golden"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/xgboost"
)

// suite is the conformance suite of the quickscorer backend: axis-aligned
// models of every task, link and aggregation, and trees of random shapes
// with up to 256 leaves.
var suite = gentest.Suite{
	Backend: quickscorer.Name,
	Golden:  []string{"testdata/nan.json"},
	Random: []gentest.Random{
		{Name: "r", Models: 80, Short: 20, Options: randmodel.Options{
			Tricky: true, AxisOnly: true, MaxDepth: 8, Float32Sum: true}},
		{Name: "d", Models: 20, Short: 5, Options: randmodel.Options{
			Tricky: true, AxisOnly: true, Leaves: 256, Trees: 3, Float32Sum: true}},
		// Enough trees for the vector file, of every depth it takes: the
		// vector walk's six levels and the levels below.
		{Name: "v", Models: 24, Short: 8, Options: randmodel.Options{
			Tricky: true, AxisOnly: true, MaxDepth: 10, Trees: 12, Float32Sum: true}},
	},
	LiteralModel: literalModel,
	Cases:        ownCases,
}

// TestConformance runs the suite that every backend passes, with
// hand-computed NaN cases, a model of several blocks, the axis-aligned
// golden models and XGBoost fixtures.
func TestConformance(t *testing.T) { gentest.Conformance(t, suite) }

// fixtures is where the XGBoost fixtures live.
const fixtures = "../../testdata/xgboost"

var nan, inf = math.NaN(), math.Inf(1)

// literalModel returns a copy of m whose axis thresholds are the ones the
// generated tables hold: "<=" folded into "<" in the comparison precision.
func literalModel(m *ir.Model, prec codegen.Precision) *ir.Model {
	c := *m
	c.Trees = make([]ir.Tree, len(m.Trees))
	for i, t := range m.Trees {
		t.Nodes = append([]ir.Node(nil), t.Nodes...)
		for j := range t.Nodes {
			n := &t.Nodes[j]
			if n.Kind == ir.Axis && n.LessEqual {
				n.Threshold, _ = emit.Fold(n.Threshold, true, prec.Is32() || m.Float32Compare)
				n.LessEqual = false
			}
		}
		c.Trees[i] = t
	}
	return &c
}

// nanModel is x0 < 1 (NaN left) ? 1 : (x0 <= 2 (NaN right) ? 2 : 3), and a
// second tree x0 < 1 (NaN right) ? 10 : (x0 < 2 (NaN left) ? 20 : 30).
func nanModel(t testing.TB) *ir.Model {
	t.Helper()
	m, err := ir.Load("testdata/nan.json")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// blocksModel returns a model of more than maxBlockWords words, several
// blocks: 1,100 trees of 2 to 4 leaves and a tree of 200 leaves.
func blocksModel() *ir.Model {
	m := randmodel.Model(41, randmodel.Options{Tricky: true, AxisOnly: true, Leaves: 4, Trees: 1100, Task: ir.Binary})
	big := randmodel.Model(42, randmodel.Options{Tricky: true, AxisOnly: true, MinLeaves: 200, Leaves: 200, Trees: 1,
		Features: m.NumFeatures, Task: ir.Binary})
	m.Trees = append(m.Trees, big.Trees[0])
	return m
}

// ownCases are hand-computed NaN cases, a model of several blocks, the
// axis-aligned golden models and XGBoost fixtures with their own margins.
func ownCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	// Hand-computed: NaN follows the default direction at each node.
	nanRows := [][]float64{{0}, {1}, {2}, {math.Nextafter(2, 3)}, {3}, {nan}, {inf}, {-inf}}
	cases := s.Both(t, nanModel(t), "nan", nanRows)
	for i := range cases {
		if cases[i].Precision == codegen.Float64 {
			cases[i].Margins = [][]float64{{11}, {22}, {32}, {33}, {33}, {1 + 20}, {33}, {11}}
		}
	}
	// x <= -1e-45 in float32 folds into x < -0 (the float32 after the
	// largest negative subnormal), which the tables must write as a
	// literal that the package declares.
	fold, err := ir.Load("testdata/foldnegzero.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Both(t, fold, "foldnegzero", [][]float64{{-1e-45}, {-1e-46}, {math.Copysign(0, -1)}, {0}, {1e-45}, {nan}}) {
		c.Margins = [][]float64{{1}, {2}, {2}, {2}, {2}, {2}}
		cases = append(cases, c)
	}
	blocks := blocksModel()
	cases = append(cases, s.Both(t, blocks, "blocks", gentest.Inputs(43, blocks, 40))...)
	for i := range cases {
		cases[i].Allocs = true
	}

	for _, name := range []string{"cart_binary", "cart_multiclass", "cart_regression", "axis100"} {
		var want [][][]float64 // per precision
		for _, prec := range gentest.Precisions() {
			gc, err := golden.Load(name, prec.Is32())
			if err != nil {
				t.Fatal(err)
			}
			want = append(want, gc.Margins)
		}
		gc, _ := golden.Load(name, false)
		for i, c := range s.Both(t, gc.Model, name, gc.Inputs) {
			c.Margins = want[i]
			if c.Precision.Is32() {
				c.Margins = round32(want[i])
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
		for _, c := range s.Both(t, m, strings.SplitN(name, "_", 2)[0], rows) {
			if c.Precision.Is32() {
				c.Margins = round32(margins) // XGBoost's own float32 margins
			}
			cases = append(cases, c)
		}
	}
	return cases
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
	with := func(n ir.Node) *ir.Model {
		m := nanModel(t)
		m.Trees = append(m.Trees, m.Trees[0], m.Trees[0], m.Trees[0])
		nodes := append([]ir.Node(nil), m.Trees[3].Nodes...)
		nodes[2] = n
		m.Trees[3].Nodes = nodes
		return m
	}
	cat := with(ir.Node{Kind: ir.Categorical, Feature: 0, Categories: []int{1, 2}, Left: 3, Right: 4})
	obl := with(ir.Node{Kind: ir.Oblique, Indices: []int{0}, Weights: []float64{1}, Left: 3, Right: 4})
	soft := with(ir.Node{Kind: ir.Soft, Indices: []int{0}, Weights: []float64{1}, Gamma: 1, Left: 3, Right: 4})
	smx := nanModel(t)
	smx.Task, smx.NumOutputs, smx.Link = ir.Multiclass, 2, ir.Softmax
	smx.Trees = append(smx.Trees, ir.Tree{Output: ir.AllOutputs, Nodes: []ir.Node{{Kind: ir.SoftmaxLeaf,
		Softmax: &ir.SoftmaxParams{Classes: []int{0, 1}, Bias: []float64{0, 1}, Rows: []ir.SparseRow{{}, {}}}}}})
	act := 0.5
	latent := nanModel(t)
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
		{"latent", latent, "quickscorer backend: tree 2 is latent: use the ifelse backend"},
	} {
		if err := tc.m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err := codegen.Generate(tc.m, codegen.Options{Package: "p", Backend: quickscorer.Name})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if (quickscorer.Backend{}).Suited(tc.m) {
			t.Errorf("%s: the backend is suited to a model it cannot compile", tc.name)
		}
	}
	if err := quickscorer.Check(nanModel(t)); err != nil {
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
		got, always := emit.Fold(tc.t, tc.le, tc.f32)
		if always != tc.always || (!always && got != tc.want) {
			t.Errorf("Fold(%v, %v, %v) = %v, %v; want %v, %v", tc.t, tc.le, tc.f32, got, always, tc.want, tc.always)
		}
	}
}
