package gbdt

import (
	"container/heap"
	"errors"
	"math"

	"github.com/treegen/treegen/internal/parallel"
)

// histBudget is the memory, in bytes, that the histograms of all growers
// may hold at once (but at least 6 histograms per grower). Beyond it a node's
// histogram is not kept for its children, which then build both of their
// histograms from their rows instead of one (the subtraction trick needs
// the parent's). A variable for tests.
var histBudget = 256 << 20

// minRelGain is the smallest loss reduction of a split relative to the
// children's score sL+sR: below it the reduction is rounding noise, and the
// split is not made.
const minRelGain = 1e-10

// minParallelWork is the work (rows times features, plus histogram slots)
// below which a phase runs on one goroutine.
var minParallelWork = 1 << 15

// cell is one histogram slot: the sums of the gradients and hessians of the
// node's rows in one bin, and their number.
type cell struct {
	g, h float64
	n    int
}

// split is a candidate split of a node.
type split struct {
	feature int // -1: none
	// bin: the present values in bins 0..bin go left. bin == nb-1 sends
	// every present value left (the missing ones go right), bin == -1
	// every present value right (the missing ones go left).
	bin     int
	nanLeft bool // the missing values go left
	// cat: a split of a categorical feature, which sends the present
	// values in the bins of catLeft left (bin is unused).
	cat     bool
	catLeft binSet
	missing int     // rows of the node missing the feature
	score   float64 // sL + sR, to maximise
	gl, hl  float64 // sums of the left child
	nl      int     // rows of the left child
}

var noSplit = split{feature: -1, score: math.Inf(-1)}

// nodeState is a node while its tree grows.
type nodeState struct {
	id     int // index in grower.nodes
	lo, hi int // its rows: grower.rows[lo:hi]
	g, h   float64
	depth  int
	hist   []cell // nil unless held
	best   split
	gain   float64 // loss reduction of best, minus Gamma (valid splits only)
	nLeft  int     // rows that best sends left (set by partition)
	// lower and upper bound the values of the node's leaves under
	// monotone constraints (±Inf at the root).
	lower, upper float64
	// allowed[f] reports whether the node may split on feature f, nil for
	// every feature of the tree (see sampleFeatures).
	allowed []bool
}

func (st *nodeState) n() int { return st.hi - st.lo }

// tnode is a node of a grown tree. A split sends the present values in
// bins 0..bin of feature left, which is the IR test x < threshold (x <=
// threshold with lessEqual), and the missing values left iff nanLeft. A
// leaf holds value and, while the tree is current, its rows
// grower.rows[lo:hi]. A split of a categorical feature (cat) sends the
// present values in the bins of catLeft left, which is the IR test "x is
// one of categories".
type tnode struct {
	leaf        bool
	value       float64
	feature     int
	bin         int
	threshold   float64
	lessEqual   bool
	nanLeft     bool
	left, right int
	lo, hi      int
	cat         bool
	catLeft     binSet
	categories  []int
}

// grower grows one tree at a time on the binned training set.
type grower struct {
	s       *settings
	bm      *binned
	threads int

	rows, tmp []int32    // rows[0:m] are the rows of the current tree, permuted by the splits
	ord       []gradPair // ord[i] = grad[rows[i]] for the nodes whose histograms are built
	grad      []gradPair
	features  []int // the features of the current tree, ascending

	nodes []tnode

	// states hands out the nodeStates of the current tree from blocks
	// that are reused from tree to tree.
	states    [][]nodeState
	nextState int

	free    [][]cell // histogram buffers not in use
	inUse   int
	maxHist int // buffers that may exist at once (at least 6)

	// Scratch of growDepthwise.
	level, next, batch, children []*nodeState

	// Scratch of phase.
	builds  []buildJob
	subs    []subJob
	evals   []*nodeState
	units   [][]int   // the features of the current tree by group of four: the units of work of phase
	results [][]split // per unit, per eval
	temps   [][]cell

	// Column sampling by level and by node (see sampleFeatures).
	colSeed   uint64  // of the current tree
	levelSets [][]int // per depth, the level's features; nil until drawn
	masks     []bool  // the allowed slices of the nodes of the tree
	nextMask  int
}

