package lightgbm

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// The models in testdata/ are written by hand in LightGBM's text format
// (GBDT::SaveModelToString, Tree::ToString); the expected predictions come
// from the reference evaluator in reference_test.go and, for the rows of
// TestHandWorkedRows, from working the trees by hand.

// z is kZeroThreshold as a double.
var z = float64(float32(1e-35))

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func decodeTestdata(t testing.TB, name string) *ir.Model {
	t.Helper()
	m, err := Decode(readTestdata(t, name), name)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Validate(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}

// sum adds its arguments in order in float64, starting from 0, as
// LightGBM accumulates tree outputs.
func sum(xs ...float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s
}

// margins runs the interpreter on one row.
func margins(t testing.TB, m *ir.Model, x []float64) []float64 {
	t.Helper()
	p, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, m.NumOutputs)
	if err := p.PredictMargin(x, out); err != nil {
		t.Fatal(err)
	}
	return out
}

func same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

var nan = math.NaN()

// TestHandWorkedRows checks rows whose raw scores were worked out by hand
// from the trees in testdata/, path by path.
func TestHandWorkedRows(t *testing.T) {
	for _, c := range []struct {
		file string
		x    []float64
		want []float64
	}{
		// binary.txt. Tree 0: age <= 30.5 (NaN left) ? [income <= -0.25
		// (NaN right) ? leaf0 : leaf2] : [score <= 0.75 (None) ? leaf1 :
		// leaf3]. Tree 1: score <= -z (None: NaN is 0, which goes right) ?
		// 0.05 : [income <= 1.5 (NaN left) ? -0.075 : 0.125]. Tree 2: a
		// single leaf, -0.03125.
		{"binary.txt", []float64{25, -1, nan}, []float64{sum(-0.40229357798165142, -0.075000000000000011, -0.03125)}},
		{"binary.txt", []float64{nan, nan, nan}, []float64{sum(-0.11726384364820847, -0.075000000000000011, -0.03125)}},
		{"binary.txt", []float64{40, 0, 0.75}, []float64{sum(0.21351351351351353, -0.075000000000000011, -0.03125)}},
		{"binary.txt", []float64{40, 2, nan}, []float64{sum(0.21351351351351353, 0.125, -0.03125)}},
		{"binary.txt", []float64{30.5, -0.25, -z}, []float64{sum(-0.40229357798165142, 0.050000000000000003, -0.03125)}},
		// zero.txt: stump i adds +2^i when it goes left, -2^i when right
		// (i < 10); tree 10 adds 1000..4000. At 0 every stump takes its
		// default side: left for 0-3 and 8, right for 4-7 and 9; tree 10
		// goes left (x default left), then y = 0 <= 0.5: 1000.
		{"zero.txt", []float64{0, 0}, []float64{sum(1, 2, 4, 8, -16, -32, -64, -128, 256, -512, 1000)}},
		// x = -1 is not in the zero band: stumps compare -1 <= t, so only
		// the two with t = -1.5 go right. Tree 10: -1 <= -0.5, left; y = 4
		// > 0.5: 2000.
		{"zero.txt", []float64{-1, 4}, []float64{sum(1, 2, 4, -8, -16, 32, 64, 128, 256, 512, 2000)}},
		// x = -1.7 <= -1.5 goes left everywhere; tree 10 left, y = NaN goes
		// right (NaN type, default right): 2000.
		{"zero.txt", []float64{-1.7, nan}, []float64{sum(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 2000)}},
		// x = NaN is missing like 0; tree 10 left, y = 0.75 > 0.5: 2000.
		{"zero.txt", []float64{nan, 0.75}, []float64{sum(1, 2, 4, 8, -16, -32, -64, -128, 256, -512, 2000)}},
		// x = -z is in the band (IsZero is inclusive): the default sides
		// again; tree 10 left, y = 1e-35 <= 0.5 (y's node has missing type
		// NaN, no band): 1000.
		{"zero.txt", []float64{-z, 1e-35}, []float64{sum(1, 2, 4, 8, -16, -32, -64, -128, 256, -512, 1000)}},
		// x = 1 is above every t but 2.5. Tree 10: 1 > -0.5, right; y =
		// 1e-35 is in the band of y's zero-missing node, default right:
		// 4000.
		{"zero.txt", []float64{1, 1e-35}, []float64{sum(1, -2, -4, -8, -16, -32, -64, 128, -256, -512, 4000)}},
		// Just outside the band, x = nextafter(z, +Inf) compares normally:
		// only t = 2.5 goes left. Tree 10 right; y just below -z: left of
		// -z, 3000.
		{"zero.txt", []float64{math.Nextafter(z, 1), math.Nextafter(-z, -1)}, []float64{sum(1, -2, -4, -8, -16, -32, -64, 128, -256, -512, 3000)}},
		// x = 2 > 0: stumps with t = 2.5 go left, the others right. Tree 10
		// right; y = 2 is in (z, 3]: left, 3000.
		{"zero.txt", []float64{2, 2}, []float64{sum(1, -2, -4, -8, -16, -32, -64, 128, -256, -512, 3000)}},
		// none.txt: stump i adds +-2^i. NaN is 0 for None (trees 0-4),
		// missing for NaN (trees 5-7: right, left, left).
		{"none.txt", []float64{nan}, []float64{sum(1, -2, 4, -8, 16, -32, 64, 128)}},
		{"none.txt", []float64{-z}, []float64{sum(1, -2, 4, 8, 16, 32, 64, 128)}},
		{"none.txt", []float64{1e-35}, []float64{sum(1, -2, -4, -8, 16, -32, -64, -128)}},
		// categorical.txt. Tree 0: color in {0,2,31,32,33,63} ? [shape in
		// {1,5} (NaN right) ? 0.5 : [size <= 10.5 (NaN right) ? 0.25 :
		// -0.25]] : -0.75. Tree 1: shape in 0..31 ? 0.125 : -0.125. Tree 2:
		// size <= 3 (None) ? 0.0625 : [size <= 20 ? -0.0625 : 0.03125].
		{"categorical.txt", []float64{33, 5, 1}, []float64{sum(0.5, 0.125, -0.0625)}},
		{"categorical.txt", []float64{-0.5, nan, nan}, []float64{sum(-0.25, -0.125, 0.0625)}},
		{"categorical.txt", []float64{1e10, 12, 31.9}, []float64{sum(-0.75, 0.125, -0.0625)}},
		{"categorical.txt", []float64{2.7, 0, 5}, []float64{sum(0.5, 0.125, 0.0625)}},
		{"categorical.txt", []float64{-1, 0, 0}, []float64{sum(-0.75, 0.125, 0.0625)}},
		{"categorical.txt", []float64{nan, 11, 32}, []float64{sum(-0.75, -0.125, -0.0625)}},
		// multiclass.txt: trees 0, 3, 6 score class 0, trees 1, 4, 7 class
		// 1, trees 2, 5, 8 class 2 (tree 2 a single leaf).
		{"multiclass.txt", []float64{5.1, 3.5, 1.4, 0.2}, []float64{
			sum(-0.95000000000000007, 0.10000000000000001, 0.029999999999999999),
			sum(-1.2, 0.080000000000000002, -0.01),
			sum(-1.0986122886681098, -0.070000000000000007, -0.029999999999999999),
		}},
		{"multiclass.txt", []float64{6.3, nan, 5.1, 1.8}, []float64{
			sum(-1.25, -0.050000000000000003, -0.02),
			// petal_width 1.8 > 1.75: -1.3; NaN sepal_width is 0 <= 2.85: 0.02.
			sum(-1.3, -0.040000000000000001, 0.02),
			sum(-1.0986122886681098, 0.11, 0.040000000000000001),
		}},
		// poisson.txt. Tree 0: speed <= 80.5 ? [exposure <= 0.25 (zero
		// missing, left) ? a : b] : c. Tree 1: speed <= 120 (NaN right).
		{"poisson.txt", []float64{0, 100}, []float64{sum(-0.51082562376599072, -0.021)}},
		{"poisson.txt", []float64{0.5, 50}, []float64{sum(-1.2039728043259361, -0.021)}},
		{"poisson.txt", []float64{nan, nan}, []float64{sum(-1.6094379124341003, 0.034000000000000002)}},
	} {
		m := decodeTestdata(t, c.file)
		got := margins(t, m, c.x)
		ref := parseRef(t, readTestdata(t, c.file)).predictRaw(c.x)
		for k := range c.want {
			if !same(got[k], c.want[k]) || !same(ref[k], c.want[k]) {
				t.Errorf("%s %v: margin[%d] = %v (IR), %v (reference), want %v", c.file, c.x, k, got[k], ref[k], c.want[k])
			}
		}
	}
}

