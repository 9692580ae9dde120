package ifelse_test

import (
	"math"
	"path/filepath"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// suite is the conformance suite of the ifelse backend: every kind of hard
// tree, soft nodes of width γ = 0, and latent trees.
var suite = gentest.Suite{
	Backend: ifelse.Name,
	Golden:  []string{"testdata/mean.json", "testdata/softmax.json", "testdata/latent.json"},
	Random: []gentest.Random{
		{Name: "r", Models: 120, Short: 20, Options: randmodel.Options{
			Tricky: true, MaxDepth: 8, Oblique: 0.2, Categorical: 0.2, SoftmaxLeaf: 0.33, Float32Sum: true}},
		// Soft nodes of width γ = 0: hard splits that go left iff the
		// margin is > 0, in trees whose value is 0 + the leaf value
		// (ir/doc.go).
		{Name: "g", Models: 60, Short: 10, Options: randmodel.Options{
			Tricky: true, MaxDepth: 8, Soft: 0.6, Oblique: 0.1, Categorical: 0.1, SoftmaxLeaf: 0.33, Gammas: []float64{0}, Float32Sum: true}},
		// A latent tree after the ordinary ones, its splits through elu in
		// half of the models (latentCases has more).
		{Name: "l", Models: 30, Short: 6, Options: randmodel.Options{
			Tricky: true, MaxDepth: 6, Oblique: 0.4, Categorical: 0.1, Latent: true, Float32Sum: true}},
		{Name: "e", Models: 30, Short: 6, Options: randmodel.Options{
			Tricky: true, MaxDepth: 6, Oblique: 0.4, Latent: true, LatentElu: true, Float32Sum: true}},
	},
	Cases: func(t *testing.T, s *gentest.Suite) []gentest.Case {
		return append(ownCases(t, s), latentCases(t, s)...)
	},
}

// TestConformance runs the suite that every backend passes, with the
// hand-computed models and a depth-100 tree.
func TestConformance(t *testing.T) { gentest.Conformance(t, suite) }

func load(t testing.TB, name string) *ir.Model {
	return gentest.Load(t, filepath.Join("testdata", name))
}

var nan, inf = math.NaN(), math.Inf(1)

// ownCases are small models with hand-computed margins, and a depth-100
// tree.
func ownCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	var cases []gentest.Case
	// add adds a model in both precisions; the hand-computed values hold for
	// float64, and for float32 too when exact32 is set.
	add := func(file, name string, rows, want [][]float64, class []int, exact32 bool) {
		for _, c := range s.Both(t, load(t, file), name, rows) {
			if c.Precision == codegen.Float64 || exact32 {
				c.Margins, c.Classes = want, class
			}
			c.Allocs = true
			cases = append(cases, c)
		}
	}
	// x1 < 0.5 with NaN going left; base -0.5.
	add("stump.json", "stump",
		[][]float64{{0, 0.4}, {0, 0.5}, {0, nan}, {0, inf}, {nan, -inf}},
		[][]float64{{-1.75}, {1.5}, {-1.75}, {1.5}, {-1.75}},
		[]int{0, 1, 0, 1, 0}, true)
	// mean of an oblique tree (<=), a vector tree and a constant tree.
	add("mean.json", "mean",
		[][]float64{{0, 0}, {1, 2.5}, {nan, 0}, {inf, inf}},
		[][]float64{{10, 1.5}, {1 + 17.0/3, 1.5}, {1 + 29.0/3, 3.5}, {1 + 29.0/3, 3.5}},
		nil, false)
	// a softmax leaf over classes 0 and 2; NaN margins make NaN values.
	add("softmax.json", "softmax",
		[][]float64{{-1, 1}, {-1, nan}, {1, 0}, {nan, 0}, {-1, inf}},
		[][]float64{{0.5, 0, 0.5}, {nan, 0, nan}, {0.2, 0.3, 0.5}, {0.2, 0.3, 0.5}, {nan, 0, nan}},
		[]int{0, 0, 2, 2, 0}, false)
	// float32(x) < float32(0.1): 0.09999999999 rounds up to float32(0.1).
	add("f32compare.json", "f32cmp",
		[][]float64{{0.1}, {0.09999999999}, {0.0999999}, {nan}, {-inf}},
		[][]float64{{2}, {2}, {1}, {2}, {1}},
		nil, true)
	// Signed zeros: the softmax leaf's value for class 1 is +0, and
	// -0 + +0 = +0 (ir/doc.go: "0 for every class outside the subset").
	negZero := math.Copysign(0, -1)
	add("negzero.json", "negzero",
		[][]float64{{-1}, {nan}, {negZero}, {1}},
		[][]float64{{1, 0}, {1, 0}, {negZero, 0}, {negZero, 0}},
		[]int{0, 0, 0, 0}, true)
	// Soft nodes of width 0 (left iff the margin is > 0, NaN by the default
	// direction); the value of a soft tree is 0 + v, so a leaf of -0 adds
	// +0, which turns a margin of -0 into +0.
	add("softhard.json", "softhard",
		[][]float64{{0, 0}, {-0.5, 0}, {-1, 0.25}, {nan, 0}, {0, nan}, {1, -inf}},
		[][]float64{{0, 0}, {2, 0}, {3, 0}, {2, 0}, {3, 0}, {0, 0}},
		nil, true)
	// Float32Sum from a base score of -1e-50: the sums start at -0 in
	// float32, and the softmax leaf adds +0 to class 1, outside it; the
	// other leaf adds -0 (and -1e-50, -0 in float32).
	add("sum32negzero.json", "sum32negzero",
		[][]float64{{-1}, {1}, {nan}},
		[][]float64{{1, 0}, {negZero, negZero}, {negZero, negZero}},
		nil, true)

	var deepRows [][]float64
	for v := -1.0; v <= 101; v += 0.5 {
		deepRows = append(deepRows, []float64{v})
	}
	deepRows = append(deepRows, []float64{nan}, []float64{inf}, []float64{-inf})
	return append(cases, s.Both(t, deepModel(), "deep", deepRows)...)
}

