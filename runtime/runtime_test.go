package runtime

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// bitsEqual reports whether a and b have the same bits; any two NaNs are
// equal (their payloads depend on operand order, which Go does not fix).
func bitsEqual[F Float](a, b F) bool {
	if a != a && b != b {
		return true
	}
	if isFloat32[F]() {
		return math.Float32bits(float32(a)) == math.Float32bits(float32(b))
	}
	return math.Float64bits(float64(a)) == math.Float64bits(float64(b))
}

func toF[F Float](xs []float64) []F {
	out := make([]F, len(xs))
	for i, x := range xs {
		out[i] = F(x)
	}
	return out
}

// checkAgainstReference compares a Predictor (both layouts) with the
// reference evaluator on rows, bit for bit.
func checkAgainstReference[F Float](t *testing.T, m *ir.Model, rows [][]float64) {
	t.Helper()
	fast, err := New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := build[F](m, true)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]F, m.NumOutputs)
	for ri, row := range rows {
		x := toF[F](row)
		wantMargin, wantPred := reference[F](m, x)
		for _, p := range []*Predictor[F]{fast, gen} {
			if err := p.PredictMargin(x, out); err != nil {
				t.Fatal(err)
			}
			for k := range out {
				if !bitsEqual(out[k], wantMargin[k]) {
					t.Fatalf("%s row %d %v: margin[%d] = %v, reference %v", m.Name, ri, row, k, out[k], wantMargin[k])
				}
			}
			if err := p.Predict(x, out); err != nil {
				t.Fatal(err)
			}
			for k := range out {
				if !bitsEqual(out[k], wantPred[k]) {
					t.Fatalf("%s row %d: pred[%d] = %v, reference %v", m.Name, ri, k, out[k], wantPred[k])
				}
			}
		}
	}
	// The batch API gives the same answers, margins and predictions, over
	// several blocks of rows and a partial one.
	var flat []F
	for len(flat) < (2*batchRows+7)*m.NumFeatures {
		for _, row := range rows {
			flat = append(flat, toF[F](row)...)
		}
	}
	flat = flat[:(2*batchRows+7)*m.NumFeatures]
	n := len(flat) / m.NumFeatures
	for _, margin := range []bool{false, true} {
		batch := make([]F, n*m.NumOutputs)
		if err := fast.PredictBatch(flat, batch, margin); err != nil {
			t.Fatal(err)
		}
		for ri := 0; ri < n; ri++ {
			wantMargin, wantPred := reference[F](m, flat[ri*m.NumFeatures:(ri+1)*m.NumFeatures])
			want := wantPred
			if margin {
				want = wantMargin
			}
			for k := range want {
				if !bitsEqual(batch[ri*m.NumOutputs+k], want[k]) {
					t.Fatalf("%s batch row %d (margin %v): out[%d] = %v, reference %v", m.Name, ri, margin, k, batch[ri*m.NumOutputs+k], want[k])
				}
			}
		}
	}
}

func TestRandomModelsMatchReference(t *testing.T) {
	kinds := []struct {
		name string
		opts randmodel.Options
	}{
		{"axis", randmodel.Options{AxisOnly: true, Float32Sum: true}},
		{"oblique", randmodel.Options{Oblique: 0.5, SoftmaxLeaf: 0.3, Float32Sum: true}},
		{"categorical", randmodel.Options{Categorical: 0.5}},
		{"soft", randmodel.Options{Soft: 0.7, Oblique: 0.1, SoftmaxLeaf: 0.2, Float32Sum: true}},
		{"latent", randmodel.Options{Oblique: 0.5, Latent: true, Float32Sum: true}},
		{"latent-elu", randmodel.Options{Oblique: 0.5, Latent: true, LatentElu: true, Float32Sum: true}},
		{"deep", randmodel.Options{AxisOnly: true, MinDepth: 10, MaxDepth: 14, Trees: 3}},
	}
	for _, kind := range kinds {
		t.Run(kind.name, func(t *testing.T) {
			for seed := uint64(1); seed <= 150; seed++ {
				m := randmodel.Model(seed, kind.opts)
				rows := randmodel.Rows(seed, 40, m.NumFeatures)
				checkAgainstReference[float64](t, m, rows)
				checkAgainstReference[float32](t, m, rows)
			}
		})
	}
}

