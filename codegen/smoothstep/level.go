package smoothstep

import (
	"strconv"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// Level-synchronous evaluation.
//
// A run of consecutive trees that are all perfect soft trees of the same
// depth d (a "level group": every internal node a soft node of width
// γ/2 > 0 in F, every leaf a constant leaf with finite values in F, all
// trees writing every output or all writing one, all dense or all sparse,
// and chosen by chooseLevel) is not unrolled tree by tree. Its code
// evaluates the trees level by level, all trees together: the frontier of
// a level is the list, in tree order and left to right within a tree, of
// the nodes that the row reaches with a path probability other than 0,
// with those probabilities. The margins of the nodes of a frontier are
// independent sums; in a dense group lvDot8 computes eight of them at once
// (lvDot4 four, for a remainder), each left to right as ir/doc.go defines
// it, so that eight chains of additions are in flight instead of one; in a
// sparse group lvMargins computes four at once from the nodes' own weights
// and features (genLvMarginsSparse). Each node then sends its children, P·s to the left and
// P·(1-s) to the right, to the next frontier, in order, and only if their
// probability is not 0: unreachable subtrees cost nothing, the conditional
// computation of the TEL paper.
// At the last internal level the leaf terms F(P·v) are added to the tree
// values in frontier order, which is the depth-first, left-to-right order
// of the interpreter, and each tree value is added to the margins in tree
// order.
//
// The frontier lives in small local arrays of lvCapacity entries (Go zeroes
// local arrays on every call: they must stay small). A row whose frontier
// would outgrow them is evaluated instead by a compact depth-first
// recursion over the same tables (the interpreter's order, the same bits):
// from the start in a dense group, from the frontier that would outgrow
// them in a sparse one; with the capacity used, this is rare for typical
// rows.
//
// Nothing is branched on in the hot loop but the loop bounds: the
// smooth-step's three cases are selected by masks, on the bits of the
// result, from the sign bits of m-γ/2 and -γ/2-m (a NaN margin, rare, is a
// branch), a child is appended by writing it and advancing
// the frontier's length by 0 or 1, and a leaf term with probability 0 is
// added anyway, being ±0 (finite leaf values) which leaves a tree value,
// never -0, unchanged.

// lvMaxCap bounds the frontier's capacity.
const lvMaxCap = 256

// lvGroup is a level group: trees first, first+1, ..., first+n-1.
type lvGroup struct {
	first, n int
	depth    int
	vector   bool    // the trees write every output; else one each
	dense    bool    // every soft node weighs every feature, in order (isDense)
	levels   [][]int // per tree: its nodes level by level, left to right, leaves last
	weights  int     // the number of weights of its soft nodes, pruned ones left out
	most     int     // the largest number of weights of one soft node
}

// nodes returns the number of soft nodes of the group.
func (gr *lvGroup) nodes() int { return gr.n * (1<<gr.depth - 1) }

// lvLevels returns the nodes of t level by level, left to right (the heap
// order of a perfect tree), its depth, whether every soft node weighs every
// feature (isDense), the number of weights of its soft nodes and the
// largest number of one, and whether t is a perfect tree that the
// level-synchronous code evaluates.
func lvLevels(g *emit.Gen, t *ir.Tree, prune float64) (order []int, depth int, dense bool, weights, most int, ok bool) {
	p := g.Model.NumFeatures
	width := 1
	if t.Output == ir.AllOutputs {
		width = g.Model.NumOutputs
	}
	dense = true
	cur := []int{0}
	for {
		order = append(order, cur...)
		n := &t.Nodes[cur[0]]
		if n.Kind == ir.Leaf {
			for _, i := range cur {
				l := &t.Nodes[i]
				if l.Kind != ir.Leaf || len(l.Value) != width {
					return nil, 0, false, 0, 0, false
				}
				for _, v := range l.Value {
					if r := g.Round(v); r-r != 0 { // not finite in F
						return nil, 0, false, 0, 0, false
					}
				}
			}
			return order, depth, dense, weights, most, depth > 0
		}
		var next []int
		for _, i := range cur {
			n := &t.Nodes[i]
			if n.Kind != ir.Soft || g.SoftIsHard(n) || g.Round(n.Gamma)-g.Round(n.Gamma) != 0 {
				return nil, 0, false, 0, 0, false
			}
			idx, _ := Pruned(n, prune)
			dense = dense && isDense(idx, p)
			weights += len(idx)
			most = max(most, len(idx))
			next = append(next, n.Left, n.Right)
		}
		cur = next
		depth++
	}
}

// lvGroups returns the runs of consecutive trees that the
// level-synchronous code can evaluate, in tree order: perfect soft trees of
// one depth, all writing every output or all writing one, all dense or all
// sparse. Which of them are level groups is for the cost model to say
// (chooseLevel).
func lvGroups(g *emit.Gen, prune float64) []lvGroup {
	m := g.Model
	var gs []lvGroup
	for i := 0; i < len(m.Trees); i++ {
		t := &m.Trees[i]
		if t.Latent {
			continue
		}
		order, d, dense, weights, most, ok := lvLevels(g, t, prune)
		if !ok {
			continue
		}
		vector := t.Output == ir.AllOutputs
		if k := len(gs) - 1; k >= 0 && gs[k].first+gs[k].n == i && gs[k].depth == d && gs[k].vector == vector && gs[k].dense == dense {
			gs[k].n++
			gs[k].levels = append(gs[k].levels, order)
			gs[k].weights += weights
			gs[k].most = max(gs[k].most, most)
			continue
		}
		gs = append(gs, lvGroup{first: i, n: 1, depth: d, vector: vector, dense: dense, levels: [][]int{order}, weights: weights, most: most})
	}
	return gs
}

// lvCapacity returns the capacity of the frontier arrays of a group of n
// trees of depth d: the largest frontier an internal level can have, a
// power of two, but at most the larger of lvMaxCap and 2n (the roots and
// their children always fit).
func lvCapacity(n, d int) int {
	most := n << (d - 1) // the nodes of the last internal level
	if limit := 2 * n; most > limit && limit > lvMaxCap {
		most = limit
	} else if most > lvMaxCap {
		most = lvMaxCap
	}
	c := 8
	for c < most {
		c *= 2
	}
	return c
}

// lvNaN says where the soft nodes of a level group send a NaN margin.
type lvNaN int

const (
	lvNaNRight lvNaN = iota // every node sends it right
	lvNaNLeft               // every node sends it left
	lvNaNTable              // each node as its entry in lvL says
)

// lvLayout is the code of a level group laid out before anything is
// emitted: its sizes, the rows of its tables, and which of the constants of
// its smooth-steps and outputs the code inlines or reads from a table. The
// genLv functions (levelgen.go) turn it into declarations.
type lvLayout struct {
	id      string // the suffix of the group's names: the index of its first tree
	trees   string // the group's trees, as doc comments name them
	T, D, K int    // the number of trees, their depth, the values of a leaf
	p       int    // the number of features of the model
	C       int    // the capacity of the frontier arrays (lvCapacity)
	vector  bool   // the trees write every output; else one each
	size    int    // the unit's size: the nodes of its trees
	regs    bool   // lvTrees holds a tree's value in tv0, tv1, ... (a leaf has at most 8 values); else in the array tv

	// sparse says that some soft node does not weigh every feature (or the
	// model has fewer than filterMinWeights): the rows of lvW hold the
	// bias and the node's weights, padded with zeros to nw, and those of lvI
	// their features, padded with NumFeatures, the index of the 0 that
	// follows the row's features in the copy that lvTrees makes of it.
	sparse bool
	nw     int // sparse: the largest number of weights of a node

	// The soft nodes level by level, level-major: node i (from the left) of
	// level L of the t-th tree is row (2^L-1)·T + t·2^L + i.
	weights [][]float64 // the rows of lvW: bias, then the weights
	feats   [][]int     // sparse: the rows of lvI, the features of the weights
	counts  []int       // sparse: the entries of lvN, the number of weights of each node
	gammas  []float64   // γ in F
	halves  []float64   // γ/2 in F
	lefts   []bool      // DefaultLeft
	// values are the rows of lvV: leaf i (from the left) of the t-th tree is
	// row t·2^D + i.
	values [][]float64

	stepTables bool  // γ or γ/2 differ among the nodes: lvG and lvH hold them; else they are inlined
	nan        lvNaN // where a NaN margin goes
	outs       []int // single-output trees: the output of each tree
	outTable   bool  // single-output trees that write different outputs: lvO holds them
}

// name returns the group's name with the given prefix: "lvW3" for "lvW" and
// the group that starts at tree 3.
func (l *lvLayout) name(prefix string) string { return prefix + l.id }

// lvLayoutOf lays out level group gr.
func lvLayoutOf(g *emit.Gen, gr lvGroup, prune float64) *lvLayout {
	l := &lvLayout{
		id:     strconv.Itoa(gr.first),
		trees:  emit.TreeRange(gr.first, gr.first+gr.n-1),
		T:      gr.n,
		D:      gr.depth,
		K:      1,
		C:      lvCapacity(gr.n, gr.depth),
		p:      g.Model.NumFeatures,
		vector: gr.vector,
		sparse: !gr.dense,
		nw:     gr.most,
	}
	if gr.vector {
		l.K = g.Model.NumOutputs
	}
	l.regs = l.K <= 8
	for t := 0; t < l.T; t++ {
		tree := &g.Model.Trees[gr.first+t]
		l.size += emit.TreeSize(tree)
		if !gr.vector {
			l.outs = append(l.outs, tree.Output)
		}
	}
	l.layRows(g, gr, prune)
	l.stepTables = !allEqual(l.gammas) || !allEqual(l.halves)
	l.nan = nanOf(l.lefts)
	l.outTable = !allEqual(l.outs)
	return l
}

// layRows fills the rows of the group's tables, level by level and, within
// a level, tree by tree: the soft nodes of every internal level, then the
// leaves.
func (l *lvLayout) layRows(g *emit.Gen, gr lvGroup, prune float64) {
	for L := 0; L <= l.D; L++ {
		for t := 0; t < l.T; t++ {
			tree := &g.Model.Trees[gr.first+t]
			order := gr.levels[t]
			for i := 0; i < 1<<L; i++ {
				n := &tree.Nodes[order[1<<L-1+i]]
				if L == l.D {
					l.values = append(l.values, n.Value)
					continue
				}
				idx, ws := Pruned(n, prune)
				row := append([]float64{n.Bias}, ws...)
				if l.sparse {
					feats := append([]int(nil), idx...)
					for len(feats) < l.nw {
						row = append(row, 0)
						feats = append(feats, g.Model.NumFeatures)
					}
					l.feats = append(l.feats, feats)
					l.counts = append(l.counts, len(idx))
				}
				l.weights = append(l.weights, row)
				l.gammas = append(l.gammas, g.Round(n.Gamma))
				l.halves = append(l.halves, g.SoftHalf(n))
				l.lefts = append(l.lefts, n.DefaultLeft)
			}
		}
	}
}

// nanOf returns where the soft nodes whose DefaultLeft are lefts send a NaN
// margin.
func nanOf(lefts []bool) lvNaN {
	all, none := true, true
	for _, left := range lefts {
		all = all && left
		none = none && !left
	}
	switch {
	case all:
		return lvNaNLeft
	case none:
		return lvNaNRight
	}
	return lvNaNTable
}

// allEqual reports whether the values are all equal.
func allEqual[T comparable](vs []T) bool {
	for _, v := range vs {
		if v != vs[0] {
			return false
		}
	}
	return true
}
