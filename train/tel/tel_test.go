package tel

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/runtime"
)

// synthetic returns n rows of p standard normal features and a target:
// classes 0..c-1 from a noisy nonlinear score, or real values when c == 0.
func synthetic(seed uint64, n, p, c int) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 11))
	d := &data.Dataset{Rows: n, Cols: p, X: make([]float64, n*p), Y: make([]float64, n)}
	for j := range p {
		d.Features = append(d.Features, "f"+strconv.Itoa(j))
	}
	for r := range n {
		row := d.Row(r)
		for j := range row {
			row[j] = 3*rng.NormFloat64() + float64(j)
		}
		s := (row[0] - 0) - (row[1]-1)/2 + math.Abs(row[2%p]-float64(2%p)) - 2 + 0.3*rng.NormFloat64()
		switch {
		case c == 0:
			d.Y[r] = 10*s + 100
		case c == 2:
			if s > 0 {
				d.Y[r] = 1
			}
		default:
			d.Y[r] = float64(min(max(int(math.Floor(s/2))+c/2, 0), c-1))
		}
	}
	return d
}

func quick(loss Loss) Options {
	o := DefaultOptions(loss)
	o.Trees, o.Depth, o.Epochs, o.BatchSize = 3, 3, 4, 32
	return o
}

func TestOptionErrors(t *testing.T) {
	d := synthetic(1, 50, 3, 2)
	set := func(f func(*Options)) Options {
		o := quick(Logistic)
		f(&o)
		return o
	}
	for _, c := range []struct {
		name  string
		opts  Options
		valid *data.Dataset
		want  string
	}{
		{"no loss", set(func(o *Options) { o.Loss = "" }), nil, "tel: no loss: set Options.Loss to softmax, logistic or squarederror (DefaultOptions(loss) fills in the rest)"},
		{"unknown loss", set(func(o *Options) { o.Loss = "hinge" }), nil, `tel: unknown loss "hinge" (want softmax, logistic or squarederror)`},
		{"no trees", set(func(o *Options) { o.Trees = 0 }), nil, "tel: Trees must be at least 1, got 0"},
		{"depth 0", set(func(o *Options) { o.Depth = 0 }), nil, "tel: Depth must be between 1 and 20, got 0"},
		{"depth 21", set(func(o *Options) { o.Depth = 21 }), nil, "tel: Depth must be between 1 and 20, got 21"},
		{"gamma 0", set(func(o *Options) { o.Gamma = 0 }), nil, "tel: Gamma is 0: the smooth-step of width 0 is a hard step, whose gradient is 0 wherever it exists, so the nodes cannot learn; use a Gamma > 0 (1 is a good start on standardised inputs)"},
		{"gamma negative", set(func(o *Options) { o.Gamma = -1 }), nil, "tel: Gamma must be a finite number > 0, got -1"},
		{"gamma NaN", set(func(o *Options) { o.Gamma = math.NaN() }), nil, "tel: Gamma must be a finite number > 0, got NaN"},
		{"gamma Inf", set(func(o *Options) { o.Gamma = math.Inf(1) }), nil, "tel: Gamma must be a finite number > 0, got +Inf"},
		{"unknown activation", set(func(o *Options) { o.Activation = "relu" }), nil, `tel: unknown activation "relu" (want smoothstep or logistic)`},
		{"unknown mode", set(func(o *Options) { o.Mode = "sparse" }), nil, `tel: unknown mode "sparse" (want conditional or dense)`},
		{"alpha 0", set(func(o *Options) { o.Activation, o.Mode, o.Alpha = LogisticActivation, Dense, 0 }), nil, "tel: Alpha (the scale of the logistic activation) must be a finite number > 0, got 0"},
		{"logistic conditional", set(func(o *Options) { o.Activation = LogisticActivation }), nil, "tel: the logistic activation is never exactly 0 or 1, so every row reaches every node and there is nothing to skip: set Options.Mode to dense"},
		{"logistic export", set(func(o *Options) { o.Activation, o.Mode = LogisticActivation, Dense }), nil, "tel: a model with the logistic activation cannot be exported: the IR's soft nodes route by the smooth-step; train with the smooth-step (use Fit to train with the logistic activation for comparisons)"},
		{"epochs 0", set(func(o *Options) { o.Epochs = 0 }), nil, "tel: Epochs must be at least 1, got 0"},
		{"epochs negative", set(func(o *Options) { o.Epochs = -3 }), nil, "tel: Epochs must be at least 1, got -3"},
		{"batch 0", set(func(o *Options) { o.BatchSize = 0 }), nil, "tel: BatchSize must be at least 1, got 0"},
		{"batch negative", set(func(o *Options) { o.BatchSize = -1 }), nil, "tel: BatchSize must be at least 1, got -1"},
		{"lr 0", set(func(o *Options) { o.LearningRate = 0 }), nil, "tel: LearningRate must be a finite number > 0, got 0"},
		{"lr negative", set(func(o *Options) { o.LearningRate = -0.1 }), nil, "tel: LearningRate must be a finite number > 0, got -0.1"},
		{"l2 negative", set(func(o *Options) { o.L2 = -1 }), nil, "tel: L2 must be a finite number >= 0, got -1"},
		{"early stopping negative", set(func(o *Options) { o.EarlyStopping = -1 }), nil, "tel: EarlyStopping is negative (-1)"},
		{"early stopping without validation", set(func(o *Options) { o.EarlyStopping = 2 }), nil, "tel: EarlyStopping needs a validation set"},
		{"threads negative", set(func(o *Options) { o.Threads = -1 }), nil, "tel: Threads is negative (-1)"},
		{"empty validation split", quick(Logistic), d.Subset([]int{}), "tel: the validation set has no rows"},
		{"validation columns", quick(Logistic), synthetic(1, 10, 4, 2), "tel: the validation set has 4 features, the training set 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := Train(d, c.valid, c.opts)
			if err == nil {
				t.Fatalf("no error (model %v)", m != nil)
			}
			if err.Error() != c.want {
				t.Errorf("error\n got: %s\nwant: %s", err, c.want)
			}
		})
	}
}

