package tao

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/trainset"
)

// Tree is a trained softmax tree: the trainer's own model, which predicts
// as its exported ir.Model does.
type Tree struct {
	root         *node
	shift, scale []float64
	m            *ir.Model
}

// Train fits a softmax tree to the training set train (valid, if not nil,
// is only reported on through Options.OnIteration) and returns it as a
// validated ir.Model.
func Train(train, valid *data.Dataset, o Options) (*ir.Model, error) {
	t, err := Fit(train, valid, o)
	if err != nil {
		return nil, err
	}
	return t.Model(), nil
}

// Fit is Train returning the trainer's tree, whose PredictClass the
// exported model must agree with.
func Fit(train, valid *data.Dataset, o Options) (*Tree, error) {
	start := time.Now()
	if err := trainset.Check(train, "training"); err != nil {
		return nil, fmt.Errorf("tao: %w", err)
	}
	if valid != nil {
		if err := trainset.CheckValid(train, valid); err != nil {
			return nil, fmt.Errorf("tao: %w", err)
		}
	}
	names, y, err := trainset.Classes(train, "tao", "softmax trees", MaxClasses)
	if err != nil {
		return nil, err
	}
	s, err := o.settings(train.Cols, len(names))
	if err != nil {
		return nil, err
	}
	if err := complete(train, "training"); err != nil {
		return nil, err
	}
	if valid != nil {
		if err := complete(valid, "validation"); err != nil {
			return nil, err
		}
	}
	shift, scale, err := trainset.FitStandardiser(train, "tao", false)
	if err != nil {
		return nil, err
	}
	tr := &trainer{s: s, d: train.Cols, n: train.Rows, y: y}
	if tr.x, err = trainset.Standardise(train, shift, scale, "training", "tao", false); err != nil {
		return nil, err
	}
	if valid != nil {
		if tr.yv, err = trainset.LabelsOf(valid, names, "tao"); err != nil {
			return nil, err
		}
		if tr.xv, err = trainset.Standardise(valid, shift, scale, "validation", "tao", false); err != nil {
			return nil, err
		}
	}
	tr.all = make([]int, tr.n)
	for r := range tr.all {
		tr.all[r] = r
	}
	tr.mode = tr.topClasses(tr.all, 1)[0]

	// report calls OnIteration; obj gives the objective, computed only
	// when someone listens.
	report := func(round, it, expanded int, root *node, obj func() float64) {
		if o.OnIteration == nil {
			return
		}
		depth, leaves, meanK := root.shape()
		o.OnIteration(Progress{
			Round: round, Iteration: it, Expanded: expanded,
			Objective:  obj() / float64(tr.n),
			TrainError: errorRate(root, tr.x, tr.y, tr.d),
			ValidError: errorRate(root, tr.xv, tr.yv, tr.d),
			Depth:      depth, Leaves: leaves, MeanK: meanK,
			Elapsed: time.Since(start),
		})
	}
	var root *node
	switch s.kind {
	case Softmax:
		root = newLeaf(len(names), tr.mode, tr.d)
		tr.fitLeaf(root, tr.all, true)
		report(0, 1, 0, root, func() float64 { return tr.objective(root, tr.all) })
	default:
		rng := rand.New(rand.NewPCG(s.seed, 0))
		root = tr.complete(tr.all, s.depth, s.k, rng)
		report(0, 0, 0, root, func() float64 { return tr.objective(root, tr.all) })
		tr.optimise(root, tr.all, s.iterations, s.threads, func(it int, obj float64) {
			report(0, it, 0, root, func() float64 { return obj })
		})
		root = prune(root, tr.counts(root, tr.all))
		if s.kind == AST {
			root = tr.grow(root, report)
		}
	}
	t := &Tree{root: root, shift: shift, scale: scale}
	if t.m, err = t.model(tr, names, o.Name, train, valid); err != nil {
		return nil, err
	}
	return t, nil
}

// Model returns the tree as a validated ir.Model (the same value on every
// call; do not change it).
func (t *Tree) Model() *ir.Model { return t.m }

