package gbdt

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
)

func TestErrors(t *testing.T) {
	good := column([]float64{1, 2, 3, 4}, []float64{0, 1, 0, 1})
	three := column([]float64{1, 2, 3}, []float64{0, 1, 2})
	nan, inf := math.NaN(), math.Inf(1)
	logit := Options{Objective: Logistic}
	tests := []struct {
		name         string
		train, valid *data.Dataset
		opts         Options
		want         string
	}{
		{"nil training set", nil, nil, logit, "no training set"},
		{"no rows", &data.Dataset{Cols: 1, Features: []string{"x"}, Y: []float64{}}, nil, logit, "has no rows"},
		{"no features", &data.Dataset{Rows: 1, Y: []float64{1}}, nil, logit, "has no features"},
		{"no target", &data.Dataset{Rows: 1, Cols: 1, X: []float64{1}}, nil, logit, "no target column"},
		{"NaN target", column([]float64{1, 2}, []float64{0, nan}), nil, logit, "row 1 (0-based) is missing (NaN)"},
		{"Inf target", column([]float64{1, 2}, []float64{inf, 0}), nil, Options{Objective: SquaredError}, "row 0 (0-based) is infinite"},
		{"one class, logistic", column([]float64{1, 2}, []float64{3, 3}), nil, logit, "single class (3)"},
		{"one class, softmax", column([]float64{1, 2}, []float64{3, 3}), nil, Options{Objective: Softmax}, "single class (3)"},
		{"three classes, logistic", three, nil, logit, "two classes, the target has 3: use softmax"},
		{"no objective", good, nil, Options{}, "no objective"},
		{"unknown objective", good, nil, Options{Objective: "hinge"}, `unknown objective "hinge"`},
		{"negative rounds", good, nil, Options{Objective: Logistic, Rounds: -1}, "Rounds must be at least 1"},
		{"negative learning rate", good, nil, Options{Objective: Logistic, LearningRate: -0.1}, "LearningRate"},
		{"NaN learning rate", good, nil, Options{Objective: Logistic, LearningRate: nan}, "LearningRate"},
		{"infinite learning rate", good, nil, Options{Objective: Logistic, LearningRate: inf}, "LearningRate"},
		{"one bin", good, nil, Options{Objective: Logistic, MaxBins: 1}, "MaxBins must be between 2 and 256, got 1"},
		{"257 bins", good, nil, Options{Objective: Logistic, MaxBins: 257}, "MaxBins must be between 2 and 256, got 257"},
		{"subsample above 1", good, nil, Options{Objective: Logistic, Subsample: 1.5}, "Subsample must be in (0, 1]"},
		{"negative subsample", good, nil, Options{Objective: Logistic, Subsample: -0.5}, "Subsample must be in (0, 1]"},
		{"NaN subsample", good, nil, Options{Objective: Logistic, Subsample: nan}, "Subsample must be in (0, 1]"},
		{"colsample above 1", good, nil, Options{Objective: Logistic, ColSample: 2}, "ColSample must be in (0, 1]"},
		{"negative colsample", good, nil, Options{Objective: Logistic, ColSample: -1}, "ColSample must be in (0, 1]"},
		{"early stopping without validation", good, nil, Options{Objective: Logistic, EarlyStopping: 5}, "EarlyStopping needs a validation set"},
		{"negative early stopping", good, good, Options{Objective: Logistic, EarlyStopping: -1}, "EarlyStopping is negative"},
		{"negative depth", good, nil, Options{Objective: Logistic, MaxDepth: -1}, "MaxDepth is negative"},
		{"too deep", good, nil, Options{Objective: Logistic, MaxDepth: 101}, "deeper than the IR allows"},
		{"one leaf", good, nil, Options{Objective: Logistic, MaxLeaves: 1}, "MaxLeaves must be 0"},
		{"negative leaves", good, nil, Options{Objective: Logistic, MaxLeaves: -3}, "MaxLeaves must be 0"},
		{"negative min child weight", good, nil, Options{Objective: Logistic, MinChildWeight: -1}, "MinChildWeight"},
		{"negative lambda", good, nil, Options{Objective: Logistic, Lambda: -1}, "Lambda"},
		{"NaN gamma", good, nil, Options{Objective: Logistic, Gamma: nan}, "Gamma"},
		{"negative threads", good, nil, Options{Objective: Logistic, Threads: -2}, "Threads is negative"},
		{"validation columns", good, newData([][]float64{{1, 2}}, []float64{0}), logit, "the validation set has 2 features, the training set 1"},
		{"validation names", good, &data.Dataset{Rows: 1, Cols: 1, Features: []string{"z"}, X: []float64{1}, Y: []float64{0}}, logit, `feature 0 is "z" in the validation set, "x0" in the training set`},
		{"validation without target", good, &data.Dataset{Rows: 1, Cols: 1, X: []float64{1}}, logit, "the validation set has no target column"},
		{"validation NaN target", good, column([]float64{1}, []float64{nan}), logit, "validation row 0 (0-based) is missing"},
		{"validation class unknown", good, column([]float64{1}, []float64{7}), logit, "validation row 0 (0-based) has class 7, which the training set lacks"},
		{"malformed", &data.Dataset{Rows: 2, Cols: 1, X: []float64{1}, Y: []float64{0, 1}}, nil, logit, "malformed training set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.train, tt.valid, tt.opts)
			if err == nil {
				t.Fatalf("no error (model with %d trees), want one containing %q", len(m.Trees), tt.want)
			}
			if !strings.HasPrefix(err.Error(), "gbdt: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want one starting with \"gbdt: \" and containing %q", err, tt.want)
			}
		})
	}
}

