package e2e

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// smallTree returns a full tree of depth 2 (3 splits, 4 leaves) over p
// features and k classes with random parameters and leaf distributions.
func smallTree(rng *rand.Rand, p, k int) *tree {
	t := &tree{p: p, k: k}
	for i := range 7 {
		if i < 3 {
			sp := newSplit(rng, p, p)
			for j := range sp.beta {
				sp.beta[j] = rng.NormFloat64()
			}
			sp.left, sp.right = 2*i+1, 2*i+2
			t.nodes = append(t.nodes, sp)
			continue
		}
		pi := make([]float64, k)
		s := 0.0
		for c := range pi {
			pi[c] = 0.1 + rng.Float64()
			s += pi[c]
		}
		for c := range pi {
			pi[c] /= s
		}
		t.nodes = append(t.nodes, node{pi: pi})
	}
	return t
}

func randomRows(rng *rand.Rand, n, p, k int) ([]float64, []int) {
	x := make([]float64, n*p)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y := make([]int, n)
	for r := range y {
		y[r] = rng.IntN(k)
	}
	return x, y
}

// TestGradientFiniteDifference checks the gradient of Eq. 14 against
// central differences, with the responsibilities held fixed.
func TestGradientFiniteDifference(t *testing.T) {
	for _, gamma := range []float64{0.5, 1, 3.7} {
		t.Run(strconv.FormatFloat(gamma, 'g', -1, 64), func(t *testing.T) {
			const p, k, n = 3, 3, 6
			rng := rand.New(rand.NewPCG(1, 2))
			tr := smallTree(rng, p, k)
			x, y := randomRows(rng, n, p, k)
			theta := tr.flatten()
			w := tr.newWork()
			hs := make([][]float64, n)
			grad := make([]float64, len(theta))
			for r := range n {
				xr := x[r*p : (r+1)*p]
				tr.posterior(xr, y[r], gamma, w)
				hs[r] = append([]float64(nil), w.h...)
				tr.addGradient(xr, gamma, 1, w, grad)
			}
			obj := func() float64 {
				q := 0.0
				for r := range n {
					q += tr.pathObjective(x[r*p:(r+1)*p], gamma, hs[r], w)
				}
				return q
			}
			const eps = 1e-5
			for i := range theta {
				v := theta[i]
				theta[i] = v + eps
				up := obj()
				theta[i] = v - eps
				down := obj()
				theta[i] = v
				num := (up - down) / (2 * eps)
				rel := math.Abs(num-grad[i]) / math.Max(math.Max(math.Abs(num), math.Abs(grad[i])), 1e-3)
				if !(rel <= 1e-6) {
					t.Errorf("parameter %d: analytic %v, numeric %v, relative error %v", i, grad[i], num, rel)
				}
			}
		})
	}
}

// TestLeafUpdateMaximises checks that Eq. 13 maximises the leaf part of the
// expected complete log-likelihood (Eq. 11): no perturbation on the
// simplex increases it.
func TestLeafUpdateMaximises(t *testing.T) {
	const p, k, n = 2, 3, 40
	rng := rand.New(rand.NewPCG(3, 4))
	tr := smallTree(rng, p, k)
	x, y := randomRows(rng, n, p, k)
	const gamma = 1.3
	w := tr.newWork()
	hs := make([][]float64, n)
	tot := make([]float64, len(tr.nodes)*(k+1)+1)
	for r := range n {
		tr.posterior(x[r*p:(r+1)*p], y[r], gamma, w)
		hs[r] = append([]float64(nil), w.h...)
		for i := range tr.nodes {
			if !tr.nodes[i].split {
				tot[i*(k+1)+y[r]] += w.h[i]
				tot[i*(k+1)+k] += w.h[i]
			}
		}
	}
	setLeaves(tr, tot)
	q := func(leaf int, pi []float64) float64 {
		s := 0.0
		for r := range n {
			s += hs[r][leaf] * math.Log(pi[y[r]])
		}
		return s
	}
	for i := range tr.nodes {
		nd := &tr.nodes[i]
		if nd.split {
			continue
		}
		best := q(i, nd.pi)
		for _, eps := range []float64{1e-1, 1e-2, 1e-4} {
			for range 50 {
				d := make([]float64, k)
				for c := range d {
					d[c] = rng.NormFloat64()
				}
				mean := (d[0] + d[1] + d[2]) / 3
				pert := make([]float64, k)
				ok := true
				for c := range d {
					pert[c] = nd.pi[c] + eps*(d[c]-mean)
					ok = ok && pert[c] > 0
				}
				if !ok {
					continue
				}
				if got := q(i, pert); got > best+1e-12*math.Abs(best) {
					t.Errorf("leaf %d: perturbed π %v gives %v > %v of Eq. 13's %v", i, pert, got, best, nd.pi)
				}
			}
		}
	}
}

