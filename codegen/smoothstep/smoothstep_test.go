package smoothstep_test

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// suite is the conformance suite of the smoothstep backend: soft nodes of
// extreme numbers and widths among every other kind of node, and models
// shaped like trained Tree Ensemble Layers.
var suite = gentest.Suite{
	Backend: smoothstep.Name,
	Golden:  []string{"testdata/soft.json"},
	Random: []gentest.Random{
		// Extreme numbers (randmodel.Pool: subnormals, 1e300, float32
		// overflows) and widths, among every other kind of node.
		{Name: "x", Models: 40, Short: 10, Rows: moreRows, Options: randmodel.Options{
			Tricky: true, MaxDepth: 8, Soft: 0.6, Oblique: 0.1, Categorical: 0.1, SoftmaxLeaf: 0.33, Float32Sum: true,
			Gammas: []float64{0, 0.1, 1, 10, 0.5, 1e-320, 1e-45, 3e38, 1e39}}},
		// TEL-like models: mostly soft splits, vector and softmax leaves.
		{Name: "tel", Models: 40, Short: 10, Rows: moreRows, Options: randmodel.Options{
			Soft: 0.8, Oblique: 0.05, Categorical: 0.05, SoftmaxLeaf: 0.2, Float32Sum: true}},
	},
	Constants: func(m *ir.Model, opts codegen.BackendOptions, prec codegen.Precision) []float64 {
		return smoothstep.Constants(m, opts.(*smoothstep.Options).Prune, prec)
	},
	Cases: ownCases,
}

// TestConformance runs the suite that every backend passes, with
// hand-made models that reach the corners of the semantics, perfect dense
// trees, level groups, sparse perfect trees on both paths and pruned
// models.
func TestConformance(t *testing.T) { gentest.Conformance(t, suite) }

var nan, inf = math.NaN(), math.Inf(1)

// moreRows returns rows for m besides those of gentest.Inputs: rows of
// randmodel.Rows, and rows that put the margins of soft nodes inside their
// fractional region, on its edges or at 0.
func moreRows(seed uint64, m *ir.Model) [][]float64 {
	rows := randmodel.Rows(seed, 30, m.NumFeatures)
	return append(rows, fractionalRows(rand.New(rand.NewPCG(seed, 3)), m, 40)...)
}

// rowsFor returns the rows of a random model made by a case.
func rowsFor(seed uint64, m *ir.Model) [][]float64 {
	return append(gentest.Inputs(seed, m, 40), moreRows(seed, m)...)
}

// ownCases are the hand-made models, perfect trees of depth 1 to 8 with
// dense weights, level groups, sparse perfect trees on both paths and
// pruned models.
func ownCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	cases := handCases(t, s)
	for d := 1; d <= 8; d++ {
		for j := 0; j < 2; j++ {
			seed := uint64(2000 + 10*d + j)
			m := randmodel.Model(seed, randmodel.Options{
				Soft: 1, Full: true, Dense: true, MinDepth: d, MaxDepth: d, Trees: 1 + j*2, SoftmaxLeaf: 0.2})
			cases = append(cases, allocs(s.Both(t, m, fmt.Sprintf("full%d%d_", d, j), rowsFor(seed, m)), d == 1)...)
		}
	}
	for i, m := range levelModels() {
		cases = append(cases, allocs(s.Both(t, m, fmt.Sprintf("level%d_", i), rowsFor(uint64(3000+i), m)), i < 3)...)
	}
	cases = append(cases, sparseCases(t, s)...)
	return append(cases, pruneCases(t, s)...)
}

