package ir

import (
	"fmt"
	"maps"
	"math"
	"slices"
)

// FormatVersion is the base IR format version: the version producers stamp
// on the models they make, and the one Marshal writes for a model that uses
// no field added since. Files whose major version differs are refused; a
// newer minor version is read as long as it holds no field this version does
// not know (decoding is strict). Marshal writes the lowest version that can
// represent the model (Model.MinFormatVersion; see doc.go).
const FormatVersion = "1.0"

// LatestFormatVersion is the newest format version this package knows.
// Version 1.1 added Model.TreesPerRound ("trees_per_round"), version 1.2
// Tree.Activation ("activation"), version 1.3 the split statistics
// Node.Gain and Node.Cover ("gain", "cover").
const LatestFormatVersion = "1.3"

// MaxDepth is the deepest tree Validate accepts (the root has depth 0).
const MaxDepth = 100

// MaxFeatures is the most features (NumFeatures) Validate accepts: 2^24,
// beyond any model treegen trains or imports from real data, and small
// enough that what the interpreter and the generated code size by it (a
// row of that many values) stays within memory.
const MaxFeatures = 1 << 24

// MaxOutputs is the most outputs (NumOutputs) Validate accepts: 2^16. The
// generated code keeps a row's margins in an array of that many values on
// the stack.
const MaxOutputs = 1 << 16

// AllOutputs as a Tree's Output means that the tree's leaves hold one value
// per model output (vector leaves) instead of a single value for one output.
const AllOutputs = -1

// Task says what the model predicts.
type Task string

// Tasks.
const (
	Regression  Task = "regression"   // NumOutputs real values
	Binary      Task = "binary"       // one output: the score of the second class
	Multiclass  Task = "multiclass"   // one output per class
	MultiOutput Task = "multi_output" // several independent outputs (multi-target regression, multi-label)
)

// Link is the function from raw scores (margins) to predictions.
type Link string

// Links.
const (
	Identity Link = "identity" // y = m
	Sigmoid  Link = "sigmoid"  // y_k = 1 / (1 + exp(-m_k)), per output
	Softmax  Link = "softmax"  // y_k = exp(m_k - max m) / sum_j exp(m_j - max m)
	Exp      Link = "exp"      // y_k = exp(m_k), per output
)

// Aggregation is how tree outputs combine.
type Aggregation string

// Aggregations.
const (
	Sum  Aggregation = "sum"  // margin = base + t_1 + t_2 + ... in tree order
	Mean Aggregation = "mean" // margin = base + (t_1 + t_2 + ...) / (number of trees writing that output)
)

// NodeKind is the kind of a tree node.
type NodeKind string

// Node kinds. Split kinds have two children; leaf kinds have none.
const (
	Axis    NodeKind = "axis"    // hard test on one feature: left iff x[Feature] < Threshold (<= with LessEqual)
	Oblique NodeKind = "oblique" // hard test on a hyperplane: left iff w·x + Bias < 0 (<= with LessEqual)
	Soft    NodeKind = "soft"    // soft routing: P(left) = S_Gamma(w·x + Bias), the smooth-step of width Gamma
	// Categorical is a hard test on the category of one feature: left iff
	// trunc(x[Feature]) is one of Categories (see doc.go).
	Categorical NodeKind = "categorical"
	Leaf        NodeKind = "leaf"    // constant leaf: Value (empty in latent trees)
	SoftmaxLeaf NodeKind = "softmax" // softmax leaf over a class subset: Softmax
)

// IsSplit reports whether nodes of kind k have children.
func (k NodeKind) IsSplit() bool {
	return k == Axis || k == Oblique || k == Soft || k == Categorical
}

// MaxCategory is the largest category a categorical split may name.
const MaxCategory = 1<<31 - 1