// TestSaturated checks that an empty leaf keeps its distribution and that
// nothing becomes NaN with γ = 1e6.
func TestSaturated(t *testing.T) {
	const p, k = 1, 2
	// One split f = x: every row has x > 1, so the left leaf gets
	// μ = σ(-1e6·x) = 0.
	tr := &tree{p: p, k: k, nodes: []node{
		{split: true, left: 1, right: 2, feats: []int{0}, beta: []float64{1, 0}},
		{pi: []float64{0.3, 0.7}},
		{pi: []float64{0.5, 0.5}},
	}}
	x := []float64{1.5, 2, 3, 4}
	y := []int{0, 1, 1, 1}
	s := settings{threads: 1, batch: 2, lr: 1e-3}
	trn := &trainer{s: s, n: 4, p: p, k: k, x: x, y: y}
	rows := []int{0, 1, 2, 3}
	ll := trn.updateLeaves(tr, rows, 1e6)
	if got := tr.nodes[1].pi; got[0] != 0.3 || got[1] != 0.7 {
		t.Errorf("the empty leaf's distribution became %v, want [0.3 0.7]", got)
	}
	if got := tr.nodes[2].pi; got[0] != 0.25 || got[1] != 0.75 {
		t.Errorf("the full leaf's distribution is %v, want [0.25 0.75]", got)
	}
	if math.IsNaN(ll) || math.IsInf(ll, 0) {
		t.Errorf("log-likelihood %v", ll)
	}
	// A row on the wrong side of a saturated split, and leaves that give
	// a class probability 0.
	tr.nodes[2].pi = []float64{0, 1}
	tr.nodes[1].pi = []float64{0, 1}
	w := tr.newWork()
	g := make([]float64, len(tr.flatten()))
	for r, xv := range []float64{-2, 0, 3} {
		tr.posterior([]float64{xv}, r%2, 1e6, w)
		tr.addGradient([]float64{xv}, 1e6, 1, w, g)
	}
	for _, v := range append(g, w.h...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("non-finite value with saturated splits: gradient %v, h %v", g, w.h)
		}
	}
	rng := rand.New(rand.NewPCG(5, 6))
	trn.em(tr, rows, 5, 1e6, rng, EpochInfo{})
	for i := range tr.nodes {
		for _, v := range append(append([]float64(nil), tr.nodes[i].beta...), tr.nodes[i].pi...) {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("node %d is not finite after EM at γ = 1e6: %+v", i, tr.nodes[i])
			}
		}
	}
}

