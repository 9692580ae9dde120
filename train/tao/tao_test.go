package tao

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// randomTrainer returns a trainer over n random rows of d features whose
// K classes follow noisy random hyperplanes, so that trees have something
// to find and nothing is separable.
func randomTrainer(rng *rand.Rand, n, d, k int, lambda, mu float64, strict bool) *trainer {
	s, err := Options{Kind: ST, Lambda: &lambda, Mu: &mu, SolverIterations: 50, Threads: 1, Strict: strict}.settings(d, k)
	if err != nil {
		panic(err)
	}
	tr := &trainer{s: s, d: d, n: n, x: make([]float64, n*d), y: make([]int, n)}
	centres := make([]float64, k*d)
	for i := range centres {
		centres[i] = 2 * rng.NormFloat64()
	}
	for r := range n {
		c := rng.IntN(k)
		tr.y[r] = c
		for j := range d {
			tr.x[r*d+j] = centres[c*d+j] + rng.NormFloat64()
		}
	}
	tr.all = make([]int, n)
	for r := range tr.all {
		tr.all[r] = r
	}
	tr.mode = tr.topClasses(tr.all, 1)[0]
	return tr
}

// TestUpdatesNeverIncreaseObjective is the property test of strict TAO's
// monotonicity: on random problems and random trees, every node update
// (leaf and decision, in TAO's order) leaves Eq. 1 no larger than before,
// and an accepted one lowers it.
func TestUpdatesNeverIncreaseObjective(t *testing.T) {
	accepted, rejected := 0, 0
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 1))
		n, d, k := 40+rng.IntN(200), 1+rng.IntN(6), 2+rng.IntN(6)
		lambda := []float64{0, 0.01, 1, 10}[rng.IntN(4)]
		tr := randomTrainer(rng, n, d, k, lambda, lambda, true)
		root := tr.complete(tr.all, 1+rng.IntN(3), 1+rng.IntN(k), rng)
		for range 3 {
			reach := tr.reduced(root, tr.all)
			levels := root.levels()
			for depth := len(levels) - 1; depth >= 0; depth-- {
				for _, nd := range levels[depth] {
					before := tr.objective(root, tr.all)
					var changed bool
					if nd.leaf {
						changed = tr.fitLeaf(nd, reach[nd], false)
					} else {
						changed = tr.fitDecision(nd, reach[nd])
					}
					after := tr.objective(root, tr.all)
					if after > before+1e-9*math.Abs(before) {
						t.Fatalf("seed %d: updating a node (leaf %v) raised Eq. 1 from %v to %v", seed, nd.leaf, before, after)
					}
					if changed {
						accepted++
						if !(after < before+1e-9*math.Abs(before)) {
							t.Fatalf("seed %d: an accepted update did not lower Eq. 1 (%v to %v)", seed, before, after)
						}
					} else {
						rejected++
						if after != before {
							t.Fatalf("seed %d: a rejected update changed Eq. 1 from %v to %v", seed, before, after)
						}
					}
				}
			}
		}
		pruned := prune(root, tr.counts(root, tr.all))
		if got, want := tr.objective(pruned, tr.all), tr.objective(root, tr.all); got > want {
			t.Fatalf("seed %d: pruning raised Eq. 1 from %v to %v", seed, want, got)
		}
	}
	t.Logf("%d updates accepted, %d rejected", accepted, rejected)
	if accepted == 0 || rejected == 0 {
		t.Errorf("the property test exercised only one outcome: %d accepted, %d rejected", accepted, rejected)
	}
}