type buildJob struct {
	hist   []cell
	lo, hi int
}

// subJob computes dst -= src (dst holds the parent's histogram and becomes
// the larger child's).
type subJob struct{ dst, src []cell }

// newGrower returns a grower that spreads its work over threads
// goroutines, one of share growers that divide histBudget among them.
func newGrower(s *settings, bm *binned, threads, share int) *grower {
	g := &grower{
		s:       s,
		threads: threads,
		bm:      bm,
		rows:    make([]int32, bm.n),
		tmp:     make([]int32, bm.n),
		ord:     make([]gradPair, bm.n),
	}
	g.maxHist = max(histBudget/share/(24*max(bm.slots, 1)), 6)
	return g
}

// newState returns a nodeState, zero but for best (noSplit), that lives
// until the next tree.
func (g *grower) newState() *nodeState {
	const block = 256
	b, i := g.nextState/block, g.nextState%block
	if b == len(g.states) {
		g.states = append(g.states, make([]nodeState, block))
	}
	g.nextState++
	st := &g.states[b][i]
	*st = nodeState{best: noSplit}
	return st
}

func (g *grower) alloc() []cell {
	g.inUse++
	if k := len(g.free); k > 0 {
		h := g.free[k-1]
		g.free = g.free[:k-1]
		return h
	}
	return make([]cell, g.bm.slots)
}

func (g *grower) release(st *nodeState) {
	if st.hist != nil {
		g.free = append(g.free, st.hist)
		st.hist = nil
		g.inUse--
	}
}

// keepLimit is the number of nodes of a level (or of the open leaves of a
// leaf-wise tree) that may hold their histograms for their children: with
// at most keepLimit parents and keepLimit children holding one, at least
// two buffers stay free for the next parent.
func (g *grower) keepLimit() int { return (g.maxHist - 2) / 2 }

// grow grows a tree on the rows g.rows[:m] with gradients grad and returns
// its nodes; leaves know their rows. The features considered are
// features.
func (g *grower) grow(grad []gradPair, m int, features []int) ([]tnode, error) {
	g.grad, g.features = grad, features
	g.units = g.units[:0]
	for i := 0; i < len(features); {
		k := i + 1
		for k < len(features) && features[k]/4 == features[i]/4 {
			k++
		}
		g.units = append(g.units, features[i:k])
		i = k
	}
	for len(g.results) < len(g.units) {
		g.results = append(g.results, nil)
	}
	g.nodes = g.nodes[:0]
	g.nextState = 0
	g.resetSampling()
	root := g.newState()
	root.lo, root.hi = 0, m
	root.lower, root.upper = math.Inf(-1), math.Inf(1)
	// Four partial sums, for speed; the order of the additions is fixed.
	var gs, hs [4]float64
	rows := g.rows[:m]
	i := 0
	for ; i+4 <= m; i += 4 {
		for j := range 4 {
			gs[j] += grad[rows[i+j]].g
			hs[j] += grad[rows[i+j]].h
		}
	}
	for ; i < m; i++ {
		gs[0] += grad[rows[i]].g
		hs[0] += grad[rows[i]].h
	}
	root.g = (gs[0] + gs[1]) + (gs[2] + gs[3])
	root.h = (hs[0] + hs[1]) + (hs[2] + hs[3])
	g.nodes = append(g.nodes, g.leaf(root))
	if g.splittable(root) {
		g.sampleFeatures(root)
		root.hist = g.alloc()
		g.builds = append(g.builds[:0], buildJob{root.hist, root.lo, root.hi})
		g.subs = g.subs[:0]
		g.evals = append(g.evals[:0], root)
		g.phase()
	}
	var err error
	if g.s.maxLeaves > 0 {
		err = g.growLeafwise(root)
	} else {
		err = g.growDepthwise(root)
	}
	if err != nil {
		return nil, err
	}
	if g.inUse != 0 {
		return nil, errors.New("gbdt: internal error: histogram buffers leaked")
	}
	return g.nodes, nil
}