// noPenalty is a Lambda or MinChildWeight that changes no sum: H + noPenalty == H.
const noPenalty = 1e-300

func TestSingleSplit(t *testing.T) {
	axis := func(f int, thr float64, defLeft bool, l, r int) ir.Node {
		return ir.Node{Kind: ir.Axis, Feature: f, Threshold: thr, DefaultLeft: defLeft, Left: l, Right: r}
	}
	leaf := func(v float64) ir.Node { return ir.Node{Kind: ir.Leaf, Value: []float64{v}} }
	// Softmax: six rows of classes 0, 0, 1, 1, 1, 2 start at the log
	// priors, so that p_k is the prior of class k in every row; g = p - y,
	// h = 2p(1-p).
	prior := []float64{math.Log(2.0 / 6), math.Log(3.0 / 6), math.Log(1.0 / 6)}
	p := make([]float64, 3)
	metrics.Softmax(p, prior)
	h := make([]float64, 3)
	for k := range p {
		h[k] = 2 * p[k] * (1 - p[k])
	}
	tests := []struct {
		name  string
		d     *data.Dataset
		opts  Options
		base  []float64
		trees []ir.Tree
	}{
		{
			// Base 5; g = m - y = (5, 5, -5, -5), h = 1. The split x < 3
			// has G_L = 10, H_L = 2: leaf -10/(2+λ)·η.
			"squared error",
			column([]float64{1, 2, 3, 4}, []float64{0, 0, 10, 10}),
			Options{Objective: SquaredError, Rounds: 1, LearningRate: 0.5, MaxDepth: 1},
			[]float64{5},
			[]ir.Tree{{Nodes: []ir.Node{axis(0, 3, true, 1, 2), leaf(-10.0 / 3 * 0.5), leaf(10.0 / 3 * 0.5)}}},
		},
		{
			"squared error, no penalty",
			column([]float64{4, 3, 2, 1}, []float64{10, 10, 0, 0}),
			Options{Objective: SquaredError, Rounds: 1, LearningRate: 1, Lambda: noPenalty, MaxDepth: 1},
			[]float64{5},
			[]ir.Tree{{Nodes: []ir.Node{axis(0, 3, true, 1, 2), leaf(-5), leaf(5)}}},
		},
		{
			// Base log-odds 0; p = 1/2, g = p - y = ±1/2, h = 1/4. G_L = 1,
			// H_L = 1/2: leaf -1/(1/2+1)·η = -2/3·η.
			"logistic",
			column([]float64{1, 2, 3, 4}, []float64{0, 0, 1, 1}),
			Options{Objective: Logistic, Rounds: 1, LearningRate: 0.3, MinChildWeight: noPenalty, MaxDepth: 1},
			[]float64{0},
			[]ir.Tree{{Nodes: []ir.Node{axis(0, 3, true, 1, 2), leaf(-1 / 1.5 * 0.3), leaf(1 / 1.5 * 0.3)}}},
		},
		{
			"softmax",
			column([]float64{1, 2, 3, 4, 5, 6}, []float64{0, 0, 1, 1, 1, 2}),
			Options{Objective: Softmax, Rounds: 1, LearningRate: 1, MinChildWeight: noPenalty, MaxDepth: 1},
			prior,
			[]ir.Tree{
				{Output: 0, Nodes: []ir.Node{axis(0, 3, false, 1, 2), leaf(-2 * (p[0] - 1) / (2*h[0] + 1)), leaf(-4 * p[0] / (4*h[0] + 1))}},
				{Output: 1, Nodes: []ir.Node{axis(0, 3, false, 1, 2), leaf(-2 * p[1] / (2*h[1] + 1)), leaf(-(4*p[1] - 3) / (4*h[1] + 1))}},
				{Output: 2, Nodes: []ir.Node{axis(0, 6, true, 1, 2), leaf(-5 * p[2] / (5*h[2] + 1)), leaf(-(p[2] - 1) / (h[2] + 1))}},
			},
		},
		{
			// Four rows of hessian 1/4 weigh less than two children of
			// MinChildWeight 1: the root stays a leaf (a regression test:
			// such a root was once split on feature 0).
			"root too light to split",
			column([]float64{1, 2, 3, 4}, []float64{0, 0, 1, 1}),
			Options{Objective: Logistic, Rounds: 1, MaxDepth: 1},
			[]float64{0},
			[]ir.Tree{{Nodes: []ir.Node{leaf(0)}}},
		},
		{
			// A constant target: every gradient is 0, so no split
			// reduces the loss: one leaf, -G/(H+λ)·η with G = 0.
			"no gain",
			column([]float64{1, 2, 3, 4}, []float64{2, 2, 2, 2}),
			Options{Objective: SquaredError, Rounds: 1, MaxDepth: 1},
			[]float64{2},
			[]ir.Tree{{Nodes: []ir.Node{leaf(0)}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.d, nil, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.BaseScore, tt.base) {
				t.Errorf("base score %v, want %v", m.BaseScore, tt.base)
			}
			if len(m.Trees) != len(tt.trees) {
				t.Fatalf("%d trees, want %d", len(m.Trees), len(tt.trees))
			}
			for i := range m.Trees {
				got, want := m.Trees[i], tt.trees[i]
				if got.Output != want.Output || len(got.Nodes) != len(want.Nodes) {
					t.Fatalf("tree %d: %+v, want %+v", i, got, want)
				}
				for j := range got.Nodes {
					g, w := got.Nodes[j], want.Nodes[j]
					if g.Kind == ir.Leaf && w.Kind == ir.Leaf && len(g.Value) == 1 {
						if math.Abs(g.Value[0]-w.Value[0]) > 1e-14 {
							t.Errorf("tree %d node %d: value %v, want %v", i, j, g.Value[0], w.Value[0])
						}
						continue
					}
					if g.Kind != w.Kind || g.Feature != w.Feature || g.Threshold != w.Threshold || g.LessEqual != w.LessEqual ||
						g.DefaultLeft != w.DefaultLeft || g.Left != w.Left || g.Right != w.Right {
						t.Errorf("tree %d node %d: %+v, want %+v", i, j, g, w)
					}
				}
			}
		})
	}
}

