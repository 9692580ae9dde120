package gentest

import (
	"math"
	"math/rand/v2"
	"strconv"

	"github.com/treegen/treegen/ir"
)

// Pool holds the numbers random models and inputs are made of: values that
// round differently (or not at all) to float32, zeros of both signs, float32
// subnormals and overflows, and small round numbers that inputs hit exactly.
var Pool = []float64{
	0, math.Copysign(0, -1), 0.5, -0.5, 1, -1, 2, -3, 0.1, -0.3, 1.0 / 3,
	2.5, -7.25, 123456.789, 16777217, // 2^24+1: not a float32
	1e-40, -1e-45, // float32 subnormals
	-1e-50, 1e-50, // zero in float32
	3.4028234663852886e38, 1e39, -1e39, // float32 max; Inf in float32
	1e300, -1e-300,
}

// RandomOptions says which kinds of model RandomModel may produce.
type RandomOptions struct {
	// MaxDepth is the largest tree depth (at least 1).
	MaxDepth int
	// MaxTrees is the largest number of trees (at least 1).
	MaxTrees int
	// Oblique allows oblique splits; SoftmaxLeaves softmax leaves;
	// Categorical categorical splits.
	Oblique, SoftmaxLeaves, Categorical bool
	// SoftGammas, if not empty, allows soft splits, whose width γ is drawn
	// from it.
	SoftGammas []float64
}

// DefaultRandom is every kind of hard tree the ifelse backend compiles.
var DefaultRandom = RandomOptions{MaxDepth: 8, MaxTrees: 6, Oblique: true, SoftmaxLeaves: true, Categorical: true}

// value returns a model number: mostly from Pool, sometimes random.
func value(r *rand.Rand) float64 {
	if r.IntN(3) == 0 {
		return math.Round(r.NormFloat64()*1000) / 256
	}
	return Pool[r.IntN(len(Pool))]
}

// RandomModel returns a random valid model: a task and a number of outputs
// from 1 to 5 consistent with each other, every link and aggregation,
// optional base score, preprocessing, names and Float32Compare, and hard
// trees of depth 1 to o.MaxDepth with "<" and "<=", default left and right,
// single-output and vector leaves.
func RandomModel(r *rand.Rand, o RandomOptions) *ir.Model {
	m := &ir.Model{FormatVersion: ir.FormatVersion, Name: "random"}
	switch r.IntN(4) {
	case 0:
		m.Task, m.NumOutputs = ir.Binary, 1
	case 1:
		m.Task, m.NumOutputs = ir.Multiclass, 2+r.IntN(4)
	case 2:
		m.Task, m.NumOutputs = ir.Regression, 1+r.IntN(3)
	default:
		m.Task, m.NumOutputs = ir.MultiOutput, 1+r.IntN(5)
	}
	k := m.NumOutputs
	m.NumFeatures = 1 + r.IntN(6)
	links := []ir.Link{ir.Identity, ir.Sigmoid, ir.Exp}
	if k >= 2 {
		links = append(links, ir.Softmax)
	}
	m.Link = links[r.IntN(len(links))]
	m.Aggregation = ir.Sum
	if r.IntN(3) == 0 {
		m.Aggregation = ir.Mean
	}
	m.Float32Compare = r.IntN(2) == 0
	m.Float32Sum = r.IntN(3) == 0
	if r.IntN(2) == 0 {
		m.BaseScore = make([]float64, k)
		for i := range m.BaseScore {
			m.BaseScore[i] = value(r)
		}
	}
	if r.IntN(3) == 0 {
		p := &ir.Affine{Shift: make([]float64, m.NumFeatures), Scale: make([]float64, m.NumFeatures)}
		for j := range p.Shift {
			p.Shift[j], p.Scale[j] = value(r), value(r)
			if r.IntN(3) == 0 {
				p.Shift[j], p.Scale[j] = 0, 1
			}
		}
		m.Preprocess = p
	}
	if r.IntN(2) == 0 {
		for j := 0; j < m.NumFeatures; j++ {
			m.FeatureNames = append(m.FeatureNames, "feature "+strconv.Itoa(j))
		}
	}
	if m.IsClassifier() && r.IntN(2) == 0 {
		n := k
		if m.Task == ir.Binary {
			n = 2
		}
		for c := 0; c < n; c++ {
			m.ClassNames = append(m.ClassNames, "class "+strconv.Itoa(c))
		}
	}
	nt := 1 + r.IntN(max(o.MaxTrees, 1))
	if r.IntN(20) == 0 {
		nt = 0
	}
	for i := 0; i < nt; i++ {
		out := ir.AllOutputs
		if r.IntN(5) < 3 {
			out = r.IntN(k)
		}
		b := treeBuilder{r: r, m: m, o: o, t: &ir.Tree{Output: out}}
		b.node(0, 1+r.IntN(max(o.MaxDepth, 1)))
		m.Trees = append(m.Trees, *b.t)
	}
	if m.Aggregation == ir.Mean {
		// Every output needs a tree to average.
		for out, n := range m.TreesPerOutput() {
			if n == 0 {
				m.Trees = append(m.Trees, ir.Tree{Output: out, Nodes: []ir.Node{{Kind: ir.Leaf, Value: []float64{value(r)}}}})
			}
		}
	}
	return m
}

type treeBuilder struct {
	r *rand.Rand
	m *ir.Model
	o RandomOptions
	t *ir.Tree
}

