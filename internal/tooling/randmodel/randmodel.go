// Package randmodel makes random valid IR models and inputs for property
// tests and benchmarks: the differential tests that hold every backend equal
// to the interpreter draw their models and rows from here. The same seed
// and options always give the same model.
package randmodel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/treegen/treegen/ir"
)

// Options says which kinds of models to draw. Zero values pick defaults.
type Options struct {
	Trees       int     // number of trees (0: 1 to 8, or 1 to 6 when Tricky)
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
	LatentElu   bool    // with Latent: the latent tree's splits go through elu
	Float32Sum  bool    // let half of the models accumulate margins in float32
	AxisOnly    bool    // only axis splits and constant leaves (overrides the above)
	Task        ir.Task // "" draws one
	// Gammas are the widths γ of soft splits, drawn uniformly (nil: 0,
	// 0.1, 1 and 10).
	Gammas []float64
	// Leaves, when > 0, grows every tree to a random shape with
	// MinLeaves (at least 2) to Leaves leaves instead of by depth.
	MinLeaves, Leaves int
	// Tricky reaches for the corners of the IR: model numbers are mostly
	// drawn from Pool; every task takes every link (softmax too, with 2
	// outputs or more), regression up to 3 outputs; one model in 20 has no
	// tree; half of the models compare in float32; preprocessing mixes
	// numbers of Pool with identity features; categorical splits test 0 to
	// 10 small categories, some a second bitset word (64 to 127) and some a
	// category of a sorted list (5000 to 5999); oblique and soft splits and
	// softmax rows may weigh no feature at all; P is 1 to 6, and the
	// number of trees, unless Trees says, 1 to 6.
	Tricky bool
}

// Pool returns the numbers of tricky models (Options.Tricky) and of Inputs,
// a fresh slice: values that round differently (or not at all) to
// float32, zeros of both signs, float32 subnormals and overflows, and
// small round numbers that inputs hit exactly.
func Pool() []float64 { return slices.Clone(pool[:]) }

// pool is what Pool returns.
var pool = [...]float64{
	0, math.Copysign(0, -1), 0.5, -0.5, 1, -1, 2, -3, 0.1, -0.3, 1.0 / 3,
	2.5, -7.25, 123456.789, 16777217, // 2^24+1: not a float32
	1e-40, -1e-45, // float32 subnormals
	-1e-50, 1e-50, // zero in float32
	3.4028234663852886e38, 1e39, -1e39, // float32 max; Inf in float32
	1e300, -1e-300,
}

