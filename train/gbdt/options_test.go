package gbdt

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

func TestOptionErrors(t *testing.T) {
	good := column([]float64{1, 2, 3, 4}, []float64{0, 1, 0, 1})
	nan := math.NaN()
	two := newData([][]float64{{1, 0}, {2, 1}, {3, 0}, {4, 1}}, []float64{0, 1, 0, 1})
	logit := func(o Options) Options { o.Objective = Logistic; return o }
	tests := []struct {
		name string
		d    *data.Dataset
		opts Options
		want string
	}{
		{"negative alpha", good, logit(Options{Alpha: -1}), "Alpha must be a finite number >= 0, got -1"},
		{"NaN alpha", good, logit(Options{Alpha: nan}), "Alpha must be a finite number >= 0"},
		{"negative max delta step", good, logit(Options{MaxDeltaStep: -0.5}), "MaxDeltaStep must be a finite number >= 0, got -0.5"},
		{"infinite max delta step", good, logit(Options{MaxDeltaStep: math.Inf(1)}), "MaxDeltaStep must be a finite number >= 0"},
		{"colsample by level above 1", good, logit(Options{ColSampleByLevel: 1.5}), "ColSampleByLevel must be in (0, 1], got 1.5"},
		{"negative colsample by node", good, logit(Options{ColSampleByNode: -0.1}), "ColSampleByNode must be in (0, 1], got -0.1"},
		{"negative max cat to onehot", good, logit(Options{MaxCatToOnehot: -1}), "MaxCatToOnehot is negative (-1)"},
		{"monotone 2", two, logit(Options{MonotoneConstraints: []int{0, 2}}), "MonotoneConstraints[1] is 2; want -1, 0 or +1"},
		{"monotone too long", good, logit(Options{MonotoneConstraints: []int{1, 0}}), "MonotoneConstraints has 2 entries, the training set 1 features"},
		{"categorical out of range", two, logit(Options{Categorical: []int{2}}), "Categorical names feature 2; the training set has features 0 to 1"},
		{"categorical twice", two, logit(Options{Categorical: []int{1, 1}}), "Categorical names feature 1 twice"},
		{"categorical and monotone", two, logit(Options{Categorical: []int{1}, MonotoneConstraints: []int{0, -1}}), `feature 1 ("x1") is categorical and has a monotone constraint`},
		{"fractional category", column([]float64{1, 2.5, 3, nan}, []float64{0, 1, 0, 1}), logit(Options{Categorical: []int{0}}),
			`categorical feature 0 ("x0"): row 1 (0-based) has the value 2.5, not a category (an integer from 0 to 2147483647)`},
		{"negative category", column([]float64{1, 2, -3, 4}, []float64{0, 1, 0, 1}), logit(Options{Categorical: []int{0}}), "row 2 (0-based) has the value -3"},
		{"infinite category", column([]float64{math.Inf(1), 2, 3, 4}, []float64{0, 1, 0, 1}), logit(Options{Categorical: []int{0}}), "row 0 (0-based) has the value +Inf"},
		{"huge category", column([]float64{1 << 31, 2, 3, 4}, []float64{0, 1, 0, 1}), logit(Options{Categorical: []int{0}}), "row 0 (0-based) has the value 2.147483648e+09"},
		{"too many categories", manyCategories(257, false), logit(Options{Categorical: []int{0}}), `categorical feature 0 ("x0") has more than 256 categories`},
		{"too many categories with missing values", manyCategories(256, true), logit(Options{Categorical: []int{0}}), `categorical feature 0 ("x0") has more than 255 categories`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.d, nil, tt.opts)
			if err == nil {
				t.Fatalf("no error (model with %d trees), want one containing %q", len(m.Trees), tt.want)
			}
			if !strings.HasPrefix(err.Error(), "gbdt: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one starting with \"gbdt: \" and containing %q", err, tt.want)
			}
		})
	}
	// The most categories a feature may have.
	for _, d := range []*data.Dataset{manyCategories(256, false), manyCategories(255, true)} {
		if _, err := Train(d, nil, Options{Objective: Logistic, Rounds: 2, Categorical: []int{0}}); err != nil {
			t.Error(err)
		}
	}
}