// PredictClass returns the index into the model's ClassNames of the class
// the tree predicts for the raw row x (of the training set's features):
// standardisation as the model's Preprocess, hard routing (right iff
// w·x' + b >= 0) and the class of largest probability of the leaf's
// softmax. A missing value is not allowed.
func (t *Tree) PredictClass(x []float64) int {
	xs := make([]float64, len(x))
	for j, v := range x {
		xs[j] = (v - t.shift[j]) * t.scale[j]
	}
	return t.root.route(xs).predict(xs)
}

// complete refuses a data set with a missing value: a softmax leaf
// computes with every feature of its rows, and no value stands for a
// missing one there. what names d in the error.
func complete(d *data.Dataset, what string) error {
	return trainset.Complete(d, what, "tao", "softmax leaves compute with every feature, so softmax trees need complete rows")
}

// errorRate returns the share of the standardised rows x (of d features)
// whose class the tree at root does not predict; NaN without rows.
func errorRate(root *node, x []float64, y []int, d int) float64 {
	if len(y) == 0 {
		return math.NaN()
	}
	wrong := 0
	for r, c := range y {
		row := x[r*d : (r+1)*d]
		if root.route(row).predict(row) != c {
			wrong++
		}
	}
	return float64(wrong) / float64(len(y))
}

// model exports the tree as a validated ir.Model: one tree of oblique
// nodes and softmax leaves, writing every output, summed with identity
// link (the leaves' values are already probabilities).
func (t *Tree) model(tr *trainer, names []string, name string, train, valid *data.Dataset) (*ir.Model, error) {
	count := tr.counts(t.root, tr.all)
	var nodes []ir.Node
	var add func(n *node) int
	add = func(n *node) int {
		i := len(nodes)
		nodes = append(nodes, ir.Node{})
		if n.leaf {
			sp := &ir.SoftmaxParams{Classes: slices.Clone(n.classes), Bias: make([]float64, len(n.classes))}
			sp.Rows = make([]ir.SparseRow, len(n.classes))
			if len(n.classes) > 1 {
				copy(sp.Bias, n.wb)
				for c := range n.classes {
					sp.Rows[c] = sparse(n.W[c*tr.d : (c+1)*tr.d])
				}
			}
			nodes[i] = ir.Node{Kind: ir.SoftmaxLeaf, Softmax: sp}
			return i
		}
		row := sparse(n.w)
		in := ir.Node{Kind: ir.Oblique, Indices: row.Indices, Weights: row.Weights, Bias: n.b,
			DefaultLeft: count[n.left] > count[n.right]}
		in.Left = add(n.left)
		in.Right = add(n.right)
		nodes[i] = in
		return i
	}
	add(t.root)

	depth, leaves, meanK := t.root.shape()
	flops := 0
	for r := range tr.n {
		flops += t.root.flops(tr.row(r))
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	params := tr.s.params()
	params["final_depth"] = strconv.Itoa(depth)
	params["leaves"] = strconv.Itoa(leaves)
	params["mean_k"] = f(meanK)
	params["flops_per_row"] = f(float64(flops) / float64(tr.n))
	params["objective"] = f(tr.objective(t.root, tr.all) / float64(tr.n))
	params["train_error"] = f(errorRate(t.root, tr.x, tr.y, tr.d))
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Name:          name,
		Task:          ir.Multiclass,
		NumFeatures:   tr.d,
		FeatureNames:  slices.Clone(train.Features),
		Preprocess:    &ir.Affine{Shift: slices.Clone(t.shift), Scale: slices.Clone(t.scale)},
		NumOutputs:    len(names),
		ClassNames:    slices.Clone(names),
		Aggregation:   ir.Sum,
		Link:          ir.Identity,
		Trees:         []ir.Tree{{Output: ir.AllOutputs, Nodes: nodes}},
		Provenance:    &ir.Provenance{Producer: Producer, Params: params, Data: trainset.Fingerprint(train, valid)},
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("tao: the trained model is invalid (a bug): %w", err)
	}
	return m, nil
}

// sparse returns the non-zero entries of v.
func sparse(v []float64) ir.SparseRow {
	var s ir.SparseRow
	for j, w := range v {
		if w != 0 {
			s.Indices = append(s.Indices, j)
			s.Weights = append(s.Weights, w)
		}
	}
	return s
}