// sparse returns random strictly increasing feature indices and weights.
func (b *treeBuilder) sparse() ([]int, []float64) {
	var idx []int
	var w []float64
	for j := 0; j < b.m.NumFeatures; j++ {
		if b.r.IntN(2) == 0 {
			idx = append(idx, j)
			w = append(w, value(b.r))
		}
	}
	return idx, w
}

// node appends a node at the given depth (and its subtree, down to
// maxDepth) and returns its index.
func (b *treeBuilder) node(depth, maxDepth int) int {
	r := b.r
	i := len(b.t.Nodes)
	b.t.Nodes = append(b.t.Nodes, ir.Node{})
	if depth == maxDepth || (depth > 0 && r.IntN(5) == 0) {
		b.t.Nodes[i] = b.leaf()
		return i
	}
	var n ir.Node
	switch {
	case len(b.o.SoftGammas) > 0 && r.IntN(3) != 0:
		n.Kind = ir.Soft
		n.Indices, n.Weights = b.sparse()
		n.Bias = value(r)
		n.Gamma = b.o.SoftGammas[r.IntN(len(b.o.SoftGammas))]
	case b.o.Categorical && r.IntN(5) == 0:
		n.Kind = ir.Categorical
		n.Feature = r.IntN(b.m.NumFeatures)
		for c := 0; c < 10; c++ {
			if r.IntN(3) == 0 {
				n.Categories = append(n.Categories, c)
			}
		}
		if r.IntN(4) == 0 {
			n.Categories = append(n.Categories, 64+r.IntN(64)) // a second bitset word
		}
		if r.IntN(4) == 0 {
			n.Categories = append(n.Categories, 5000+r.IntN(1000)) // a sorted list
		}
	case b.o.Oblique && r.IntN(4) == 0:
		n.Kind = ir.Oblique
		n.Indices, n.Weights = b.sparse()
		n.Bias = value(r)
		n.LessEqual = r.IntN(2) == 0
	default:
		n.Kind = ir.Axis
		n.Feature = r.IntN(b.m.NumFeatures)
		n.Threshold = value(r)
		n.LessEqual = r.IntN(2) == 0
	}
	n.DefaultLeft = r.IntN(2) == 0
	n.Left = b.node(depth+1, maxDepth)
	n.Right = b.node(depth+1, maxDepth)
	b.t.Nodes[i] = n
	return i
}

func (b *treeBuilder) leaf() ir.Node {
	r := b.r
	k := b.m.NumOutputs
	if b.t.Output != ir.AllOutputs {
		return ir.Node{Kind: ir.Leaf, Value: []float64{value(r)}}
	}
	if b.o.SoftmaxLeaves && r.IntN(3) == 0 {
		sp := &ir.SoftmaxParams{}
		for c := 0; c < k; c++ {
			if r.IntN(3) != 0 {
				sp.Classes = append(sp.Classes, c)
			}
		}
		if len(sp.Classes) == 0 {
			sp.Classes = []int{r.IntN(k)}
		}
		for range sp.Classes {
			idx, w := b.sparse()
			sp.Rows = append(sp.Rows, ir.SparseRow{Indices: idx, Weights: w})
			sp.Bias = append(sp.Bias, value(r))
		}
		return ir.Node{Kind: ir.SoftmaxLeaf, Softmax: sp}
	}
	v := make([]float64, k)
	for c := range v {
		v[c] = value(r)
	}
	return ir.Node{Kind: ir.Leaf, Value: v}
}

// RandomInputs returns n rows for m: numbers of Pool and of the model (its
// thresholds, so that tests hit them exactly), their float64 and float32
// neighbours, NaN, ±Inf and random values.
func RandomInputs(r *rand.Rand, m *ir.Model, n int) [][]float64 {
	var cands []float64
	cands = append(cands, Pool...)
	for _, v := range ModelValues(m) {
		cands = append(cands, v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)),
			float64(math.Nextafter32(float32(v), float32(math.Inf(1)))))
	}
	cands = append(cands, math.NaN(), math.Inf(1), math.Inf(-1))
	rows := make([][]float64, n)
	for i := range rows {
		row := make([]float64, m.NumFeatures)
		for j := range row {
			if r.IntN(4) == 0 {
				row[j] = r.NormFloat64() * 10
			} else {
				row[j] = cands[r.IntN(len(cands))]
			}
		}
		rows[i] = row
	}
	return rows
}

// ModelValues returns every number a model holds, in a deterministic order.
func ModelValues(m *ir.Model) []float64 {
	var vs []float64
	vs = append(vs, m.BaseScore...)
	if p := m.Preprocess; p != nil {
		vs = append(vs, p.Shift...)
		vs = append(vs, p.Scale...)
	}
	for i := range m.Trees {
		for _, n := range m.Trees[i].Nodes {
			vs = append(vs, n.Threshold, n.Bias, n.Gamma)
			for _, c := range n.Categories {
				vs = append(vs, float64(c), float64(c)+0.5, float64(c)-0.5)
			}
			vs = append(vs, n.Weights...)
			vs = append(vs, n.Value...)
			if n.Activity != nil {
				vs = append(vs, *n.Activity)
			}
			if s := n.Softmax; s != nil {
				vs = append(vs, s.Bias...)
				for _, row := range s.Rows {
					vs = append(vs, row.Weights...)
				}
			}
		}
	}
	if ro := m.Readout; ro != nil {
		vs = append(vs, ro.Bias...)
		for _, w := range ro.Weights {
			vs = append(vs, w...)
		}
	}
	return vs
}