// edgeValues are feature values that probe every boundary the importer
// translates: the zero band of kZeroThreshold and just outside it, signed
// zeros, the int cast of categorical tests, infinities and NaN.
var edgeValues = []float64{
	0, math.Copysign(0, -1), nan, math.Inf(1), math.Inf(-1),
	1e-35, -1e-35, z, -z, math.Nextafter(z, 1), math.Nextafter(-z, -1), math.Nextafter(z, 0), math.Nextafter(-z, 0),
	1e-34, -1e-34, 5e-324, -5e-324, 1e-300, -1e-300,
	-1, -0.5, -0.9999999999999999, 0.5, 1, 2, 2.7, 5, 31, 31.9, 32, 33, 63, 64, 1e10, -1e10,
	2147483647, 2147483647.5, 2147483648, -2147483648, -2147483649, math.MaxFloat64, -math.MaxFloat64,
}

// testRows returns rows mixing, feature by feature, edge values, the
// model's thresholds and their neighbours, and random numbers.
func testRows(ref *refModel, numFeatures, n int, seed uint64) [][]float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	thr := ref.thresholds(numFeatures)
	rows := make([][]float64, n)
	for i := range rows {
		x := make([]float64, numFeatures)
		for j := range x {
			switch r := rng.IntN(10); {
			case r < 3:
				x[j] = edgeValues[rng.IntN(len(edgeValues))]
			case r < 6 && len(thr[j]) > 0:
				t := thr[j][rng.IntN(len(thr[j]))]
				x[j] = []float64{t, math.Nextafter(t, math.Inf(1)), math.Nextafter(t, math.Inf(-1))}[rng.IntN(3)]
			case r < 8:
				x[j] = float64(rng.IntN(70) - 3) // small integers: categories
			default:
				x[j] = rng.NormFloat64() * []float64{1e-34, 1, 10, 100}[rng.IntN(4)]
			}
		}
		rows[i] = x
	}
	return rows
}

