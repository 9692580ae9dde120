package runtime

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/treegen/treegen/ir"
)

// Float is the working precision of a Predictor.
type Float interface{ ~float32 | ~float64 }

// Errors returned for inputs of the wrong size.
var (
	ErrFeatureCount = errors.New("runtime: input row has the wrong number of features")
	ErrOutputSize   = errors.New("runtime: output buffer has the wrong length")
	ErrBatchShape   = errors.New("runtime: batch input length is not a multiple of the number of features")
)

// ErrNotHard is the error of PredictLeaves for a model with a tree that
// sends a row to several leaves: a soft node with γ > 0 or a latent tree.
var ErrNotHard = errors.New("runtime: leaf indices need hard trees")

// Predictor evaluates one model. Create it with New; it is immutable and safe
// for concurrent use.
type Predictor[F Float] struct {
	p, k        int
	shift       []F // preprocessing, nil if none
	scale       []F
	base        []F
	mean        bool
	count       []F // trees per output, for Mean
	link        ir.Link
	task        ir.Task
	f32cmp      bool
	sum32       bool // Float32Sum in a float64 predictor
	trees       []treeRef
	fast        []fastNode[F]
	fastLeaf    []F
	perf        []perfNode[F] // split nodes of perfect trees, each tree in heap order
	perfLeaf    []F           // leaf values of perfect trees, 2^depth leaves each
	perfNodeOf  []int32       // parallel to perfLeaf: the ir.Tree node index of each leaf slot
	gen         []genNode[F]
	genVal      []F
	cats        []int32 // categories of categorical splits, sorted per node
	idx         []int32 // sparse indices of oblique/soft/softmax rows
	wts         []F     // their weights
	smRows      []smRow[F]
	readW       [][]F
	readB       []F
	needScratch bool
	leafErr     error // why PredictLeaves cannot work, or nil
	zLen        int   // the length of z, LatentSize
	blocked     bool  // PredictBatch scores blocks of rows: fast trees, no latent tree
	maxLatent   int
	pool        sync.Pool
}

// treeRef locates one tree in the flat arrays.
type treeRef struct {
	kind   treeKind
	root   int32 // index into fast or gen
	out    int32 // output index, or ir.AllOutputs
	depth  int32 // depth of the tree
	run    int32 // fast and perfect trees: number of consecutive trees of the kind from this one
	leaf   int32 // perfect trees: offset of the leaf values in perfLeaf
	nodes  int32 // number of nodes (latent trees)
	zStart int32 // offset of the tree's nodes in z (latent trees)
	elu    bool  // latent trees: the split margins go through elu
}

type treeKind uint8

const (
	fastTree   treeKind = iota // axis splits, constant leaves, on fastNode
	perfTree                   // a fast tree padded to a perfect tree, on perfNode
	hardTree                   // any hard splits, constant or softmax leaves, on genNode
	softTree                   // at least one soft node, on genNode
	latentTree                 // latent tree, on genNode
)

// fastNode is a node of a fast tree. A split sends the row to child[1]
// (right) iff x[feat] >= thr, with "<=" and float32 comparison folded into
// thr, or, when x[feat] is NaN, iff nanRightBit is set. A leaf points to
// itself twice, so walking a tree for more steps than its depth stays on the
// leaf; val is the offset of the leaf's value(s) in fastLeaf.
type fastNode[F Float] struct {
	thr   F
	feat  uint32   // feature index | nanRightBit
	child [2]int32 // left, right; a leaf's own index twice
	val   int32    // leaves: offset of the value(s) in fastLeaf
}

const nanRightBit = 1 << 31

// genNode is a node of any kind.
type genNode[F Float] struct {
	kind        nodeKind
	defaultLeft bool
	lessEqual   bool
	feat        int32
	left, right int32 // absolute indices into gen
	thr         F
	bias        F
	half        F     // gamma/2 for soft nodes
	gamma       F     // gamma for soft nodes
	w0, w1      int32 // weights in idx/wts[w0:w1]; categories in cats[w0:w1]
	v0, v1      int32 // leaf value(s) in genVal[v0:v1], or softmax rows in smRows[v0:v1]
	activity    F
}

// nodeKind is ir.NodeKind as a small integer, cheap to compare.
type nodeKind uint8

const (
	axisNode nodeKind = iota
	categoricalNode
	obliqueNode
	softNode
	leafNode // leaves from here on
	softmaxNode
)

