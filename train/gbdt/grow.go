package gbdt

import (
	"container/heap"
	"errors"
	"math"
	"unsafe"

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
// node's rows in one bin, and their number (an integer, exact in a float64
// up to 2⁵³ rows), padded to 32 bytes so that one 256-bit vector adds a row
// to it (see addRows).
type cell struct {
	g, h, n float64
	_       float64
}

// rows returns c's number of rows.
func (c cell) rows() int { return int(c.n) }

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
	// gain and cover are a split's statistics for the IR: XGBoost's loss_chg
	// sL + sR - sP (twice the reduction ½(...) compared with Gamma) and
	// the node's hessian sum.
	gain, cover float64
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
	ord       []gradPair // ord[i] = grad[rows[i]] for the rows of the build jobs not root
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
	builds     []buildJob
	subs       []subJob
	evals      []*nodeState
	units      []unit    // the features of the current tree in units of work of phase
	unitGroups []int     // backing array of the units' groups
	results    [][]split // per unit, per eval
	temps      [][]cell
	chunks     []chunk  // the chunks of the rows of builds
	partials   [][]cell // the histograms of the chunks after the first of a job

	// Scratch of partitionAll, and its argument for one node.
	pchunks []pchunk
	one     [1]*nodeState
	// Scratch of sumRows.
	sums []gradPair

	// Column sampling by level and by node (see sampleFeatures).
	colSeed   uint64  // of the current tree
	levelSets [][]int // per depth, the level's features; nil until drawn
	masks     []bool  // the allowed slices of the nodes of the tree
	nextMask  int
}

// unit is a unit of work of phase: up to maxUnitGroups consecutive groups
// of four features (see binned) that hold features of the current tree,
// and those features, ascending.
type unit struct {
	groups   []int
	features []int
}

// chunk is a range of the rows of a build job whose histogram is built by
// one unit of work: the job's first chunk into the job's histogram, each
// other one into a partial histogram that is then added to it.
type chunk struct {
	job, lo, hi int
	dst         []cell
}

// pchunk is a range of the rows of a node that partitionAll partitions as
// one unit of work; left is the number of them its split sends left.
type pchunk struct {
	node            *nodeState
	lo, hi          int
	left            int
	only            bool // the node's only chunk
	leftAt, rightAt int  // where its left and right rows go, in g.tmp
}

// Chunks: the rows of a node partitioned, or of a histogram built, are
// split into at most maxChunks ranges, which are units of work of their
// own: ranges of at least chunkRows rows for a partition, and of at least
// bm.chunkRows (see newBinned) for a histogram. How a node's rows are split
// depends only on their number and on the data, never on the number of
// goroutines, and so does every sum.
const (
	chunkRows = 1 << 14
	maxChunks = 64
)

// chunkSize returns the rows per chunk of a range of m rows, chunks of at
// least least rows.
func chunkSize(m, least int) int { return max(least, (m+maxChunks-1)/maxChunks) }

// buildJob is a histogram to build from the rows g.rows[lo:hi]. Unless
// root, the rows are those of a node below the root, scattered over the
// training set: their gradient pairs are gathered into g.ord[lo:hi] first,
// so that the passes over the rows, one per unit, read them in order.
type buildJob struct {
	hist   []cell
	lo, hi int
	root   bool
}

// subJob computes dst -= src (dst holds the parent's histogram and becomes
// the larger child's).
type subJob struct{ dst, src []cell }