func TestDataErrors(t *testing.T) {
	good := synthetic(1, 40, 3, 2)
	mod := func(f func(d *data.Dataset)) *data.Dataset {
		d := good.Subset([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
		f(d)
		return d
	}
	for _, c := range []struct {
		name  string
		loss  Loss
		train *data.Dataset
		valid *data.Dataset
		want  string
	}{
		{"nil", Logistic, nil, nil, "tel: no training set"},
		{"no rows", Logistic, good.Subset(nil), nil, "tel: the training set has no rows"},
		{"no target", Logistic, mod(func(d *data.Dataset) { d.Y = nil }), nil, "tel: the training set has no target column"},
		{"NaN target", Logistic, mod(func(d *data.Dataset) { d.Y[3] = math.NaN() }), nil, "tel: the target of training row 3 (0-based) is missing (NaN)"},
		{"single class", Logistic, mod(func(d *data.Dataset) {
			for r := range d.Y {
				d.Y[r] = 1
			}
		}), nil, "tel: the target has a single class (1) in all 10 rows: nothing to classify"},
		{"single class softmax", Softmax, mod(func(d *data.Dataset) {
			for r := range d.Y {
				d.Y[r] = 2
			}
		}), nil, "tel: the target has a single class (2) in all 10 rows: nothing to classify"},
		{"three classes logistic", Logistic, mod(func(d *data.Dataset) { d.Y[0], d.Y[1], d.Y[2] = 0, 1, 2 }), nil, "tel: the logistic loss needs two classes, the target has 3: use softmax"},
		{"NaN feature", Logistic, mod(func(d *data.Dataset) { d.X[4*3+2] = math.NaN() }), nil, `tel: feature "f2" (column 2) of training row 4 (0-based) is missing (NaN); set Options.Impute to replace missing values by the training mean`},
		{"NaN feature unnamed", Logistic, mod(func(d *data.Dataset) { d.Features = nil; d.X[1] = math.NaN() }), nil, "tel: feature 1 of training row 0 (0-based) is missing (NaN); set Options.Impute to replace missing values by the training mean"},
		{"Inf feature", Logistic, mod(func(d *data.Dataset) { d.X[5*3] = math.Inf(-1) }), nil, `tel: feature "f0" (column 0) of training row 5 (0-based) is infinite (-Inf)`},
		{"NaN validation feature", Logistic, good, mod(func(d *data.Dataset) { d.X[7*3+1] = math.NaN() }), `tel: feature "f1" (column 1) of validation row 7 (0-based) is missing (NaN); set Options.Impute to replace missing values by the training mean`},
		{"validation class", Logistic, good, mod(func(d *data.Dataset) { d.Y[2] = 5 }), "tel: validation row 2 (0-based) has class 5, which the training set lacks"},
		{"validation feature names", Logistic, good, mod(func(d *data.Dataset) { d.Features = []string{"f0", "g", "f2"} }), `tel: feature 1 is "g" in the validation set, "f1" in the training set`},
		{"malformed", SquaredError, mod(func(d *data.Dataset) { d.X = d.X[:5] }), nil, "tel: malformed training set: 5 values for 10 rows of 3 features"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Train(c.train, c.valid, quick(c.loss))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != c.want {
				t.Errorf("error\n got: %s\nwant: %s", err, c.want)
			}
		})
	}
}

func TestDiverges(t *testing.T) {
	d := synthetic(2, 200, 3, 0)
	for r := range d.Y {
		d.Y[r] = float64(r%2) * 1e300
	}
	o := quick(SquaredError)
	o.LearningRate = 1e300
	_, err := Train(d, nil, o)
	if want := "tel: training diverged in epoch 1 (the training loss is "; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("error %v, want one starting with %q", err, want)
	}
}