// Model is a trained tree model: the one contract between the producers of
// models (trainers, importers) and their consumers (the interpreter and the
// code generators). doc.go states its semantics exactly.
type Model struct {
	// FormatVersion is "MAJOR.MINOR"; see the constant FormatVersion.
	FormatVersion string `json:"format_version"`
	// Name is a human name of the model (free text).
	Name string `json:"name,omitempty"`
	// Task is what the model predicts.
	Task Task `json:"task"`

	// NumFeatures is P, the length of an input row.
	NumFeatures int `json:"num_features"`
	// FeatureNames, if present, has NumFeatures entries.
	FeatureNames []string `json:"feature_names,omitempty"`
	// Preprocess, if present, maps each input feature before any test:
	// x'[j] = (x[j] - Shift[j]) * Scale[j].
	Preprocess *Affine `json:"preprocess,omitempty"`

	// NumOutputs is K, the number of raw outputs (margins).
	NumOutputs int `json:"num_outputs"`
	// ClassNames, for classifiers, names the classes: two for Binary, NumOutputs for Multiclass.
	ClassNames []string `json:"class_names,omitempty"`
	// BaseScore, if present, has NumOutputs values added to the margins; absent means zeros.
	BaseScore []float64 `json:"base_score,omitempty"`
	// Aggregation combines the trees' outputs.
	Aggregation Aggregation `json:"aggregation"`
	// Link maps margins to predictions.
	Link Link `json:"link"`
	// Float32Compare says that axis-aligned tests compare float32(x'[f]) with
	// float32(Threshold), as XGBoost does.
	Float32Compare bool `json:"float32_compare,omitempty"`
	// Float32Sum says that margins are accumulated in float32 whatever the
	// working precision, as XGBoost does (see doc.go).
	Float32Sum bool `json:"float32_sum,omitempty"`
	// TreesPerRound is the number of trees a boosting round adds (XGBoost's
	// num_class × num_parallel_tree, LightGBM's num_tree_per_iteration): the
	// unit of Rounds and FirstRounds. 0, the default, means
	// DefaultTreesPerRound. Added in format version 1.1.
	TreesPerRound int `json:"trees_per_round,omitempty"`

	// Trees are the trees, evaluated and accumulated in order.
	Trees []Tree `json:"trees"`
	// Readout is the linear read-out of latent trees over [x', z]; present
	// iff some tree is Latent.
	Readout *Readout `json:"readout,omitempty"`

	// Provenance records where the model came from.
	Provenance *Provenance `json:"provenance,omitempty"`
}

// Affine is a per-feature affine map x' = (x - Shift) * Scale.
type Affine struct {
	Shift []float64 `json:"shift"`
	Scale []float64 `json:"scale"`
}

// Tree is one tree: a flat array of nodes, Nodes[0] the root. Every child
// index is greater than its parent's, every node but the root has exactly one
// parent, and every node is reachable from the root.
type Tree struct {
	// Output is the index of the single output this tree's leaves add to, or
	// AllOutputs (-1) when each leaf holds a value for every output.
	Output int `json:"output"`
	// Latent marks a latent tree (see doc.go): its leaves hold no values; every
	// node carries an Activity, and the tree feeds the model's Readout.
	Latent bool `json:"latent,omitempty"`
	// Activation is applied to the split margins of a latent tree before
	// they are signed: "" (none) or "elu" (see doc.go). Only latent trees
	// have one. Added in format version 1.2.
	Activation SplitActivation `json:"activation,omitempty"`
	// Nodes holds the nodes, root first.
	Nodes []Node `json:"nodes"`
}

// SplitActivation is a function applied to the split margins of a latent
// tree (Tree.Activation).
type SplitActivation string

// Split activations.
const (
	// NoActivation leaves the margins as they are.
	NoActivation SplitActivation = ""
	// Elu replaces a margin s by elu(s): s if s > 0, exp(s) - 1 otherwise.
	Elu SplitActivation = "elu"
)

// Node is a tree node. Which fields are meaningful depends on Kind; the
// others must be zero (Validate enforces this).
type Node struct {
	Kind NodeKind `json:"kind"`

	// Left and Right are the children of a split (indices into Tree.Nodes).
	Left  int `json:"left,omitempty"`
	Right int `json:"right,omitempty"`
	// DefaultLeft sends a missing value (NaN feature or NaN margin) left;
	// otherwise it goes right. For Soft nodes it makes P(left) = 1 (else 0).
	DefaultLeft bool `json:"default_left,omitempty"`
	// LessEqual makes a hard test "<=" instead of "<".
	LessEqual bool `json:"less_equal,omitempty"`

	// Feature and Threshold define an Axis test; Feature and Categories a
	// Categorical test (Categories strictly increasing, 0..MaxCategory).
	Feature    int     `json:"feature,omitempty"`
	Threshold  float64 `json:"threshold,omitempty"`
	Categories []int   `json:"categories,omitempty"`

	// Indices, Weights and Bias define the margin w·x + b of Oblique and Soft
	// nodes; Indices are strictly increasing feature indices.
	Indices []int     `json:"indices,omitempty"`
	Weights []float64 `json:"weights,omitempty"`
	Bias    float64   `json:"bias,omitempty"`
	// Gamma is the width of a Soft node's smooth-step; 0 makes it a hard
	// split that goes left iff the margin is > 0.
	Gamma float64 `json:"gamma,omitempty"`

	// Value is a Leaf's value: one number (tree with a single Output) or
	// NumOutputs numbers (AllOutputs); empty in latent trees.
	Value []float64 `json:"value,omitempty"`
	// Softmax is a softmax leaf's parameters.
	Softmax *SoftmaxParams `json:"softmax,omitempty"`

	// Activity is a_t in [0, 1], the node's activity in a latent tree.
	Activity *float64 `json:"activity,omitempty"`

	// Gain and Cover are optional statistics of a split, recorded by its
	// producer: Gain is the split's loss reduction in the producer's units
	// (XGBoost's loss_chg, LightGBM's split_gain), Cover the hessian sum of
	// the training rows that reached the node. They are metadata: they
	// change no prediction, and neither the interpreter nor any backend
	// reads them (package ir/importance does). Only split nodes have them;
	// 0 and 0 mean none recorded. Added in format version 1.3.
	Gain  float64 `json:"gain,omitempty"`
	Cover float64 `json:"cover,omitempty"`
}