// manyCategories returns a one-feature data set with the categories 0..n-1
// times 1000, each twice, and a missing value when missing.
func manyCategories(n int, missing bool) *data.Dataset {
	var x, y []float64
	for c := range n {
		x = append(x, float64(1000*c), float64(1000*c))
		y = append(y, float64(c%2), float64(c/2%2))
	}
	if missing {
		x = append(x, math.NaN())
		y = append(y, 1)
	}
	return column(x, y)
}

// TestRegularisedLeaves checks Alpha and MaxDeltaStep on one split: base
// 5, g = m - y = (5, 5, -5, -5), h = 1; the split x < 3 has G_L = 10,
// H_L = 2.
func TestRegularisedLeaves(t *testing.T) {
	d := column([]float64{1, 2, 3, 4}, []float64{0, 0, 10, 10})
	for _, tt := range []struct {
		name        string
		opts        Options
		left, right float64
	}{
		{"alpha", Options{Alpha: 4}, -(10 - 4) / 3.0 * 0.5, (10 - 4) / 3.0 * 0.5},
		{"alpha above G", Options{Alpha: 12, Gamma: 1e-300}, 0, 0},
		{"max delta step", Options{MaxDeltaStep: 1.5}, -1.5 * 0.5, 1.5 * 0.5},
		{"both", Options{Alpha: 1, MaxDeltaStep: 10}, -9 / 3.0 * 0.5, 9 / 3.0 * 0.5},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Objective, opts.Rounds, opts.LearningRate, opts.MaxDepth = SquaredError, 1, 0.5, 1
			m, err := Train(d, nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			nodes := m.Trees[0].Nodes
			if tt.left == 0 && tt.right == 0 {
				// T(G) = 0 on both sides: no gain, no split.
				if len(nodes) != 1 || nodes[0].Value[0] != 0 {
					t.Fatalf("nodes %+v, want one leaf of value 0", nodes)
				}
				return
			}
			if len(nodes) != 3 || nodes[0].Threshold != 3 {
				t.Fatalf("nodes %+v, want the split x < 3", nodes)
			}
			if l, r := nodes[1].Value[0], nodes[2].Value[0]; math.Abs(l-tt.left) > 1e-15 || math.Abs(r-tt.right) > 1e-15 {
				t.Errorf("leaves %v, %v, want %v, %v", l, r, tt.left, tt.right)
			}
		})
	}
}