// A soft node with gamma 0 and weights (w, b) routes like a hard oblique
// node with (-w, -b) and "<".
func TestSoftGammaZeroIsHard(t *testing.T) {
	for seed := uint64(1); seed <= 100; seed++ {
		soft := randmodel.Model(seed, randmodel.Options{Soft: 1, MaxDepth: 5})
		hard := randmodel.Model(seed, randmodel.Options{Soft: 1, MaxDepth: 5})
		for ti := range soft.Trees {
			for i := range soft.Trees[ti].Nodes {
				s := &soft.Trees[ti].Nodes[i]
				h := &hard.Trees[ti].Nodes[i]
				if s.Kind != ir.Soft {
					continue
				}
				s.Gamma = 0
				h.Kind, h.Gamma, h.LessEqual = ir.Oblique, 0, false
				h.Bias = -s.Bias
				h.Weights = make([]float64, len(s.Weights))
				for j, w := range s.Weights {
					h.Weights[j] = -w
				}
			}
		}
		ps, err := New[float64](soft)
		if err != nil {
			t.Fatal(err)
		}
		ph, err := New[float64](hard)
		if err != nil {
			t.Fatal(err)
		}
		a := make([]float64, soft.NumOutputs)
		b := make([]float64, soft.NumOutputs)
		for _, row := range randmodel.Rows(seed, 50, soft.NumFeatures) {
			ps.PredictMargin(row, a)
			ph.PredictMargin(row, b)
			for k := range a {
				// Equal up to the rounding of the soft sum (0 + 1·v).
				if a[k] != b[k] && !(math.IsNaN(a[k]) && math.IsNaN(b[k])) && math.Abs(a[k]-b[k]) > 1e-12*math.Abs(b[k]) {
					t.Fatalf("seed %d row %v: soft %v, hard %v", seed, row, a[k], b[k])
				}
			}
		}
	}
}

// Hand-worked cases, one per rule of ir/doc.go.
func TestSemantics(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	leaf := func(v ...float64) ir.Node { return ir.Node{Kind: ir.Leaf, Value: v} }
	axis := func(f int, thr float64, le, dl bool) ir.Node {
		return ir.Node{Kind: ir.Axis, Feature: f, Threshold: thr, LessEqual: le, DefaultLeft: dl, Left: 1, Right: 2}
	}
	one := func(root ir.Node, mod func(*ir.Model)) *ir.Model {
		m := &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 2, NumOutputs: 1,
			Aggregation: ir.Sum, Link: ir.Identity,
			Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{root, leaf(-1), leaf(1)}}}}
		if mod != nil {
			mod(m)
		}
		return m
	}
	tests := []struct {
		name  string
		model *ir.Model
		x     []float64
		want  []float64 // margins
	}{
		{"less than goes left", one(axis(0, 0.5, false, false), nil), []float64{0.4, 0}, []float64{-1}},
		{"equal goes right with <", one(axis(0, 0.5, false, false), nil), []float64{0.5, 0}, []float64{1}},
		{"equal goes left with <=", one(axis(0, 0.5, true, false), nil), []float64{0.5, 0}, []float64{-1}},
		{"NaN default right", one(axis(0, 0.5, false, false), nil), []float64{nan, 0}, []float64{1}},
		{"NaN default left", one(axis(0, 0.5, false, true), nil), []float64{nan, 0}, []float64{-1}},
		{"NaN default left with <=", one(axis(0, 0.5, true, true), nil), []float64{nan, 0}, []float64{-1}},
		{"+Inf is a value", one(axis(0, 0.5, false, true), nil), []float64{inf, 0}, []float64{1}},
		{"-Inf is a value", one(axis(0, 0.5, false, false), nil), []float64{-inf, 0}, []float64{-1}},
		// 0.1 < float64(float32(0.1)), but equal in float32.
		{"float64 compare", one(axis(0, float64(float32(0.1)), false, false), nil), []float64{0.1, 0}, []float64{-1}},
		{"float32 compare", one(axis(0, float64(float32(0.1)), false, false), func(m *ir.Model) { m.Float32Compare = true }), []float64{0.1, 0}, []float64{1}},
		{"preprocess", one(axis(0, 0, false, false), func(m *ir.Model) {
			m.Preprocess = &ir.Affine{Shift: []float64{10, 0}, Scale: []float64{2, 1}}
		}), []float64{9, 0}, []float64{-1}},
		{"base score", one(axis(0, 0.5, false, false), func(m *ir.Model) { m.BaseScore = []float64{0.25} }), []float64{0, 0}, []float64{-0.75}},
		{"oblique", one(ir.Node{Kind: ir.Oblique, Indices: []int{0, 1}, Weights: []float64{1, -1}, Bias: 0.5, Left: 1, Right: 2}, nil),
			[]float64{1, 2}, []float64{-1}}, // 1 - 2 + 0.5 < 0
		{"oblique Inf-Inf is NaN", one(ir.Node{Kind: ir.Oblique, Indices: []int{0, 1}, Weights: []float64{1, -1}, DefaultLeft: true, Left: 1, Right: 2}, nil),
			[]float64{inf, inf}, []float64{-1}},
		{"soft half way", one(ir.Node{Kind: ir.Soft, Indices: []int{0}, Weights: []float64{1}, Gamma: 1, Left: 1, Right: 2}, nil),
			[]float64{0, 0}, []float64{0}}, // 0.5·(-1) + 0.5·1
		{"soft saturated left", one(ir.Node{Kind: ir.Soft, Indices: []int{0}, Weights: []float64{1}, Gamma: 1, Left: 1, Right: 2}, nil),
			[]float64{0.5, 0}, []float64{-1}},
		{"soft quarter", one(ir.Node{Kind: ir.Soft, Indices: []int{0}, Weights: []float64{1}, Gamma: 1, Left: 1, Right: 2}, nil),
			[]float64{0.25, 0}, []float64{-(0.25*(1.5-2*0.25*0.25) + 0.5) + (1 - (0.25*(1.5-2*0.25*0.25) + 0.5))}},
		{"mean", func() *ir.Model {
			m := one(axis(0, 0.5, false, false), func(m *ir.Model) { m.Aggregation = ir.Mean; m.BaseScore = []float64{1} })
			m.Trees = append(m.Trees, ir.Tree{Output: 0, Nodes: []ir.Node{leaf(2)}})
			return m
		}(), []float64{0, 0}, []float64{1 + (-1+2)/2.0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := New[float64](tc.model)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float64, len(tc.want))
			if err := p.PredictMargin(tc.x, got); err != nil {
				t.Fatal(err)
			}
			for k := range got {
				if got[k] != tc.want[k] {
					t.Fatalf("margin = %v, want %v", got, tc.want)
				}
			}
		})
	}
}

