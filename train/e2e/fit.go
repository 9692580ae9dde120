package e2e

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/trainset"
)

// unitRows is the number of rows of a unit of work of the parallel
// passes. Units are fixed by the rows, not by the number of goroutines,
// and their results are summed in unit order, so that Threads never
// changes a result.
const unitRows = 64

// leafUnitRows is the unit of the leaf update's pass, larger than
// unitRows because every unit holds sums for every leaf and class (for a
// tree of depth 10 over 26 classes, 28,000 numbers).
const leafUnitRows = 1024

// An EM run takes at least minSteps Adam steps per epoch, with minibatches
// of at least minBatch rows: BatchSize (1000) is the paper's, for data
// sets of tens of thousands of rows; on the few hundred rows of a small
// data set, or of a deep node, it would make an epoch a single step.
const (
	minSteps = 10
	minBatch = 32
)

// trainer holds the data of a training run.
type trainer struct {
	s       settings
	n, p, k int
	x       []float64 // standardised training rows, n × p
	y       []int     // training classes
	xv      []float64 // standardised validation rows (nil without)
	yv      []int
	start   time.Time
	onEpoch func(EpochInfo)
	kept    []int // with KeepBest: the finetuning epoch kept, per tree
}

func (tr *trainer) row(r int) []float64 { return tr.x[r*tr.p : (r+1)*tr.p] }

// gradient writes into g the gradient of -1/|idx| times the Eq. 14
// objective over the rows idx, with the responsibilities of the current
// parameters (the E-step, Eq. 10, done row by row).
func (tr *trainer) gradient(t *tree, idx []int, gamma float64, g []float64, bufs [][]float64, works []*work) {
	nu := (len(idx) + unitRows - 1) / unitRows
	scale := -1 / float64(len(idx))
	parallel.For(nu, tr.s.threads, func(u int) {
		b, w := bufs[u], works[u]
		clear(b)
		for _, r := range idx[u*unitRows : min(len(idx), (u+1)*unitRows)] {
			x := tr.row(r)
			t.posterior(x, tr.y[r], gamma, w)
			t.addGradient(x, gamma, scale, w, b)
		}
	})
	clear(g)
	for u := range nu {
		for i, v := range bufs[u] {
			g[i] += v
		}
	}
}

// updateLeaves runs the E-step (Eq. 10) on rows and sets every leaf's
// distribution by Eq. 13. A leaf whose responsibilities sum to 0 keeps
// its distribution. It returns the mean log p(y|x) (Eq. 2) of the rows
// before the update.
func (tr *trainer) updateLeaves(t *tree, rows []int, gamma float64) float64 {
	nn, k := len(t.nodes), t.k
	stride := nn*(k+1) + 1
	nu := (len(rows) + leafUnitRows - 1) / leafUnitRows
	acc := make([]float64, nu*stride)
	parallel.For(nu, tr.s.threads, func(u int) {
		a := acc[u*stride : (u+1)*stride]
		w := t.newWork()
		for _, r := range rows[u*leafUnitRows : min(len(rows), (u+1)*leafUnitRows)] {
			y := tr.y[r]
			a[stride-1] += t.posterior(tr.row(r), y, gamma, w)
			for i := range t.nodes {
				if !t.nodes[i].split {
					a[i*(k+1)+y] += w.h[i]
					a[i*(k+1)+k] += w.h[i]
				}
			}
		}
	})
	tot := make([]float64, stride)
	for u := range nu {
		for i, v := range acc[u*stride : (u+1)*stride] {
			tot[i] += v
		}
	}
	setLeaves(t, tot)
	return tot[stride-1] / float64(len(rows))
}

// setLeaves applies Eq. 13 from the sums tot: for leaf i, tot[i(k+1)+c]
// is Σ_n 1(y_n = c) h_{n,i} and tot[i(k+1)+k] is Σ_n h_{n,i}.
func setLeaves(t *tree, tot []float64) {
	k := t.k
	for i := range t.nodes {
		nd := &t.nodes[i]
		den := tot[i*(k+1)+k]
		if nd.split || !(den > 0) || math.IsInf(den, 0) {
			continue
		}
		for c := range k {
			nd.pi[c] = tot[i*(k+1)+c] / den
		}
	}
}

