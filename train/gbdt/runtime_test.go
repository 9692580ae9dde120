package gbdt

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// marginCases train on real data sets, with NaN and ±Inf cells mixed in,
// under every growth policy and sampling option.
var marginCases = []struct {
	name    string
	dataset string
	opts    Options
}{
	{"binary", "breast_cancer_wisconsin", Options{Objective: Logistic, Rounds: 30}},
	{"binary, few bins, subsampled", "hypothyroid", Options{Objective: Logistic, Rounds: 20, MaxBins: 16, Subsample: 0.6, Seed: 2}},
	{"multiclass, sampled", "ecoli", Options{Objective: Softmax, Rounds: 15, Subsample: 0.7, ColSample: 0.5, Seed: 1}},
	{"multiclass, leaf-wise", "car_evaluation", Options{Objective: Softmax, Rounds: 10, MaxLeaves: 20}},
	{"multiclass, many classes", "letter", Options{Objective: Softmax, Rounds: 3, MaxDepth: 8}},
	{"regression, leaf-wise", "537_houses", Options{Objective: SquaredError, Rounds: 15, MaxLeaves: 31, MaxDepth: 0}},
	{"regression, deep, gamma", "537_houses", Options{Objective: SquaredError, Rounds: 5, MaxDepth: 12, Gamma: 0.01, Lambda: 5, MinChildWeight: 3}},
	{"binary, alpha, max delta step, monotone", "breast_cancer_wisconsin", Options{Objective: Logistic, Rounds: 20, Alpha: 0.5, MaxDeltaStep: 0.7, MonotoneConstraints: []int{1, -1, 0, 1}}},
	{"multiclass, sampled by level and node", "ecoli", Options{Objective: Softmax, Rounds: 10, ColSampleByLevel: 0.7, ColSampleByNode: 0.6, Seed: 2}},
	{"regression, leaf-wise, monotone", "537_houses", Options{Objective: SquaredError, Rounds: 8, MaxLeaves: 31, MaxDepth: 0, MonotoneConstraints: []int{1, 0, -1}}},
}