func readPMLB(t *testing.T, name string) *data.Dataset {
	t.Helper()
	d, err := data.ReadFile(filepath.Join("..", "..", "testdata", "pmlb", name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestPMLB trains trees and a forest on real data and checks that the
// interpreter reproduces the trainer's deterministic predictions on every
// row and that the accuracy beats the majority class.
func TestPMLB(t *testing.T) {
	cases := []struct {
		data  string
		opts  Options
		minOK float64 // required accuracy margin over the majority class
	}{
		{"breast_cancer_wisconsin", Options{MaxDepth: 2, Epochs: 10, FinetuneEpochs: 20, BatchSize: 100, LearningRate: 0.01}, 0.2},
		{"breast_cancer_wisconsin", Options{MaxDepth: 4, Epochs: 10, FinetuneEpochs: 20, BatchSize: 100, LearningRate: 0.01}, 0.2},
		{"breast_cancer_wisconsin", Options{MaxDepth: 3, Epochs: 10, FinetuneEpochs: -1, BatchSize: 100, LearningRate: 0.01}, 0.2},
		{"breast_cancer_wisconsin", Options{Trees: 3, MaxDepth: 3, Epochs: 5, FinetuneEpochs: 10, BatchSize: 100, LearningRate: 0.01}, 0.2},
		{"ecoli", Options{MaxDepth: 3, Epochs: 20, FinetuneEpochs: 30, BatchSize: 50, LearningRate: 0.01}, 0.2},
	}
	for _, c := range cases {
		t.Run(c.data+"/trees="+strconv.Itoa(max(c.opts.Trees, 1))+"/depth="+strconv.Itoa(c.opts.MaxDepth), func(t *testing.T) {
			d := readPMLB(t, c.data)
			c.opts.Seed = 7
			f, tr, err := fit(d, nil, c.opts)
			if err != nil {
				t.Fatal(err)
			}
			m, err := f.model(tr, "", d, nil)
			if err != nil {
				t.Fatal(err)
			}
			pred, err := runtime.New[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			_, index, _ := data.Classes(d.Y)
			count := make(map[int]int)
			ok := 0
			out := make([]float64, f.outputs())
			rt := make([]float64, m.NumOutputs)
			for r := range d.Rows {
				x := d.Row(r)
				want := f.predictClass(x)
				got, err := pred.PredictClass(x)
				if err != nil {
					t.Fatal(err)
				}
				if got != want {
					t.Fatalf("row %d: interpreter predicts class %d, trainer %d", r, got, want)
				}
				f.predict(x, out)
				if err := pred.Predict(x, rt); err != nil {
					t.Fatal(err)
				}
				for j := range out {
					if math.Float64bits(out[j]) != math.Float64bits(rt[j]) {
						t.Fatalf("row %d output %d: interpreter %v, trainer %v", r, j, rt[j], out[j])
					}
				}
				count[index[r]]++
				if want == index[r] {
					ok++
				}
			}
			base := 0
			for _, v := range count {
				base = max(base, v)
			}
			acc, baseAcc := float64(ok)/float64(d.Rows), float64(base)/float64(d.Rows)
			splits, _ := strconv.ParseFloat(m.Provenance.Params["split_evaluations_per_row"], 64)
			t.Logf("accuracy %.4f (majority %.4f), %d tree(s), %v split evaluations per row, final γ %s",
				acc, baseAcc, len(m.Trees), splits, m.Provenance.Params["final_gamma"])
			if acc < baseAcc+c.minOK*(1-baseAcc) {
				t.Errorf("training accuracy %.4f does not beat the majority class %.4f by enough", acc, baseAcc)
			}
			if !(splits > 0) || splits > float64(len(m.Trees)*max(c.opts.MaxDepth, 1)) {
				t.Errorf("split evaluations per row %v out of range", splits)
			}
		})
	}
}

// TestThreads checks that the number of goroutines never changes the
// model.
func TestThreads(t *testing.T) {
	d := readPMLB(t, "breast_cancer_wisconsin")
	var models [][]byte
	for _, threads := range []int{1, 2} {
		m, err := Train(d, nil, Options{Trees: 2, MaxDepth: 3, Epochs: 4, FinetuneEpochs: 4, BatchSize: 200, Seed: 3, Threads: threads})
		if err != nil {
			t.Fatal(err)
		}
		b, err := ir.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		models = append(models, b)
	}
	if !bytes.Equal(models[0], models[1]) {
		t.Error("Threads 1 and 2 give different models")
	}
}

// TestOptions checks errors, defaults and the provenance.
func TestOptions(t *testing.T) {
	d := readPMLB(t, "breast_cancer_wisconsin")
	zero, neg := 0.0, -1.0
	reg := *d
	reg.Labels = nil
	reg.Y = make([]float64, d.Rows)
	for r := range reg.Y {
		reg.Y[r] = float64(r) / 3
	}
	one := reg
	one.Y = make([]float64, d.Rows)
	cases := []struct {
		name string
		d    *data.Dataset
		opts Options
		err  string // "" for success
	}{
		{"regression", &reg, Options{}, "classification"},
		{"single class", &one, Options{}, "single class"},
		{"negative delta gamma", d, Options{DeltaGamma: &neg}, "DeltaGamma"},
		{"depth", d, Options{MaxDepth: MaxDepth + 1}, "MaxDepth"},
		{"learning rate", d, Options{LearningRate: math.NaN()}, "LearningRate"},
		{"constant gamma", d, Options{DeltaGamma: &zero, MaxDepth: 1, Epochs: 2, FinetuneEpochs: 3}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var infos []EpochInfo
			c.opts.OnEpoch = func(e EpochInfo) { infos = append(infos, e) }
			m, err := Train(c.d, c.d, c.opts)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !strings.HasPrefix(err.Error(), "e2e: ") {
					t.Fatalf("error %v, want one mentioning %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			p := m.Provenance.Params
			if p["final_gamma"] != "1" || p["delta_gamma"] != "0" || p["finetune_epochs"] != "3" || p["seed"] != "0" {
				t.Errorf("provenance %v", p)
			}
			last := infos[len(infos)-1]
			if last.Phase != Finetune || last.Epoch != 3 || last.Gamma != 1 || math.IsNaN(last.ValidAccuracy) || math.IsNaN(last.LogLikelihood) {
				t.Errorf("last epoch %+v", last)
			}
			if m.Task != ir.Binary || m.NumOutputs != 1 || m.Link != ir.Identity || len(m.ClassNames) != 2 {
				t.Errorf("model task %v, outputs %d, link %v, classes %v", m.Task, m.NumOutputs, m.Link, m.ClassNames)
			}
		})
	}
}

// TestImpute: a missing value is an error, or with Impute the training
// mean; the exported model sends it to the side more rows reached.
func TestImpute(t *testing.T) {
	d := &data.Dataset{
		Features: []string{"a", "b"},
		X:        []float64{0, 1, 1, math.NaN(), 2, 1, 3, 0, math.NaN(), 2, 5, 1, 6, 0, 7, 2},
		Y:        []float64{0, 0, 0, 0, 1, 1, 1, 1},
		Rows:     8, Cols: 2,
	}
	if _, err := Train(d, nil, Options{MaxDepth: 2}); err == nil || !strings.Contains(err.Error(), "is missing (NaN); set Options.Impute") {
		t.Fatalf("without Impute: %v", err)
	}
	m, err := Train(d, nil, Options{MaxDepth: 2, Impute: true, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if m.Provenance.Params["impute"] != "true" {
		t.Errorf("provenance %v", m.Provenance.Params)
	}
	// The mean of a over its 7 values, not over 8 with a NaN.
	if want := (0 + 1 + 2 + 3 + 5 + 6 + 7) / 7.0; m.Preprocess.Shift[0] != want {
		t.Errorf("shift of a = %v, want %v", m.Preprocess.Shift[0], want)
	}
}

// TestKeepBest: with a validation set, KeepBest returns the tree of the
// finetuning epoch of best deterministic validation accuracy.
func TestKeepBest(t *testing.T) {
	d, err := data.ReadFile(filepath.Join("..", "..", "testdata", "pmlb", "heart_c.tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	train, valid := d.Subset(seq(0, 240)), d.Subset(seq(240, d.Rows))
	var accs []float64
	o := Options{MaxDepth: 3, Epochs: 5, FinetuneEpochs: 15, KeepBest: true, Seed: 1,
		OnEpoch: func(i EpochInfo) {
			if i.Phase == Finetune {
				accs = append(accs, i.ValidAccuracy)
			}
		}}
	m, err := Train(train, valid, o)
	if err != nil {
		t.Fatal(err)
	}
	best := 0
	for e, a := range accs {
		if a > accs[best] {
			best = e
		}
	}
	if best == len(accs)-1 {
		t.Fatalf("the last epoch is the best (%v): the test cannot tell keeping from not", accs)
	}
	if got := m.Provenance.Params["finetune_epochs_kept"]; got != strconv.Itoa(best+1) {
		t.Fatalf("kept epoch %s, want %d (validation accuracies %v)", got, best+1, accs)
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	ok := 0
	for r := range valid.Rows {
		c, _ := p.PredictClass(valid.Row(r))
		if m.ClassNames[c] == valid.LabelName(valid.Y[r]) {
			ok++
		}
	}
	if got := float64(ok) / float64(valid.Rows); got != accs[best] {
		t.Errorf("the model's validation accuracy is %v, the kept epoch's %v", got, accs[best])
	}
}

func seq(lo, hi int) []int {
	s := make([]int, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}