// leaf returns the leaf of st: value -G/(H+λ)·η (with Alpha, MaxDeltaStep
// and constraints, the node's weight times η), and its rows.
func (g *grower) leaf(st *nodeState) tnode {
	var v float64
	if g.s.plain {
		v = -st.g / (st.h + g.s.lambda) * g.s.eta
	} else {
		v = g.nodeWeight(st.g, st.h, st.lower, st.upper) * g.s.eta
	}
	return tnode{leaf: true, value: v + 0, lo: st.lo, hi: st.hi} // + 0 turns -0 into +0
}

// splittable reports whether st may be split: not at the maximum depth,
// two rows or more, and hessian enough for two children.
func (g *grower) splittable(st *nodeState) bool {
	return st.depth < g.s.maxDepth && st.n() >= 2 && st.h*(1+1e-9) >= 2*g.s.minChild
}

func (g *grower) growDepthwise(root *nodeState) error {
	level, next, batch, children := g.level[:0], g.next[:0], g.batch[:0], g.children[:0]
	defer func() { g.level, g.next, g.batch, g.children = level, next, batch, children }()
	if root.best.feature >= 0 {
		level = append(level, root)
	} else {
		g.release(root)
	}
	for len(level) > 0 {
		next = next[:0]
		kept := 0
		for i := 0; i < len(level); {
			// Take parents while the buffers they need are free.
			batch, children = batch[:0], children[:0]
			need := 0
			for ; i < len(level); i++ {
				p := level[i]
				k := 1 // the smaller child's histogram, or a temporary
				if p.hist == nil {
					k = 2
				}
				if len(batch) > 0 && g.inUse+need+k > g.maxHist {
					break
				}
				need += k
				batch = append(batch, p)
			}
			g.partitionAll(batch)
			for _, p := range batch {
				l, r, err := g.split(p)
				if err != nil {
					return err
				}
				children = append(children, l, r)
			}
			g.computeChildren(batch, children)
			for _, c := range children {
				if c.best.feature >= 0 {
					if c.hist != nil && kept >= g.keepLimit() {
						g.release(c)
					}
					if c.hist != nil {
						kept++
					}
					next = append(next, c)
				} else {
					g.release(c)
				}
			}
		}
		level, next = next, level
	}
	return nil
}

// partitionAll partitions the rows of the nodes ps by their best splits,
// spreading the nodes over the goroutines when they have many rows.
func (g *grower) partitionAll(ps []*nodeState) {
	rows := 0
	for _, p := range ps {
		rows += p.n()
	}
	threads := g.threads
	if rows < minParallelWork {
		threads = 1
	}
	parallel.For(len(ps), threads, func(i int) { g.partition(ps[i]) })
}

// partition reorders p's rows stably, those that its best split sends left
// first, and sets p.nLeft to their number.
func (g *grower) partition(p *nodeState) {
	sp := &p.best
	f := sp.feature
	n := g.bm.n
	words := g.bm.packed[(f/4)*n : (f/4+1)*n]
	shift := 8 * uint(f%4)
	// goLeft[b] is 1 if bin b goes left: the present bins 0..sp.bin (of
	// catLeft for a categorical split), and the missing bin nb[f] when
	// nanLeft.
	var goLeft [257]int
	if sp.cat {
		for b := range g.bm.nb[f] {
			if sp.catLeft.has(b) {
				goLeft[b] = 1
			}
		}
	} else {
		for b := 0; b <= sp.bin; b++ {
			goLeft[b] = 1
		}
	}
	if sp.nanLeft {
		goLeft[g.bm.nb[f]] = 1
	}
	rows := g.rows[p.lo:p.hi]
	rt := g.tmp[p.lo:p.hi]
	// Branch-free stable partition: each row is written to both sides,
	// and only the side it belongs to advances.
	k, j := 0, 0
	for _, r := range rows {
		left := goLeft[words[r]>>shift&0xff]
		rows[k] = r
		rt[j] = r
		k += left
		j += 1 - left
	}
	copy(rows[k:], rt[:j])
	p.nLeft = k
}

