package smoothstep_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/randmodel"
	"github.com/treegen/treegen/ir"
)

var (
	update = flag.Bool("update", false, "rewrite golden files")
	models = flag.Int("models", 0, "number of random models of each kind in TestGenerated (default 40, 10 with -short)")
	seed   = flag.Uint64("seed", 1, "seed of the random models of TestGenerated")
)

// precisions are the two working precisions, in test order.
var precisions = []codegen.Precision{codegen.Float64, codegen.Float32}

var nan, inf = math.NaN(), math.Inf(1)

func generate(t testing.TB, m *ir.Model, pkg string, prec codegen.Precision, prune float64) []codegen.File {
	t.Helper()
	files, err := codegen.Generate(m, codegen.Options{Package: pkg, Backend: smoothstep.Name, Precision: prec, Source: "test", OmitVersion: true, Prune: prune})
	if err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	return files
}

// buildCase is a model to build in the shared module, with what to check.
type buildCase struct {
	gentest.Case
	model *ir.Model // the model the interpreter runs (the pruned one with Prune)
	// want, if set, holds hand-computed margins (float64 packages).
	want [][]float64
}

func newCase(t *testing.T, m *ir.Model, name string, prec codegen.Precision, rows [][]float64, prune float64) buildCase {
	t.Helper()
	files := generate(t, m, name, prec, prune)
	f32 := prec == codegen.Float32
	oracle := m
	if prune > 0 {
		oracle = pruneModel(m, prune)
	}
	if _, err := gentest.CheckLiteralsWith(files, oracle, f32, smoothstep.Constants(m, prune, f32)); err != nil {
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
		model: oracle,
	}
}

// pruneModel returns a copy of m whose soft nodes have lost the weights
// that Prune drops: what the generated code computes.
func pruneModel(m *ir.Model, prune float64) *ir.Model {
	c := *m
	c.Trees = make([]ir.Tree, len(m.Trees))
	for i, t := range m.Trees {
		t.Nodes = append([]ir.Node(nil), t.Nodes...)
		for j := range t.Nodes {
			if n := &t.Nodes[j]; n.Kind == ir.Soft {
				n.Indices, n.Weights = smoothstep.Pruned(n, prune)
			}
		}
		c.Trees[i] = t
	}
	return &c
}

// suffix is "64" or "32".
func suffix(prec codegen.Precision) string { return string(prec[len(prec)-2:]) }

// softModel returns a model of one feature and one tree: a soft root with
// margin x0 (γ = 1) and leaves 1 (left) and 2 (right).
func softModel(defaultLeft bool) *ir.Model {
	return &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Soft, Left: 1, Right: 2, Indices: []int{0}, Weights: []float64{1}, Gamma: 1, DefaultLeft: defaultLeft},
			{Kind: ir.Leaf, Value: []float64{1}},
			{Kind: ir.Leaf, Value: []float64{2}},
		}}}}
}

// perfectModel returns one perfect tree of the given depth whose soft nodes
// all have margin x0 + bias and width gamma, with leaves 1, 2, 3, ...
// Rows just above -gamma/2 send a tiny probability left at every node: in
// float32 the probability of the leftmost paths underflows to 0.
func perfectModel(depth int, bias, gamma float64) *ir.Model {
	t := ir.Tree{Output: 0}
	leaf := 0.0
	var grow func(d int) int
	grow = func(d int) int {
		i := len(t.Nodes)
		t.Nodes = append(t.Nodes, ir.Node{})
		if d == depth {
			leaf++
			t.Nodes[i] = ir.Node{Kind: ir.Leaf, Value: []float64{leaf}}
			return i
		}
		n := ir.Node{Kind: ir.Soft, Indices: []int{0}, Weights: []float64{1}, Bias: bias, Gamma: gamma}
		n.Left = grow(d + 1)
		n.Right = grow(d + 1)
		t.Nodes[i] = n
		return i
	}
	grow(0)
	return &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity, Trees: []ir.Tree{t}}
}