// TestExactLeaves checks the leaf values of squared-error trees bit for
// bit: with η = 1 and λ = 1, a leaf holds -Σ(m-y)/(n+1).
func TestExactLeaves(t *testing.T) {
	d := column([]float64{1, 1, 2, 2, 2, 7}, []float64{1, 3, 10, 11, 13, 40})
	m, err := Train(d, nil, Options{Objective: SquaredError, Rounds: 1, LearningRate: 1, MaxDepth: 1})
	if err != nil {
		t.Fatal(err)
	}
	base := m.BaseScore[0]
	if base != 13 {
		t.Fatalf("base %v, want the mean 13", base)
	}
	// The best split separates 40 from the rest: x < 7.
	nodes := m.Trees[0].Nodes
	if nodes[0].Threshold != 7 {
		t.Fatalf("root %+v, want x < 7", nodes[0])
	}
	gl := (13 - 1.0) + (13 - 3.0) + (13 - 10.0) + (13 - 11.0) + (13 - 13.0)
	if want := -gl / (5 + 1.0); nodes[1].Value[0] != want {
		t.Errorf("left leaf %v, want %v", nodes[1].Value[0], want)
	}
	if want := -(0 - gl) / (1 + 1.0); nodes[2].Value[0] != want {
		t.Errorf("right leaf %v, want %v", nodes[2].Value[0], want)
	}
}