// TestMatchesReference compares the interpreter on the imported model with
// the reference evaluator on the LightGBM file, bit for bit, on many rows.
func TestMatchesReference(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil || len(files) < 6 {
		t.Fatalf("test models: %v %v", files, err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data := readTestdata(t, name)
			checkAgainstReference(t, data, name, 1, 20000)
		})
	}
}

// checkAgainstReference decodes data and compares margins with the
// reference: bit for bit when scale is a power of two (margins are scale
// times LightGBM's raw scores), else within a relative 1e-12. Predictions
// (after the link) are compared with LightGBM's ConvertOutput written with
// math.Exp, within a relative 1e-14.
func checkAgainstReference(t *testing.T, data []byte, name string, scale float64, n int) {
	t.Helper()
	m, err := Decode(data, name)
	if err != nil {
		t.Fatal(err)
	}
	ref := parseRef(t, data)
	p, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	frac, _ := math.Frexp(scale)
	exact := frac == 0.5 // scale is a power of two
	got := make([]float64, m.NumOutputs)
	pred := make([]float64, m.NumOutputs)
	bad := 0
	for _, x := range testRows(ref, m.NumFeatures, n, uint64(len(data))) {
		raw := ref.predictRaw(x)
		if err := p.PredictMargin(x, got); err != nil {
			t.Fatal(err)
		}
		if err := p.Predict(x, pred); err != nil {
			t.Fatal(err)
		}
		want := lightgbmConvert(m, raw, scale)
		for k := range raw {
			w := raw[k] * scale
			ok := same(got[k], w)
			if !exact {
				ok = math.Abs(got[k]-w) <= 1e-12*math.Max(1, math.Abs(w))
			}
			if !ok || math.Abs(pred[k]-want[k]) > 1e-14*math.Max(1, math.Abs(want[k])) {
				bad++
				if bad <= 5 {
					t.Errorf("row %v: margin[%d] = %v, want %v (scale %v); prediction %v, want %v", x, k, got[k], w, scale, pred[k], want[k])
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d disagreements", bad)
	}
}

// lightgbmConvert is ObjectiveFunction::ConvertOutput of the model's
// objective, from LightGBM's raw scores (sigmoid scales by the parameter).
func lightgbmConvert(m *ir.Model, raw []float64, sigmoid float64) []float64 {
	out := make([]float64, len(raw))
	switch m.Link {
	case ir.Identity:
		copy(out, raw)
	case ir.Exp:
		for k, v := range raw {
			out[k] = math.Exp(v)
		}
	case ir.Sigmoid:
		for k, v := range raw {
			out[k] = 1.0 / (1.0 + math.Exp(-sigmoid*v))
		}
	case ir.Softmax:
		mx := slices.Max(raw)
		s := 0.0
		for k, v := range raw {
			out[k] = math.Exp(v - mx)
			s += out[k]
		}
		for k := range out {
			out[k] /= s
		}
	}
	return out
}

// TestSigmoidParameter: LightGBM's binary sigmoid is 1/(1+exp(-s·m)); the
// importer scales the leaves by s.
func TestSigmoidParameter(t *testing.T) {
	base := string(readTestdata(t, "binary.txt"))
	for _, s := range []float64{0.5, 2, 0.7, 1.3} {
		text := strings.Replace(base, "objective=binary sigmoid:1\n", "objective=binary sigmoid:"+strconv.FormatFloat(s, 'g', -1, 64)+"\n", 1)
		checkAgainstReference(t, []byte(text), "binary.txt", s, 5000)
	}
	text := strings.Replace(base, "objective=binary sigmoid:1\n", "objective=multiclassova num_class:1 sigmoid:0.25\n", 1)
	if _, err := Decode([]byte(text), "ova.txt"); err == nil {
		t.Error("multiclassova with one class: no error")
	}
}

// TestAverageOutput: random forests (average_output) divide the sum of
// each output by the number of iterations: the IR's mean aggregation.
func TestAverageOutput(t *testing.T) {
	for _, name := range []string{"regression.txt", "multiclass.txt"} {
		text := string(readTestdata(t, name))
		text = strings.Replace(text, "feature_names=", "average_output\nfeature_names=", 1)
		m, err := Decode([]byte(text), name)
		if err != nil {
			t.Fatal(err)
		}
		if m.Aggregation != ir.Mean {
			t.Errorf("%s: aggregation %q, want mean", name, m.Aggregation)
		}
		checkAgainstReference(t, []byte(text), name, 1, 5000)
	}
}

// TestZeroMissingStructure checks how each Zero-missing-type split is
// translated: one node where the zero band falls on the default side
// anyway, three nodes and copied subtrees where it does not.
func TestZeroMissingStructure(t *testing.T) {
	m := decodeTestdata(t, "zero.txt")
	type axis struct {
		thr       float64
		le, defLt bool
	}
	for _, c := range []struct {
		tree int
		want []axis // the axis nodes in order
	}{
		{0, []axis{{2.5000000000000004, true, true}}}, // default left, t >= z
		{1, []axis{{z, true, true}}},                  // default left, t = 0
		{2, []axis{{z, true, true}}},                  // default left, t = -z
		{3, []axis{{-1.5000000000000002, true, true}, {-z, false, false}, {z, true, false}}}, // default left, t < -z
		{4, []axis{{-1.5000000000000002, true, false}}},                                      // default right, t < -z
		{5, []axis{{-z, false, false}}},                                                      // default right, t = 0
		{6, []axis{{-z, false, false}}},                                                      // default right, t = z
		{7, []axis{{2.5000000000000004, true, false}, {-z, false, false}, {z, true, false}}}, // default right, t > z
		{8, []axis{{z, true, true}}},                                                         // default left, t = z
		{9, []axis{{-z, false, false}}},                                                      // default right, t = -z
	} {
		var got []axis
		for _, n := range m.Trees[c.tree].Nodes {
			if n.Kind == ir.Axis {
				got = append(got, axis{n.Threshold, n.LessEqual, n.DefaultLeft})
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("tree %d: axis nodes %v, want %v", c.tree, got, c.want)
		}
	}
	// Tree 3: the two leaves are each needed twice.
	var leaves []float64
	for _, n := range m.Trees[3].Nodes {
		if n.Kind == ir.Leaf {
			leaves = append(leaves, n.Value[0])
		}
	}
	if want := []float64{8, -8, 8, -8}; !slices.Equal(leaves, want) {
		t.Errorf("tree 3 leaves %v, want %v", leaves, want)
	}
	// Tree 10: root expanded into three nodes; its left subtree (3 nodes)
	// and its right subtree (itself expanded: 3 splits, 4 leaves) twice.
	if n := len(m.Trees[10].Nodes); n != 3+2*3+2*7 {
		t.Errorf("tree 10 has %d nodes, want %d", n, 3+2*3+2*7)
	}
}

// TestCanonicalOrder checks the renumbering of binary.txt's first tree,
// whose LightGBM numbering is not pre-order (the root's left child is
// node 2).
func TestCanonicalOrder(t *testing.T) {
	m := decodeTestdata(t, "binary.txt")
	want := []ir.Node{
		{Kind: ir.Axis, Feature: 0, Threshold: 30.500000000000004, LessEqual: true, DefaultLeft: true, Left: 1, Right: 4},
		{Kind: ir.Axis, Feature: 1, Threshold: -0.24999999999999997, LessEqual: true, Left: 2, Right: 3},
		{Kind: ir.Leaf, Value: []float64{-0.40229357798165142}},
		{Kind: ir.Leaf, Value: []float64{-0.11726384364820847}},
		{Kind: ir.Axis, Feature: 2, Threshold: 0.75000000000000011, LessEqual: true, DefaultLeft: true, Left: 5, Right: 6},
		{Kind: ir.Leaf, Value: []float64{0.21351351351351353}},
		{Kind: ir.Leaf, Value: []float64{0.38095238095238099}},
	}
	got := m.Trees[0].Nodes
	if len(got) != len(want) {
		t.Fatalf("%d nodes, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Kind != w.Kind || g.Feature != w.Feature || g.Threshold != w.Threshold || g.LessEqual != w.LessEqual ||
			g.DefaultLeft != w.DefaultLeft || g.Left != w.Left || g.Right != w.Right || !slices.Equal(g.Value, w.Value) {
			t.Errorf("node %d = %+v, want %+v", i, g, w)
		}
	}
	// Tree 2 is a single leaf.
	if n := m.Trees[2].Nodes; len(n) != 1 || n[0].Kind != ir.Leaf || n[0].Value[0] != -0.03125 {
		t.Errorf("tree 2 = %+v, want one leaf -0.03125", n)
	}
}

func TestCategoricalNodes(t *testing.T) {
	m := decodeTestdata(t, "categorical.txt")
	root := m.Trees[0].Nodes[0]
	if root.Kind != ir.Categorical || root.Feature != 0 || root.DefaultLeft || !slices.Equal(root.Categories, []int{0, 2, 31, 32, 33, 63}) {
		t.Errorf("tree 0 root = %+v, want categorical on feature 0 with [0 2 31 32 33 63]", root)
	}
	n1 := m.Trees[0].Nodes[1]
	if n1.Kind != ir.Categorical || n1.Feature != 2 || n1.DefaultLeft || !slices.Equal(n1.Categories, []int{1, 5}) {
		t.Errorf("tree 0 node 1 = %+v, want categorical on feature 2 with [1 5]", n1)
	}
	if c := m.Trees[1].Nodes[0].Categories; len(c) != 32 || c[0] != 0 || c[31] != 31 {
		t.Errorf("tree 1 root categories %v, want 0..31", c)
	}
}

func TestMetadata(t *testing.T) {
	for _, c := range []struct {
		file     string
		task     ir.Task
		link     ir.Link
		k        int
		classes  []string
		features []string
		version  string
	}{
		{"binary.txt", ir.Binary, ir.Sigmoid, 1, []string{"0", "1"}, []string{"age", "income", "score"}, "v4"},
		{"multiclass.txt", ir.Multiclass, ir.Softmax, 3, []string{"0", "1", "2"}, []string{"sepal_length", "sepal_width", "petal_length", "petal_width"}, "v3"},
		{"regression.txt", ir.Regression, ir.Identity, 1, nil, []string{"rooms", "age", "distance"}, "v4"},
		{"poisson.txt", ir.Regression, ir.Exp, 1, nil, []string{"exposure", "speed"}, "v4"},
		{"none.txt", ir.Regression, ir.Identity, 1, nil, []string{"x"}, "v3"},
	} {
		m := decodeTestdata(t, c.file)
		if m.Task != c.task || m.Link != c.link || m.NumOutputs != c.k || !slices.Equal(m.ClassNames, c.classes) ||
			!slices.Equal(m.FeatureNames, c.features) || m.NumFeatures != len(c.features) || m.Aggregation != ir.Sum || m.BaseScore != nil || m.Float32Compare {
			t.Errorf("%s: task %s link %s outputs %d classes %v features %v aggregation %s base %v f32 %v",
				c.file, m.Task, m.Link, m.NumOutputs, m.ClassNames, m.FeatureNames, m.Aggregation, m.BaseScore, m.Float32Compare)
		}
		pv := m.Provenance
		if pv == nil || pv.Producer != "lightgbm" || pv.Params["version"] != c.version || pv.Params["objective"] == "" {
			t.Errorf("%s: provenance %+v", c.file, pv)
		}
	}
	m := decodeTestdata(t, "multiclass.txt")
	for i, tr := range m.Trees {
		if tr.Output != i%3 {
			t.Errorf("multiclass tree %d writes output %d, want %d", i, tr.Output, i%3)
		}
	}
}

// TestObjectives checks the task and link of every objective LightGBM
// writes, and the refusals.
func TestObjectives(t *testing.T) {
	base := string(readTestdata(t, "regression.txt"))
	for _, c := range []struct {
		objective string
		task      ir.Task
		link      ir.Link
		err       string
	}{
		{"regression", ir.Regression, ir.Identity, ""},
		{"regression_l1", ir.Regression, ir.Identity, ""},
		{"huber", ir.Regression, ir.Identity, ""},
		{"huber sqrt", ir.Regression, ir.Identity, ""},
		{"fair", ir.Regression, ir.Identity, ""},
		{"quantile", ir.Regression, ir.Identity, ""},
		{"mape", ir.Regression, ir.Identity, ""},
		{"poisson", ir.Regression, ir.Exp, ""},
		{"gamma", ir.Regression, ir.Exp, ""},
		{"tweedie", ir.Regression, ir.Exp, ""},
		{"cross_entropy", ir.Regression, ir.Sigmoid, ""},
		{"lambdarank", ir.Regression, ir.Identity, ""},
		{"rank_xendcg", ir.Regression, ir.Identity, ""},
		{"custom", ir.Regression, ir.Identity, ""},
		{"binary sigmoid:1", ir.Binary, ir.Sigmoid, ""},
		{"regression sqrt", "", "", `model.txt:7: objective "regression sqrt": the sqrt label transform (reg_sqrt) predicts sign(m)·m², which has no IR link`},
		{"quantile sqrt", "", "", `model.txt:7: objective "quantile sqrt": the sqrt label transform (reg_sqrt) predicts sign(m)·m², which has no IR link`},
		{"cross_entropy_lambda", "", "", `model.txt:7: objective "cross_entropy_lambda" predicts log(1+exp(m)), which has no IR link`},
		{"xentropy", "", "", `model.txt:7: unknown objective "xentropy" (known: regression, regression_l1, huber, fair, quantile, mape, poisson, gamma, tweedie, binary, multiclass, multiclassova, cross_entropy, lambdarank, rank_xendcg)`},
		{"binary", "", "", `model.txt:7: objective "binary": the sigmoid parameter is missing`},
		{"binary sigmoid:x", "", "", `model.txt:7: objective "binary sigmoid:x": sigmoid:x is not a number`},
		{"binary sigmoid:-1", "", "", `model.txt:7: objective "binary sigmoid:-1": sigmoid must be a finite number > 0, got -1`},
		{"multiclass", "", "", `model.txt:7: objective "multiclass": the num_class parameter is missing`},
		{"multiclass num_class:3", "", "", `model.txt:4: objective "multiclass num_class:3" has num_class:3, but the header has num_class=1 and num_tree_per_iteration=1`},
	} {
		text := strings.Replace(base, "objective=regression\n", "objective="+c.objective+"\n", 1)
		m, err := Decode([]byte(text), "model.txt")
		if c.err != "" {
			if err == nil || err.Error() != c.err {
				t.Errorf("objective %q: error %v, want %s", c.objective, err, c.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("objective %q: %v", c.objective, err)
			continue
		}
		if m.Task != c.task || m.Link != c.link {
			t.Errorf("objective %q: task %s link %s, want %s %s", c.objective, m.Task, m.Link, c.task, c.link)
		}
	}
	// No objective line (a custom objective): raw scores.
	text := strings.Replace(base, "objective=regression\n", "", 1)
	m, err := Decode([]byte(text), "model.txt")
	if err != nil || m.Task != ir.Regression || m.Link != ir.Identity {
		t.Errorf("no objective: %v", err)
	}
	// multiclassova: one sigmoid per class.
	mc := string(readTestdata(t, "multiclass.txt"))
	text = strings.Replace(mc, "objective=multiclass num_class:3\n", "objective=multiclassova num_class:3 sigmoid:1\n", 1)
	m, err = Decode([]byte(text), "ova.txt")
	if err != nil || m.Task != ir.Multiclass || m.Link != ir.Sigmoid || m.NumOutputs != 3 {
		t.Fatalf("multiclassova: %v", err)
	}
	checkAgainstReference(t, []byte(text), "ova.txt", 1, 3000)
	text = strings.Replace(mc, "objective=multiclass num_class:3\n", "objective=multiclassova num_class:3 sigmoid:0.5\n", 1)
	checkAgainstReference(t, []byte(text), "ova.txt", 0.5, 3000)
	// A custom objective with three trees per iteration: three raw outputs.
	text = strings.Replace(mc, "objective=multiclass num_class:3\n", "", 1)
	m, err = Decode([]byte(text), "custom.txt")
	if err != nil || m.Task != ir.MultiOutput || m.Link != ir.Identity || m.NumOutputs != 3 {
		t.Fatalf("custom multi-output: %v", err)
	}
	checkAgainstReference(t, []byte(text), "custom.txt", 1, 3000)
}

func TestLoad(t *testing.T) {
	m, err := Load(filepath.Join("testdata", "regression.txt"))
	if err != nil || len(m.Trees) != 2 {
		t.Fatalf("Load: %v", err)
	}
	_, err = Load(filepath.Join("testdata", "missing.txt"))
	if err == nil || !os.IsNotExist(err) {
		t.Errorf("Load of a missing file: %v", err)
	}
}

// TestFormatVariants: CRLF line ends, a v2 header, no tree_sizes and no
// trailing sections decode to the same model.
func TestFormatVariants(t *testing.T) {
	base := string(readTestdata(t, "categorical.txt"))
	want := decodeTestdata(t, "categorical.txt")
	for name, text := range map[string]string{
		"crlf":          strings.ReplaceAll(base, "\n", "\r\n"),
		"v2":            strings.Replace(base, "version=v4", "version=v2", 1),
		"no tree_sizes": strings.Replace(base, "tree_sizes=409 304 336\n", "", 1),
		"no trailer":    base[:strings.Index(base, "end of trees")+len("end of trees")],
	} {
		m, err := Decode([]byte(text), name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if len(m.Trees) != len(want.Trees) {
			t.Errorf("%s: %d trees, want %d", name, len(m.Trees), len(want.Trees))
			continue
		}
		for i := range m.Trees {
			if len(m.Trees[i].Nodes) != len(want.Trees[i].Nodes) {
				t.Errorf("%s: tree %d differs", name, i)
			}
		}
		if name == "v2" && m.Provenance.Params["version"] != "v2" {
			t.Errorf("v2: provenance %v", m.Provenance.Params)
		}
	}
}