// defaultGammas are the widths of soft splits unless Options.Gammas says.
var defaultGammas = []float64{0, 0.1, 1, 10}

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
	if o.Trees == 0 && o.Tricky {
		o.Trees = 1 + r.IntN(6)
	} else if o.Trees == 0 {
		o.Trees = 1 + r.IntN(8)
	}
	p := o.Features
	if p == 0 && o.Tricky {
		p = 1 + r.IntN(6)
	} else if p == 0 {
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
	g := &grower{r: r, o: o, m: m}
	if o.Tricky {
		g.trickyHead()
	}
	if r.IntN(2) == 0 {
		for k := 0; k < m.NumOutputs; k++ {
			m.BaseScore = append(m.BaseScore, g.num(r.NormFloat64()))
		}
	}
	if r.IntN(3) == 0 {
		m.Preprocess = &ir.Affine{}
		for j := 0; j < p; j++ {
			shift, scale := g.num(r.NormFloat64()), g.num(0.5+r.Float64())
			if o.Tricky && r.IntN(3) == 0 {
				shift, scale = 0, 1
			}
			m.Preprocess.Shift = append(m.Preprocess.Shift, shift)
			m.Preprocess.Scale = append(m.Preprocess.Scale, scale)
		}
	}
	if r.IntN(2) == 0 {
		for j := 0; j < p; j++ {
			m.FeatureNames = append(m.FeatureNames, fmt.Sprintf("x%d", j))
		}
	}
	trees := o.Trees
	if o.Tricky && r.IntN(20) == 0 {
		trees = 0
	}
	for i := 0; i < trees; i++ {
		m.Trees = append(m.Trees, g.tree())
	}
	if r.IntN(4) == 0 {
		m.Aggregation = ir.Mean
		// Mean needs a tree for every output.
		m.Trees = append(m.Trees, g.treeFor(ir.AllOutputs, false))
	}
	if o.Latent && !o.AxisOnly {
		m.Trees = append(m.Trees, g.treeFor(ir.AllOutputs, true))
		if o.LatentElu {
			m.Trees[len(m.Trees)-1].Activation = ir.Elu
		}
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

// trickyHead redraws the number of outputs and the link of a tricky model
// (Options.Tricky), and makes half of the tricky models compare in float32.
func (g *grower) trickyHead() {
	m, r := g.m, g.r
	switch m.Task {
	case ir.Regression:
		m.NumOutputs = 1 + r.IntN(3)
	case ir.MultiOutput:
		m.NumOutputs = 1 + r.IntN(5)
	}
	links := []ir.Link{ir.Identity, ir.Sigmoid, ir.Exp}
	if m.NumOutputs >= 2 {
		links = append(links, ir.Softmax)
	}
	m.Link = links[r.IntN(len(links))]
	if r.IntN(3) == 0 {
		m.Float32Compare = true
	}
}

// num returns v, or for a tricky model (Options.Tricky) mostly a number of
// Pool, sometimes a random multiple of 1/256.
func (g *grower) num(v float64) float64 {
	if !g.o.Tricky {
		return v
	}
	if g.r.IntN(3) == 0 {
		return math.Round(g.r.NormFloat64()*1000) / 256
	}
	return pool[g.r.IntN(len(pool))]
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
	if g.o.Leaves > 0 && !latent {
		lo := max(g.o.MinLeaves, 2)
		g.shape(&t, lo+g.r.IntN(max(g.o.Leaves-lo+1, 1)), 0)
		return t
	}
	depth := g.o.MinDepth + g.r.IntN(g.o.MaxDepth-g.o.MinDepth+1)
	g.grow(&t, depth, 0)
	return t
}

// shape appends a subtree of a random shape with n leaves in pre-order and
// returns its root index. Below depth 20 it splits the leaves evenly, which
// keeps the tree within ir.MaxDepth.
func (g *grower) shape(t *ir.Tree, n, level int) int {
	i := len(t.Nodes)
	t.Nodes = append(t.Nodes, ir.Node{})
	if n == 1 {
		t.Nodes[i] = g.leaf(t)
		return i
	}
	left := 1 + g.r.IntN(n-1)
	if level > 20 {
		left = n / 2
	}
	nd := g.split(false)
	nd.Left = g.shape(t, left, level+1)
	nd.Right = g.shape(t, n-left, level+1)
	t.Nodes[i] = nd
	return i
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
		if g.o.Tricky {
			n.Categories = g.trickyCategories()
			break
		}
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
			n.Threshold = g.num(r.NormFloat64())
		}
		n.LessEqual = r.IntN(2) == 0
	default:
		n.Indices, n.Weights = g.sparse()
		n.Bias = g.num(r.NormFloat64() * 0.5)
		if kind == ir.Oblique {
			n.LessEqual = r.IntN(2) == 0
		} else {
			gammas := g.o.Gammas
			if gammas == nil {
				gammas = defaultGammas
			}
			n.Gamma = gammas[r.IntN(len(gammas))]
		}
	}
	return n
}

// trickyCategories returns the categories of a categorical split of a
// tricky model: each of 0 to 9 with probability 1/3, and sometimes one of a
// second bitset word and one large enough to make the set a sorted list.
func (g *grower) trickyCategories() []int {
	r := g.r
	var cats []int
	for c := 0; c < 10; c++ {
		if r.IntN(3) == 0 {
			cats = append(cats, c)
		}
	}
	if r.IntN(4) == 0 {
		cats = append(cats, 64+r.IntN(64))
	}
	if r.IntN(4) == 0 {
		cats = append(cats, 5000+r.IntN(1000))
	}
	return cats
}