func TestMissingValues(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name        string
		x, y        []float64
		threshold   float64
		lessEqual   bool
		defaultLeft bool
	}{
		// The present values split at 4; the missing rows are of the class on the right.
		{"missing rows belong right", []float64{1, 2, 3, 4, 5, 6, nan, nan}, []float64{0, 0, 0, 1, 1, 1, 1, 1}, 4, false, false},
		{"missing rows belong left", []float64{nan, 1, 2, 3, 4, 5, 6, nan}, []float64{0, 0, 0, 0, 1, 1, 1, 0}, 4, false, true},
		{"no missing rows: the heavier child is on the left", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []float64{0, 0, 0, 0, 0, 0, 0, 1, 1, 1}, 8, false, true},
		{"no missing rows: the heavier child is on the right", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []float64{0, 0, 0, 1, 1, 1, 1, 1, 1, 1}, 4, false, false},
		{"missing or not", []float64{1, nan, 2, nan, 3, nan, 4, nan}, []float64{0, 1, 0, 1, 0, 1, 0, 1}, math.MaxFloat64, true, false},
		{"missing or not, -Inf present", []float64{-inf, nan, 2, nan}, []float64{0, 1, 0, 1}, math.MaxFloat64, true, false},
		// +Inf cannot go left with every other present value: the
		// present values go right, the missing ones left.
		{"missing or not, +Inf present", []float64{inf, nan, 2, nan}, []float64{0, 1, 0, 1}, 2, false, true},
		{"missing or not, only +Inf present", []float64{inf, nan, inf, nan}, []float64{0, 1, 0, 1}, math.MaxFloat64, false, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := column(tt.x, tt.y)
			m, err := Train(d, nil, Options{Objective: Logistic, Rounds: 1, MaxDepth: 1, MinChildWeight: noPenalty})
			if err != nil {
				t.Fatal(err)
			}
			root := m.Trees[0].Nodes[0]
			if root.Kind != ir.Axis || root.Threshold != tt.threshold || root.LessEqual != tt.lessEqual || root.DefaultLeft != tt.defaultLeft {
				t.Errorf("root %+v, want threshold %v, less_equal %v, default_left %v", root, tt.threshold, tt.lessEqual, tt.defaultLeft)
			}
			// Every row of class 0 lands in one leaf and every row of class 1 in the other.
			tree := &m.Trees[0]
			leaves := map[float64]int{}
			for r := range d.Rows {
				leaf := leafOf(tree, d.Row(r))
				if l, ok := leaves[d.Y[r]]; ok && l != leaf {
					t.Errorf("row %d (x = %v) reaches leaf %d, the other rows of its class leaf %d", r, d.Row(r)[0], leaf, l)
				}
				leaves[d.Y[r]] = leaf
			}
			if leaves[0] == leaves[1] {
				t.Errorf("both classes reach leaf %d", leaves[0])
			}
		})
	}

	// -Inf, +Inf and NaN cannot be separated by one test; two levels do it.
	d := column([]float64{-inf, inf, nan, nan, inf, -inf}, []float64{0, 1, 0, 0, 1, 0})
	r, err := boost(d, nil, Options{Objective: Logistic, Rounds: 3, MaxDepth: 2, MinChildWeight: noPenalty, LearningRate: 1})
	if err != nil {
		t.Fatal(err)
	}
	for row := range d.Rows {
		if (r.margins[row] > 0) != (d.Y[row] == 1) {
			t.Errorf("row %d (x = %v, class %v): margin %v", row, d.Row(row)[0], d.Y[row], r.margins[row])
		}
	}
}