// TestIterationsNeverIncreaseObjective checks the default TAO, which takes
// every surrogate solution: on random problems, the objective after every
// iteration is no larger than before it (an iteration that raises it is
// undone), and the tree's parameters then are those of the iteration
// before.
func TestIterationsNeverIncreaseObjective(t *testing.T) {
	undone := 0
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 2))
		n, d, k := 40+rng.IntN(200), 1+rng.IntN(6), 2+rng.IntN(6)
		lambda := []float64{0, 0.01, 1, 10}[rng.IntN(4)]
		tr := randomTrainer(rng, n, d, k, lambda, lambda, false)
		root := tr.complete(tr.all, 1+rng.IntN(3), 1+rng.IntN(k), rng)
		prev := tr.objective(root, tr.all)
		for range 8 {
			before := snapshot(root)
			tr.pass(root, tr.all, 1)
			if tr.objective(root, tr.all) > prev {
				undone++
			}
			restore(root, before)
			tr.optimise(root, tr.all, 1, 1, func(_ int, obj float64) {
				if obj > prev {
					t.Fatalf("seed %d: a TAO iteration raised Eq. 1 from %v to %v", seed, prev, obj)
				}
				if got := tr.objective(root, tr.all); got != obj {
					t.Fatalf("seed %d: optimise reports %v, the tree's objective is %v", seed, obj, got)
				}
				prev = obj
			})
		}
	}
	t.Logf("%d iterations raised the objective and were undone", undone)
}

// TestDecisionReducedProblem checks that the reduced problem of a decision
// node (Eq. 2) measures exactly the change of Eq. 1: moving one row to its
// worse child raises Eq. 1 by its weight.
func TestDecisionReducedProblem(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	tr := randomTrainer(rng, 150, 3, 4, 0, 0, false)
	root := tr.complete(tr.all, 2, 2, rng)
	tr.optimise(root, tr.all, 3, 1, nil)
	if root.leaf {
		t.Skip("the tree was pruned to a leaf")
	}
	for _, r := range tr.all[:20] {
		x := tr.row(r)
		l, rt := root.left.route(x).loss(x, tr.y[r]), root.right.route(x).loss(x, tr.y[r])
		got := l
		if root.goRight(x) {
			got = rt
		}
		if want := root.route(x).loss(x, tr.y[r]); got != want {
			t.Fatalf("row %d: loss down its child %v, down the tree %v", r, got, want)
		}
	}
}

// TestTopClasses checks the class subset of a leaf: the most frequent
// classes, ties to the smaller index, in increasing order.
func TestTopClasses(t *testing.T) {
	tr := &trainer{y: []int{3, 1, 1, 3, 2, 0, 0, 5}}
	rows := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for _, c := range []struct {
		k    int
		want string
	}{{1, "[0]"}, {2, "[0 1]"}, {3, "[0 1 3]"}, {4, "[0 1 2 3]"}, {10, "[0 1 2 3 5]"}} {
		if got := fmt.Sprint(tr.topClasses(rows, c.k)); got != c.want {
			t.Errorf("k=%d: %s, want %s", c.k, got, c.want)
		}
	}
}