// em trains t on rows for epochs EM epochs (§2.3), starting at steepness
// gamma: every minibatch is one E-step and one Adam step on Eq. 14, every
// epoch ends with the leaf update of Eq. 13 and γ += Δγ. It returns γ
// after the last epoch.
func (tr *trainer) em(t *tree, rows []int, epochs int, gamma float64, rng *rand.Rand, info EpochInfo) float64 {
	theta := t.flatten()
	opt := newAdam(len(theta), tr.s.lr)
	g := make([]float64, len(theta))
	batch := min(tr.s.batch, max(minBatch, (len(rows)+minSteps-1)/minSteps), len(rows))
	nu := (batch + unitRows - 1) / unitRows
	bufs := make([][]float64, nu)
	works := make([]*work, nu)
	for u := range nu {
		bufs[u] = make([]float64, len(theta))
		works[u] = t.newWork()
	}
	order := slices.Clone(rows)
	info.Rows, info.Epochs = len(rows), epochs
	// With KeepBest, finetuning keeps the epoch of best deterministic
	// validation accuracy (ties: the earlier).
	keep := info.Phase == Finetune && tr.s.keepBest && tr.xv != nil
	var best struct {
		acc   float64
		epoch int
		theta []float64
		pi    [][]float64
	}
	best.acc = -1
	for e := 1; e <= epochs; e++ {
		rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		if len(theta) > 0 {
			for b := 0; b < len(order); b += batch {
				tr.gradient(t, order[b:min(len(order), b+batch)], gamma, g, bufs, works)
				opt.step(theta, g)
			}
		}
		ll := tr.updateLeaves(t, rows, gamma)
		validAcc := math.NaN()
		if keep || tr.onEpoch != nil && info.Phase == Finetune && tr.xv != nil {
			validAcc = t.accuracy(tr.xv, tr.yv, tr.p)
		}
		if keep && validAcc > best.acc {
			best.acc, best.epoch = validAcc, e
			best.theta = append(best.theta[:0], theta...)
			best.pi = best.pi[:0]
			for i := range t.nodes {
				best.pi = append(best.pi, slices.Clone(t.nodes[i].pi))
			}
		}
		if tr.onEpoch != nil {
			info.Epoch, info.Gamma, info.LogLikelihood = e, gamma, ll
			info.TrainAccuracy, info.ValidAccuracy, info.ValidProbAccuracy = math.NaN(), validAcc, math.NaN()
			if info.Phase == Finetune {
				info.TrainAccuracy = t.accuracy(tr.x, tr.y, tr.p)
				if tr.xv != nil {
					info.ValidProbAccuracy = t.probAccuracy(tr.xv, tr.yv, tr.p, gamma)
				}
			}
			info.Elapsed = time.Since(tr.start)
			tr.onEpoch(info)
		}
		gamma += tr.s.deltaGamma
	}
	if keep {
		if best.epoch < epochs {
			copy(theta, best.theta)
			for i := range t.nodes {
				t.nodes[i].pi = best.pi[i]
			}
		}
		tr.kept = append(tr.kept, best.epoch)
	}
	return gamma
}

// class returns the class a leaf distribution predicts, as the model's
// interpreter does: for two classes 1 iff π_1 > 0.5, else the first
// class of largest probability.
func class(pi []float64) int {
	if len(pi) == 2 {
		if pi[1] > 0.5 {
			return 1
		}
		return 0
	}
	best := 0
	for c := 1; c < len(pi); c++ {
		if pi[c] > pi[best] {
			best = c
		}
	}
	return best
}

