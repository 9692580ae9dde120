package tao

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/floats"

	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/train/internal/l1"
)

// trainer holds the standardised data and the settings of one Train.
type trainer struct {
	s    settings
	d    int       // features
	n    int       // training rows
	x    []float64 // standardised training rows, row-major
	y    []int     // class of every training row
	xv   []float64 // standardised validation rows (nil without)
	yv   []int
	all  []int // 0 .. n-1
	ws   sync.Pool
	mode int // the majority class of the training rows
}

func (tr *trainer) row(r int) []float64 { return tr.x[r*tr.d : (r+1)*tr.d] }

func (tr *trainer) workspace() *l1.Workspace {
	if ws, ok := tr.ws.Get().(*l1.Workspace); ok {
		return ws
	}
	return new(l1.Workspace)
}

// reduced returns the reduced set of every node of the subtree at root
// for the training rows rows (in their order): the rows that reach it.
func (tr *trainer) reduced(root *node, rows []int) map[*node][]int {
	reach := make(map[*node][]int)
	for _, r := range rows {
		x := tr.row(r)
		n := root
		for {
			reach[n] = append(reach[n], r)
			if n.leaf {
				break
			}
			if n.goRight(x) {
				n = n.right
			} else {
				n = n.left
			}
		}
	}
	return reach
}

// objective returns Eq. 1 over the rows rows for the subtree at root: the
// capped cross-entropy of every row plus the penalties of every node.
func (tr *trainer) objective(root *node, rows []int) float64 {
	e := 0.0
	for _, r := range rows {
		e += root.route(tr.row(r)).loss(tr.row(r), tr.y[r])
	}
	root.walk(0, func(n *node, _ int) { e += n.penalty(tr.s.lambda, tr.s.mu) })
	return e
}

// leafObjective returns Eq. 3 of leaf n over rows.
func (tr *trainer) leafObjective(n *node, rows []int) float64 {
	e := 0.0
	for _, r := range rows {
		e += n.loss(tr.row(r), tr.y[r])
	}
	return e + tr.s.mu*norm1(n.W)
}

