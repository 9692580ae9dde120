// Package randmodel makes random valid IR models and inputs for property
// tests and benchmarks: the differential tests that hold every backend equal
// to the interpreter draw their models from here.
package randmodel

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/treegen/treegen/ir"
)

// Options says which kinds of models to draw. Zero values pick defaults.
type Options struct {
	Trees       int     // number of trees (0: 1 to 8)
	MinDepth    int     // depth of each tree at least this (0: 1)
	MaxDepth    int     // and at most this (0: 6)
	Features    int     // P (0: 1 to 12)
	Full        bool    // grow perfect trees of depth MaxDepth
	Dense       bool    // oblique and soft splits and softmax rows weigh every feature
	Oblique     float64 // probability of an oblique split
	Soft        float64 // probability of a soft split (gamma drawn from {0, 0.1, 1, 10})
	Categorical float64 // probability of a categorical split
	SoftmaxLeaf float64 // probability of a softmax leaf in vector-leaf trees
	Latent      bool    // add one latent tree and a read-out
	Float32Sum  bool    // let half of the models accumulate margins in float32
	AxisOnly    bool    // only axis splits and constant leaves (overrides the above)
	Task        ir.Task // "" draws one
}

// Model returns a random model that passes Validate.
func Model(seed uint64, o Options) *ir.Model {
	r := rand.New(rand.NewPCG(seed, seed^0x5851f42d4c957f2d))
	if o.MaxDepth == 0 {
		o.MaxDepth = 6
	}
	if o.MinDepth == 0 {
		o.MinDepth = 1
	}
	if o.MinDepth > o.MaxDepth {
		o.MinDepth = o.MaxDepth
	}
	if o.Trees == 0 {
		o.Trees = 1 + r.IntN(8)
	}
	p := o.Features
	if p == 0 {
		p = 1 + r.IntN(12)
	}
	task := o.Task
	if task == "" {
		task = []ir.Task{ir.Regression, ir.Binary, ir.Multiclass, ir.MultiOutput}[r.IntN(4)]
	}
	m := &ir.Model{
		FormatVersion:  ir.FormatVersion,
		Name:           fmt.Sprintf("random-%d", seed),
		Task:           task,
		NumFeatures:    p,
		Aggregation:    ir.Sum,
		Float32Compare: r.IntN(4) == 0,
	}
	switch task {
	case ir.Regression:
		m.NumOutputs = 1
		m.Link = []ir.Link{ir.Identity, ir.Exp}[r.IntN(2)]
	case ir.Binary:
		m.NumOutputs = 1
		m.Link = []ir.Link{ir.Identity, ir.Sigmoid}[r.IntN(2)]
		m.ClassNames = []string{"no", "yes"}
	case ir.Multiclass:
		m.NumOutputs = 2 + r.IntN(4)
		m.Link = []ir.Link{ir.Identity, ir.Softmax}[r.IntN(2)]
		for k := 0; k < m.NumOutputs; k++ {
			m.ClassNames = append(m.ClassNames, fmt.Sprintf("class %d", k))
		}
	default:
		m.NumOutputs = 1 + r.IntN(4)
		m.Link = []ir.Link{ir.Identity, ir.Sigmoid, ir.Exp}[r.IntN(3)]
	}
	if r.IntN(2) == 0 {
		for k := 0; k < m.NumOutputs; k++ {
			m.BaseScore = append(m.BaseScore, r.NormFloat64())
		}
	}
	if r.IntN(3) == 0 {
		m.Preprocess = &ir.Affine{}
		for j := 0; j < p; j++ {
			m.Preprocess.Shift = append(m.Preprocess.Shift, r.NormFloat64())
			m.Preprocess.Scale = append(m.Preprocess.Scale, 0.5+r.Float64())
		}
	}
	if r.IntN(2) == 0 {
		for j := 0; j < p; j++ {
			m.FeatureNames = append(m.FeatureNames, fmt.Sprintf("x%d", j))
		}
	}
	g := &grower{r: r, o: o, m: m}
	for i := 0; i < o.Trees; i++ {
		m.Trees = append(m.Trees, g.tree())
	}
	if r.IntN(4) == 0 {
		m.Aggregation = ir.Mean
		// Mean needs a tree for every output.
		m.Trees = append(m.Trees, g.treeFor(ir.AllOutputs, false))
	}
	if o.Latent && !o.AxisOnly {
		m.Trees = append(m.Trees, g.treeFor(ir.AllOutputs, true))
		z := m.LatentSize()
		m.Readout = &ir.Readout{}
		for k := 0; k < m.NumOutputs; k++ {
			row := make([]float64, p+z)
			for j := range row {
				row[j] = r.NormFloat64()
			}
			m.Readout.Weights = append(m.Readout.Weights, row)
			m.Readout.Bias = append(m.Readout.Bias, r.NormFloat64())
		}
	}
	// Drawn last, so that the rest of a seed's model does not depend on it.
	m.Float32Sum = o.Float32Sum && r.IntN(2) == 0
	if err := m.Validate(); err != nil {
		panic(fmt.Sprintf("randmodel: seed %d made an invalid model: %v", seed, err))
	}
	return m
}

type grower struct {
	r *rand.Rand
	o Options
	m *ir.Model
}