// TestMonotone checks that a model trained with monotone constraints
// predicts margins that never fall (rise) as a feature constrained
// upwards (downwards) grows, all else equal, on random rows.
func TestMonotone(t *testing.T) {
	d := randomData(51, 3000, 6, 0, 0.05)
	dc := randomData(52, 3000, 6, 3, 0.05)
	for _, tt := range []struct {
		name string
		d    *data.Dataset
		opts Options
	}{
		{"depth-wise", d, Options{Objective: SquaredError, Rounds: 20, MonotoneConstraints: []int{1, -1, 0, 1, -1}}},
		{"leaf-wise, alpha, max delta step", d, Options{Objective: SquaredError, Rounds: 20, MaxLeaves: 16, Alpha: 2, MaxDeltaStep: 0.5, MonotoneConstraints: []int{-1, 0, 1, 0, 0, 1}}},
		{"softmax", dc, Options{Objective: Softmax, Rounds: 10, MonotoneConstraints: []int{0, 1, -1, 0, 0, -1}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.d, nil, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			p, err := runtime.New[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			free, err := Train(tt.d, nil, Options{Objective: tt.opts.Objective, Rounds: tt.opts.Rounds, MaxLeaves: tt.opts.MaxLeaves})
			if err != nil {
				t.Fatal(err)
			}
			pf, err := runtime.New[float64](free)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			grid := []float64{-20, -8, -4, -2, -1, -0.5, 0, 0.25, 0.5, 0.75, 1, 1.5, 2, 2.5, 3, 4, 8, 20}
			out := make([]float64, m.NumOutputs)
			prev := make([]float64, m.NumOutputs)
			broken := 0 // by the unconstrained model
			for range 200 {
				x := slices.Clone(tt.d.Row(rng.IntN(tt.d.Rows)))
				for f, c := range tt.opts.MonotoneConstraints {
					if c == 0 {
						continue
					}
					saved := x[f]
					for i, v := range grid {
						x[f] = v
						if err := p.PredictMargin(x, out); err != nil {
							t.Fatal(err)
						}
						for k := range out {
							if i > 0 && (c > 0 && out[k] < prev[k] || c < 0 && out[k] > prev[k]) {
								t.Fatalf("feature %d (constraint %+d), margin %d: %v at %v, %v at %v", f, c, k, prev[k], grid[i-1], out[k], v)
							}
						}
						copy(prev, out)
						if err := pf.PredictMargin(x, out); err != nil {
							t.Fatal(err)
						}
						for k := range out {
							if i > 0 && (c > 0 && out[k] < prev[k] || c < 0 && out[k] > prev[k]) {
								broken++
							}
						}
					}
					x[f] = saved
				}
			}
			if broken == 0 {
				t.Error("the unconstrained model is monotone too: the test proves nothing")
			}
		})
	}
}

// TestColumnSampling checks ColSampleByLevel and ColSampleByNode: with
// one feature per level, every split of a depth of a tree is on the same
// feature; with one feature per node, the nodes of a depth split on
// different features.
func TestColumnSampling(t *testing.T) {
	d := randomData(61, 4000, 8, 0, 0.05)
	perTree := func(opts Options) (sameLevel, mixedLevel int) {
		t.Helper()
		opts.Objective, opts.Rounds, opts.MaxDepth, opts.Seed = SquaredError, 10, 4, 5
		m, err := Train(d, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, tree := range m.Trees {
			byDepth := map[int][]int{}
			var walk func(i, depth int)
			walk = func(i, depth int) {
				n := tree.Nodes[i]
				if n.IsLeaf() {
					return
				}
				byDepth[depth] = append(byDepth[depth], n.Feature)
				walk(n.Left, depth+1)
				walk(n.Right, depth+1)
			}
			walk(0, 0)
			for _, fs := range byDepth {
				if len(fs) < 2 {
					continue
				}
				if slices.Min(fs) == slices.Max(fs) {
					sameLevel++
				} else {
					mixedLevel++
				}
			}
		}
		return sameLevel, mixedLevel
	}
	if same, mixed := perTree(Options{ColSampleByLevel: 1.0 / 8}); mixed != 0 || same == 0 {
		t.Errorf("one feature per level: %d levels split on one feature, %d on several", same, mixed)
	}
	if same, mixed := perTree(Options{ColSample: 0.5, ColSampleByNode: 0.25}); mixed == 0 {
		t.Errorf("one feature per node: %d levels split on one feature, %d on several", same, mixed)
	}
	// By node within by level within by tree: 8 features, 4 per tree, 2
	// per level, 1 per node.
	if same, mixed := perTree(Options{ColSample: 0.5, ColSampleByLevel: 0.5, ColSampleByNode: 0.5}); same+mixed == 0 {
		t.Error("no level with two splits")
	}
}

// categoricalData returns a data set of n rows whose features 0 and 2
// are categorical (0: 3 categories, one-hot; 2: 12 categories out of
// 0..40, sorted splits), 1 and 3 numeric, with missing values, and a
// target of c classes (regression when c == 0) that depends on the
// categories.
func categoricalData(seed uint64, n, c int) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 11))
	effect := make([]float64, 41)
	for i := range effect {
		effect[i] = rng.NormFloat64() * 2
	}
	cats := []int{0, 1, 3, 4, 7, 9, 15, 22, 23, 30, 38, 40}
	rows := make([][]float64, n)
	y := make([]float64, n)
	for i := range rows {
		a, b := rng.IntN(3), cats[rng.IntN(len(cats))]
		x1, x3 := rng.NormFloat64(), float64(rng.IntN(5))
		s := effect[b] + float64(a) - x1 + rng.NormFloat64()*0.5
		row := []float64{float64(a), x1, float64(b), x3}
		for j := range row {
			if rng.Float64() < 0.05 {
				row[j] = math.NaN()
			}
		}
		rows[i] = row
		if c == 0 {
			y[i] = s
		} else {
			y[i] = float64(min(max(int(math.Floor(s/2))+c/2, 0), c-1))
		}
	}
	return newData(rows, y)
}