// topClasses returns the (at most) k classes most frequent in rows,
// ties to the smaller class, in increasing order.
func (tr *trainer) topClasses(rows []int, k int) []int {
	count := map[int]int{}
	for _, r := range rows {
		count[tr.y[r]]++
	}
	classes := make([]int, 0, len(count))
	for c := range count {
		classes = append(classes, c)
	}
	slices.SortFunc(classes, func(a, b int) int {
		if c := cmp.Compare(count[b], count[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	classes = classes[:min(k, len(classes))]
	slices.Sort(classes)
	return classes
}

// fitLeaf solves Eq. 3 for leaf n over its reduced set rows: the top
// n.kmax classes of rows and an L1 softmax over them, fitted to the rows
// of those classes (warm-started from the rows of n's current classes).
// The fit replaces n when it lowers Eq. 3, or always with force (a new
// leaf). It reports whether n changed.
func (tr *trainer) fitLeaf(n *node, rows []int, force bool) bool {
	if len(rows) == 0 {
		return false
	}
	d := tr.d
	classes := tr.topClasses(rows, n.kmax)
	k := len(classes)
	cand := &node{leaf: true, kmax: n.kmax, classes: classes, W: make([]float64, k*d), wb: make([]float64, k)}
	if k > 1 {
		for c, class := range classes {
			if at, ok := slices.BinarySearch(n.classes, class); ok {
				copy(cand.W[c*d:(c+1)*d], n.W[at*d:(at+1)*d])
				cand.wb[c] = n.wb[at]
			}
		}
		var idx []int
		var label []int
		for _, r := range rows {
			if at, ok := slices.BinarySearch(classes, tr.y[r]); ok {
				idx = append(idx, r)
				label = append(label, at)
			}
		}
		ws := tr.workspace()
		ws.Softmax(l1.Gather(tr.x, d, idx), label, k, nil, cand.W, cand.wb,
			l1.Options{Lambda: tr.s.mu, MaxIter: tr.s.solverIters})
		tr.ws.Put(ws)
	}
	if !force && !(tr.leafObjective(cand, rows) < tr.leafObjective(n, rows)) {
		return false
	}
	n.classes, n.W, n.wb = cand.classes, cand.W, cand.wb
	return true
}

// fitDecision solves Eq. 2 for decision node n over its reduced set rows:
// every row whose loss differs down the two children gets the better
// child as its pseudo-label and the difference as its weight; an L1
// logistic regression (warm-started from n) fits them and replaces n's
// weights. With Options.Strict it does so only when it lowers Eq. 2's
// weighted 0/1 loss plus λ‖w‖₁, whose change is exactly that of Eq. 1. It
// reports whether n changed.
func (tr *trainer) fitDecision(n *node, rows []int) bool {
	var idx []int
	var side []bool
	var c []float64
	for _, r := range rows {
		x := tr.row(r)
		l, rt := n.left.route(x).loss(x, tr.y[r]), n.right.route(x).loss(x, tr.y[r])
		if l == rt {
			continue
		}
		idx = append(idx, r)
		side = append(side, rt < l)
		c = append(c, math.Abs(l-rt))
	}
	if len(idx) == 0 {
		return false
	}
	eq2 := func(w []float64, b float64) float64 {
		e := 0.0
		for i, r := range idx {
			if (margin(w, b, tr.row(r)) >= 0) != side[i] {
				e += c[i]
			}
		}
		return e + tr.s.lambda*norm1(w)
	}
	w, b := slices.Clone(n.w), n.b
	ws := tr.workspace()
	ws.Logistic(l1.Gather(tr.x, tr.d, idx), side, c, w, &b, l1.Options{Lambda: tr.s.lambda, MaxIter: tr.s.solverIters})
	tr.ws.Put(ws)
	if tr.s.nodeChecks && !(eq2(w, b) < eq2(n.w, n.b)) {
		return false
	}
	changed := n.b != b || !slices.Equal(n.w, w)
	n.w, n.b = w, b
	return changed
}

// pass is one TAO iteration over the subtree at root with the training
// rows rows: the reduced sets, then every depth from the deepest to the
// root, the nodes of a depth fitted in parallel (they share no rows and
// no parameters, so the order does not matter). It reports whether any
// node changed.
func (tr *trainer) pass(root *node, rows []int, threads int) bool {
	reach := tr.reduced(root, rows)
	levels := root.levels()
	changed := false
	for depth := len(levels) - 1; depth >= 0; depth-- {
		nodes := levels[depth]
		moved := make([]bool, len(nodes))
		parallel.For(len(nodes), threads, func(u int) {
			n := nodes[u]
			if n.leaf {
				moved[u] = tr.fitLeaf(n, reach[n], false)
			} else {
				moved[u] = tr.fitDecision(n, reach[n])
			}
		})
		changed = changed || slices.Contains(moved, true)
	}
	return changed
}

// minDecrease is the relative decrease of the objective below which TAO
// stops iterating.
const minDecrease = 1e-6

// optimise runs at most iters TAO iterations over the subtree at root,
// stopping when an iteration changes no node or lowers the objective by
// less than minDecrease of it. Without Options.Strict an iteration that
// raises the objective is undone and stops TAO. After every iteration it
// calls after (if not nil) with the iteration and the objective. It
// returns the objective.
func (tr *trainer) optimise(root *node, rows []int, iters, threads int, after func(it int, obj float64)) float64 {
	obj := tr.objective(root, rows)
	for it := 1; it <= iters; it++ {
		var saved []node
		if !tr.s.nodeChecks {
			saved = snapshot(root)
		}
		changed := tr.pass(root, rows, threads)
		next := tr.objective(root, rows)
		if next > obj && saved != nil {
			restore(root, saved)
			next = obj
			changed = false
		}
		if after != nil {
			after(it, next)
		}
		done := !changed || obj-next <= minDecrease*math.Abs(obj)
		obj = next
		if done {
			break
		}
	}
	return obj
}

// snapshot returns the parameters of the nodes of the subtree at root, in
// walk order; restore puts them back into the same (unchanged) structure.
// The parameter slices are replaced, never written into, by the fits, so
// sharing them is safe.
func snapshot(root *node) []node {
	var s []node
	root.walk(0, func(n *node, _ int) { s = append(s, *n) })
	return s
}

func restore(root *node, s []node) {
	i := 0
	root.walk(0, func(n *node, _ int) {
		*n = s[i]
		i++
	})
}

// medianSplit returns a decision node over rows whose direction is drawn
// uniformly on the unit sphere and whose bias puts the median of the
// rows' projections on the boundary, so that each child receives about
// half of the rows (Appendix A.2).
func (tr *trainer) medianSplit(rows []int, rng *rand.Rand) *node {
	w := make([]float64, tr.d)
	for nonZero(w) == 0 {
		for j := range w {
			w[j] = rng.NormFloat64()
		}
	}
	return tr.throughMedian(w, rows)
}

// throughMedian returns a decision node of direction w, divided by its
// length (w must not be zero), whose bias puts the median of the
// projections of rows on the boundary.
func (tr *trainer) throughMedian(w []float64, rows []int) *node {
	norm := 0.0
	for _, v := range w {
		norm += v * v
	}
	norm = math.Sqrt(norm)
	for j := range w {
		w[j] /= norm
	}
	proj := make([]float64, len(rows))
	for i, r := range rows {
		proj[i] = margin(w, 0, tr.row(r))
	}
	slices.Sort(proj)
	return &node{w: w, b: -proj[(len(proj)-1)/2]}
}

// kmeansIterations caps Lloyd's iterations of kmeansSplit.
const kmeansIterations = 20

// kmeansSplit returns a decision node over rows whose direction is c₂ −
// c₁, the difference of the centres of a 2-means clustering of the rows,
// and whose bias puts the median of the rows' projections on the
// boundary, as medianSplit's does. The clustering is seeded as k-means++
// seeds it (a random row, then a row drawn with probability proportional
// to its squared distance from the first) and refined by at most
// kmeansIterations of Lloyd's iterations. Where the rows do not make two
// clusters (all equal), it falls back on medianSplit.
func (tr *trainer) kmeansSplit(rows []int, rng *rand.Rand) *node {
	c := [2][]float64{slices.Clone(tr.row(rows[rng.IntN(len(rows))])), nil}
	dist := make([]float64, len(rows))
	for i, r := range rows {
		dist[i] = floats.Distance(tr.row(r), c[0], 2)
		dist[i] *= dist[i]
	}
	if total := floats.Sum(dist); total > 0 {
		u := rng.Float64() * total
		for i, r := range rows {
			if u -= dist[i]; u <= 0 || i == len(rows)-1 {
				c[1] = slices.Clone(tr.row(r))
				break
			}
		}
	}
	if c[1] == nil {
		return tr.medianSplit(rows, rng)
	}
	side := make([]int8, len(rows))
	sum := [2][]float64{make([]float64, tr.d), make([]float64, tr.d)}
	for it := 0; it < kmeansIterations; it++ {
		moved := false
		var count [2]int
		clear(sum[0])
		clear(sum[1])
		for i, r := range rows {
			x := tr.row(r)
			s := int8(0)
			if floats.Distance(x, c[1], 2) < floats.Distance(x, c[0], 2) {
				s = 1
			}
			if it == 0 || s != side[i] {
				moved = true
			}
			side[i] = s
			count[s]++
			floats.Add(sum[s], x)
		}
		if count[0] == 0 || count[1] == 0 || !moved {
			break
		}
		for s := range c {
			floats.ScaleTo(c[s], 1/float64(count[s]), sum[s])
		}
	}
	w := make([]float64, tr.d)
	floats.SubTo(w, c[1], c[0])
	if nonZero(w) == 0 {
		return tr.medianSplit(rows, rng)
	}
	return tr.throughMedian(w, rows)
}

// split returns the rows n sends left and right.
func (tr *trainer) split(n *node, rows []int) (left, right []int) {
	for _, r := range rows {
		if n.goRight(tr.row(r)) {
			right = append(right, r)
		} else {
			left = append(left, r)
		}
	}
	return left, right
}

// complete returns a complete tree of the given depth over rows, with
// the splits Options.Init asks for (median or 2-means splits) and leaves
// of at most kmax classes fitted to the rows they receive. A node with
// fewer than two rows becomes a leaf.
func (tr *trainer) complete(rows []int, depth, kmax int, rng *rand.Rand) *node {
	if depth == 0 || len(rows) < 2 {
		c := tr.mode
		if len(rows) > 0 {
			c = tr.topClasses(rows, 1)[0]
		}
		leaf := newLeaf(kmax, c, tr.d)
		tr.fitLeaf(leaf, rows, true)
		return leaf
	}
	var n *node
	if tr.s.init == KMeans {
		n = tr.kmeansSplit(rows, rng)
	} else {
		n = tr.medianSplit(rows, rng)
	}
	left, right := tr.split(n, rows)
	n.left = tr.complete(left, depth-1, kmax, rng)
	n.right = tr.complete(right, depth-1, kmax, rng)
	return n
}

// prune removes from the subtree at n every decision node whose weights
// are all zero (it sends every row to one child: the right one when its
// bias is >= 0) and every decision node one of whose children no training
// row reaches (count holds the training rows that reach each node). The
// training rows are routed as before, so Eq. 1 does not increase. It
// returns the new subtree.
func prune(n *node, count map[*node]int) *node {
	for !n.leaf {
		switch {
		case nonZero(n.w) == 0 && n.b >= 0, count[n] > 0 && count[n.left] == 0:
			n = n.right
		case nonZero(n.w) == 0, count[n] > 0 && count[n.right] == 0:
			n = n.left
		default:
			n.left, n.right = prune(n.left, count), prune(n.right, count)
			return n
		}
	}
	return n
}

// counts returns the number of training rows of rows that reach every
// node of the subtree at root.
func (tr *trainer) counts(root *node, rows []int) map[*node]int {
	c := make(map[*node]int)
	for _, r := range rows {
		x := tr.row(r)
		n := root
		for {
			c[n]++
			if n.leaf {
				break
			}
			if n.goRight(x) {
				n = n.right
			} else {
				n = n.left
			}
		}
	}
	return c
}