// SoftmaxParams is a softmax leaf over a subset of the classes: for class
// Classes[j], z_j = Rows[j]·x' + Bias[j]; the leaf's value is the softmax of
// z over the subset, 0 for every class outside it.
type SoftmaxParams struct {
	Classes []int       `json:"classes"`
	Rows    []SparseRow `json:"rows"`
	Bias    []float64   `json:"bias"`
}

// SparseRow is a sparse vector: Weights[i] at feature Indices[i], indices
// strictly increasing.
type SparseRow struct {
	Indices []int     `json:"indices,omitempty"`
	Weights []float64 `json:"weights,omitempty"`
}

// Readout is the model-level linear read-out of latent trees. The read-out
// input is u = [x', z], where z concatenates, for every latent tree in order,
// z_t of each of its nodes in index order. For output k the read-out adds
// Bias[k] + sum_j Weights[k][j] * u[j] to the margin.
type Readout struct {
	Weights [][]float64 `json:"weights"`
	Bias    []float64   `json:"bias"`
}

// Provenance records who made a model, with which parameters, from what data.
type Provenance struct {
	Producer string            `json:"producer,omitempty"`
	Params   map[string]string `json:"params,omitempty"`
	Data     map[string]string `json:"data,omitempty"`
}

// IsSplit reports whether n has children.
func (n *Node) IsSplit() bool { return n.Kind.IsSplit() }

// HasStats reports whether n carries split statistics (Gain or Cover).
func (n *Node) HasStats() bool { return n.Gain != 0 || n.Cover != 0 }

// IsLeaf reports whether n is a leaf.
func (n *Node) IsLeaf() bool { return !n.Kind.IsSplit() }

// LatentSize returns the length of z, the number of nodes in latent trees.
func (m *Model) LatentSize() int {
	n := 0
	for i := range m.Trees {
		if m.Trees[i].Latent {
			n += len(m.Trees[i].Nodes)
		}
	}
	return n
}

// Base returns the base score of output k (0 when BaseScore is absent).
func (m *Model) Base(k int) float64 {
	if len(m.BaseScore) == 0 {
		return 0
	}
	return m.BaseScore[k]
}

// TreesPerOutput returns, for each output, the number of non-latent trees
// that write to it: the divisor of the Mean aggregation.
func (m *Model) TreesPerOutput() []int {
	n := make([]int, m.NumOutputs)
	for i := range m.Trees {
		t := &m.Trees[i]
		switch {
		case t.Latent:
		case t.Output == AllOutputs:
			for k := range n {
				n[k]++
			}
		case t.Output >= 0 && t.Output < len(n):
			n[t.Output]++
		}
	}
	return n
}

// MinFormatVersion returns the lowest format version that can represent m:
// "1.3" when a node has split statistics (Gain or Cover), else "1.2" when a
// tree has an Activation, else "1.1" when it sets TreesPerRound, else "1.0"
// (FormatVersion). Marshal and Hash stamp it on the model they encode.
func (m *Model) MinFormatVersion() string {
	if m.HasStats() {
		return "1.3"
	}
	for i := range m.Trees {
		if m.Trees[i].Activation != NoActivation {
			return "1.2"
		}
	}
	if m.TreesPerRound != 0 {
		return "1.1"
	}
	return FormatVersion
}

// HasStats reports whether some node of m carries split statistics (see
// Node.Gain).
func (m *Model) HasStats() bool {
	for i := range m.Trees {
		for j := range m.Trees[i].Nodes {
			if m.Trees[i].Nodes[j].HasStats() {
				return true
			}
		}
	}
	return false
}

// numHard returns the number of non-latent trees.
func (m *Model) numHard() int {
	n := 0
	for i := range m.Trees {
		if !m.Trees[i].Latent {
			n++
		}
	}
	return n
}

// DefaultTreesPerRound returns the round size that a TreesPerRound of 0
// stands for: NumOutputs when the model has the sum aggregation, more than
// one output, and non-latent trees that cycle through the outputs (the i-th
// of them writes output i mod NumOutputs, and their number is a multiple of
// NumOutputs), as in multiclass boosting with one tree per class and round;
// otherwise 1.
func (m *Model) DefaultTreesPerRound() int {
	k := m.NumOutputs
	if m.Aggregation != Sum || k < 2 {
		return 1
	}
	i := 0
	for t := range m.Trees {
		tr := &m.Trees[t]
		if tr.Latent {
			continue
		}
		if tr.Output != i%k {
			return 1
		}
		i++
	}
	if i%k != 0 {
		return 1
	}
	return k
}