func readPMLB(t testing.TB, name string) *data.Dataset {
	t.Helper()
	d, err := data.ReadFile(filepath.Join("..", "..", "testdata", "pmlb", name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPMLB trains every kind of model on real data and checks that the
// interpreter predicts the trainer's class on every row, that the model
// beats the majority class, and that its provenance describes it.
func TestPMLB(t *testing.T) {
	cases := []struct {
		data    string
		opts    Options
		maxErr  float64 // training error the model must reach
		maxLeaf int     // most classes a leaf may hold
	}{
		{"ecoli", Options{Kind: Softmax}, 0.2, 8},
		{"ecoli", Options{Kind: ST, Depth: 2, K: 2, Iterations: 20}, 0.25, 2},
		{"ecoli", Options{Kind: ST, Depth: 2, K: 2, Iterations: 20, Init: Median}, 0.25, 2},
		{"vehicle", Options{Kind: AST, Alpha: 0.5, Iterations: 5, ExpandIterations: 3, MaxRounds: 3, Init: KMeans}, 0.35, 1},
		{"vehicle", Options{Kind: ST, Depth: 3, K: 2, Iterations: 10}, 0.35, 2},
		{"vehicle", Options{Kind: AST, Alpha: 0.5, Iterations: 5, ExpandIterations: 3, MaxRounds: 3}, 0.35, 1},
		{"glass", Options{Kind: AST, Iterations: 5, ExpandIterations: 3, MaxRounds: 4}, 0.3, 2},
	}
	for _, c := range cases {
		t.Run(c.data+"/"+string(c.opts.Kind)+"/"+string(c.opts.Init), func(t *testing.T) {
			d := readPMLB(t, c.data)
			c.opts.Seed = 3
			var rounds []Progress
			c.opts.OnIteration = func(p Progress) { rounds = append(rounds, p) }
			tree, err := Fit(d, nil, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			m := tree.Model()
			pred, err := runtime.New[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			_, index, _ := data.Classes(d.Y)
			wrong := 0
			for r := range d.Rows {
				want := tree.PredictClass(d.Row(r))
				got, err := pred.PredictClass(d.Row(r))
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("row %d: interpreter predicts class %d, trainer %d", r, got, want)
				}
				if want != index[r] {
					wrong++
				}
			}
			e := float64(wrong) / float64(d.Rows)
			p := m.Provenance.Params
			t.Logf("training error %.4f, depth %s, leaves %s, mean k %s, FLOPs/row %s, %d progress reports",
				e, p["final_depth"], p["leaves"], p["mean_k"], p["flops_per_row"], len(rounds))
			if e > c.maxErr {
				t.Errorf("training error %.4f > %.4f", e, c.maxErr)
			}
			if got := p["train_error"]; got != fmt.Sprint(e) {
				t.Errorf("provenance train_error %s, measured %v", got, e)
			}
			for i, nd := range m.Trees[0].Nodes {
				if nd.Kind == ir.SoftmaxLeaf && len(nd.Softmax.Classes) > c.maxLeaf {
					t.Errorf("leaf %d holds %d classes, more than %d", i, len(nd.Softmax.Classes), c.maxLeaf)
				}
			}
			for i := 1; i < len(rounds); i++ {
				a, b := rounds[i-1], rounds[i]
				if a.Round == b.Round && b.Iteration > 1 && b.Objective > a.Objective*(1+1e-12) {
					t.Errorf("round %d, TAO iteration %d raised the objective from %v to %v", b.Round, b.Iteration, a.Objective, b.Objective)
				}
			}
		})
	}
}

// TestThreads checks that the number of goroutines never changes the
// model, for an AST (median splits) and an ST (2-means splits).
func TestThreads(t *testing.T) {
	d := readPMLB(t, "vehicle")
	for _, o := range []Options{
		{Kind: AST, Iterations: 3, ExpandIterations: 2, MaxRounds: 2, Seed: 9},
		{Kind: ST, Depth: 3, K: 2, Iterations: 3, Seed: 9},
	} {
		var models [][]byte
		for _, threads := range []int{1, 2, 3} {
			o.Threads = threads
			m, err := Train(d, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			b, err := ir.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			models = append(models, b)
		}
		for i := 1; i < len(models); i++ {
			if !bytes.Equal(models[0], models[i]) {
				t.Errorf("%s: Threads 1 and %d give different models", o.Kind, i+1)
			}
		}
	}
}

// TestKMeansSplit: on rows from two clusters far apart along a direction
// u, whatever the seed, the 2-means split has a direction close to ±u and
// sends the two clusters to different sides, but for the median row,
// which lies on the boundary (to rounding) and may go either way; on rows that are all
// equal it falls back on a median split.
func TestKMeansSplit(t *testing.T) {
	const n, d = 400, 5
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 1))
		tr := &trainer{d: d, x: make([]float64, n*d)}
		u := make([]float64, d)
		for j := range u {
			u[j] = rng.NormFloat64()
		}
		floats.Scale(1/floats.Norm(u, 2), u)
		rows := make([]int, n)
		for r := range rows {
			rows[r] = r
			side := float64(2*(r%2) - 1)
			for j := range d {
				tr.x[r*d+j] = 10*side*u[j] + rng.NormFloat64()
			}
		}
		nd := tr.kmeansSplit(rows, rng)
		if cos := math.Abs(floats.Dot(nd.w, u)); cos < 0.95 {
			t.Errorf("seed %d: |cos(w, u)| = %.3f, want the clusters' axis", seed, cos)
		}
		if math.Abs(floats.Norm(nd.w, 2)-1) > 1e-12 {
			t.Errorf("seed %d: |w| = %v, want 1", seed, floats.Norm(nd.w, 2))
		}
		mixed := 0
		for r := 0; r < n; r += 2 {
			if nd.goRight(tr.row(r)) == nd.goRight(tr.row(r+1)) {
				mixed++
			}
		}
		if mixed > 1 {
			t.Errorf("seed %d: %d pairs of rows from the two clusters on one side, want only the median row's", seed, mixed)
		}
		left, right := tr.split(nd, rows)
		if len(left) != n/2-1 && len(left) != n/2 {
			t.Errorf("seed %d: %d rows left and %d right, want half, the median row either way", seed, len(left), len(right))
		}
		same := &trainer{d: d, x: make([]float64, n*d)}
		for i := range same.x {
			same.x[i] = 3
		}
		if nd := same.kmeansSplit(rows, rng); nonZero(nd.w) == 0 {
			t.Errorf("seed %d: equal rows gave a zero direction", seed)
		}
	}
}

// TestOptions checks the refusals of bad options and bad data.
func TestOptions(t *testing.T) {
	d := readPMLB(t, "ecoli")
	neg := -1.0
	reg := *d
	reg.Labels = nil
	reg.Y = make([]float64, d.Rows)
	for r := range reg.Y {
		reg.Y[r] = float64(r) / 3
	}
	one := *d
	one.Y = make([]float64, d.Rows)
	nan := *d
	nan.X = append([]float64(nil), d.X...)
	nan.X[5] = math.NaN()
	for _, c := range []struct {
		name string
		d    *data.Dataset
		o    Options
		err  string
	}{
		{"kind", d, Options{Kind: "forest"}, `unknown Kind "forest"`},
		{"k<1", d, Options{K: -1}, "K must be at least 1"},
		{"k>classes", d, Options{Kind: ST, K: 6}, "K is 6 but the training set has only 5 classes"},
		{"k0 too small", d, Options{Kind: AST, K: 1}, "must be able to predict every class"},
		{"alpha 0+", d, Options{Alpha: -0.5}, "Alpha must be in (0, 1]"},
		{"alpha>1", d, Options{Alpha: 1.5}, "Alpha must be in (0, 1]"},
		{"rho<1", d, Options{Rho: 0.9}, "Rho must be a finite number >= 1"},
		{"lambda", d, Options{Lambda: &neg}, "Lambda must be a finite number >= 0"},
		{"mu", d, Options{Mu: &neg}, "Mu must be a finite number >= 0"},
		{"depth", d, Options{Depth: MaxDepth + 1}, "Depth must be between 1 and"},
		{"softmax depth", d, Options{Kind: Softmax, Depth: 2}, "a flat softmax has no depth"},
		{"init", d, Options{Kind: ST, Init: "random"}, `unknown Init "random"`},
		{"softmax init", d, Options{Kind: Softmax, Init: KMeans}, "a flat softmax has no splits to initialise"},
		{"regression", &reg, Options{}, "softmax trees are for classification"},
		{"one class", &one, Options{}, "single class"},
		{"nan", &nan, Options{}, "is missing (NaN)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Train(c.d, nil, c.o)
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Fatalf("got %v, want an error containing %q", err, c.err)
			}
			if !strings.HasPrefix(err.Error(), "tao: ") {
				t.Errorf("error %q does not name the trainer", err)
			}
		})
	}
}