// TestGrowth checks the limits on the trees: depth, leaves, and rows per
// leaf (squared error: the hessian sum of a leaf is its number of rows).
func TestGrowth(t *testing.T) {
	d := randomData(5, 3000, 6, 0, 0.1)
	tests := []struct {
		name                 string
		opts                 Options
		maxDepth, maxLeaves  int
		minRows              int
		wantDepth, wantLeafs bool // the limit is reached by some tree
	}{
		{"depth-wise, default depth", Options{Objective: SquaredError, Rounds: 5}, 6, 64, 1, true, false},
		{"depth-wise, depth 3", Options{Objective: SquaredError, Rounds: 5, MaxDepth: 3}, 3, 8, 1, true, true},
		{"leaf-wise", Options{Objective: SquaredError, Rounds: 5, MaxLeaves: 10}, ir.MaxDepth, 10, 1, false, true},
		{"leaf-wise, depth 3", Options{Objective: SquaredError, Rounds: 5, MaxLeaves: 6, MaxDepth: 3}, 3, 6, 1, true, true},
		{"min child weight 50", Options{Objective: SquaredError, Rounds: 5, MinChildWeight: 50}, 6, 64, 50, false, false},
		{"leaf-wise, min child weight 200", Options{Objective: SquaredError, Rounds: 5, MaxLeaves: 40, MinChildWeight: 200}, ir.MaxDepth, 40, 200, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(d, nil, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			depthReached, leavesReached := false, false
			for i := range m.Trees {
				tree := &m.Trees[i]
				if dd := tree.Depth(); dd > tt.maxDepth {
					t.Errorf("tree %d has depth %d > %d", i, dd, tt.maxDepth)
				} else if dd == tt.maxDepth {
					depthReached = true
				}
				if l := tree.NumLeaves(); l > tt.maxLeaves {
					t.Errorf("tree %d has %d leaves > %d", i, l, tt.maxLeaves)
				} else if l == tt.maxLeaves {
					leavesReached = true
				}
				count := make([]int, len(tree.Nodes))
				for r := range d.Rows {
					count[leafOf(tree, d.Row(r))]++
				}
				for j, n := range tree.Nodes {
					if n.IsLeaf() && count[j] < tt.minRows {
						t.Errorf("tree %d leaf %d has %d rows < %d", i, j, count[j], tt.minRows)
					}
				}
			}
			if tt.wantDepth && !depthReached {
				t.Errorf("no tree reaches depth %d", tt.maxDepth)
			}
			if tt.wantLeafs && !leavesReached {
				t.Errorf("no tree has %d leaves", tt.maxLeaves)
			}
		})
	}
}