// handCases are small models with hand-computed margins, and models built
// to reach the corners of the semantics.
func handCases(t *testing.T) []buildCase {
	var cases []buildCase
	add := func(m *ir.Model, name string, rows, want [][]float64) {
		if err := m.Validate(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, prec := range precisions {
			c := newCase(t, m, name+suffix(prec), prec, rows, 0)
			c.want = want
			c.Allocs = true
			cases = append(cases, c)
		}
	}
	// S(0.5) = 1, S(-0.5) = 0, S(0) = 0.5, S(0.25) = 0.84375; NaN goes
	// right, or left with DefaultLeft. All exact in float32 too.
	rows := [][]float64{{0.5}, {-0.5}, {0}, {0.25}, {-0.25}, {nan}, {inf}, {-inf}, {2}}
	add(softModel(false), "edges", rows,
		[][]float64{{1}, {2}, {1.5}, {1.15625}, {1.84375}, {2}, {1}, {2}, {1}})
	add(softModel(true), "edgesleft", rows,
		[][]float64{{1}, {2}, {1.5}, {1.15625}, {1.84375}, {1}, {1}, {2}, {1}})

	// Underflowing path probabilities, and the margins next to ±γ/2.
	var deep [][]float64
	for _, v := range []float64{-0.5, 0.5, 0} {
		deep = append(deep, []float64{v}, []float64{math.Nextafter(v, inf)}, []float64{math.Nextafter(v, -inf)},
			[]float64{float64(math.Nextafter32(float32(v), float32(inf)))}, []float64{float64(math.Nextafter32(float32(v), -float32(inf)))})
	}
	for k := 1; k <= 16; k++ {
		deep = append(deep, []float64{-0.5 + math.Ldexp(1, -k)}, []float64{0.5 - math.Ldexp(1, -k)})
	}
	add(perfectModel(8, 0, 1), "underflow", deep, nil)
	add(perfectModel(6, 0.125, 0.1), "underflow2", deep, nil)

	// Exact zero weights are kept: 0·NaN and 0·Inf make the margin NaN.
	zero := softModel(true)
	zero.NumFeatures = 2
	zero.Trees[0].Nodes[0].Indices = []int{0, 1}
	zero.Trees[0].Nodes[0].Weights = []float64{1, 0}
	add(zero, "zeroweight", [][]float64{{0, nan}, {0, inf}, {0, 1}, {-1, nan}, {-1, 3}},
		[][]float64{{1}, {1}, {1.5}, {1}, {2}})

	// A base score of -0 and leaves of -0: the soft tree's value is +0.
	negZero := math.Copysign(0, -1)
	nz := softModel(false)
	nz.NumOutputs = 2
	nz.Task = ir.MultiOutput
	nz.BaseScore = []float64{negZero, negZero}
	nz.Trees[0].Output = ir.AllOutputs
	nz.Trees[0].Nodes[1].Value = []float64{negZero, 1}
	nz.Trees[0].Nodes[2].Value = []float64{negZero, 0}
	nz.Trees = append(nz.Trees, ir.Tree{Output: 1, Nodes: []ir.Node{
		{Kind: ir.Soft, Left: 1, Right: 2, Indices: []int{0}, Weights: []float64{1}},
		{Kind: ir.Leaf, Value: []float64{negZero}},
		{Kind: ir.Leaf, Value: []float64{negZero}},
	}})
	add(nz, "negzero", [][]float64{{1}, {-1}, {0}, {nan}},
		[][]float64{{0, 1}, {0, 0}, {0, 0.5}, {0, 0}})
	return cases
}

// fractionalRows returns n rows for m that put the margin of a soft node
// (the root of a random tree half of the time) inside its fractional region,
// on its edges or at 0, solving for one feature; the other features are
// random normal values.
func fractionalRows(r *rand.Rand, m *ir.Model, n int) [][]float64 {
	var rows [][]float64
	for len(rows) < n {
		row := make([]float64, m.NumFeatures)
		for j := range row {
			row[j] = r.NormFloat64()
		}
		rows = append(rows, row)
		if len(m.Trees) == 0 {
			continue
		}
		t := &m.Trees[r.IntN(len(m.Trees))]
		nd := &t.Nodes[0]
		if r.IntN(2) == 0 {
			nd = &t.Nodes[r.IntN(len(t.Nodes))]
		}
		if nd.Kind != ir.Soft || len(nd.Indices) == 0 {
			continue
		}
		k := r.IntN(len(nd.Indices))
		f, w := nd.Indices[k], nd.Weights[k]
		shift, scale := 0.0, 1.0
		if p := m.Preprocess; p != nil {
			shift, scale = p.Shift[f], p.Scale[f]
		}
		if w == 0 || scale == 0 || math.IsInf(w, 0) {
			continue
		}
		rest := nd.Bias
		for i, j := range nd.Indices {
			if i != k {
				xp := row[j]
				if p := m.Preprocess; p != nil {
					xp = (xp - p.Shift[j]) * p.Scale[j]
				}
				rest += nd.Weights[i] * xp
			}
		}
		h := nd.Gamma / 2
		var target float64
		switch r.IntN(4) {
		case 0:
			target = h
		case 1:
			target = -h
		case 2:
			target = 0
		default:
			target = (r.Float64() - 0.5) * nd.Gamma
		}
		row[f] = (target-rest)/w/scale + shift
	}
	return rows
}

// TestGenerated builds, in one module, hand-made models and many random
// models with soft nodes in both precisions, and checks that the generated
// packages compute exactly what the interpreter computes (and, for the hand
// models, what the hand computed), pass gofmt and go vet, have only model
// values and smooth-step constants as float literals, import only math and
// errors, and do not allocate.
func TestGenerated(t *testing.T) {
	gentest.SkipIfNoGo(t)
	cases := handCases(t)

	n := 40
	if testing.Short() {
		n = 10
	}
	if *models > 0 {
		n = *models
	}
	r := rand.New(rand.NewPCG(*seed, 3))
	addRandom := func(kind string, i int, m *ir.Model) {
		if err := m.Validate(); err != nil {
			t.Fatalf("%s model %d is invalid: %v", kind, i, err)
		}
		rows := gentest.RandomInputs(r, m, 30)
		rows = append(rows, randmodel.Rows(r.Uint64(), 30, m.NumFeatures)...)
		rows = append(rows, fractionalRows(r, m, 40)...)
		for _, prec := range precisions {
			c := newCase(t, m, fmt.Sprintf("%s%03d%s", kind, i, suffix(prec)), prec, rows, 0)
			c.Allocs = i < 3
			cases = append(cases, c)
		}
	}
	// Extreme numbers (gentest's pool: subnormals, 1e300, float32
	// overflows) and widths, among every other kind of node.
	opts := gentest.DefaultRandom
	opts.SoftGammas = []float64{0, 0.1, 1, 10, 0.5, 1e-320, 1e-45, 3e38, 1e39}
	for i := 0; i < n; i++ {
		addRandom("x", i, gentest.RandomModel(r, opts))
	}
	// TEL-like models: mostly soft splits, vector and softmax leaves.
	for i := 0; i < n; i++ {
		addRandom("tel", i, randmodel.Model(*seed*1000+uint64(i), randmodel.Options{
			Soft: 0.8, Oblique: 0.05, Categorical: 0.05, SoftmaxLeaf: 0.2, Float32Sum: true}))
	}
	// Perfect trees of depth 1 to 8 with dense weights.
	for d := 1; d <= 8; d++ {
		for j := 0; j < 2; j++ {
			addRandom("full", 10*d+j, randmodel.Model(*seed*2000+uint64(10*d+j), randmodel.Options{
				Soft: 1, Full: true, Dense: true, MinDepth: d, MaxDepth: d, Trees: 1 + j*2, SoftmaxLeaf: 0.2}))
		}
	}
	// Level groups (level.go): runs of perfect dense soft trees with
	// constant leaves, evaluated level by level.
	for i, m := range levelModels() {
		addRandom("level", i, m)
	}
	if t.Failed() {
		return
	}
	check(t, cases)
}

// levelModels returns models whose trees the level-synchronous code
// evaluates: vector and scalar trees, one γ or many, frontiers that outgrow
// their arrays (γ = 100: every node is reached), Float32Sum and mean
// aggregation, and level groups between trees that are compiled otherwise.
func levelModels() []*ir.Model {
	var ms []*ir.Model
	ms = append(ms, telModel(11, 3, 3, 8, 3, 0.3), telModel(12, 1, 1, 6, 2, 1), telModel(13, 2, 5, 7, 2, 0.5))
	wide := telModel(14, 10, 7, 6, 2, 0.3) // 640 nodes on the last internal level
	for i := range wide.Trees {
		for j := range wide.Trees[i].Nodes {
			if n := &wide.Trees[i].Nodes[j]; n.Kind == ir.Soft && i%2 == 0 {
				n.Gamma = 100
			}
		}
	}
	ms = append(ms, wide)
	mixed := telModel(15, 4, 4, 9, 3, 0.4) // γ per node
	r := rand.New(rand.NewPCG(15, 16))
	for i := range mixed.Trees {
		for j := range mixed.Trees[i].Nodes {
			if n := &mixed.Trees[i].Nodes[j]; n.Kind == ir.Soft {
				n.Gamma = []float64{0.1, 1, 3, 1e-3}[r.IntN(4)]
			}
		}
	}
	mixed.Float32Sum = true
	ms = append(ms, mixed)
	scalar := telModel(16, 5, 3, 6, 3, 0.5) // one output per tree
	scalar.Aggregation = ir.Mean
	for i := range scalar.Trees {
		t := &scalar.Trees[i]
		t.Output = i % 3
		for j := range t.Nodes {
			if n := &t.Nodes[j]; n.Kind == ir.Leaf {
				n.Value = n.Value[:1]
			}
		}
	}
	ms = append(ms, scalar)
	// Groups of different depths, a soft tree with a γ = 0 node and a
	// hard tree between them.
	a, b := telModel(17, 3, 2, 6, 3, 0.5), telModel(18, 2, 4, 6, 3, 0.5)
	hard := telModel(19, 1, 2, 6, 3, 0.5).Trees[0]
	hard.Nodes[0].Gamma = 0
	a.Trees = append(a.Trees, hard)
	a.Trees = append(a.Trees, b.Trees...)
	a.BaseScore = []float64{math.Copysign(0, -1), 0.5, -1}
	ms = append(ms, a)
	return ms
}

// check builds the cases in one module, runs them and compares their
// outputs with the interpreter's and the hand-computed ones.
func check(t *testing.T, cases []buildCase) {
	t.Helper()
	exp := make([]gentest.Expect, len(cases))
	for i, c := range cases {
		exp[i] = gentest.Expect{Case: c.Case, Model: c.model, Margins: c.want}
	}
	gentest.BuildAndCompare(t, exp)
}

// TestPrune checks that Prune > 0 drops exactly the weights |w| <= Prune of
// soft nodes: the generated code equals the interpreter on the model
// without them, bit for bit, and no longer equals it on the model itself.
func TestPrune(t *testing.T) {
	gentest.SkipIfNoGo(t)
	var cases []buildCase
	r := rand.New(rand.NewPCG(*seed, 4))
	for i := 0; i < 6; i++ {
		m := randmodel.Model(uint64(300+i), randmodel.Options{Soft: 0.9, Dense: true, Full: true, MinDepth: 3, MaxDepth: 5, Features: 8})
		rows := append(randmodel.Rows(uint64(i), 40, m.NumFeatures), fractionalRows(r, m, 40)...)
		for _, prune := range []float64{0.3, 1} {
			for _, prec := range precisions {
				cases = append(cases, newCase(t, m, fmt.Sprintf("prune%d_%v_%s", i, prune*10, suffix(prec)), prec, rows, prune))
			}
		}
	}
	// The stump of softModel with a second weight of 0.25 on x1: pruned at
	// 0.25 it ignores x1, NaN included.
	m := softModel(false)
	m.NumFeatures = 2
	m.Trees[0].Nodes[0].Indices = []int{0, 1}
	m.Trees[0].Nodes[0].Weights = []float64{1, 0.25}
	rows := [][]float64{{0, 1}, {0, nan}, {0.25, -1}}
	for _, prec := range precisions {
		c := newCase(t, m, "prunestump"+suffix(prec), prec, rows, 0.25)
		c.want = [][]float64{{1.5}, {1.5}, {1.15625}}
		cases = append(cases, c)
	}
	if got := gentest.Interpret(t, m, rows, false).Margin; !gentest.SameRow(got[1], []float64{2}) || !gentest.SameRow(got[0], []float64{1.15625}) {
		t.Errorf("interpreter on the unpruned stump: %v, want 1.15625 and 2 in rows 0 and 1", got)
	}
	if t.Failed() {
		return
	}
	check(t, cases)

	// The source holds no pruned weight.
	files := generate(t, m, "p", codegen.Float64, 0.25)
	for _, f := range files {
		if bytes.Contains(f.Data, []byte("0.25*x[1]")) {
			t.Errorf("%s keeps the pruned weight 0.25 of x[1]", f.Name)
		}
	}
}

// TestRefusals checks the errors of Check and of Generate with Prune.
func TestRefusals(t *testing.T) {
	act := 0.5
	latent := softModel(false)
	latent.Trees = append(latent.Trees, ir.Tree{Output: ir.AllOutputs, Latent: true, Nodes: []ir.Node{{Kind: ir.Leaf, Activity: &act}}})
	latent.Readout = &ir.Readout{Weights: [][]float64{{0, 0}}, Bias: []float64{0}}
	if err := latent.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    *ir.Model
		opts codegen.Options
		want string
	}{
		{"latent", latent, codegen.Options{Backend: smoothstep.Name},
			"smoothstep backend: tree 1 is latent: latent trees are not supported by the smoothstep backend"},
		{"negative prune", softModel(false), codegen.Options{Backend: smoothstep.Name, Prune: -1},
			"prune threshold -1: want a finite number >= 0"},
		{"NaN prune", softModel(false), codegen.Options{Backend: smoothstep.Name, Prune: nan},
			"prune threshold NaN: want a finite number >= 0"},
		{"infinite prune", softModel(false), codegen.Options{Backend: smoothstep.Name, Prune: inf},
			"prune threshold +Inf: want a finite number >= 0"},
		{"prune ifelse", softModel(false), codegen.Options{Backend: "ifelse", Prune: 0.5},
			"prune threshold 0.5: the ifelse backend does not prune weights (only smoothstep does)"},
		{"soft ifelse", softModel(false), codegen.Options{},
			"ifelse backend: tree 0 has soft nodes: use the smoothstep backend"},
	} {
		tc.opts.Package = "p"
		_, err := codegen.Generate(tc.m, tc.opts)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if err := smoothstep.Check(latent); err == nil {
		t.Error("Check accepts a latent tree")
	}
	if err := smoothstep.Check(softModel(true)); err != nil {
		t.Errorf("Check refuses a soft tree: %v", err)
	}
}

// TestDeterministic generates the same models twice and compares the bytes.
func TestDeterministic(t *testing.T) {
	for i := 0; i < 5; i++ {
		m := randmodel.Model(uint64(i), randmodel.Options{Soft: 0.7, Oblique: 0.1, Categorical: 0.1, SoftmaxLeaf: 0.3})
		for _, prec := range precisions {
			a := generate(t, m, "p", prec, 0)
			b := generate(t, m, "p", prec, 0)
			for j := range a {
				if a[j].Name != b[j].Name || !bytes.Equal(a[j].Data, b[j].Data) {
					t.Fatalf("model %d %s: %s differs between two runs", i, prec, a[j].Name)
				}
			}
		}
	}
}

// TestGolden compares the generated source of a small model with
// testdata/golden/*.golden; go test -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		model string
		prec  codegen.Precision
	}{
		{"soft.json", codegen.Float64},
		{"soft.json", codegen.Float32},
	} {
		m, err := ir.Load(filepath.Join("testdata", tc.model))
		if err != nil {
			t.Fatal(err)
		}
		files := generate(t, m, "golden", tc.prec, 0)
		var got bytes.Buffer
		for _, f := range files {
			fmt.Fprintf(&got, "==== %s\n%s", f.Name, f.Data)
		}
		path := filepath.Join("testdata", "golden", strings.TrimSuffix(tc.model, ".json")+"_"+string(tc.prec)+".golden")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if bytes.Equal(got.Bytes(), want) {
			os.Remove(path + ".got")
			continue
		}
		if err := os.WriteFile(path+".got", got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Errorf("%s: generated source differs from %s (diff %s %s.got; go test -update rewrites the golden file)", tc.model, path, path, path)
	}
}
