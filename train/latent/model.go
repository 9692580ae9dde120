package latent

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/trainset"
)

// Train trains a latent tree on train, watching valid (which may be nil),
// and returns it as a model: Fit followed by Tree.Model.
func Train(train, valid *data.Dataset, opts Options) (*ir.Model, error) {
	t, err := Fit(train, valid, opts)
	if err != nil {
		return nil, err
	}
	return t.Model()
}

// History returns the report of every epoch trained, in order.
func (t *Tree) History() []EpochInfo { return slices.Clone(t.history) }

// BestEpoch returns the epoch whose parameters the tree holds: the last
// one trained, or with a validation set the one of least validation loss.
func (t *Tree) BestEpoch() int { return t.bestEpoch }

// Inputs returns the names of the features the tree reads, in order: the
// training set's, less the regressed columns (Options.Regress).
func (t *Tree) Inputs() []string { return slices.Clone(t.features) }

// Activities returns the frozen activity a*_t of every node of the
// complete tree, in heap order (node t's children are 2t+1 and 2t+2): the
// nodes with a*_t = 0 are pruned.
func (t *Tree) Activities() []float64 { return slices.Clone(t.a) }

// Active returns the number of nodes that are not pruned.
func (t *Tree) Active() int { return countActive(t.a) }

// PredictMargin writes the margins of the raw row x (its inputs, in the
// order of Inputs) into out, as the exported model computes them: the
// read-out in the target's units (identity, sigmoid or softmax still to
// apply). x must hold no missing value.
func (t *Tree) PredictMargin(x, out []float64) error {
	nt := t.nt
	if len(x) != nt.p {
		return fmt.Errorf("latent: the row has %d inputs, the tree reads %d", len(x), nt.p)
	}
	if len(out) != nt.k {
		return fmt.Errorf("latent: the output has room for %d values, the tree has %d outputs", len(out), nt.k)
	}
	xs := make([]float64, nt.p)
	for j, v := range x {
		xs[j] = (v - t.shift[j]) * t.scale[j]
	}
	nt.predict(xs, t.a, make([]float64, nt.B), make([]float64, nt.T), make([]float64, nt.T), make([]int32, nt.depth+1), out)
	if t.tgt.loss == SquaredError {
		for o := range out {
			out[o] = t.tgt.shift[o] + t.tgt.scale[o]*out[o]
		}
	}
	return nil
}

// Model returns the tree as an ir.Model: one latent tree of oblique nodes
// over the standardised inputs (Preprocess) and the read-out over
// [x', z]. Pruned nodes are left out: a node of activity 0 whose parent
// branches and whose sibling is active stays as a leaf of activity 0 (its
// z is always 0 and its read-out weight is 0); a branching node whose two
// children are pruned becomes a leaf.
func (t *Tree) Model() (*ir.Model, error) {
	nt := t.nt
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Name:          t.name,
		NumFeatures:   nt.p,
		FeatureNames:  slices.Clone(t.features),
		Aggregation:   ir.Sum,
		Preprocess:    &ir.Affine{Shift: slices.Clone(t.shift), Scale: slices.Clone(t.scale)},
	}
	trainset.Describe(m, nt.k, t.tgt.names)

	// index[u] is heap node u's index in the exported tree, -1 if left
	// out: a node is exported when its parent is, is active, and has an
	// active child.
	index := make([]int, nt.T)
	var order []int // heap nodes in exported order (breadth first)
	for u := range nt.T {
		index[u] = -1
		if u == 0 || index[(u-1)/2] >= 0 && t.a[(u-1)/2] > 0 && (t.a[u] > 0 || t.a[sibling(u)] > 0) {
			index[u] = len(order)
			order = append(order, u)
		}
	}
	tree := ir.Tree{Output: ir.AllOutputs, Latent: true}
	if nt.elu {
		tree.Activation = ir.Elu
	}
	for _, u := range order {
		a := t.a[u]
		nd := ir.Node{Kind: ir.Leaf, Activity: &a}
		if u < nt.B && index[2*u+1] >= 0 {
			nd.Kind = ir.Oblique
			nd.Left, nd.Right = index[2*u+1], index[2*u+2]
			nd.DefaultLeft = t.left[u]
			nd.Indices = make([]int, nt.p)
			for j := range nd.Indices {
				nd.Indices[j] = j
			}
			nd.Weights = slices.Clone(nt.w[u*nt.p : (u+1)*nt.p])
			nd.Bias = nt.b[u]
		}
		tree.Nodes = append(tree.Nodes, nd)
	}
	m.Trees = []ir.Tree{tree}

	ro := &ir.Readout{Weights: make([][]float64, nt.k), Bias: make([]float64, nt.k)}
	for o := range nt.k {
		sh, sc := 0.0, 1.0
		if t.tgt.loss == SquaredError {
			sh, sc = t.tgt.shift[o], t.tgt.scale[o]
		}
		r := nt.r[o*(nt.p+nt.T) : (o+1)*(nt.p+nt.T)]
		w := make([]float64, nt.p+len(order))
		for j := range nt.p {
			w[j] = sc * r[j]
		}
		for i, u := range order {
			if t.a[u] > 0 {
				w[nt.p+i] = sc * r[nt.p+u]
			}
		}
		ro.Weights[o] = w
		ro.Bias[o] = sh + sc*nt.c[o]
	}
	m.Readout = ro

	params := t.s.params()
	params["active_nodes"] = strconv.Itoa(t.Active())
	params["nodes"] = strconv.Itoa(nt.T)
	params["best_epoch"] = strconv.Itoa(t.bestEpoch)
	params["epochs_trained"] = strconv.Itoa(len(t.history))
	m.Provenance = &ir.Provenance{Producer: Producer, Params: params, Data: t.fp}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("latent: the trained model is not valid (a bug): %w", err)
	}
	return m, nil
}

// sibling returns the other child of u's parent (u > 0).
func sibling(u int) int {
	if u%2 == 1 {
		return u + 1
	}
	return u - 1
}