// deepModel is a depth-100 tree whose splits all hang on the left.
func deepModel() *ir.Model {
	m := &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity}
	t := ir.Tree{Output: 0}
	for d := 0; d < ir.MaxDepth; d++ {
		i := len(t.Nodes)
		t.Nodes = append(t.Nodes, ir.Node{Kind: ir.Axis, Left: i + 2, Right: i + 1, Threshold: float64(ir.MaxDepth - d), DefaultLeft: d%2 == 0})
		t.Nodes = append(t.Nodes, ir.Node{Kind: ir.Leaf, Value: []float64{float64(d)}})
	}
	t.Nodes = append(t.Nodes, ir.Node{Kind: ir.Leaf, Value: []float64{-1}})
	m.Trees = []ir.Tree{t}
	return m
}

func TestRefusals(t *testing.T) {
	soft := load(t, "stump.json")
	soft.Trees = append(soft.Trees, soft.Trees[0])
	soft.Trees[1].Nodes = append([]ir.Node(nil), soft.Trees[1].Nodes...)
	soft.Trees[1].Nodes[0] = ir.Node{Kind: ir.Soft, Left: 1, Right: 2, Indices: []int{0}, Weights: []float64{1}, Gamma: 1}
	for _, tc := range []struct {
		name string
		m    *ir.Model
		want string
	}{
		{"soft", soft, "ifelse backend: tree 1 has soft nodes: use the smoothstep backend"},
	} {
		if err := tc.m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err := codegen.Generate(tc.m, codegen.Options{Package: "p", Backend: ifelse.Name})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if err := ifelse.Check(tc.m); err == nil {
			t.Errorf("%s: Check accepts the model", tc.name)
		}
		if (ifelse.Backend{}).Suited(tc.m) {
			t.Errorf("%s: the backend is suited to a model it cannot compile", tc.name)
		}
	}
}

// TestBigModel generates and builds a random ensemble of 2,000 trees of
// depth 6 and reports the time each step takes.
func TestBigModel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 2,000-tree model")
	}
	gentest.SkipIfNoGo(t)
	m := randmodel.Model(3, randmodel.Options{AxisOnly: true, Trees: 2000, MinDepth: 6, MaxDepth: 6, Full: true, Features: 50, Task: ir.Binary})
	// A source name of its own makes the files new to the build cache.
	start := time.Now()
	files, err := codegen.Generate(m, codegen.Options{Package: "big", Backend: ifelse.Name, Source: "big " + time.Now().String()})
	gen := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	mod, err := harness.NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := gentest.WritePackage(mod, "big", files); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if _, err := mod.GoCmd("build", "./big"); err != nil {
		t.Fatal(err)
	}
	t.Logf("2,000 trees of depth 6: generated %d files, %d bytes in %v; go build in %v",
		len(files), size, gen.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}