// TestRuntimeParity trains models of every loss and checks that
// ir.Validate accepts them and that the interpreter reproduces the
// trainer's margins to 1e-12 (relative), on training rows, validation rows
// and rows with missing values (which follow the nodes' default
// directions in both).
func TestRuntimeParity(t *testing.T) {
	for _, c := range []struct {
		name    string
		classes int
		loss    Loss
		mod     func(*Options)
	}{
		{"binary", 2, Logistic, nil},
		{"multiclass", 4, Softmax, nil},
		{"regression", 0, SquaredError, nil},
		{"bias", 3, Softmax, func(o *Options) { o.Bias = true }},
		{"impute", 2, Logistic, func(o *Options) { o.Impute = true }},
		{"dense", 2, Logistic, func(o *Options) { o.Mode = Dense }},
		{"small gamma", 2, Logistic, func(o *Options) { o.Gamma = 0.01; o.Depth = 6 }},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := synthetic(7, 300, 5, c.classes)
			o := DefaultOptions(c.loss)
			o.Trees, o.Depth, o.Epochs, o.BatchSize, o.LearningRate = 4, 4, 5, 64, 0.05
			if c.mod != nil {
				c.mod(&o)
			}
			if o.Impute {
				for r := 0; r < d.Rows; r += 7 {
					d.X[r*d.Cols+r%d.Cols] = math.NaN()
				}
			}
			en, err := Fit(d, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			m, err := en.Model()
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			if m.Trees[0].Nodes[1].Gamma != o.Gamma || m.Preprocess == nil {
				t.Fatalf("gamma %v, preprocess %v", m.Trees[0].Nodes[1].Gamma, m.Preprocess)
			}
			pred, err := runtime.New[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			rows := make([][]float64, 0, d.Rows+50)
			for r := range d.Rows {
				rows = append(rows, d.Row(r))
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for range 50 {
				x := make([]float64, d.Cols)
				for j := range x {
					x[j] = 4 * rng.NormFloat64()
					if rng.IntN(4) == 0 {
						x[j] = math.NaN()
					}
				}
				rows = append(rows, x)
			}
			want := make([]float64, m.NumOutputs)
			got := make([]float64, m.NumOutputs)
			for i, x := range rows {
				if err := en.PredictMargin(x, want); err != nil {
					t.Fatal(err)
				}
				if err := pred.PredictMargin(x, got); err != nil {
					t.Fatal(err)
				}
				for j := range got {
					if math.Abs(got[j]-want[j]) > 1e-12*math.Max(1, math.Abs(want[j])) {
						t.Fatalf("row %d %v, output %d: interpreter %v, trainer %v", i, x, j, got[j], want[j])
					}
				}
			}
		})
	}
}

// TestTrainerMarginsMatchIR checks the margins recorded during training
// (the conditional forward pass on standardised rows) against the
// interpreter on the raw rows, for the weights after one step.
func TestTrainerMarginsMatchIR(t *testing.T) {
	for _, full := range []bool{false, true} {
		t.Run(fmt.Sprintf("full=%v", full), func(t *testing.T) { checkTrainerMargins(t, full) })
	}
}

// checkTrainerMargins checks TestTrainerMarginsMatchIR with the full
// passes or the conditional ones.
func checkTrainerMargins(t *testing.T, full bool) {
	d := synthetic(3, 64, 4, 3)
	o := DefaultOptions(Softmax)
	o.Trees, o.Depth, o.Epochs, o.BatchSize = 3, 5, 1, 64
	s, err := o.settings(false)
	if err != nil {
		t.Fatal(err)
	}
	tgt, _ := newTarget(d, Softmax)
	y, _ := tgt.labelsOf(d, "training")
	st, _ := fitStandardiser(d, false)
	x, _ := st.apply(d, false, "training")
	e := newEnsemble(s.trees, s.depth, d.Cols, tgt.k, s)
	e.init(rand.New(rand.NewPCG(1, 1)))
	tr, err := newTrainer(e, s, tgt, x, y, d.Rows)
	if err != nil {
		t.Fatal(err)
	}
	idx := make([]int, d.Rows)
	for i := range idx {
		idx[i] = i
	}
	force := func() {
		if full {
			tr.ps.density = 1
		} else {
			tr.ps.density = 0
		}
	}
	force()
	tr.step(idx) // move away from the initial weights
	en := &Ensemble{e: e, s: s, tgt: tgt, st: st, fp: map[string]string{}}
	m, err := en.Model()
	if err != nil {
		t.Fatal(err)
	}
	pred, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	force()
	tr.step(idx) // records the margins with the weights of m
	got := make([]float64, tgt.k)
	for r := range d.Rows {
		if err := pred.PredictMargin(d.Row(r), got); err != nil {
			t.Fatal(err)
		}
		for j, v := range got {
			if want := tr.margins[r*tgt.k+j]; v != want {
				t.Fatalf("row %d output %d: interpreter %v, trainer %v (want bit-identical)", r, j, v, want)
			}
		}
	}
}

// TestHardLimit checks the mapping of TEL's routing onto the IR: a soft
// node of tiny γ with weights (w, b) routes as the hard oblique node with
// (-w, -b) and "<" (ir/doc.go), so the interpreter gives the same margins
// for the soft model and its hard translation, and every row reaches one
// leaf per tree.
func TestHardLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	const p = 4
	e := randomEnsemble(rng, 3, 5, p, 1, SmoothStep, 1e-12, 1, true)
	s := settings{loss: Logistic, trees: 3, depth: 5, gamma: 1e-12, act: SmoothStep, bias: true}
	tgt := &target{loss: Logistic, k: 1, names: []string{"0", "1"}, base: []float64{0}, scale: 1}
	st := &standardiser{shift: make([]float64, p), scale: []float64{1, 1, 1, 1}}
	soft, err := (&Ensemble{e: e, s: s, tgt: tgt, st: st, fp: map[string]string{}}).Model()
	if err != nil {
		t.Fatal(err)
	}
	hard := *soft
	hard.Trees = nil
	for _, tr := range soft.Trees {
		nodes := make([]ir.Node, len(tr.Nodes))
		for i, n := range tr.Nodes {
			if n.Kind == ir.Soft {
				n.Kind, n.Gamma, n.Bias = ir.Oblique, 0, -n.Bias
				w := make([]float64, len(n.Weights))
				for j, v := range n.Weights {
					w[j] = -v
				}
				n.Weights = w
			}
			nodes[i] = n
		}
		hard.Trees = append(hard.Trees, ir.Tree{Output: tr.Output, Nodes: nodes})
	}
	ps, err := runtime.New[float64](soft)
	if err != nil {
		t.Fatal(err)
	}
	ph, err := runtime.New[float64](&hard)
	if err != nil {
		t.Fatal(err)
	}
	a, b := make([]float64, 1), make([]float64, 1)
	for range 2000 {
		x := make([]float64, p)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		if e.forward(x, make([]float64, 1), make([]float64, 1)) != e.trees {
			t.Fatalf("row %v reaches more than one leaf per tree", x)
		}
		if err := ps.PredictMargin(x, a); err != nil {
			t.Fatal(err)
		}
		if err := ph.PredictMargin(x, b); err != nil {
			t.Fatal(err)
		}
		if a[0] != b[0] {
			t.Fatalf("row %v: soft model %v, hard model %v", x, a[0], b[0])
		}
	}
}

