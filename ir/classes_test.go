package ir_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/cart"
	"github.com/treegen/treegen/train/e2e"
	"github.com/treegen/treegen/train/gbdt"
	"github.com/treegen/treegen/train/latent"
	"github.com/treegen/treegen/train/tao"
	"github.com/treegen/treegen/train/tel"
)

// binaryData reads the first rows of breast_cancer_wisconsin, a binary
// data set.
func binaryData(t *testing.T) *data.Dataset {
	t.Helper()
	d, err := data.ReadFile("../testdata/pmlb/breast_cancer_wisconsin.tsv.gz", data.Options{Target: "target"})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestSwapBinaryClassesTrainers swaps the classes of the binary model of
// every trainer: with the sigmoid link the margins must be exactly the
// negated margins, with the identity link the predictions exactly 1 - P
// rounded in the working precision; the class names are swapped. TAO's
// two-class model, multiclass with softmax leaves, is refused.
func TestSwapBinaryClassesTrainers(t *testing.T) {
	d := binaryData(t)
	telOpts := tel.DefaultOptions(tel.Logistic)
	telOpts.Trees, telOpts.Depth, telOpts.Epochs, telOpts.Threads = 2, 2, 2, 1
	latOpts := latent.DefaultOptions(latent.Logistic)
	latOpts.Depth, latOpts.Epochs, latOpts.Threads = 2, 2, 1
	tests := []struct {
		name    string
		train   func() (*ir.Model, error)
		refused string // "" if the swap must succeed
	}{
		{"cart", func() (*ir.Model, error) { return cart.Train(d, cart.Options{MaxDepth: 4}) }, ""},
		{"gbdt", func() (*ir.Model, error) {
			return gbdt.Train(d, nil, gbdt.Options{Objective: gbdt.Logistic, Rounds: 5, MaxDepth: 3})
		}, ""},
		{"tel", func() (*ir.Model, error) { return tel.Train(d, nil, telOpts) }, ""},
		{"e2e", func() (*ir.Model, error) { return e2e.Train(d, nil, e2e.Options{Trees: 3, MaxDepth: 2, Epochs: 2}) }, ""},
		{"latent", func() (*ir.Model, error) { return latent.Train(d, nil, latOpts) }, ""},
		// TAO's two-class model is a multiclass one with softmax leaves.
		{"tao", func() (*ir.Model, error) { return tao.Train(d, nil, tao.Options{}) }, "only a binary model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := tt.train()
			if err != nil {
				t.Fatal(err)
			}
			if m.Task != ir.Binary && tt.refused == "" {
				t.Fatalf("the %s model is %s, not binary", tt.name, m.Task)
			}
			swapped := clone(t, m)
			err = swapped.SwapBinaryClasses()
			if tt.refused != "" {
				if err == nil || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("SwapBinaryClasses: %v, want an error about %q", err, tt.refused)
				}
				if !sameJSON(t, m, swapped) {
					t.Error("a refused swap changed the model")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := swapped.Validate(); err != nil {
				t.Fatal(err)
			}
			if want := []string{m.ClassNames[1], m.ClassNames[0]}; !slices.Equal(swapped.ClassNames, want) {
				t.Errorf("class names %q, want %q", swapped.ClassNames, want)
			}
			checkSwapped[float64](t, m, swapped, d)
			checkSwapped[float32](t, m, swapped, d)
		})
	}
}

// checkSwapped compares the predictions of m and of its swapped copy s on
// the rows of d in precision F.
func checkSwapped[F runtime.Float](t *testing.T, m, s *ir.Model, d *data.Dataset) {
	t.Helper()
	p, err := runtime.New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	q, err := runtime.New[F](s)
	if err != nil {
		t.Fatal(err)
	}
	x := make([]F, m.NumFeatures)
	a, b := make([]F, 1), make([]F, 1)
	bad := 0
	for r := range d.Rows {
		for j, v := range d.Row(r) {
			x[j] = F(v)
		}
		var want F
		if m.Link == ir.Sigmoid {
			_ = p.PredictMargin(x, a)
			_ = q.PredictMargin(x, b)
			want = -a[0]
		} else {
			_ = p.Predict(x, a)
			_ = q.Predict(x, b)
			want = 1 - a[0]
		}
		if b[0] != want {
			bad++
			if bad <= 5 {
				t.Errorf("row %d: swapped model gives %v, want %v (the original %v)", r, b[0], want, a[0])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d rows differ", bad, d.Rows)
	}
}

func clone(t *testing.T, m *ir.Model) *ir.Model {
	t.Helper()
	b, err := ir.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	c, err := ir.Decode(b, "clone")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func sameJSON(t *testing.T, a, b *ir.Model) bool {
	t.Helper()
	x, err := ir.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	y, err := ir.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(x) == string(y)
}

// stump returns a binary model of one split with the given link, leaves
// -1 and 2, base score base and class names no and yes.
func stump(link ir.Link, base ...float64) *ir.Model {
	return &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Binary, NumFeatures: 1, NumOutputs: 1,
		ClassNames: []string{"no", "yes"}, BaseScore: base, Aggregation: ir.Sum, Link: link,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Left: 1, Right: 2, Threshold: 0.5},
			{Kind: ir.Leaf, Value: []float64{-1}},
			{Kind: ir.Leaf, Value: []float64{2}},
		}}},
	}
}