func TestLinksAndClasses(t *testing.T) {
	m := &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Multiclass, NumFeatures: 1, NumOutputs: 3,
		Aggregation: ir.Sum, Link: ir.Softmax,
		Trees: []ir.Tree{{Output: ir.AllOutputs, Nodes: []ir.Node{{Kind: ir.Leaf, Value: []float64{1, 3, 2}}}}}}
	p, err := New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 3)
	p.Predict([]float64{0}, out)
	e1, e2 := math.Exp(1-3), math.Exp(2-3)
	s := e1 + 1 + e2
	want := []float64{e1 / s, 1 / s, e2 / s}
	for k := range want {
		if out[k] != want[k] {
			t.Fatalf("softmax = %v, want %v", out, want)
		}
	}
	if c, _ := p.PredictClass([]float64{0}); c != 1 || p.ClassOf(out) != 1 {
		t.Fatalf("class = %d, ClassOf %d, want 1", c, p.ClassOf(out))
	}
	if c := p.ClassOf([]float64{0.2, 0.4, 0.4}); c != 1 {
		t.Fatalf("ClassOf of a tie = %d, want the first, 1", c)
	}
	m = &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Binary, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Sigmoid,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{{Kind: ir.Axis, Left: 1, Right: 2}, {Kind: ir.Leaf, Value: []float64{-2}}, {Kind: ir.Leaf, Value: []float64{0}}}}}}
	p, err = New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		x     float64
		pred  float64
		class int
	}{{-1, 1 / (1 + math.Exp(2)), 0}, {1, 0.5, 0}} {
		out := make([]float64, 1)
		p.Predict([]float64{tc.x}, out)
		c, _ := p.PredictClass([]float64{tc.x})
		if out[0] != tc.pred || c != tc.class || p.ClassOf(out) != tc.class {
			t.Fatalf("x=%v: pred %v class %d, want %v %d", tc.x, out[0], c, tc.pred, tc.class)
		}
	}
}

func TestErrors(t *testing.T) {
	m := randmodel.Model(1, randmodel.Options{AxisOnly: true, Features: 3, Task: ir.Regression})
	p, err := New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Predict(make([]float64, 2), make([]float64, 1)); !errors.Is(err, ErrFeatureCount) {
		t.Errorf("short row: %v", err)
	}
	if err := p.Predict(make([]float64, 3), make([]float64, 2)); !errors.Is(err, ErrOutputSize) {
		t.Errorf("long output: %v", err)
	}
	if err := p.PredictBatch(make([]float64, 7), make([]float64, 2), false); !errors.Is(err, ErrBatchShape) {
		t.Errorf("ragged batch: %v", err)
	}
	if err := p.PredictBatch(make([]float64, 6), make([]float64, 3), false); !errors.Is(err, ErrOutputSize) {
		t.Errorf("batch output: %v", err)
	}
	m.Trees[0].Nodes[0].Kind = "bogus"
	if _, err := New[float64](m); err == nil {
		t.Error("New accepted an invalid model")
	}
}