// TestDeterminism checks that a seed fixes the model, bytes and all,
// whatever the number of threads, and that the seed and the sampling
// options do change it.
func TestDeterminism(t *testing.T) {
	defer func(w int) { minParallelWork = w }(minParallelWork)
	minParallelWork = 0 // use every goroutine even on small nodes
	d := randomData(9, 4000, 7, 3, 0.1)
	valid := randomData(10, 500, 7, 3, 0.1)
	marshal := func(opts Options) []byte {
		t.Helper()
		m, err := Train(d, valid, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ir.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, tt := range []struct {
		name string
		opts Options
	}{
		{"depth-wise", Options{Objective: Softmax, Rounds: 15, Subsample: 0.7, ColSample: 0.6, Seed: 3}},
		{"leaf-wise", Options{Objective: Softmax, Rounds: 15, MaxLeaves: 12, Subsample: 0.8, Seed: 3}},
		{"early stopping", Options{Objective: Softmax, Rounds: 40, LearningRate: 1, EarlyStopping: 3, ColSample: 0.5, Seed: 4}},
		{"sampled by level and node", Options{Objective: Softmax, Rounds: 15, Subsample: 0.8, ColSample: 0.8, ColSampleByLevel: 0.7, ColSampleByNode: 0.6, Seed: 3}},
		{"leaf-wise, by node, constraints, alpha, max delta step", Options{Objective: Softmax, Rounds: 12, MaxLeaves: 12, ColSampleByNode: 0.5,
			MonotoneConstraints: []int{1, 0, -1}, Alpha: 0.5, MaxDeltaStep: 1, Seed: 3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			opts := tt.opts
			opts.Threads = 1
			want := marshal(opts)
			for _, threads := range []int{1, 2, 3, 8} {
				opts.Threads = threads
				if got := marshal(opts); !bytes.Equal(got, want) {
					t.Errorf("Threads %d: the model differs from the one with Threads 1", threads)
				}
			}
			opts.Seed++
			if got := marshal(opts); bytes.Equal(got, want) {
				t.Errorf("Seed %d gives the same model as Seed %d", opts.Seed, opts.Seed-1)
			}
		})
	}

	// Subsampling changes the model, deterministically.
	full := marshal(Options{Objective: Softmax, Rounds: 10})
	half := marshal(Options{Objective: Softmax, Rounds: 10, Subsample: 0.5})
	cols := marshal(Options{Objective: Softmax, Rounds: 10, ColSample: 0.5})
	if bytes.Equal(full, half) || bytes.Equal(full, cols) || bytes.Equal(half, cols) {
		t.Error("Subsample 0.5 or ColSample 0.5 gives the same model as no sampling")
	}
	if !bytes.Equal(half, marshal(Options{Objective: Softmax, Rounds: 10, Subsample: 0.5})) {
		t.Error("two runs with Subsample 0.5 differ")
	}
}

func TestEarlyStopping(t *testing.T) {
	// The validation labels are the training rule inverted: the validation
	// loss is best after the first round and grows from then on.
	d := randomData(21, 2000, 5, 2, 0)
	valid := randomData(22, 500, 5, 2, 0)
	for i := range valid.Y {
		valid.Y[i] = 1 - valid.Y[i]
	}
	var infos []RoundInfo
	opts := Options{Objective: Logistic, Rounds: 50, EarlyStopping: 4, OnRound: func(ri RoundInfo) { infos = append(infos, ri) }}
	m, err := Train(d, valid, opts)
	if err != nil {
		t.Fatal(err)
	}
	best := 0
	for i, ri := range infos {
		if ri.Round != i+1 || ri.Rounds != 50 {
			t.Errorf("call %d: round %d of %d", i, ri.Round, ri.Rounds)
		}
		if ri.ValidLoss < infos[best].ValidLoss {
			best = i
		}
	}
	if len(infos) != best+1+4 {
		t.Errorf("%d rounds ran; the best was round %d, so want %d", len(infos), best+1, best+1+4)
	}
	if len(m.Trees) != best+1 {
		t.Errorf("%d trees kept, want %d (the best round)", len(m.Trees), best+1)
	}
	if got := m.Provenance.Params["best_round"]; got != itoa(best+1) {
		t.Errorf("best_round %q, want %d", got, best+1)
	}

	// Softmax keeps K trees per round.
	d3 := randomData(23, 1500, 5, 3, 0)
	v3 := randomData(24, 400, 5, 3, 0)
	for i := range v3.Y {
		v3.Y[i] = float64((int(v3.Y[i]) + 1) % 3)
	}
	m, err = Train(d3, v3, Options{Objective: Softmax, Rounds: 30, EarlyStopping: 2})
	if err != nil {
		t.Fatal(err)
	}
	if bestRound := m.Provenance.Params["best_round"]; len(m.Trees) != 3*atoi(bestRound) || atoi(bestRound) >= 30 {
		t.Errorf("softmax: %d trees, best round %s", len(m.Trees), bestRound)
	}
}

func TestOnRound(t *testing.T) {
	for _, tt := range []struct {
		obj     Objective
		classes int
	}{{SquaredError, 0}, {Logistic, 2}, {Softmax, 4}} {
		t.Run(string(tt.obj), func(t *testing.T) {
			d := randomData(31, 1500, 5, tt.classes, 0.05)
			valid := randomData(32, 300, 5, tt.classes, 0.05)
			var infos []RoundInfo
			_, err := Train(d, valid, Options{Objective: tt.obj, Rounds: 12, OnRound: func(ri RoundInfo) { infos = append(infos, ri) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(infos) != 12 {
				t.Fatalf("%d calls, want 12", len(infos))
			}
			first, last := infos[0], infos[11]
			if !(last.TrainLoss < first.TrainLoss) || !(last.ValidLoss < first.ValidLoss) {
				t.Errorf("losses do not fall: train %v -> %v, valid %v -> %v", first.TrainLoss, last.TrainLoss, first.ValidLoss, last.ValidLoss)
			}
			if tt.obj == SquaredError != math.IsNaN(last.ValidAUC) {
				t.Errorf("valid AUC %v", last.ValidAUC)
			}
			if tt.obj != SquaredError && !(last.ValidAUC > 0.7) {
				t.Errorf("valid AUC %v, want > 0.7", last.ValidAUC)
			}
			for i := 1; i < len(infos); i++ {
				if infos[i].Elapsed < infos[i-1].Elapsed {
					t.Errorf("elapsed time goes back at round %d", i+1)
				}
			}
		})
	}
	// Without a validation set, ValidLoss and ValidAUC are NaN.
	var got RoundInfo
	if _, err := Train(randomData(1, 100, 2, 2, 0), nil, Options{Objective: Logistic, Rounds: 1, OnRound: func(ri RoundInfo) { got = ri }}); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(got.ValidLoss) || !math.IsNaN(got.ValidAUC) || math.IsNaN(got.TrainLoss) {
		t.Errorf("without validation set: %+v", got)
	}
}

// TestModel checks the form of the model: task, link, classes, base score,
// tree outputs, node order, provenance.
func TestModel(t *testing.T) {
	d := randomData(41, 800, 4, 3, 0.1)
	for i := range d.Y {
		d.Y[i] = []float64{-1.5, 2, 10}[int(d.Y[i])]
	}
	d.Source = "/some/dir/three.tsv"
	m, err := Train(d, nil, Options{Objective: Softmax, Rounds: 4, Name: "three", Threads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if m.Task != ir.Multiclass || m.Link != ir.Softmax || m.Aggregation != ir.Sum || m.NumOutputs != 3 || m.Name != "three" {
		t.Errorf("task %s, link %s, aggregation %s, outputs %d, name %q", m.Task, m.Link, m.Aggregation, m.NumOutputs, m.Name)
	}
	if !slices.Equal(m.ClassNames, []string{"-1.5", "2", "10"}) {
		t.Errorf("class names %q", m.ClassNames)
	}
	if len(m.Trees) != 12 {
		t.Fatalf("%d trees, want 12", len(m.Trees))
	}
	for i, tree := range m.Trees {
		if tree.Output != i%3 {
			t.Errorf("tree %d writes output %d, want %d", i, tree.Output, i%3)
		}
		checkPreorder(t, tree.Nodes, 0)
	}
	counts := [3]float64{}
	for _, y := range d.Y {
		counts[slices.Index([]float64{-1.5, 2, 10}, y)]++
	}
	for k, c := range counts {
		if want := math.Log(c / float64(d.Rows)); m.BaseScore[k] != want {
			t.Errorf("base score %d: %v, want log prior %v", k, m.BaseScore[k], want)
		}
	}
	p := m.Provenance
	wantParams := map[string]string{
		"objective": "softmax", "rounds": "4", "learning_rate": "0.3", "max_depth": "6", "max_leaves": "0",
		"min_child_weight": "1", "lambda": "1", "gamma": "0", "subsample": "1", "colsample": "1",
		"max_bins": "256", "early_stopping": "0", "seed": "0",
	}
	if p.Producer != Producer || !mapsEqual(p.Params, wantParams) {
		t.Errorf("provenance %s %v, want %v", p.Producer, p.Params, wantParams)
	}
	if p.Data["source"] != "three.tsv" || p.Data["rows"] != "800" || p.Data["features"] != "4" || len(p.Data["sha256"]) != 64 {
		t.Errorf("data fingerprint %v", p.Data)
	}

	// Binary: one output, sigmoid, base log-odds.
	b := randomData(42, 500, 3, 2, 0)
	mb, err := Train(b, nil, Options{Objective: Logistic, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	pos := 0.0
	for _, y := range b.Y {
		pos += y
	}
	if mb.Task != ir.Binary || mb.Link != ir.Sigmoid || mb.NumOutputs != 1 || len(mb.Trees) != 2 ||
		mb.BaseScore[0] != math.Log(pos/500/(1-pos/500)) || !slices.Equal(mb.ClassNames, []string{"0", "1"}) {
		t.Errorf("binary model: task %s, link %s, outputs %d, %d trees, base %v, classes %q", mb.Task, mb.Link, mb.NumOutputs, len(mb.Trees), mb.BaseScore, mb.ClassNames)
	}
	// Regression: identity, base mean.
	mr, err := Train(randomData(43, 500, 3, 0, 0), nil, Options{Objective: SquaredError, Rounds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if mr.Task != ir.Regression || mr.Link != ir.Identity || mr.ClassNames != nil || len(mr.BaseScore) != 1 {
		t.Errorf("regression model: task %s, link %s, classes %q, base %v", mr.Task, mr.Link, mr.ClassNames, mr.BaseScore)
	}
}

// checkPreorder checks that the nodes are numbered in pre-order and
// returns the index after the subtree of node i.
func checkPreorder(t *testing.T, nodes []ir.Node, i int) int {
	t.Helper()
	n := &nodes[i]
	if n.IsLeaf() {
		return i + 1
	}
	if n.Left != i+1 {
		t.Fatalf("node %d: left child %d, want %d", i, n.Left, i+1)
	}
	end := checkPreorder(t, nodes, n.Left)
	if n.Right != end {
		t.Fatalf("node %d: right child %d, want %d", i, n.Right, end)
	}
	return checkPreorder(t, nodes, n.Right)
}

func itoa(i int) string { return strconv.Itoa(i) }

func atoi(s string) int {
	i, err := strconv.Atoi(s)
	if err != nil {
		return -1
	}
	return i
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