// allocs sets Allocs of the cases to on, and returns them.
func allocs(cases []gentest.Case, on bool) []gentest.Case {
	for i := range cases {
		cases[i].Allocs = on
	}
	return cases
}

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
func handCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	var cases []gentest.Case
	add := func(m *ir.Model, name string, rows, want [][]float64) {
		for _, c := range s.Both(t, m, name, rows) {
			c.Margins = want
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

// levelModels returns models whose trees the level-synchronous code
// evaluates: vector and scalar trees, one γ or many, frontiers that outgrow
// their arrays (γ = 100: every node is reached), Float32Sum and mean
// aggregation, and level groups between trees that are compiled otherwise.
func levelModels() []*ir.Model {
	var ms []*ir.Model
	ms = append(ms, randmodel.TEL(11, 3, 3, 8, 3, 0.3), randmodel.TEL(12, 1, 1, 6, 2, 1), randmodel.TEL(13, 2, 5, 7, 2, 0.5))
	wide := randmodel.TEL(14, 10, 7, 6, 2, 0.3) // 640 nodes on the last internal level
	for i := range wide.Trees {
		for j := range wide.Trees[i].Nodes {
			if n := &wide.Trees[i].Nodes[j]; n.Kind == ir.Soft && i%2 == 0 {
				n.Gamma = 100
			}
		}
	}
	ms = append(ms, wide)
	mixed := randmodel.TEL(15, 4, 4, 9, 3, 0.4) // γ per node
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
	scalar := oneOutputPerTree(randmodel.TEL(16, 5, 3, 6, 3, 0.5), 3)
	scalar.Aggregation = ir.Mean
	ms = append(ms, scalar)
	// Groups of different depths, a soft tree with a γ = 0 node and a
	// hard tree between them.
	a, b := randmodel.TEL(17, 3, 2, 6, 3, 0.5), randmodel.TEL(18, 2, 4, 6, 3, 0.5)
	hard := randmodel.TEL(19, 1, 2, 6, 3, 0.5).Trees[0]
	hard.Nodes[0].Gamma = 0
	a.Trees = append(a.Trees, hard)
	a.Trees = append(a.Trees, b.Trees...)
	a.BaseScore = []float64{math.Copysign(0, -1), 0.5, -1}
	ms = append(ms, a)
	return ms
}

// pruneOptions returns the smoothstep options with Prune set to prune.
func pruneOptions(prune float64) *smoothstep.Options { return &smoothstep.Options{Prune: prune} }

// pruneStump is the stump of softModel with a second weight of 0.25 on x1:
// pruned at 0.25 it ignores x1, NaN included.
func pruneStump() *ir.Model {
	m := softModel(false)
	m.NumFeatures = 2
	m.Trees[0].Nodes[0].Indices = []int{0, 1}
	m.Trees[0].Nodes[0].Weights = []float64{1, 0.25}
	return m
}

// pruneCases are models generated with Prune > 0, which must drop exactly
// the weights |w| <= Prune of soft nodes: the generated code equals the
// interpreter on the model without them (Options.Effective), bit for bit.
func pruneCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	var cases []gentest.Case
	for i := 0; i < 6; i++ {
		seed := uint64(300 + i)
		m := randmodel.Model(seed, randmodel.Options{Soft: 0.9, Dense: true, Full: true, MinDepth: 3, MaxDepth: 5, Features: 8})
		rows := append(randmodel.Rows(uint64(i), 40, m.NumFeatures), fractionalRows(rand.New(rand.NewPCG(seed, 4)), m, 40)...)
		for _, prune := range []float64{0.3, 1} {
			p := *s
			p.Options = pruneOptions(prune)
			cases = append(cases, p.Both(t, m, fmt.Sprintf("prune%d_%g_", i, prune*10), rows)...)
		}
	}
	p := *s
	p.Options = pruneOptions(0.25)
	for _, c := range p.Both(t, pruneStump(), "prunestump", [][]float64{{0, 1}, {0, nan}, {0.25, -1}}) {
		c.Margins = [][]float64{{1.5}, {1.5}, {1.15625}}
		cases = append(cases, c)
	}
	return cases
}

// TestPrune checks what pruning changes besides the predictions (which
// pruneCases compare with the interpreter on the pruned model): the
// interpreter on the model itself differs, the source holds no pruned
// weight, and its header says that the code is approximate.
func TestPrune(t *testing.T) {
	m := pruneStump()
	rows := [][]float64{{0, 1}, {0, nan}, {0.25, -1}}
	got, err := harness.Interpret(m, rows, codegen.Float64)
	if err != nil {
		t.Fatal(err)
	}
	if !harness.Same(got.Margins[0][0], 1.15625) || !harness.Same(got.Margins[1][0], 2) {
		t.Errorf("interpreter on the unpruned stump: %v, want 1.15625 and 2 in rows 0 and 1", got.Margins)
	}
	p := suite
	p.Options = pruneOptions(0.25)
	for _, f := range p.Generate(t, m, "p", codegen.Float64) {
		if bytes.Contains(f.Data, []byte("0.25*x[1]")) {
			t.Errorf("%s keeps the pruned weight 0.25 of x[1]", f.Name)
		}
		if header := strings.SplitN(string(f.Data), "\n", 3); !strings.Contains(header[1], "approximate") {
			t.Errorf("%s: the second header line does not say that the code is approximate: %s", f.Name, header[1])
		}
	}
}

// TestRefusals checks the errors of Check and of Generate with backend
// options.
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
			"smoothstep backend: tree 1 is latent: use the ifelse backend (smoothstep does not compile latent trees)"},
		{"negative prune", softModel(false), codegen.Options{Backend: smoothstep.Name, BackendOptions: pruneOptions(-1)},
			"--prune -1: want a finite number >= 0"},
		{"NaN prune", softModel(false), codegen.Options{Backend: smoothstep.Name, BackendOptions: pruneOptions(nan)},
			"--prune NaN: want a finite number >= 0"},
		{"infinite prune", softModel(false), codegen.Options{Backend: smoothstep.Name, BackendOptions: pruneOptions(inf)},
			"--prune +Inf: want a finite number >= 0"},
		{"prune ifelse", softModel(false), codegen.Options{Backend: "ifelse", BackendOptions: pruneOptions(0.5)},
			"options of type *smoothstep.Options are not those of the ifelse backend (emit.NoOptions)"},
		{"soft ifelse", softModel(false), codegen.Options{Backend: "ifelse"},
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
	// The first backend suited to a model with soft nodes is smoothstep.
	files, err := codegen.Generate(softModel(false), codegen.Options{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if header := strings.SplitN(string(files[0].Data), "\n", 3); !strings.HasPrefix(header[1], "// Backend smoothstep,") {
		t.Errorf("auto backend of a soft model: header %q, want the smoothstep backend", header[1])
	}
}

// oneOutputPerTree makes tree i of m write output i mod outputs alone, its
// leaves keeping their first value, and returns m.
func oneOutputPerTree(m *ir.Model, outputs int) *ir.Model {
	for i := range m.Trees {
		t := &m.Trees[i]
		t.Output = i % outputs
		for j := range t.Nodes {
			if n := &t.Nodes[j]; n.Kind == ir.Leaf {
				n.Value = n.Value[:1]
			}
		}
	}
	return m
}