func TestNoAllocations(t *testing.T) {
	kinds := map[string]randmodel.Options{
		"axis":    {AxisOnly: true, Trees: 20},
		"oblique": {Oblique: 0.5, SoftmaxLeaf: 0.5, Trees: 20},
		"soft":    {Soft: 0.8, Trees: 5},
		"latent":  {Oblique: 0.5, Latent: true},
	}
	for _, name := range []string{"axis", "oblique", "soft", "latent"} {
		m := randmodel.Model(7, kinds[name])
		p, err := New[float64](m)
		if err != nil {
			t.Fatal(err)
		}
		x := randmodel.Rows(1, 1, m.NumFeatures)[0]
		out := make([]float64, m.NumOutputs)
		batch := append(append([]float64{}, x...), x...)
		bout := make([]float64, 2*m.NumOutputs)
		p.Predict(x, out) // warm the scratch pool
		if n := testing.AllocsPerRun(100, func() { p.Predict(x, out) }); n != 0 {
			t.Errorf("%s: Predict allocates %v times per row", name, n)
		}
		if n := testing.AllocsPerRun(100, func() { p.PredictClass(x) }); n != 0 {
			t.Errorf("%s: PredictClass allocates %v times per row", name, n)
		}
		if n := testing.AllocsPerRun(100, func() { p.PredictBatch(batch, bout, false) }); n != 0 {
			t.Errorf("%s: PredictBatch allocates %v times", name, n)
		}
	}
}

func ExamplePredictor() {
	// A stump: x0 < 0.5 scores -1, otherwise +1, then the sigmoid.
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Binary, NumFeatures: 1, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Sigmoid,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 0, Threshold: 0.5, Left: 1, Right: 2},
			{Kind: ir.Leaf, Value: []float64{-1}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}}},
	}
	p, err := New[float64](m)
	if err != nil {
		panic(err)
	}
	out := make([]float64, 1)
	for _, x := range []float64{0, 1, math.NaN()} {
		p.Predict([]float64{x}, out)
		class, _ := p.PredictClass([]float64{x})
		fmt.Printf("x=%v p=%.4f class=%d\n", x, out[0], class)
	}
	// Output:
	// x=0 p=0.2689 class=0
	// x=1 p=0.7311 class=1
	// x=NaN p=0.7311 class=1
}

// TestPredictLatent: PredictLatent gives the reference's z of every latent
// tree, in both precisions, and refuses wrong lengths.
func TestPredictLatent(t *testing.T) {
	for seed := uint64(1); seed <= 60; seed++ {
		m := randmodel.Model(seed, randmodel.Options{Oblique: 0.5, Latent: true, LatentElu: seed%2 == 0})
		checkLatent[float64](t, m, randmodel.Rows(seed, 30, m.NumFeatures))
		checkLatent[float32](t, m, randmodel.Rows(seed, 30, m.NumFeatures))
	}
	m := randmodel.Model(1, randmodel.Options{AxisOnly: true})
	p, err := New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.PredictLatent(make([]float64, m.NumFeatures), nil); err != nil {
		t.Fatalf("a model without latent trees: %v", err)
	}
	if err := p.PredictLatent(make([]float64, m.NumFeatures), make([]float64, 1)); err != ErrOutputSize {
		t.Fatalf("z of length 1 for a model without latent trees: %v", err)
	}
}

func checkLatent[F Float](t *testing.T, m *ir.Model, rows [][]float64) {
	t.Helper()
	p, err := New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	z := make([]F, m.LatentSize())
	for _, row := range rows {
		x := make([]F, len(row))
		for j, v := range row {
			x[j] = F(v)
		}
		if err := p.PredictLatent(x, z); err != nil {
			t.Fatal(err)
		}
		xp := slices.Clone(x)
		if a := m.Preprocess; a != nil {
			for j := range xp {
				xp[j] = (x[j] - F(a.Shift[j])) * F(a.Scale[j])
			}
		}
		var want []F
		for i := range m.Trees {
			if m.Trees[i].Latent {
				want = append(want, refLatent(m, &m.Trees[i], xp)...)
			}
		}
		for j := range want {
			if z[j] != want[j] {
				t.Fatalf("%s: z[%d] = %v, reference %v", m.Name, j, z[j], want[j])
			}
		}
	}
	if err := p.PredictLatent(make([]F, m.NumFeatures), make([]F, len(z)+1)); err != ErrOutputSize {
		t.Fatalf("z one too long: %v", err)
	}
	if err := p.PredictLatent(make([]F, m.NumFeatures+1), z); err != ErrFeatureCount {
		t.Fatalf("row one too long: %v", err)
	}
}
