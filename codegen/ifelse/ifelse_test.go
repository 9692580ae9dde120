package ifelse_test

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
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/ir"
)

var (
	update = flag.Bool("update", false, "rewrite golden files")
	models = flag.Int("models", 0, "number of random models of TestGenerated (default 120, 20 with -short)")
	seed   = flag.Uint64("seed", 1, "seed of the random models of TestGenerated")
)

// precisions are the two working precisions, in test order.
var precisions = []codegen.Precision{codegen.Float64, codegen.Float32}

func load(t *testing.T, name string) *ir.Model {
	t.Helper()
	m, err := ir.Load(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func generate(t *testing.T, m *ir.Model, pkg string, prec codegen.Precision) []codegen.File {
	t.Helper()
	files, err := codegen.Generate(m, codegen.Options{Package: pkg, Backend: ifelse.Name, Precision: prec, Source: "test", OmitVersion: true})
	if err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	return files
}

// buildCase is a model to build in the shared module, with what to check.
type buildCase struct {
	gentest.Case
	model *ir.Model
	// want, if set, holds hand-computed margins (float64 packages).
	want [][]float64
	// wantClass, if set, holds hand-computed classes.
	wantClass []int
	// noOracle, if set, says why the case is not compared with the
	// interpreter.
	noOracle string
}

func newCase(t *testing.T, m *ir.Model, name string, prec codegen.Precision, rows [][]float64) buildCase {
	t.Helper()
	files := generate(t, m, name, prec)
	if _, err := gentest.CheckLiterals(files, m, prec == codegen.Float32); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if err := gentest.CheckImports(files); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	return buildCase{
		Case: gentest.Case{
			Name: name, Files: files, Float32: prec == codegen.Float32,
			NumFeatures: m.NumFeatures, NumOutputs: m.NumOutputs, Classifier: m.IsClassifier(),
			Inputs: rows,
		},
		model: m,
	}
}

var nan, inf = math.NaN(), math.Inf(1)

// handCases are small models with hand-computed margins.
func handCases(t *testing.T) []buildCase {
	var cases []buildCase
	// add adds a model in both precisions; the hand-computed values hold for
	// float64, and for float32 too when exact32 is set.
	add := func(file, name string, rows, want [][]float64, class []int, exact32 bool) {
		m := load(t, file)
		for _, prec := range precisions {
			c := newCase(t, m, name+string(prec[len(prec)-2:]), prec, rows)
			if prec == codegen.Float64 || exact32 {
				c.want, c.wantClass = want, class
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
	for i := len(cases) - 4; i < len(cases)-2; i++ {
		cases[i].noOracle = "the interpreter adds nothing for the classes outside a softmax leaf, " +
			"so -0 stays -0 where ir/doc.go adds +0"
	}
	return cases
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

// TestGenerated builds, in one module, the hand-computed models, a
// depth-100 tree and many random models in both precisions (some with soft
// nodes of width 0), and checks that
// the generated packages compute exactly what the interpreter computes (and,
// for the hand models, what the hand computed), pass go vet, have only
// model values as float literals, and do not allocate.
func TestGenerated(t *testing.T) {
	gentest.SkipIfNoGo(t)
	cases := handCases(t)

	deep := deepModel()
	var deepRows [][]float64
	for v := -1.0; v <= 101; v += 0.5 {
		deepRows = append(deepRows, []float64{v})
	}
	deepRows = append(deepRows, []float64{nan}, []float64{inf}, []float64{-inf})
	for _, prec := range precisions {
		cases = append(cases, newCase(t, deep, "deep"+string(prec[len(prec)-2:]), prec, deepRows))
	}

	n := 120
	if testing.Short() {
		n = 20
	}
	if *models > 0 {
		n = *models
	}
	r := rand.New(rand.NewPCG(*seed, 2))
	for i := 0; i < n; i++ {
		m := gentest.RandomModel(r, gentest.DefaultRandom)
		if err := m.Validate(); err != nil {
			t.Fatalf("random model %d is invalid: %v", i, err)
		}
		rows := gentest.RandomInputs(r, m, 40)
		for _, prec := range precisions {
			c := newCase(t, m, fmt.Sprintf("r%03d%s", i, prec[len(prec)-2:]), prec, rows)
			c.Allocs = i < 5
			cases = append(cases, c)
		}
	}
	// Soft nodes of width γ = 0: hard splits that go left iff the margin is
	// > 0, in trees whose value is 0 + the leaf value (ir/doc.go).
	opts := gentest.DefaultRandom
	opts.SoftGammas = []float64{0}
	for i := 0; i < n/2; i++ {
		m := gentest.RandomModel(r, opts)
		if err := m.Validate(); err != nil {
			t.Fatalf("random model with soft nodes %d is invalid: %v", i, err)
		}
		rows := gentest.RandomInputs(r, m, 40)
		for _, prec := range precisions {
			c := newCase(t, m, fmt.Sprintf("g%03d%s", i, prec[len(prec)-2:]), prec, rows)
			c.Allocs = i < 2
			cases = append(cases, c)
		}
	}
	if t.Failed() {
		return
	}

	exp := make([]gentest.Expect, len(cases))
	for i, c := range cases {
		exp[i] = gentest.Expect{Case: c.Case, Model: c.model, Margins: c.want, Classes: c.wantClass, NoOracle: c.noOracle}
	}
	gentest.BuildAndCompare(t, exp)
}

func TestRefusals(t *testing.T) {
	soft := load(t, "stump.json")
	soft.Trees = append(soft.Trees, soft.Trees[0])
	soft.Trees[1].Nodes = append([]ir.Node(nil), soft.Trees[1].Nodes...)
	soft.Trees[1].Nodes[0] = ir.Node{Kind: ir.Soft, Left: 1, Right: 2, Indices: []int{0}, Weights: []float64{1}, Gamma: 1}
	act := 0.5
	latent := load(t, "stump.json")
	latent.Trees = append(latent.Trees, ir.Tree{Output: ir.AllOutputs, Latent: true, Nodes: []ir.Node{{Kind: ir.Leaf, Activity: &act}}})
	latent.Readout = &ir.Readout{Weights: [][]float64{{0, 0, 0}}, Bias: []float64{0}}
	for _, tc := range []struct {
		name string
		m    *ir.Model
		want string
	}{
		{"soft", soft, "ifelse backend: tree 1 has soft nodes: use the smoothstep backend"},
		{"latent", latent, "ifelse backend: tree 1 is latent: latent trees are not supported by the ifelse backend yet"},
	} {
		if err := tc.m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err := codegen.Generate(tc.m, codegen.Options{Package: "p"})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if err := ifelse.Check(tc.m); err == nil {
			t.Errorf("%s: Check accepts the model", tc.name)
		}
	}
}

// TestGolden compares the generated source of a small model with
// testdata/golden/*.go.golden; go test -update rewrites them.
func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		model string
		prec  codegen.Precision
	}{
		{"mean.json", codegen.Float64},
		{"softmax.json", codegen.Float32},
	} {
		m := load(t, tc.model)
		files := generate(t, m, "golden", tc.prec)
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
		line, g, w := firstDiff(got.Bytes(), want)
		t.Errorf("%s: generated source differs from %s, first at line %d:\n got: %s\nwant: %s\n"+
			"(diff %s %s.got; go test -update rewrites the golden file)", tc.model, path, line, g, w, path, path)
	}
}

// firstDiff returns the 1-based number of the first line where a and b
// differ, and the two lines.
func firstDiff(a, b []byte) (int, string, string) {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y || i >= len(la) || i >= len(lb) {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}

// TestBigModel generates and builds a random ensemble of 2,000 trees of
// depth 6 and reports the time each step takes.
func TestBigModel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 2,000-tree model")
	}
	gentest.SkipIfNoGo(t)
	r := rand.New(rand.NewPCG(3, 4))
	m := &ir.Model{FormatVersion: ir.FormatVersion, Name: "big", Task: ir.Binary, NumFeatures: 50, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Sigmoid}
	for i := 0; i < 2000; i++ {
		t := ir.Tree{Output: 0}
		var grow func(depth int) int
		grow = func(depth int) int {
			i := len(t.Nodes)
			t.Nodes = append(t.Nodes, ir.Node{})
			if depth == 6 {
				t.Nodes[i] = ir.Node{Kind: ir.Leaf, Value: []float64{float64(float32(r.NormFloat64() / 10))}}
				return i
			}
			n := ir.Node{Kind: ir.Axis, Feature: r.IntN(50), Threshold: float64(float32(r.NormFloat64())), DefaultLeft: r.IntN(2) == 0}
			n.Left = grow(depth + 1)
			n.Right = grow(depth + 1)
			t.Nodes[i] = n
			return i
		}
		grow(0)
		m.Trees = append(m.Trees, t)
	}
	// A source name of its own makes the files new to the build cache.
	start := time.Now()
	files, err := codegen.Generate(m, codegen.Options{Package: "big", Source: "big " + time.Now().String()})
	gen := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	mod, err := gentest.NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := mod.Add(gentest.Case{Name: "big", Files: files}); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if _, err := mod.GoCmd("build", "./big"); err != nil {
		t.Fatal(err)
	}
	t.Logf("2,000 trees of depth 6: generated %d files, %d bytes in %v; go build in %v",
		len(files), size, gen.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}