// split applies the best split of p, whose rows partition has ordered: it
// turns p's node into a split and appends its two children as leaves.
func (g *grower) split(p *nodeState) (left, right *nodeState, err error) {
	sp := &p.best
	f := sp.feature
	k := p.nLeft
	if k != sp.nl { // sp.nl counts the missing rows when they go left
		return nil, nil, errors.New("gbdt: internal error: a split's rows disagree with its histogram")
	}
	gl, hl := sp.gl, sp.hl // with the missing rows when they go left
	left, right = g.newState(), g.newState()
	*left = nodeState{id: len(g.nodes), lo: p.lo, hi: p.lo + k, g: gl, h: hl, depth: p.depth + 1, best: noSplit}
	*right = nodeState{id: len(g.nodes) + 1, lo: p.lo + k, hi: p.hi, g: p.g - gl, h: p.h - hl, depth: p.depth + 1, best: noSplit}
	g.bound(p, left, right)
	nd := &g.nodes[p.id]
	*nd = tnode{feature: f, bin: sp.bin, nanLeft: sp.nanLeft, left: left.id, right: right.id}
	if sp.cat {
		nd.cat, nd.catLeft = true, sp.catLeft
		for b, c := range g.bm.cats[f] {
			if sp.catLeft.has(b) {
				nd.categories = append(nd.categories, c)
			}
		}
	} else {
		nd.threshold, nd.lessEqual = g.bm.threshold(f, sp.bin)
	}
	g.nodes = append(g.nodes, g.leaf(left), g.leaf(right))
	for _, c := range []*nodeState{left, right} {
		if g.splittable(c) {
			g.sampleFeatures(c)
		}
	}
	return left, right, nil
}

// computeChildren gives every splittable child in children (two per parent
// of parents, in order) its histogram and its best split, and releases the
// parents' histograms: the smaller child of a parent that holds its
// histogram is built from its rows, the larger is the parent minus the
// smaller, in the parent's buffer.
func (g *grower) computeChildren(parents, children []*nodeState) {
	g.builds, g.subs, g.evals, g.temps = g.builds[:0], g.subs[:0], g.evals[:0], g.temps[:0]
	for i, p := range parents {
		a, b := children[2*i], children[2*i+1]
		needA, needB := g.splittable(a), g.splittable(b)
		small, large := a, b
		needSmall, needLarge := needA, needB
		if b.n() < a.n() {
			small, large, needSmall, needLarge = b, a, needB, needA
		}
		switch {
		case !needA && !needB:
			g.release(p)
		case p.hist == nil:
			for _, c := range []*nodeState{a, b} {
				if g.splittable(c) {
					c.hist = g.alloc()
					g.builds = append(g.builds, buildJob{c.hist, c.lo, c.hi})
				}
			}
		case needLarge:
			var src []cell
			if needSmall {
				small.hist = g.alloc()
				src = small.hist
			} else {
				src = g.alloc()
				g.temps = append(g.temps, src)
			}
			g.builds = append(g.builds, buildJob{src, small.lo, small.hi})
			large.hist, p.hist = p.hist, nil
			g.subs = append(g.subs, subJob{large.hist, src})
		default: // only the smaller child
			g.release(p)
			small.hist = g.alloc()
			g.builds = append(g.builds, buildJob{small.hist, small.lo, small.hi})
		}
		if needA {
			g.evals = append(g.evals, a)
		}
		if needB {
			g.evals = append(g.evals, b)
		}
	}
	g.phase()
	for _, t := range g.temps {
		g.free = append(g.free, t)
		g.inUse--
	}
}

func (g *grower) growLeafwise(root *nodeState) error {
	var open stateHeap
	if root.best.feature >= 0 {
		heap.Push(&open, root)
	} else {
		g.release(root)
	}
	leaves := 1
	for open.Len() > 0 && leaves < g.s.maxLeaves {
		p := heap.Pop(&open).(*nodeState)
		g.partition(p)
		l, r, err := g.split(p)
		if err != nil {
			return err
		}
		leaves++
		if leaves == g.s.maxLeaves {
			g.release(p)
			break
		}
		g.computeChildren([]*nodeState{p}, []*nodeState{l, r})
		for _, c := range []*nodeState{l, r} {
			if c.best.feature < 0 {
				g.release(c)
				continue
			}
			if c.hist != nil && g.inUse > g.keepLimit() {
				g.release(c)
			}
			heap.Push(&open, c)
		}
	}
	for _, st := range open {
		g.release(st)
	}
	return nil
}