var categoricalCases = []struct {
	name    string
	d       *data.Dataset
	opts    Options
	dataset string // a shared data set instead of d
}{
	{"regression", categoricalData(71, 3000, 0), Options{Objective: SquaredError, Rounds: 15, Categorical: []int{0, 2}}, ""},
	{"softmax, leaf-wise, sampled", categoricalData(72, 3000, 4), Options{Objective: Softmax, Rounds: 8, MaxLeaves: 12,
		Subsample: 0.8, ColSampleByNode: 0.8, Seed: 3, Categorical: []int{0, 2}}, ""},
	{"binary, one-hot up to 20", categoricalData(73, 2000, 2), Options{Objective: Logistic, Rounds: 10, MaxCatToOnehot: 20, Categorical: []int{0, 2}}, ""},
	{"crx", nil, Options{Objective: Logistic, Rounds: 20, Categorical: []int{0, 3, 4, 5, 6, 12}}, "crx"},
}

// TestCategoricalMargins checks categorical splits as TestTrainingMargins
// checks the others: the interpreter's margins on the training rows equal
// the trainer's bit for bit, with validation rows that hold categories the
// training set lacks and negative and huge values too.
func TestCategoricalMargins(t *testing.T) {
	for _, tt := range categoricalCases {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.d
			if tt.dataset != "" {
				d = readDataset(t, tt.dataset)
			}
			r, err := boost(d, nil, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			cats := 0
			for _, tree := range r.model.Trees {
				for _, n := range tree.Nodes {
					if n.Kind == ir.Categorical {
						cats++
						if !slices.IsSorted(n.Categories) || len(n.Categories) == 0 {
							t.Fatalf("categories %v", n.Categories)
						}
					}
				}
			}
			if cats == 0 {
				t.Fatal("no categorical split")
			}
			checkMargins(t, d, r)

		})
	}
}