// accuracy returns the accuracy of t with deterministic routing on the
// standardised rows x (of p features) with classes y.
func (t *tree) accuracy(x []float64, y []int, p int) float64 {
	ok := 0
	for r, c := range y {
		leaf, _ := t.route(x[r*p : (r+1)*p])
		if class(t.nodes[leaf].pi) == c {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// probAccuracy returns the share of the rows x (of p features) with
// classes y that the probabilistic tree at steepness gamma classifies
// right: the class of largest p(y|x) = Σ_ℓ (π_ℓ)_y μ_ℓ(x) (Eq. 2).
func (t *tree) probAccuracy(x []float64, y []int, p int, gamma float64) float64 {
	w := t.newWork()
	score := make([]float64, t.k)
	ok := 0
	for r, c := range y {
		t.paths(x[r*p:(r+1)*p], gamma, w)
		clear(score)
		for i := range t.nodes {
			if nd := &t.nodes[i]; !nd.split {
				mu := math.Exp(w.lm[i])
				for k, v := range nd.pi {
					score[k] += v * mu
				}
			}
		}
		if class(score) == c {
			ok++
		}
	}
	return float64(ok) / float64(len(y))
}

// centre sets the bias of the new split sp so that its hyperplane passes
// through the mean of rows (in standardised coordinates): b = -w·mean.
// With the bias at 0, as the paper initialises it, the plane of a deep
// node passes through the mean of the whole training set, often far from
// the node's rows, and Adam's small steps (0.001) take hundreds of
// minibatches to bring it to them.
func (tr *trainer) centre(sp *node, rows []int) {
	b := 0.0
	for j, f := range sp.feats {
		m := 0.0
		for _, r := range rows {
			m += tr.x[r*tr.p+f]
		}
		b -= sp.beta[j] * (m / float64(len(rows)))
	}
	sp.beta[len(sp.feats)] = b
}

// pure reports whether all rows have the same class.
func (tr *trainer) pure(rows []int) bool {
	for _, r := range rows {
		if tr.y[r] != tr.y[rows[0]] {
			return false
		}
	}
	return true
}

// grow builds a tree with the Greedy algorithm of §2.5: candidate leaves
// are taken breadth-first with the training rows that deterministic
// routing sends them; each one that is not pure, has at least MinSamples
// rows and respects MaxDepth and MaxLeaves is replaced by a stump trained
// by EM on its rows, if deterministic routing of those rows reaches both
// of the stump's leaves, at most MaxAttempts times with fresh random
// directions; otherwise it stays a leaf.
func (tr *trainer) grow(ti int, rng *rand.Rand, all []int) *tree {
	s := tr.s
	freq := make([]float64, tr.k)
	for _, r := range all {
		freq[tr.y[r]]++
	}
	for c := range freq {
		freq[c] /= float64(len(all))
	}
	t := &tree{p: tr.p, k: tr.k, nodes: []node{{pi: freq}}}
	type cand struct {
		node int
		rows []int
	}
	queue := []cand{{0, all}}
	leaves := 1
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		depth := t.nodes[c.node].depth
		if depth >= s.depth || leaves >= s.leaves || len(c.rows) < s.minSamples || tr.pure(c.rows) {
			continue
		}
		for attempt := 1; attempt <= s.attempts; attempt++ {
			sp := newSplit(rng, tr.p, s.featsPerSplit)
			tr.centre(&sp, c.rows)
			sp.left, sp.right = 1, 2
			st := &tree{p: tr.p, k: tr.k, nodes: []node{sp, {pi: uniform(tr.k)}, {pi: uniform(tr.k)}}}
			tr.em(st, c.rows, s.epochs, Gamma0, rng, EpochInfo{Tree: ti, Phase: Greedy, Node: c.node, Attempt: attempt})
			var lrows, rrows []int
			for _, r := range c.rows {
				if st.nodes[0].hardMargin(tr.row(r)) <= 0 {
					lrows = append(lrows, r)
				} else {
					rrows = append(rrows, r)
				}
			}
			if len(lrows) == 0 || len(rrows) == 0 {
				continue
			}
			l := len(t.nodes)
			sn := st.nodes[0]
			sn.left, sn.right, sn.depth, sn.beta = l, l+1, depth, slices.Clone(sn.beta)
			t.nodes[c.node] = sn
			t.nodes = append(t.nodes, node{depth: depth + 1, pi: st.nodes[1].pi}, node{depth: depth + 1, pi: st.nodes[2].pi})
			leaves++
			queue = append(queue, cand{l, lrows}, cand{l + 1, rrows})
			break
		}
	}
	return t
}

// forest is a trained model: the trees and the input standardisation.
type forest struct {
	trees        []*tree
	shift, scale []float64
	k            int
	names        []string
}

// outputs returns the number of model outputs: 1 for two classes (the
// probability of the second), else one per class.
func (f *forest) outputs() int {
	if f.k == 2 {
		return 1
	}
	return f.k
}

// predict writes the model's predictions for the raw row x into out
// (len outputs()), computed as the IR interpreter computes them: the
// standardisation, deterministic routing, and the sum (one tree) or the
// mean (Eq. 20) of the leaf values.
func (f *forest) predict(x, out []float64) {
	xs := make([]float64, len(x))
	for j, v := range x {
		xs[j] = (v - f.shift[j]) * f.scale[j]
	}
	s := make([]float64, len(out))
	for _, t := range f.trees {
		leaf, _ := t.route(xs)
		pi := t.nodes[leaf].pi
		if f.k == 2 {
			s[0] += pi[1]
		} else {
			for c := range s {
				s[c] += pi[c]
			}
		}
	}
	for c := range out {
		if len(f.trees) > 1 {
			out[c] = 0 + s[c]/float64(len(f.trees))
		} else {
			out[c] = 0 + s[c]
		}
	}
}

// predictClass returns the class the model predicts for the raw row x, as
// runtime.Predictor.PredictClass does.
func (f *forest) predictClass(x []float64) int {
	out := make([]float64, f.outputs())
	f.predict(x, out)
	if f.k == 2 {
		if out[0] > 0.5 {
			return 1
		}
		return 0
	}
	return class(out)
}

// Train trains an end-to-end deterministic decision tree (E2EDT), or a
// forest of them (E2EDF) when Options.Trees > 1, on the classification
// target of train, and returns it as a validated ir.Model of oblique trees
// (see the package documentation). valid, which may be nil, is reported on
// through Options.OnEpoch and, with Options.KeepBest, chooses the
// finetuning epoch kept; its classes are matched to the training set's by
// name (data.Dataset.LabelName).
//
// Train fails for malformed data, a target of a single class, a regression
// target (non-integer numbers, or more than MaxClasses distinct values),
// missing (NaN) or infinite feature values, and invalid Options.
func Train(train, valid *data.Dataset, o Options) (*ir.Model, error) {
	f, err := Fit(train, valid, o)
	if err != nil {
		return nil, err
	}
	return f.Model(), nil
}

// Forest is a trained E2EDT tree (one tree) or E2EDF forest, as Fit
// returns it: its ir.Model, and the trainer's own deterministic
// prediction, computed from the trees as trained rather than from the
// exported model, so that the two can be compared.
type Forest struct {
	f *forest
	m *ir.Model
}

// Fit is Train, returning the Forest instead of its model.
func Fit(train, valid *data.Dataset, o Options) (*Forest, error) {
	f, tr, err := fit(train, valid, o)
	if err != nil {
		return nil, err
	}
	m, err := f.model(tr, o.Name, train, valid)
	if err != nil {
		return nil, err
	}
	return &Forest{f: f, m: m}, nil
}

// Model returns the forest as a validated ir.Model (the same value on
// every call; do not change it).
func (f *Forest) Model() *ir.Model { return f.m }

// PredictClass returns the index into the model's ClassNames of the class
// the trees predict for the raw row x (of the training set's features):
// standardisation, deterministic routing (right iff f > 0), and the class
// of largest leaf probability, averaged over the trees. A missing value is
// not allowed.
func (f *Forest) PredictClass(x []float64) int { return f.f.predictClass(x) }

// fit trains the trees of Train.
func fit(train, valid *data.Dataset, o Options) (*forest, *trainer, error) {
	start := time.Now()
	if err := trainset.Check(train, "training"); err != nil {
		return nil, nil, fmt.Errorf("e2e: %w", err)
	}
	if valid != nil {
		if err := trainset.CheckValid(train, valid); err != nil {
			return nil, nil, fmt.Errorf("e2e: %w", err)
		}
	}
	names, y, err := trainset.Classes(train, "e2e", "E2E trees", MaxClasses)
	if err != nil {
		return nil, nil, err
	}
	s, err := o.settings(train.Cols, len(names))
	if err != nil {
		return nil, nil, err
	}
	shift, scale, err := trainset.FitStandardiser(train, "e2e", s.impute)
	if err != nil {
		return nil, nil, err
	}
	tr := &trainer{s: s, n: train.Rows, p: train.Cols, k: len(names), y: y, start: start, onEpoch: o.OnEpoch}
	if tr.x, err = trainset.Standardise(train, shift, scale, "training", "e2e", s.impute); err != nil {
		return nil, nil, err
	}
	if valid != nil {
		if tr.yv, err = trainset.LabelsOf(valid, names, "e2e"); err != nil {
			return nil, nil, err
		}
		if tr.xv, err = trainset.Standardise(valid, shift, scale, "validation", "e2e", s.impute); err != nil {
			return nil, nil, err
		}
	}
	all := make([]int, tr.n)
	for r := range all {
		all[r] = r
	}
	greedyEnd := Gamma0
	for range s.epochs {
		greedyEnd += s.deltaGamma
	}
	f := &forest{trees: make([]*tree, s.trees), shift: shift, scale: scale, k: tr.k, names: names}
	for ti := range s.trees {
		rng := rand.New(rand.NewPCG(s.seed, 0x9e3779b97f4a7c15+uint64(ti)))
		t := tr.grow(ti, rng, all)
		if s.finetune > 0 {
			tr.em(t, all, s.finetune, greedyEnd, rng, EpochInfo{Tree: ti, Phase: Finetune, Node: -1})
		}
		f.trees[ti] = t
	}
	return f, tr, nil
}

// model exports f as a validated ir.Model.
func (f *forest) model(tr *trainer, name string, train, valid *data.Dataset) (*ir.Model, error) {
	params := tr.s.params()
	if len(tr.kept) > 0 {
		kept := make([]string, len(tr.kept))
		for i, e := range tr.kept {
			kept[i] = strconv.Itoa(e)
		}
		params["finetune_epochs_kept"] = strings.Join(kept, ",")
	}
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Name:          name,
		NumFeatures:   tr.p,
		FeatureNames:  slices.Clone(train.Features),
		Preprocess:    &ir.Affine{Shift: slices.Clone(f.shift), Scale: slices.Clone(f.scale)},
		NumOutputs:    f.outputs(),
		ClassNames:    slices.Clone(f.names),
		Aggregation:   ir.Sum,
		Link:          ir.Identity,
		Provenance:    &ir.Provenance{Producer: Producer, Params: params, Data: trainset.Fingerprint(train, valid)},
	}
	if len(f.trees) > 1 {
		m.Aggregation = ir.Mean
	}
	output := 0
	if f.k == 2 {
		m.Task = ir.Binary
	} else {
		m.Task, output = ir.Multiclass, ir.AllOutputs
	}
	splits := 0
	for _, t := range f.trees {
		visits := make([]int, len(t.nodes))
		for r := range tr.n {
			x := tr.row(r)
			i := 0
			for t.nodes[i].split {
				visits[i]++
				splits++
				if t.nodes[i].hardMargin(x) <= 0 {
					i = t.nodes[i].left
				} else {
					i = t.nodes[i].right
				}
			}
			visits[i]++
		}
		nodes := make([]ir.Node, len(t.nodes))
		for i := range t.nodes {
			nd := &t.nodes[i]
			if !nd.split {
				v := slices.Clone(nd.pi)
				if f.k == 2 {
					v = []float64{nd.pi[1]}
				}
				nodes[i] = ir.Node{Kind: ir.Leaf, Value: v}
				continue
			}
			in := ir.Node{Kind: ir.Oblique, Left: nd.left, Right: nd.right, LessEqual: true,
				DefaultLeft: visits[nd.left] >= visits[nd.right], Bias: nd.beta[len(nd.feats)]}
			for j, feat := range nd.feats {
				if w := nd.beta[j]; w != 0 {
					in.Indices = append(in.Indices, feat)
					in.Weights = append(in.Weights, w)
				}
			}
			nodes[i] = in
		}
		m.Trees = append(m.Trees, ir.Tree{Output: output, Nodes: nodes})
	}
	params["split_evaluations_per_row"] = strconv.FormatFloat(float64(splits)/float64(tr.n), 'g', -1, 64)
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("e2e: the trained model is invalid (a bug): %w", err)
	}
	return m, nil
}