// sparse returns strictly increasing feature indices and their weights: at
// least one, unless the model is tricky.
func (g *grower) sparse() ([]int, []float64) {
	var idx []int
	var w []float64
	for j := 0; j < g.m.NumFeatures; j++ {
		if g.o.Dense || g.r.IntN(2) == 0 || (j == g.m.NumFeatures-1 && idx == nil && !g.o.Tricky) {
			idx = append(idx, j)
			w = append(w, g.num(g.r.NormFloat64()))
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
		v[j] = g.num(g.r.NormFloat64())
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
			s.Bias = append(s.Bias, g.num(g.r.NormFloat64()))
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

// Inputs returns n rows of p features that reach the corners of a model:
// numbers of Pool; the given values (a model's numbers, so that rows hit
// its thresholds exactly) with their float64 neighbours and the next
// float32 above; NaN, +Inf and -Inf; and, for a quarter of the features,
// normal values of standard deviation 10.
func Inputs(seed uint64, n, p int, values []float64) [][]float64 {
	r := rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))
	cands := append([]float64(nil), pool[:]...)
	for _, v := range values {
		cands = append(cands, v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)),
			float64(math.Nextafter32(float32(v), float32(math.Inf(1)))))
	}
	cands = append(cands, math.NaN(), math.Inf(1), math.Inf(-1))
	rows := make([][]float64, n)
	for i := range rows {
		row := make([]float64, p)
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

// TEL returns a model shaped like a trained Tree Ensemble Layer (Hazimeh
// et al., 2020): trees perfect soft trees of the given depth over p
// standardised features, every node weighing every feature, weights and
// biases normal of standard deviation scale, γ = 1, random default
// directions, leaves of k normal values, softmax link.
func TEL(seed uint64, trees, depth, p, k int, scale float64) *ir.Model {
	r := rand.New(rand.NewPCG(seed, 1))
	m := &ir.Model{FormatVersion: ir.FormatVersion, Name: "tel-like", Task: ir.Multiclass, NumFeatures: p, NumOutputs: k,
		Aggregation: ir.Sum, Link: ir.Softmax}
	all := make([]int, p)
	for j := range all {
		all[j] = j
	}
	for range trees {
		m.Trees = append(m.Trees, SoftTree(r, depth, all, k, scale))
	}
	return m
}

// SoftTree returns a perfect soft tree of the given depth, drawn from r as
// TEL draws its trees: every node weighs the features feats (shared, not
// copied) with weights and a bias normal of standard deviation scale, γ = 1,
// a random default direction; every leaf has k standard normal values.
// Nodes are drawn depth first, left before right.
func SoftTree(r *rand.Rand, depth int, feats []int, k int, scale float64) ir.Tree {
	t := ir.Tree{Output: ir.AllOutputs}
	var grow func(d int) int
	grow = func(d int) int {
		i := len(t.Nodes)
		t.Nodes = append(t.Nodes, ir.Node{})
		if d == depth {
			v := make([]float64, k)
			for c := range v {
				v[c] = r.NormFloat64()
			}
			t.Nodes[i] = ir.Node{Kind: ir.Leaf, Value: v}
			return i
		}
		w := make([]float64, len(feats))
		for j := range w {
			w[j] = r.NormFloat64() * scale
		}
		n := ir.Node{Kind: ir.Soft, Indices: feats, Weights: w, Bias: r.NormFloat64() * scale, Gamma: 1, DefaultLeft: r.IntN(2) == 0}
		n.Left = grow(d + 1)
		n.Right = grow(d + 1)
		t.Nodes[i] = n
		return i
	}
	grow(0)
	return t
}