// newGrower returns a grower that spreads its work over threads
// goroutines, one of share growers that divide histBudget among them.
func newGrower(s *settings, bm *binned, threads, share int) *grower {
	g := &grower{
		s:          s,
		threads:    threads,
		bm:         bm,
		rows:       make([]int32, bm.n),
		tmp:        make([]int32, bm.n),
		ord:        make([]gradPair, bm.n),
		unitGroups: make([]int, maxUnitGroups*((bm.p+3)/4)),
	}
	g.maxHist = max(histBudget/share/(int(unsafe.Sizeof(cell{}))*max(bm.slots, 1)), 6)
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
	g.setUnits(features)
	for len(g.results) < len(g.units) {
		g.results = append(g.results, nil)
	}
	g.nodes = g.nodes[:0]
	g.nextState = 0
	g.resetSampling()
	root := g.newState()
	root.lo, root.hi = 0, m
	root.lower, root.upper = math.Inf(-1), math.Inf(1)
	root.g, root.h = g.sumRows(grad, m)
	g.nodes = append(g.nodes, g.leaf(root))
	if g.splittable(root) {
		g.sampleFeatures(root)
		root.hist = g.alloc()
		g.builds = append(g.builds[:0], buildJob{root.hist, root.lo, root.hi, true})
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

// sumRows returns the sums of the gradients and of the hessians of the
// rows g.rows[:m], in chunks of chunkRows rows (spread over the
// goroutines) whose sums are added in chunk order.
func (g *grower) sumRows(grad []gradPair, m int) (gsum, hsum float64) {
	chunks := (m + chunkRows - 1) / chunkRows
	if chunks == 0 {
		return 0, 0
	}
	if cap(g.sums) < chunks {
		g.sums = make([]gradPair, chunks)
	}
	sums := g.sums[:chunks]
	threads := g.threads
	if m < minParallelWork {
		threads = 1
	}
	parallel.For(chunks, threads, func(c int) {
		// Four partial sums, for speed; the order of the additions is
		// fixed.
		var gs, hs [4]float64
		rows := g.rows[c*chunkRows : min((c+1)*chunkRows, m)]
		i := 0
		for ; i+4 <= len(rows); i += 4 {
			for j := range 4 {
				gs[j] += grad[rows[i+j]].g
				hs[j] += grad[rows[i+j]].h
			}
		}
		for ; i < len(rows); i++ {
			gs[0] += grad[rows[i]].g
			hs[0] += grad[rows[i]].h
		}
		sums[c] = gradPair{(gs[0] + gs[1]) + (gs[2] + gs[3]), (hs[0] + hs[1]) + (hs[2] + hs[3])}
	})
	gsum, hsum = sums[0].g, sums[0].h
	for _, s := range sums[1:] {
		gsum += s.g
		hsum += s.h
	}
	return gsum, hsum
}

// setUnits divides features, ascending, into g.units: runs of groups of
// four, up to maxUnitGroups of them while the unit's slots fit in a core's
// first-level cache (unitSlots), and no more than leave a unit per
// goroutine: the goroutines share the work by units and chunks of rows,
// and a node of few rows has one chunk. How the features are divided
// changes no result.
func (g *grower) setUnits(features []int) {
	groups := 0
	for i, f := range features {
		if i == 0 || f/4 != features[i-1]/4 {
			groups++
		}
	}
	per := min(maxUnitGroups, max(1, groups/g.threads))
	bm := g.bm
	slotsOf := func(grp int) int {
		lo, hi := bm.groupSlots(grp)
		return hi - lo
	}
	g.units = g.units[:0]
	for i := 0; i < len(features); {
		u := unit{groups: g.unitGroups[len(g.units)*maxUnitGroups:][:0:maxUnitGroups]}
		slots := 0
		k := i
		for k < len(features) {
			grp := features[k] / 4
			if len(u.groups) == 0 || grp != u.groups[len(u.groups)-1] {
				if len(u.groups) == per || (len(u.groups) > 0 && slots+slotsOf(grp) > unitSlots) {
					break
				}
				u.groups = append(u.groups, grp)
				slots += slotsOf(grp)
			}
			k++
		}
		u.features = features[i:k]
		g.units = append(g.units, u)
		i = k
	}
}

// unitSlots is the number of histogram slots (32 bytes each) beyond which
// a unit takes no further group: 36 KiB, so that the slots a pass over the
// rows adds to stay in a core's first-level cache.
const unitSlots = 1152

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

// partitionAll partitions the rows of the nodes ps by their best splits.
// The units of work are chunks of the nodes' rows (see chunkSize): each
// partitions its rows stably; a node of several chunks then moves each
// chunk's left and right rows to their places through g.tmp. The result
// is the stable partition of every node, whatever the goroutines.
func (g *grower) partitionAll(ps []*nodeState) {
	g.pchunks = g.pchunks[:0]
	rows, split := 0, false
	for _, p := range ps {
		rows += p.n()
		size := p.n() // the partition does not depend on the chunks
		if g.threads > 1 {
			size = chunkSize(p.n(), chunkRows)
		}
		for lo := p.lo; lo < p.hi; lo += size {
			hi := min(lo+size, p.hi)
			g.pchunks = append(g.pchunks, pchunk{node: p, lo: lo, hi: hi, only: lo == p.lo && hi == p.hi})
			split = split || hi < p.hi
		}
	}
	threads := g.threads
	if rows < minParallelWork {
		threads = 1
	}
	cs := g.pchunks
	parallel.For(len(cs), threads, func(i int) {
		c := &cs[i]
		c.left = g.partition(c.node, c.lo, c.hi)
	})
	// Each node's left rows, chunk by chunk, then its right rows.
	for i := 0; i < len(cs); {
		p := cs[i].node
		k := i
		left := 0
		for ; k < len(cs) && cs[k].node == p; k++ {
			left += cs[k].left
		}
		p.nLeft = left
		l, r := p.lo, p.lo+left
		for ; i < k; i++ {
			cs[i].leftAt, cs[i].rightAt = l, r
			l += cs[i].left
			r += cs[i].hi - cs[i].lo - cs[i].left
		}
	}
	if !split {
		return
	}
	parallel.For(len(cs), threads, func(i int) {
		if c := &cs[i]; !c.only {
			m := c.hi - c.lo
			copy(g.tmp[c.leftAt:], g.rows[c.lo:c.lo+c.left])
			copy(g.tmp[c.rightAt:], g.rows[c.lo+c.left:c.lo+m])
		}
	})
	parallel.For(len(cs), threads, func(i int) {
		if c := &cs[i]; !c.only {
			copy(g.rows[c.lo:c.hi], g.tmp[c.lo:c.hi])
		}
	})
}

// partition reorders the rows g.rows[lo:hi] of p stably, those that its
// best split sends left first, and returns their number.
func (g *grower) partition(p *nodeState, lo, hi int) int {
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
	rows := g.rows[lo:hi]
	rt := g.tmp[lo:hi]
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
	return k
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
	*nd = tnode{feature: f, bin: sp.bin, nanLeft: sp.nanLeft, left: left.id, right: right.id,
		gain: sp.score - p.g*p.g/(p.h+g.s.lambda), cover: p.h}
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
					g.builds = append(g.builds, buildJob{c.hist, c.lo, c.hi, false})
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
			g.builds = append(g.builds, buildJob{src, small.lo, small.hi, false})
			large.hist, p.hist = p.hist, nil
			g.subs = append(g.subs, subJob{large.hist, src})
		default: // only the smaller child
			g.release(p)
			small.hist = g.alloc()
			g.builds = append(g.builds, buildJob{small.hist, small.lo, small.hi, false})
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
		g.one[0] = p
		g.partitionAll(g.one[:])
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
// finds the best split of every node of g.evals. The units of work are
// the features of a group of four (see binned) and, for a build job of
// many rows, the chunks of its rows (see chunkSize): every histogram slot
// and every candidate is computed by one goroutine in a fixed order, the
// partial histograms of a job's chunks are added up in chunk order, and
// the groups' best candidates are combined in group order, so the result
// does not depend on the number of goroutines or their scheduling.
func (g *grower) phase() {
	g.chunks = g.chunks[:0]
	work, partials := 0, 0
	for j, b := range g.builds {
		work += b.hi - b.lo
		size := chunkSize(b.hi-b.lo, g.bm.chunkRows)
		for lo := b.lo; lo < b.hi; lo += size {
			c := chunk{job: j, lo: lo, hi: min(lo+size, b.hi), dst: b.hist}
			if lo > b.lo {
				if partials == len(g.partials) {
					g.partials = append(g.partials, make([]cell, g.bm.slots))
				}
				c.dst = g.partials[partials]
				partials++
			}
			g.chunks = append(g.chunks, c)
		}
	}
	work = work*len(g.features) + (len(g.subs)+len(g.evals)+partials)*g.bm.slots
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
	nc := len(g.chunks)
	parallel.For(nc, threads, func(c int) {
		if ch := g.chunks[c]; !g.builds[ch.job].root {
			ord := g.ord[ch.lo:ch.hi]
			for i, r := range g.rows[ch.lo:ch.hi] {
				ord[i] = g.grad[r]
			}
		}
	})
	// Unit by unit: a unit streams its bins and the gradients through
	// the chunks in order (faster than chunk by chunk, measured).
	nu := len(g.units)
	parallel.For(nu*nc, threads, func(t int) {
		g.buildUnit(&g.units[t/nc], g.chunks[t%nc])
	})
	parallel.For(nu, threads, g.finishUnit)
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

// finishUnit adds the partial histograms of the chunks into their jobs'
// histograms, in chunk order, then computes the subtractions and scans
// the features of unit u, all on u's slots.
func (g *grower) finishUnit(u int) {
	un := &g.units[u]
	lo, _ := g.bm.groupSlots(un.groups[0])
	_, hi := g.bm.groupSlots(un.groups[len(un.groups)-1])
	for _, c := range g.chunks {
		if c.lo == g.builds[c.job].lo {
			continue
		}
		addCells(g.builds[c.job].hist[lo:hi], c.dst[lo:hi])
	}
	for _, f := range un.features {
		g.finishFeature(f, g.results[u])
	}
}

// finishFeature computes the slots of feature f of the histograms of
// g.subs and scans f for the best split of every node of g.evals, into
// best (one candidate per node of g.evals).
func (g *grower) finishFeature(f int, best []split) {
	off, end := g.bm.off[f], g.bm.off[f]+g.bm.nb[f]+1
	for _, s := range g.subs {
		subCells(s.dst[off:end], s.src[off:end])
	}
	for e, st := range g.evals {
		g.scan(f, st, &best[e])
	}
}

// buildUnit fills the slots of the groups of u in c.dst from c's rows, in
// row order: the slots of every feature of the groups, also of features
// that the current tree does not use (whose slots nothing reads).
func (g *grower) buildUnit(u *unit, c chunk) {
	bm := g.bm
	n := bm.n
	// The slots of the features after the last, in the last group: their
	// bins are 0, and each has a slot of its own, so that the additions
	// to them do not wait for each other.
	var spare [3]cell
	a := rowAdder{groups: len(u.groups)}
	for j, grp := range u.groups {
		a.words[j] = bm.packed[grp*n : (grp+1)*n]
		for k := range 4 {
			if f := 4*grp + k; f < bm.p {
				a.slots[4*j+k] = c.dst[bm.off[f] : bm.off[f]+bm.nb[f]+1]
				clear(a.slots[4*j+k])
			} else {
				a.slots[4*j+k] = spare[k-1 : k]
			}
		}
	}
	if g.builds[c.job].root {
		a.addRows(g.rows[c.lo:c.hi], g.grad, nil)
	} else {
		a.addRows(g.rows[c.lo:c.hi], g.grad, g.ord[c.lo:c.hi])
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
	if g.s.plain && miss.n == 0 {
		g.scanPlain(f, st, h[:nb], best)
		return
	}
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
			*best = split{feature: f, bin: bin, nanLeft: nanLeft, missing: miss.rows(), score: score, gl: gl, hl: hl, nl: nl}
		}
	}
	var gl, hl float64
	nl := 0
	for b := 0; b < nb-1; b++ {
		c := h[b]
		if c.rows() == 0 {
			continue // the same split as the bin before
		}
		gl += c.g
		hl += c.h
		nl += c.rows()
		consider(b, false, gl, hl, nl)
		if miss.rows() > 0 {
			// With the missing values on the left, the split keeps the
			// empty bins above b on the left too: its threshold is the
			// highest of the equivalent ones, as in XGBoost's backward
			// scan.
			top := b
			for top+1 < nb-1 && h[top+1].rows() == 0 {
				top++
			}
			consider(top, true, gl+miss.g, hl+miss.h, nl+miss.rows())
		}
	}
	if miss.rows() > 0 && miss.rows() < N {
		// Present against missing, if a threshold can express it.
		switch {
		case !g.bm.posInf[f]:
			c := h[nb-1]
			if c.rows() > 0 {
				gl += c.g
				hl += c.h
				nl += c.rows()
			}
			consider(nb-1, false, gl, hl, nl)
		case !g.bm.negInf[f]:
			consider(-1, true, miss.g, miss.h, miss.rows())
		}
	}
}

// scanPlain is scan for a feature without missing values in st, with
// neither Alpha, MaxDeltaStep nor constraints: the same candidates in the
// same order, so the same result, in a loop of its own (the trainer's
// hottest after the histograms on small data sets). h are the feature's
// present bins.
func (g *grower) scanPlain(f int, st *nodeState, h []cell, best *split) {
	lambda, minChild := g.s.lambda, g.s.minChild
	G, H, N := st.g, st.h, float64(st.n())
	score, bin := best.score, -2
	var gl, hl, nl, bestGL, bestHL, bestNL float64
	for b := range len(h) - 1 {
		c := &h[b]
		if c.n == 0 {
			continue // the same split as the bin before
		}
		gl += c.g
		hl += c.h
		nl += c.n
		hr := H - hl
		if nl == N || hl < minChild || hr < minChild {
			continue
		}
		gr := G - gl
		if s := gl*gl/(hl+lambda) + gr*gr/(hr+lambda); s > score {
			score, bin = s, b
			bestGL, bestHL, bestNL = gl, hl, nl
		}
	}
	if bin >= 0 {
		*best = split{feature: f, bin: bin, score: score, gl: bestGL, hl: bestHL, nl: int(bestNL)}
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