// TestSetPositiveClass checks the positive class by name: unchanged, swapped,
// and refused with the reason (an unknown class, listing the classes; a
// model that cannot be swapped exactly).
func TestSetPositiveClass(t *testing.T) {
	twoTrees := stump(ir.Identity)
	twoTrees.Trees = append(twoTrees.Trees, twoTrees.Trees[0])
	unnamed := stump(ir.Sigmoid)
	unnamed.ClassNames = nil
	multi := stump(ir.Softmax)
	multi.Task, multi.NumOutputs, multi.ClassNames = ir.Multiclass, 2, []string{"a", "b"}
	multi.Trees[0].Output = ir.AllOutputs
	for i := 1; i <= 2; i++ {
		multi.Trees[0].Nodes[i].Value = []float64{1, float64(i)}
	}
	tests := []struct {
		name    string
		m       *ir.Model
		class   string
		wantErr string
		classes []string
		leaves  []float64 // the leaves after the call
		base    []float64
	}{
		{"already", stump(ir.Sigmoid, 0.25), "yes", "", []string{"no", "yes"}, []float64{-1, 2}, []float64{0.25}},
		{"sigmoid", stump(ir.Sigmoid, 0.25), "no", "", []string{"yes", "no"}, []float64{1, -2}, []float64{-0.25}},
		{"sigmoid no base", stump(ir.Sigmoid), "no", "", []string{"yes", "no"}, []float64{1, -2}, nil},
		{"identity", stump(ir.Identity), "no", "", []string{"yes", "no"}, []float64{1, -2}, []float64{1}},
		{"unknown", stump(ir.Sigmoid), "maybe", `no class "maybe": the model's classes are "no" and "yes"`, nil, nil, nil},
		{"identity base", stump(ir.Identity, 0.5), "no", "base score 0.5", nil, nil, nil},
		{"identity sum", twoTrees, "no", "sums 2 trees", nil, nil, nil},
		{"exp link", stump(ir.Exp), "no", "exp link does not output a probability", nil, nil, nil},
		{"unnamed", unnamed, "no", "classes have no names", nil, nil, nil},
		{"multiclass", multi, "a", "needs a binary model, not a multiclass one", nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := clone(t, tt.m)
			err := tt.m.SetPositiveClass(tt.class)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("SetPositiveClass(%q) = %v, want an error containing %q", tt.class, err, tt.wantErr)
				}
				if !sameJSON(t, before, tt.m) {
					t.Error("a refused call changed the model")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(tt.m.ClassNames, tt.classes) {
				t.Errorf("class names %q, want %q", tt.m.ClassNames, tt.classes)
			}
			nodes := tt.m.Trees[0].Nodes
			if got := []float64{nodes[1].Value[0], nodes[2].Value[0]}; !slices.Equal(got, tt.leaves) {
				t.Errorf("leaves %v, want %v", got, tt.leaves)
			}
			if !slices.Equal(tt.m.BaseScore, tt.base) {
				t.Errorf("base score %v, want %v", tt.m.BaseScore, tt.base)
			}
		})
	}
}

// TestSetClassNames checks the count, emptiness and uniqueness of names.
func TestSetClassNames(t *testing.T) {
	reg := stump(ir.Identity)
	reg.Task, reg.ClassNames = ir.Regression, nil
	tests := []struct {
		name    string
		m       *ir.Model
		names   []string
		wantErr string
	}{
		{"binary", stump(ir.Sigmoid), []string{"benign", "malignant"}, ""},
		{"too many", stump(ir.Sigmoid), []string{"a", "b", "c"}, `3 class names for a model of 2 classes (binary): "a", "b", "c"`},
		{"one", stump(ir.Sigmoid), []string{"a"}, "1 class names for a model of 2 classes"},
		{"empty", stump(ir.Sigmoid), []string{"a", ""}, "class name 2 is empty"},
		{"twice", stump(ir.Sigmoid), []string{"a", "a"}, `class names 1 and 2 are both "a"`},
		{"regression", reg, []string{"a", "b"}, "a regression model has no classes to name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := slices.Clone(tt.m.ClassNames)
			err := tt.m.SetClassNames(tt.names)
			if tt.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(tt.m.ClassNames, tt.names) {
					t.Errorf("class names %q, want %q", tt.m.ClassNames, tt.names)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("SetClassNames(%q) = %v, want an error containing %q", tt.names, err, tt.wantErr)
			}
			if !slices.Equal(tt.m.ClassNames, before) {
				t.Error("a refused call changed the class names")
			}
		})
	}
}