// TestTrainingMargins checks that the trees mean in the IR exactly what
// they meant during training: for every training row, the interpreter's
// margins (base score plus the trees, in order) equal bit for bit the
// margins the trainer accumulated from the bins of the row (or from the
// rows' leaves), which can only hold if the bin of every training value
// and the IR test of every split on its raw value agree.
func TestTrainingMargins(t *testing.T) {
	for _, tt := range marginCases {
		t.Run(tt.name, func(t *testing.T) {
			d := withSpecials(readDataset(t, tt.dataset), 1)
			r, err := boost(d, nil, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkMargins(t, d, r)
		})
	}
}

// checkMargins checks that the interpreter's margins for the rows of d
// equal r's training margins bit for bit.
func checkMargins(t *testing.T, d *data.Dataset, r *result) {
	t.Helper()
	m := r.model
	p, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, m.NumOutputs)
	bad := 0
	for row := range d.Rows {
		if err := p.PredictMargin(d.Row(row), out); err != nil {
			t.Fatal(err)
		}
		for k, v := range out {
			if want := r.margins[k*d.Rows+row]; v != want {
				if bad++; bad <= 5 {
					t.Errorf("row %d margin %d: interpreter %v, training %v", row, k, v, want)
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d margins differ", bad)
	}
}

// TestHistogramBudget grows deep trees with room for only six histograms,
// so that most parents cannot keep theirs and their children build both
// histograms from their rows.
func TestHistogramBudget(t *testing.T) {
	defer func(b int) { histBudget = b }(histBudget)
	d := withSpecials(readDataset(t, "satimage"), 4)
	for _, opts := range []Options{
		{Objective: Softmax, Rounds: 3, MaxDepth: 10},
		{Objective: Softmax, Rounds: 3, MaxLeaves: 40, MaxDepth: 0},
	} {
		histBudget = 256 << 20
		full, err := boost(d, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		histBudget = 1
		small, err := boost(d, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkMargins(t, d, small)
		// The trees may differ on near-ties (a histogram built from rows
		// and one obtained by subtraction round differently), the fit not.
		lf, ls := newScorer(Softmax, 6, nil, mustClasses(t, d)).loss(full.margins), newScorer(Softmax, 6, nil, mustClasses(t, d)).loss(small.margins)
		if math.Abs(lf-ls) > 1e-3*lf {
			t.Errorf("%+v: training loss %v with a small budget, %v with the full one", opts, ls, lf)
		}
		if len(small.model.Trees) != len(full.model.Trees) {
			t.Errorf("%d trees, want %d", len(small.model.Trees), len(full.model.Trees))
		}
	}
}

func mustClasses(t *testing.T, d *data.Dataset) []int32 {
	t.Helper()
	_, index, err := data.Classes(d.Y)
	if err != nil {
		t.Fatal(err)
	}
	cls := make([]int32, len(index))
	for i, c := range index {
		cls[i] = int32(c)
	}
	return cls
}

// TestDatasets trains a few rounds on every shared data set and checks
// that the model is valid and fits the training rows better than its
// base score.
func TestDatasets(t *testing.T) {
	tasks := map[string]string{}
	for _, name := range []string{"537_houses", "ann_thyroid", "breast_cancer_wisconsin", "car_evaluation", "churn", "crx",
		"dermatology", "dna", "ecoli", "flare", "heart_c", "hypothyroid", "letter", "nursery", "optdigits", "satimage",
		"sleep", "solar_flare_2", "spambase", "texture", "twonorm", "vehicle", "yeast"} {
		tasks[name] = "classification"
	}
	tasks["537_houses"] = "regression"
	names := make([]string, 0, len(tasks))
	for name := range tasks {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name == "sleep" {
				t.Skip("large data set in -short mode")
			}
			d := readDataset(t, name)
			obj := Softmax
			if tasks[name] == "regression" {
				obj = SquaredError
			} else if labels, _, _ := data.Classes(d.Y); len(labels) == 2 {
				obj = Logistic
			}
			var losses []float64
			m, err := Train(d, nil, Options{Objective: obj, Rounds: 5, OnRound: func(ri RoundInfo) { losses = append(losses, ri.TrainLoss) }})
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			if !(losses[4] < losses[0]) {
				t.Errorf("training loss %v after round 1, %v after round 5", losses[0], losses[4])
			}
		})
	}
}

// TestGenerated compiles trained models into Go with codegen, runs the
// generated packages, and compares them bit for bit with the interpreter on
// the training rows and on rows at, just below and just above every
// threshold.
func TestGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	for _, tt := range []struct {
		name    string
		dataset string
		opts    Options
	}{
		{"binary", "heart_c", Options{Objective: Logistic, Rounds: 20}},
		{"multiclass", "ecoli", Options{Objective: Softmax, Rounds: 8, MaxLeaves: 12, Subsample: 0.8, Seed: 5}},
		{"regression", "537_houses", Options{Objective: SquaredError, Rounds: 10, MaxDepth: 5}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := withSpecials(readDataset(t, tt.dataset), 2)
			if d.Rows > 3000 {
				d = d.Subset(seqRows(3000))
			}
			m, err := Train(d, nil, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			verifyGenerated(t, m, d)
		})
	}
}

// verifyGenerated compiles m with the default backend and checks that the
// generated code equals the interpreter, bit for bit, on the rows of d and
// on boundary rows (see boundaryRows).
func verifyGenerated(t *testing.T, m *ir.Model, d *data.Dataset) {
	t.Helper()
	files, err := codegen.Generate(m, codegen.Options{Package: "x"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := codegen.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	rows := make([][]float64, 0, d.Rows)
	for r := range d.Rows {
		rows = append(rows, d.Row(r))
	}
	rows = append(rows, boundaryRows(m, d.Row(0))...)
	if _, err := harness.Verify(context.Background(), dir, m, rows, ir.Float64, harness.Options{}); err != nil {
		t.Error(err)
	}
}

// boundaryRows returns copies of x with one feature set to each threshold
// of m and to its float64 neighbours, plus NaN and ±Inf in each feature.
func boundaryRows(m *ir.Model, x []float64) [][]float64 {
	var rows [][]float64
	add := func(f int, v float64) {
		r := slices.Clone(x)
		r[f] = v
		rows = append(rows, r)
	}
	for _, tree := range m.Trees[:min(len(m.Trees), 10)] {
		for _, n := range tree.Nodes {
			if n.Kind == ir.Axis {
				add(n.Feature, n.Threshold)
				add(n.Feature, math.Nextafter(n.Threshold, math.Inf(-1)))
				add(n.Feature, math.Nextafter(n.Threshold, math.Inf(1)))
			}
		}
	}
	for f := range x {
		add(f, math.NaN())
		add(f, math.Inf(1))
		add(f, math.Inf(-1))
	}
	return rows
}