// stateHeap orders the open leaves of a leaf-wise tree: the largest gain
// first, then the oldest node.
type stateHeap []*nodeState

func (h stateHeap) Len() int { return len(h) }
func (h stateHeap) Less(i, j int) bool {
	if h[i].gain != h[j].gain {
		return h[i].gain > h[j].gain
	}
	return h[i].id < h[j].id
}
func (h stateHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *stateHeap) Push(x any)   { *h = append(*h, x.(*nodeState)) }
func (h *stateHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// phase builds the histograms of g.builds, computes those of g.subs and
// finds the best split of every node of g.evals, spreading the units (the
// features of a group of four) over the goroutines: every histogram slot
// and every candidate of a unit is computed by one goroutine in a fixed
// order, and the units' best candidates are combined in unit order, so the
// result does not depend on the number of goroutines or their scheduling.
func (g *grower) phase() {
	for _, b := range g.builds {
		rows, ord := g.rows[b.lo:b.hi], g.ord[b.lo:b.hi]
		for i, r := range rows {
			ord[i] = g.grad[r]
		}
	}
	work := 0
	for _, b := range g.builds {
		work += b.hi - b.lo
	}
	work = work*len(g.features) + (len(g.subs)+len(g.evals))*g.bm.slots
	threads := g.threads
	if work < minParallelWork {
		threads = 1
	}
	for u := range g.units {
		g.results[u] = g.results[u][:0]
		for range g.evals {
			g.results[u] = append(g.results[u], noSplit)
		}
	}
	parallel.For(len(g.units), threads, func(u int) {
		group := g.units[u]
		for _, b := range g.builds {
			g.buildGroup(group, b)
		}
		for _, f := range group {
			g.finishFeature(f, g.results[u])
		}
	})
	for _, st := range g.evals {
		st.best = noSplit
	}
	for u := range g.units {
		for e, st := range g.evals {
			if c := g.results[u][e]; c.score > st.best.score {
				st.best = c
			}
		}
	}
	for _, st := range g.evals {
		g.finishSplit(st)
	}
}

// finishFeature computes the slots of feature f of the histograms of
// g.subs and scans f for the best split of every node of g.evals, into
// best (one candidate per node of g.evals).
func (g *grower) finishFeature(f int, best []split) {
	off, end := g.bm.off[f], g.bm.off[f]+g.bm.nb[f]+1
	for _, s := range g.subs {
		dst, src := s.dst[off:end], s.src[off:end]
		for i := range dst {
			dst[i].g -= src[i].g
			dst[i].h -= src[i].h
			dst[i].n -= src[i].n
		}
	}
	for e, st := range g.evals {
		g.scan(f, st, &best[e])
	}
}

// buildGroup fills the slots of the features fs of b's histogram from b's
// rows, in row order. fs are features of one group of four (see binned):
// all four of them take the fast path, in which one load gives a row's four
// bins and four independent chains of additions are in flight.
func (g *grower) buildGroup(fs []int, b buildJob) {
	bm := g.bm
	n := bm.n
	words := bm.packed[(fs[0]/4)*n : (fs[0]/4+1)*n]
	rows, ord := g.rows[b.lo:b.hi], g.ord[b.lo:b.hi]
	ord = ord[:len(rows)]
	for _, f := range fs {
		clear(b.hist[bm.off[f] : bm.off[f]+bm.nb[f]+1])
	}
	if len(fs) < 4 {
		for _, f := range fs {
			h := b.hist[bm.off[f] : bm.off[f]+bm.nb[f]+1]
			shift := 8 * uint(f%4)
			for i, r := range rows {
				a := &h[words[r]>>shift&0xff]
				a.g += ord[i].g
				a.h += ord[i].h
				a.n++
			}
		}
		return
	}
	// The four features' slots are consecutive: offsets o1, o2, o3 from
	// the first one's.
	base := bm.off[fs[0]]
	h := b.hist[base : bm.off[fs[3]]+bm.nb[fs[3]]+1]
	o1, o2, o3 := bm.off[fs[1]]-base, bm.off[fs[2]]-base, bm.off[fs[3]]-base
	for i, r := range rows {
		gg, hh := ord[i].g, ord[i].h
		w := words[r]
		a := &h[w&0xff]
		a.g += gg
		a.h += hh
		a.n++
		a = &h[o1+int(w>>8&0xff)]
		a.g += gg
		a.h += hh
		a.n++
		a = &h[o2+int(w>>16&0xff)]
		a.g += gg
		a.h += hh
		a.n++
		a = &h[o3+int(w>>24)]
		a.g += gg
		a.h += hh
		a.n++
	}
}

// scan considers every split of st on feature f, in increasing bin order
// and, for each bin, with the missing values right then left, and updates
// best if one scores strictly higher.
func (g *grower) scan(f int, st *nodeState, best *split) {
	if st.allowed != nil && !st.allowed[f] {
		return
	}
	if g.bm.cats[f] != nil {
		g.scanCategories(f, st, best)
		return
	}
	nb := g.bm.nb[f]
	h := st.hist[g.bm.off[f] : g.bm.off[f]+nb+1]
	miss := h[nb]
	lambda, minChild := g.s.lambda, g.s.minChild
	G, H, N := st.g, st.h, st.n()
	consider := func(bin int, nanLeft bool, gl, hl float64, nl int) {
		nr := N - nl
		hr := H - hl
		if nl == 0 || nr == 0 || hl < minChild || hr < minChild {
			return
		}
		gr := G - gl
		var score float64
		if g.s.plain {
			score = gl*gl/(hl+lambda) + gr*gr/(hr+lambda)
		} else {
			score = g.splitScore(f, st, gl, hl, gr, hr)
		}
		if score > best.score {
			*best = split{feature: f, bin: bin, nanLeft: nanLeft, missing: miss.n, score: score, gl: gl, hl: hl, nl: nl}
		}
	}
	var gl, hl float64
	nl := 0
	for b := 0; b < nb-1; b++ {
		c := h[b]
		if c.n == 0 {
			continue // the same split as the bin before
		}
		gl += c.g
		hl += c.h
		nl += c.n
		consider(b, false, gl, hl, nl)
		if miss.n > 0 {
			// With the missing values on the left, the split keeps the
			// empty bins above b on the left too: its threshold is the
			// highest of the equivalent ones, as in XGBoost's backward
			// scan.
			top := b
			for top+1 < nb-1 && h[top+1].n == 0 {
				top++
			}
			consider(top, true, gl+miss.g, hl+miss.h, nl+miss.n)
		}
	}
	if miss.n > 0 && miss.n < N {
		// Present against missing, if a threshold can express it.
		switch {
		case !g.bm.posInf[f]:
			c := h[nb-1]
			if c.n > 0 {
				gl += c.g
				hl += c.h
				nl += c.n
			}
			consider(nb-1, false, gl, hl, nl)
		case !g.bm.negInf[f]:
			consider(-1, true, miss.g, miss.h, miss.n)
		}
	}
}

// finishSplit decides whether st's best candidate is a split: its loss
// reduction ½(sL + sR - sP) must exceed Gamma and be more than rounding
// noise. Without missing rows in st, missing values at prediction time go
// to the child with the larger hessian sum (left on a tie).
func (g *grower) finishSplit(st *nodeState) {
	b := &st.best
	if b.feature < 0 {
		return
	}
	var parent float64
	if g.s.plain {
		parent = st.g * st.g / (st.h + g.s.lambda)
	} else {
		parent = g.gainTerm(st.g, st.h, st.lower, st.upper)
	}
	reduction := 0.5 * (b.score - parent)
	if !(reduction > g.s.gamma) || !(reduction > minRelGain*b.score) {
		*b = noSplit
		return
	}
	st.gain = reduction - g.s.gamma
	if b.missing == 0 {
		b.nanLeft = b.hl >= st.h-b.hl
	}
}