// TestCategoricalLeafByValues checks that the trainer's leafByValues (the
// validation margins) follows the IR's categorical test, on categories
// the training set lacks and on negative, fractional, huge and infinite
// values too.
func TestCategoricalLeafByValues(t *testing.T) {
	d := categoricalData(74, 2000, 0)
	odd := []float64{-0.5, -1, -7, 0.5, 2.9, 3.5, 41, 1000, 1 << 31, 1<<31 - 1, math.Inf(1), math.Inf(-1), math.NaN()}
	var rows [][]float64
	for r := range 200 {
		for i, v := range odd {
			x := slices.Clone(d.Row(r))
			x[(r+i)%2*2] = v
			rows = append(rows, x)
		}
	}
	b, err := newBooster(d, nil, Options{Objective: SquaredError, MaxDepth: 8, Categorical: []int{0, 2}, MaxCatToOnehot: 2}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	cats := 0
	for range 5 {
		if err := b.round(); err != nil {
			t.Fatal(err)
		}
		g := <-b.growers
		b.growers <- g
		tree := &b.roundTrees[0]
		for _, n := range tree.Nodes {
			if n.Kind == ir.Categorical {
				cats++
			}
		}
		for _, x := range rows {
			i := 0
			for tree.Nodes[i].IsSplit() {
				if irLeft(&tree.Nodes[i], x) {
					i = tree.Nodes[i].Left
				} else {
					i = tree.Nodes[i].Right
				}
			}
			if got, want := g.nodes[leafByValues(g.nodes, x)].value, tree.Nodes[i].Value[0]; got != want {
				t.Fatalf("row %v: leafByValues gives %v, the IR %v", x, got, want)
			}
		}
	}
	if cats == 0 {
		t.Fatal("no categorical split")
	}
}

// TestGeneratedCategorical compiles a model with categorical splits with
// every backend suited to it and compares the generated code with the
// interpreter bit for bit, on the training rows and on rows holding
// every category of every split, unseen ones, and odd values.
func TestGeneratedCategorical(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	d := categoricalData(75, 1500, 3)
	m, err := Train(d, nil, Options{Objective: Softmax, Rounds: 4, MaxDepth: 4, Categorical: []int{0, 2}})
	if err != nil {
		t.Fatal(err)
	}
	rows := make([][]float64, 0, d.Rows)
	for r := range d.Rows {
		rows = append(rows, d.Row(r))
	}
	for _, v := range []float64{-1, -0.5, 0, 0.5, 1, 2, 2.5, 3, 5, 8, 22.9, 40, 41, 1 << 31, math.Inf(1), math.Inf(-1), math.NaN()} {
		for _, f := range []int{0, 2} {
			x := slices.Clone(d.Row(0))
			x[f] = v
			rows = append(rows, x)
		}
	}
	compiled := 0
	for _, be := range codegen.Backends() {
		t.Run(be.Name(), func(t *testing.T) {
			if err := be.Check(m); err != nil {
				t.Skipf("the backend does not compile categorical splits: %v", err)
			}
			compiled++
			files, err := codegen.Generate(m, codegen.Options{Package: "x", Backend: be.Name()})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := codegen.WriteDir(dir, files); err != nil {
				t.Fatal(err)
			}
			if _, err := harness.Verify(context.Background(), dir, m, rows, ir.Float64, harness.Options{}); err != nil {
				t.Error(err)
			}
		})
	}
	if compiled < 2 {
		t.Errorf("%d backends compile categorical splits, want ifelse and smoothstep at least", compiled)
	}
}

// TestCategoricalDeterminism is TestDeterminism with categorical features.
func TestCategoricalDeterminism(t *testing.T) {
	defer func(w int) { minParallelWork = w }(minParallelWork)
	minParallelWork = 0
	d := categoricalData(76, 3000, 3)
	sameForThreads(t, d, Options{Objective: Softmax, Rounds: 6, ColSampleByNode: 0.8, Seed: 1, Categorical: []int{0, 2}}, 1, 2, 3, 8)
}

// TestNewParams checks that the options added after the first release
// are recorded in the provenance when set, resolved, and only then.
func TestNewParams(t *testing.T) {
	d := categoricalData(77, 500, 2)
	m, err := Train(d, nil, Options{Objective: Logistic, Rounds: 2, Alpha: 0.5, MaxDeltaStep: 2, ColSampleByLevel: 0.5, ColSampleByNode: 0.75,
		MonotoneConstraints: []int{0, -1}, Categorical: []int{2, 0}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"alpha": "0.5", "max_delta_step": "2", "colsample_bylevel": "0.5", "colsample_bynode": "0.75",
		"monotone_constraints": "(0,-1,0,0)", "categorical": "(0,2)", "max_cat_to_onehot": "4"}
	for k, v := range want {
		if got := m.Provenance.Params[k]; got != v {
			t.Errorf("param %s = %q, want %q", k, got, v)
		}
	}
	m, err = Train(d, nil, Options{Objective: Logistic, Rounds: 2, MonotoneConstraints: []int{0, 0}, ColSampleByNode: 1})
	if err != nil {
		t.Fatal(err)
	}
	for k := range want {
		if v, ok := m.Provenance.Params[k]; ok {
			t.Errorf("param %s = %q recorded though not set", k, v)
		}
	}
}