func kindOf(k ir.NodeKind) nodeKind {
	switch k {
	case ir.Axis:
		return axisNode
	case ir.Categorical:
		return categoricalNode
	case ir.Oblique:
		return obliqueNode
	case ir.Soft:
		return softNode
	case ir.Leaf:
		return leafNode
	}
	return softmaxNode
}

func (k nodeKind) isSplit() bool { return k < leafNode }

// smRow is one class of a softmax leaf: z = bias + w·x over idx/wts[w0:w1].
type smRow[F Float] struct {
	class  int32
	w0, w1 int32
	bias   F
}

// scratch holds per-call buffers for models that need them.
type scratch[F Float] struct {
	x    []F // preprocessed row
	x32  []F // the row rounded to float32 (float64 predictors with Float32Compare)
	t    []F // one tree's value (soft trees)
	e    []F // softmax leaf terms
	q    []F // latent q per node
	z    []F // latent z, all latent trees
	xb   []F // a block of preprocessed rows (PredictBatch), allocated on first use
	xb32 []F // the block rounded to float32
}

// New validates m and builds a Predictor for it.
func New[F Float](m *ir.Model) (*Predictor[F], error) {
	return build[F](m, false)
}

// build is New; with general set, every tree runs on the general layout
// (tests compare the two layouts).
func build[F Float](m *ir.Model, general bool) (*Predictor[F], error) {
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("invalid model: %w", err)
	}
	p := &Predictor[F]{
		p:      m.NumFeatures,
		k:      m.NumOutputs,
		mean:   m.Aggregation == ir.Mean,
		link:   m.Link,
		task:   m.Task,
		f32cmp: m.Float32Compare,
		sum32:  m.Float32Sum && !isFloat32[F](),
		base:   make([]F, m.NumOutputs),
	}
	for k := range p.base {
		p.base[k] = F(m.Base(k))
		if m.Float32Sum {
			p.base[k] = F(float32(m.Base(k)))
		}
	}
	if m.Preprocess != nil {
		p.shift = convert[F](m.Preprocess.Shift)
		p.scale = convert[F](m.Preprocess.Scale)
		p.needScratch = true
	}
	if p.mean {
		for _, n := range m.TreesPerOutput() {
			p.count = append(p.count, F(n))
		}
	}
	z, fast := 0, 0
	p.trees = make([]treeRef, len(m.Trees))
	for i := range m.Trees {
		t, ref := &m.Trees[i], &p.trees[i]
		*ref = treeRef{out: int32(t.Output), nodes: int32(len(t.Nodes)), depth: int32(t.Depth())}
		switch {
		case t.Latent:
			ref.kind = latentTree
			ref.elu = t.Activation == ir.Elu
			if p.leafErr == nil {
				p.leafErr = fmt.Errorf("%w: tree %d is latent: its nodes all feed the read-out", ErrNotHard, i)
			}
			ref.zStart = int32(z)
			z += len(t.Nodes)
			if len(t.Nodes) > p.maxLatent {
				p.maxLatent = len(t.Nodes)
			}
			p.needScratch = true
		case !general && p.isFast(t):
			ref.kind = fastTree
			fast++
		case t.HasSoft():
			ref.kind = softTree
			p.needScratch = true
			if p.leafErr == nil && wideSoft(t) {
				p.leafErr = fmt.Errorf("%w: tree %d has a soft node with gamma > 0, which sends a row to several leaves", ErrNotHard, i)
			}
		default:
			ref.kind = hardTree
			p.needScratch = true
		}
	}
	// The perfect layout pays off when trees are walked several at a time;
	// a lone tree walked on it would pay for its full depth on every path.
	pad := fast >= 4
	for i := range p.trees {
		t, ref := &m.Trees[i], &p.trees[i]
		switch {
		case ref.kind == fastTree && pad && paddable(t):
			ref.kind = perfTree
			ref.root, ref.leaf = p.addPerfect(t)
		case ref.kind == fastTree:
			ref.root = p.addFast(t)
		default:
			ref.root = p.addGen(t)
		}
	}
	// Mark runs of consecutive fast (or perfect) trees, walked together.
	for i := len(p.trees) - 1; i >= 0; i-- {
		kind := p.trees[i].kind
		if kind != fastTree && kind != perfTree {
			continue
		}
		p.trees[i].run = 1
		if i+1 < len(p.trees) && p.trees[i+1].kind == kind {
			p.trees[i].run += p.trees[i+1].run
		}
	}
	for i := range p.trees {
		p.blocked = p.blocked || p.trees[i].kind == fastTree || p.trees[i].kind == perfTree
	}
	p.zLen = z
	if z > 0 {
		p.blocked = false // a row's latent z lives in the scratch until its read-out
	}
	if p.f32cmp && !isFloat32[F]() {
		p.needScratch = true // the row rounded to float32, for fast trees
	}
	if r := m.Readout; r != nil {
		for _, row := range r.Weights {
			p.readW = append(p.readW, convert[F](row))
		}
		p.readB = convert[F](r.Bias)
	}
	if p.needScratch {
		zn := z
		p.pool.New = func() any {
			return &scratch[F]{
				x:   make([]F, p.p),
				x32: make([]F, p.p),
				t:   make([]F, p.k),
				e:   make([]F, p.k),
				q:   make([]F, p.maxLatent),
				z:   make([]F, zn),
			}
		}
	}
	return p, nil
}