func (g *grower) tree() ir.Tree {
	out := ir.AllOutputs
	if g.r.IntN(2) == 0 {
		out = g.r.IntN(g.m.NumOutputs)
	}
	return g.treeFor(out, false)
}

func (g *grower) treeFor(out int, latent bool) ir.Tree {
	t := ir.Tree{Output: out, Latent: latent}
	depth := g.o.MinDepth + g.r.IntN(g.o.MaxDepth-g.o.MinDepth+1)
	g.grow(&t, depth, 0)
	return t
}

// grow appends a subtree in pre-order and returns its root index.
func (g *grower) grow(t *ir.Tree, depth, level int) int {
	i := len(t.Nodes)
	t.Nodes = append(t.Nodes, ir.Node{})
	var act *float64
	if t.Latent {
		a := math.Round(g.r.Float64()*8) / 8
		act = &a
	}
	split := level < depth && (g.o.Full || level < g.o.MinDepth || g.r.IntN(5) != 0)
	if !split {
		t.Nodes[i] = g.leaf(t)
		t.Nodes[i].Activity = act
		return i
	}
	n := g.split(t.Latent)
	n.Activity = act
	n.Left = g.grow(t, depth, level+1)
	n.Right = g.grow(t, depth, level+1)
	t.Nodes[i] = n
	return i
}

// Interesting thresholds: inputs drawn by Row hit them exactly.
var grid = []float64{-2, -1, -0.5, -0.25, 0, 0.25, 0.5, 1, 1.5, 2, 0.1, 1.0 / 3, 3, 3.5, 5000, 5000.9, 2147483648}

func (g *grower) split(latent bool) ir.Node {
	r := g.r
	n := ir.Node{DefaultLeft: r.IntN(2) == 0}
	kind := ir.Axis
	if !g.o.AxisOnly {
		u := r.Float64()
		switch {
		case u < g.o.Soft && !latent:
			kind = ir.Soft
		case u < g.o.Soft+g.o.Oblique:
			kind = ir.Oblique
		case u < g.o.Soft+g.o.Oblique+g.o.Categorical && !latent:
			kind = ir.Categorical
		}
	}
	n.Kind = kind
	switch kind {
	case ir.Categorical:
		n.Feature = r.IntN(g.m.NumFeatures)
		for c := 0; c < 4; c++ {
			if r.IntN(2) == 0 {
				n.Categories = append(n.Categories, c)
			}
		}
		if r.IntN(3) == 0 {
			n.Categories = append(n.Categories, 5000)
		}
	case ir.Axis:
		n.Feature = r.IntN(g.m.NumFeatures)
		if r.IntN(2) == 0 {
			n.Threshold = grid[r.IntN(len(grid))]
		} else {
			n.Threshold = r.NormFloat64()
		}
		n.LessEqual = r.IntN(2) == 0
	default:
		n.Indices, n.Weights = g.sparse()
		n.Bias = r.NormFloat64() * 0.5
		if kind == ir.Oblique {
			n.LessEqual = r.IntN(2) == 0
		} else {
			n.Gamma = []float64{0, 0.1, 1, 10}[r.IntN(4)]
		}
	}
	return n
}

func (g *grower) sparse() ([]int, []float64) {
	var idx []int
	var w []float64
	for j := 0; j < g.m.NumFeatures; j++ {
		if g.o.Dense || g.r.IntN(2) == 0 || (j == g.m.NumFeatures-1 && idx == nil) {
			idx = append(idx, j)
			w = append(w, g.r.NormFloat64())
		}
	}
	return idx, w
}

func (g *grower) leaf(t *ir.Tree) ir.Node {
	if t.Latent {
		return ir.Node{Kind: ir.Leaf}
	}
	k := 1
	if t.Output == ir.AllOutputs {
		k = g.m.NumOutputs
		if g.r.Float64() < g.o.SoftmaxLeaf && !g.o.AxisOnly {
			return g.softmaxLeaf()
		}
	}
	v := make([]float64, k)
	for j := range v {
		v[j] = g.r.NormFloat64()
	}
	return ir.Node{Kind: ir.Leaf, Value: v}
}

func (g *grower) softmaxLeaf() ir.Node {
	s := &ir.SoftmaxParams{}
	for c := 0; c < g.m.NumOutputs; c++ {
		if g.r.IntN(3) != 0 || (c == g.m.NumOutputs-1 && s.Classes == nil) {
			s.Classes = append(s.Classes, c)
			idx, w := g.sparse()
			s.Rows = append(s.Rows, ir.SparseRow{Indices: idx, Weights: w})
			s.Bias = append(s.Bias, g.r.NormFloat64())
		}
	}
	return ir.Node{Kind: ir.SoftmaxLeaf, Softmax: s}
}

// Rows returns n rows of p features: mostly normal values, some drawn from
// the threshold grid (ties), some NaN, +Inf and -Inf.
func Rows(seed uint64, n, p int) [][]float64 {
	r := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	rows := make([][]float64, n)
	for i := range rows {
		row := make([]float64, p)
		for j := range row {
			switch u := r.IntN(20); {
			case u == 0:
				row[j] = math.NaN()
			case u == 1:
				row[j] = math.Inf(1)
			case u == 2:
				row[j] = math.Inf(-1)
			case u < 8:
				row[j] = grid[r.IntN(len(grid))]
			default:
				row[j] = r.NormFloat64() * 1.5
			}
		}
		rows[i] = row
	}
	return rows
}