// TestDeterminism checks that the same seed gives byte-identical models
// whatever the number of threads, in both modes.
func TestDeterminism(t *testing.T) {
	d := synthetic(4, 500, 6, 3)
	for _, mode := range []Mode{Conditional, Dense} {
		t.Run(string(mode), func(t *testing.T) {
			var first []byte
			for _, threads := range []int{1, 2, 1, 3} {
				o := DefaultOptions(Softmax)
				o.Trees, o.Depth, o.Epochs, o.BatchSize = 5, 5, 3, 100
				o.Mode, o.Threads, o.Seed, o.L2 = mode, threads, 42, 1e-4
				m, err := Train(d, nil, o)
				if err != nil {
					t.Fatal(err)
				}
				b, err := ir.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				if first == nil {
					first = b
				} else if !bytes.Equal(first, b) {
					t.Fatalf("%d threads: the model differs from the one with 1 thread", threads)
				}
			}
			o := DefaultOptions(Softmax)
			o.Trees, o.Depth, o.Epochs, o.BatchSize, o.Mode, o.Seed = 5, 5, 3, 100, mode, 43
			m, err := Train(d, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			if b, _ := ir.Marshal(m); bytes.Equal(first, b) {
				t.Fatal("another seed gives the same model")
			}
		})
	}
}

// TestLearns trains the default architecture on breast_cancer_wisconsin
// (70/30 stratified split) and checks the test AUC, early stopping and the
// history.
func TestLearns(t *testing.T) {
	d := readTestdata(t, "breast_cancer_wisconsin")
	_, cls, err := data.Classes(d.Y)
	if err != nil {
		t.Fatal(err)
	}
	tri, tei := data.StratifiedSplit(cls, 0.3, 1)
	train, test := d.Subset(tri), d.Subset(tei)
	o := DefaultOptions(Logistic)
	o.Epochs = 30
	o.EarlyStopping = 5
	var epochs []EpochInfo
	o.OnEpoch = func(i EpochInfo) { epochs = append(epochs, i) }
	m, err := Train(train, test, o)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	pos := make([]bool, test.Rows)
	score := make([]float64, test.Rows)
	out := make([]float64, 1)
	for r := range test.Rows {
		if err := pred.Predict(test.Row(r), out); err != nil {
			t.Fatal(err)
		}
		pos[r], score[r] = test.Y[r] == 1, out[0]
	}
	auc := metrics.AUC(pos, score)
	t.Logf("test AUC %.4f after %d epochs (best %s)", auc, len(epochs), m.Provenance.Params["best_epoch"])
	if auc < 0.95 {
		t.Errorf("test AUC %.4f, want > 0.95", auc)
	}
	last := epochs[len(epochs)-1]
	if last.TrainLoss >= epochs[0].TrainLoss || last.ReachableLeaves >= epochs[0].ReachableLeaves {
		t.Errorf("epoch 1 %+v, last %+v: want lower loss and fewer reachable leaves", epochs[0], last)
	}
	if m.Provenance.Producer != Producer || m.Provenance.Data["sha256"] == "" || m.Provenance.Data["valid_rows"] != strconv.Itoa(test.Rows) {
		t.Errorf("provenance %+v", m.Provenance)
	}
	best, _ := strconv.Atoi(m.Provenance.Params["best_epoch"])
	for _, e := range epochs {
		if e.ValidLoss < epochs[best-1].ValidLoss {
			t.Errorf("epoch %d has a lower validation loss than the best epoch %d", e.Epoch, best)
		}
	}
}

// TestRegressionAndMulticlassLearn checks that the loss falls well below
// the constant model's for the other two losses.
func TestRegressionAndMulticlassLearn(t *testing.T) {
	for _, c := range []struct {
		loss    Loss
		classes int
	}{{SquaredError, 0}, {Softmax, 4}} {
		t.Run(string(c.loss), func(t *testing.T) {
			d := synthetic(5, 1500, 4, c.classes)
			o := DefaultOptions(c.loss)
			o.Epochs = 15
			o.LearningRate = 0.05
			var first, last EpochInfo
			o.OnEpoch = func(i EpochInfo) {
				if i.Epoch == 1 {
					first = i
				}
				last = i
			}
			if _, err := Train(d, nil, o); err != nil {
				t.Fatal(err)
			}
			t.Logf("loss %.4g -> %.4g, AUC %.4f", first.TrainLoss, last.TrainLoss, last.TrainAUC)
			if last.TrainLoss > first.TrainLoss/2 {
				t.Errorf("loss %.4g -> %.4g: want at least halved", first.TrainLoss, last.TrainLoss)
			}
		})
	}
}

// TestL1 trains on data whose class depends on features 0 to 2 of 10,
// with and without Options.L1: with it, most node weights are exactly 0,
// the exported nodes list only the others, the accuracy stays close, and
// the provenance records the penalty.
func TestL1(t *testing.T) {
	d := synthetic(3, 2000, 10, 2)
	var acc [2]float64
	for i, l1 := range []float64{0, 0.001} {
		o := DefaultOptions(Logistic)
		o.Trees, o.Depth, o.Epochs, o.BatchSize, o.L1 = 5, 3, 20, 64, l1
		en, err := Fit(d, nil, o)
		if err != nil {
			t.Fatal(err)
		}
		zeros := en.History()[len(en.History())-1].ZeroWeights
		m, err := en.Model()
		if err != nil {
			t.Fatal(err)
		}
		listed := 0
		for _, tr := range m.Trees {
			for _, nd := range tr.Nodes {
				for k := range nd.Indices {
					if nd.Weights[k] == 0 {
						t.Fatalf("l1=%g: an exported weight is 0", l1)
					}
					listed++
				}
			}
		}
		total := o.Trees * (1<<o.Depth - 1) * d.Cols
		if want := 1 - float64(listed)/float64(total); math.Abs(zeros-want) > 1e-12 {
			t.Errorf("l1=%g: ZeroWeights %v, exported model %v", l1, zeros, want)
		}
		if _, ok := m.Provenance.Params["l1"]; ok != (l1 > 0) {
			t.Errorf("l1=%g: provenance %v", l1, m.Provenance.Params)
		}
		if l1 == 0 {
			if zeros != 0 {
				t.Errorf("without L1, %.1f%% of the weights are 0", 100*zeros)
			}
		} else {
			if zeros < 0.5 {
				t.Errorf("L1 %g: only %.1f%% of the weights are 0", l1, 100*zeros)
			}
		}
		p := make([]float64, 1)
		for r := range d.Rows {
			if err := en.PredictMargin(d.Row(r), p); err != nil {
				t.Fatal(err)
			}
			if (p[0] > 0) == (d.Y[r] == 1) {
				acc[i] += 1 / float64(d.Rows)
			}
		}
	}
	if acc[1] < acc[0]-0.05 {
		t.Errorf("accuracy %.3f with L1, %.3f without", acc[1], acc[0])
	}
	o := DefaultOptions(Logistic)
	o.L1 = -1
	if _, err := Fit(d, nil, o); err == nil || !strings.Contains(err.Error(), "L1 must be") {
		t.Errorf("L1 -1: %v", err)
	}
}