// RoundSize returns the number of trees a boosting round adds:
// TreesPerRound, or DefaultTreesPerRound when it is 0.
func (m *Model) RoundSize() int {
	if m.TreesPerRound > 0 {
		return m.TreesPerRound
	}
	return m.DefaultTreesPerRound()
}

// Rounds returns the number of boosting rounds: the number of non-latent
// trees divided by RoundSize (a valid model holds a whole number of rounds).
func (m *Model) Rounds() int {
	return m.numHard() / m.RoundSize()
}

// FirstRounds returns a copy of m that keeps the trees of its first n
// boosting rounds, the first n·RoundSize() trees, as XGBoost's
// iteration_range=(0, n) and LightGBM's num_iteration=n predict. The mean
// aggregation stays what the library computes, since its divisor counts the
// trees kept. The copy has its own Trees slice, so that changing or
// appending to it leaves m alone, and its own copies of the other slices,
// maps and Preprocess; the trees' nodes are shared with m. Provenance is
// copied as is: the caller may record the cut there. It is an error to ask
// for fewer than 1 or more than Rounds() rounds, and to cut a model with
// latent trees (their read-out is fitted to the whole ensemble).
func (m *Model) FirstRounds(n int) (*Model, error) {
	if m.Readout != nil || m.numHard() < len(m.Trees) {
		return nil, fmt.Errorf("FirstRounds(%d): the model has latent trees and a read-out fitted to all of them, not boosting rounds", n)
	}
	size, rounds := m.RoundSize(), m.Rounds()
	if n < 1 || n > rounds {
		return nil, fmt.Errorf("FirstRounds(%d): out of range: the model has %d rounds of %d trees (%d trees), so n must be in 1..%d", n, rounds, size, len(m.Trees), rounds)
	}
	c := *m
	c.Trees = slices.Clone(m.Trees[:n*size])
	c.FeatureNames = slices.Clone(m.FeatureNames)
	c.ClassNames = slices.Clone(m.ClassNames)
	c.BaseScore = slices.Clone(m.BaseScore)
	if p := m.Preprocess; p != nil {
		c.Preprocess = &Affine{Shift: slices.Clone(p.Shift), Scale: slices.Clone(p.Scale)}
	}
	if p := m.Provenance; p != nil {
		c.Provenance = &Provenance{Producer: p.Producer, Params: maps.Clone(p.Params), Data: maps.Clone(p.Data)}
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("FirstRounds(%d): the first %d rounds do not make a valid model: %w", n, n, err)
	}
	return &c, nil
}

// IsClassifier reports whether the model predicts classes.
func (m *Model) IsClassifier() bool { return m.Task == Binary || m.Task == Multiclass }

// Depth returns the depth of the tree (0 for a lone leaf). It assumes a
// valid tree.
func (t *Tree) Depth() int {
	depth := make([]int, len(t.Nodes))
	max := 0
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.IsSplit() {
			depth[n.Left] = depth[i] + 1
			depth[n.Right] = depth[i] + 1
			if depth[i]+1 > max {
				max = depth[i] + 1
			}
		}
	}
	return max
}

// NumLeaves returns the number of leaves of the tree.
func (t *Tree) NumLeaves() int {
	n := 0
	for i := range t.Nodes {
		if t.Nodes[i].IsLeaf() {
			n++
		}
	}
	return n
}

// HasSoft reports whether t has a soft node (of any width, γ = 0 included).
func (t *Tree) HasSoft() bool {
	for i := range t.Nodes {
		if t.Nodes[i].Kind == Soft {
			return true
		}
	}
	return false
}

// SmoothStep is the smooth-step S_gamma(t) of the TEL paper, evaluated in
// float64 in the exact order every consumer of the IR uses:
//
//	t <= -gamma/2: 0;  t >= gamma/2: 1;  otherwise, with u = t/gamma,
//	S = u*(1.5 - 2*u*u) + 0.5   (each operation rounded, no fused multiply-add)
//
// which is -2t³/γ³ + 3t/(2γ) + 1/2. With gamma = 0 it is 0 for t <= 0 and 1
// for t > 0. A NaN t returns NaN; callers route NaN by the default direction.
func SmoothStep(t, gamma float64) float64 {
	h := gamma / 2
	switch {
	case t <= -h:
		return 0
	case t >= h:
		return 1
	case t != t:
		return math.NaN()
	}
	u := t / gamma
	return float64(u*float64(1.5-float64(2*u*u))) + 0.5
}