func convert[F Float](xs []float64) []F {
	out := make([]F, len(xs))
	for i, x := range xs {
		out[i] = F(x)
	}
	return out
}

// wideSoft reports whether t has a soft node with γ > 0, which can send a
// row down both sides.
func wideSoft(t *ir.Tree) bool {
	for i := range t.Nodes {
		if n := &t.Nodes[i]; n.Kind == ir.Soft && n.Gamma != 0 {
			return true
		}
	}
	return false
}

// isFast reports whether t fits the fast layout: axis splits whose test can
// be folded into a strict "<" on F, and constant leaves.
func (p *Predictor[F]) isFast(t *ir.Tree) bool {
	for i := range t.Nodes {
		n := &t.Nodes[i]
		switch n.Kind {
		case ir.Leaf:
		case ir.Axis:
			if _, ok := p.foldThreshold(n.Threshold, n.LessEqual); !ok {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// is32 reports whether comparisons happen in float32.
func (p *Predictor[F]) is32() bool {
	var f F
	_, ok := any(f).(float32)
	return ok || p.f32cmp
}

// foldThreshold returns thr such that, for every non-NaN value v,
// "v < thr" in the comparison precision equals the node's test. ok is false
// when no such threshold exists (x <= the largest float).
func (p *Predictor[F]) foldThreshold(t float64, lessEqual bool) (thr F, ok bool) {
	if p.is32() {
		t32 := float32(t)
		if lessEqual {
			if t32 >= math.MaxFloat32 {
				return 0, false
			}
			t32 = math.Nextafter32(t32, float32(math.Inf(1)))
		}
		return F(t32), true
	}
	if lessEqual {
		if t >= math.MaxFloat64 {
			return 0, false
		}
		t = math.Nextafter(t, math.Inf(1))
	}
	return F(t), true
}

// addFast appends the tree's nodes to the fast layout, in index order, and
// returns the root's index.
func (p *Predictor[F]) addFast(t *ir.Tree) int32 {
	base := int32(len(p.fast))
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		self := base + int32(i)
		if !nd.IsSplit() {
			off := int32(len(p.fastLeaf))
			p.fastLeaf = append(p.fastLeaf, convert[F](nd.Value)...)
			p.fast = append(p.fast, fastNode[F]{child: [2]int32{self, self}, val: off})
			continue
		}
		thr, _ := p.foldThreshold(nd.Threshold, nd.LessEqual)
		f := uint32(nd.Feature)
		if !nd.DefaultLeft {
			f |= nanRightBit
		}
		p.fast = append(p.fast, fastNode[F]{thr: thr, feat: f, child: [2]int32{base + int32(nd.Left), base + int32(nd.Right)}})
	}
	return base
}

// Limits of the perfect layout: a tree is padded into a perfect tree only if
// it is at most maxPerfectDepth deep and the padding at most quadruples its
// number of leaves.
const (
	maxPerfectDepth = 12
	maxPadding      = 4
)

// paddable reports whether the fast tree t takes the perfect layout.
func paddable(t *ir.Tree) bool {
	d := t.Depth()
	return d >= 1 && d <= maxPerfectDepth && 1<<d <= maxPadding*t.NumLeaves()
}

// perfNode is a split of a perfect tree: it sends the row right iff
// x[feat] >= thr or, for NaN, iff nanRightBit is set, as a fastNode does.
type perfNode[F Float] struct {
	thr  F
	feat uint32
}

// addPerfect appends the fast tree t, padded to a perfect tree of its depth
// D, and returns the offsets of its 2^D-1 splits in perf (heap order: the
// children of split j are 2j+1 and 2j+2) and of its 2^D leaves in perfLeaf.
// A leaf above depth D becomes a split whose two subtrees repeat the leaf,
// so that either direction reaches its value: the padded tree computes the
// same function.
func (p *Predictor[F]) addPerfect(t *ir.Tree) (root, leaf int32) {
	d := t.Depth()
	root, leaf = int32(len(p.perf)), int32(len(p.perfLeaf))
	width := 1
	if t.Output == ir.AllOutputs {
		width = p.k
	}
	p.perf = append(p.perf, make([]perfNode[F], 1<<d-1)...)
	p.perfLeaf = append(p.perfLeaf, make([]F, width<<d)...)
	p.perfNodeOf = append(p.perfNodeOf, make([]int32, width<<d)...)
	splits, leaves, nodeOf := p.perf[root:], p.perfLeaf[leaf:], p.perfNodeOf[leaf:]
	var fill func(j, h, level int)
	fill = func(j, h, level int) {
		nd := &t.Nodes[j]
		if level == d {
			copy(leaves[(h-(1<<d-1))*width:], convert[F](nd.Value))
			nodeOf[(h-(1<<d-1))*width] = int32(j)
			return
		}
		if nd.IsSplit() {
			thr, _ := p.foldThreshold(nd.Threshold, nd.LessEqual)
			f := uint32(nd.Feature)
			if !nd.DefaultLeft {
				f |= nanRightBit
			}
			splits[h] = perfNode[F]{thr: thr, feat: f}
			fill(nd.Left, 2*h+1, level+1)
			fill(nd.Right, 2*h+2, level+1)
			return
		}
		// A padding split (x[0] >= 0) over two copies of the leaf.
		fill(j, 2*h+1, level+1)
		fill(j, 2*h+2, level+1)
	}
	fill(0, 0, 0)
	return root, leaf
}

// addGen appends the tree's nodes to the general layout and returns the root.
func (p *Predictor[F]) addGen(t *ir.Tree) int32 {
	base := int32(len(p.gen))
	for i := range t.Nodes {
		nd := &t.Nodes[i]
		g := genNode[F]{
			kind:        kindOf(nd.Kind),
			defaultLeft: nd.DefaultLeft,
			lessEqual:   nd.LessEqual,
			feat:        int32(nd.Feature),
			left:        base + int32(nd.Left),
			right:       base + int32(nd.Right),
			bias:        F(nd.Bias),
			gamma:       F(nd.Gamma),
		}
		g.half = g.gamma / 2
		if nd.Activity != nil {
			g.activity = F(*nd.Activity)
		}
		switch nd.Kind {
		case ir.Axis:
			g.thr = F(nd.Threshold)
			if p.f32cmp {
				g.thr = F(float32(nd.Threshold))
			}
		case ir.Categorical:
			g.w0 = int32(len(p.cats))
			for _, c := range nd.Categories {
				p.cats = append(p.cats, int32(c))
			}
			g.w1 = int32(len(p.cats))
		case ir.Oblique, ir.Soft:
			g.w0, g.w1 = p.addSparse(nd.Indices, nd.Weights)
		case ir.Leaf:
			g.v0 = int32(len(p.genVal))
			p.genVal = append(p.genVal, convert[F](nd.Value)...)
			g.v1 = int32(len(p.genVal))
		case ir.SoftmaxLeaf:
			s := nd.Softmax
			g.v0 = int32(len(p.smRows))
			for j, c := range s.Classes {
				w0, w1 := p.addSparse(s.Rows[j].Indices, s.Rows[j].Weights)
				p.smRows = append(p.smRows, smRow[F]{class: int32(c), w0: w0, w1: w1, bias: F(s.Bias[j])})
			}
			g.v1 = int32(len(p.smRows))
		}
		p.gen = append(p.gen, g)
	}
	return base
}

func (p *Predictor[F]) addSparse(indices []int, weights []float64) (int32, int32) {
	w0 := int32(len(p.idx))
	for j, f := range indices {
		p.idx = append(p.idx, int32(f))
		p.wts = append(p.wts, F(weights[j]))
	}
	return w0, int32(len(p.idx))
}

// NumFeatures returns the length of an input row.
func (p *Predictor[F]) NumFeatures() int { return p.p }

// NumOutputs returns the number of outputs.
func (p *Predictor[F]) NumOutputs() int { return p.k }

// NumTrees returns the number of trees of the model, latent ones included:
// the length of PredictLeaves' output.
func (p *Predictor[F]) NumTrees() int { return len(p.trees) }

// HardTrees reports whether every tree sends a row to a single leaf, so that
// PredictLeaves works: no tree is latent and no soft node has γ > 0 (soft
// nodes with γ = 0 are hard splits).
func (p *Predictor[F]) HardTrees() bool { return p.leafErr == nil }
