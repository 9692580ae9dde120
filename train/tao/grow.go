package tao

import (
	"math"
	"math/rand/v2"

	"github.com/treegen/treegen/internal/parallel"
)

// contract returns the classes the leaves of an expansion of a leaf that
// may hold k classes may hold: α·k rounded to the nearest integer (halves
// up), at least 1. So the cap shrinks with depth, k₀ = 7 becoming 5, 4, 3,
// 2 with α = 0.75 (2 stays 2: 1.5 rounds up) and 6, 5, 4, 3 with α = 0.85
// (3 stays 3).
func contract(alpha float64, k int) int {
	return max(1, int(math.Floor(alpha*float64(k)+0.5)))
}

// expand tries the expansion step of §5 on leaf n (at depth depth, with
// reduced set rows): a stump with a median split whose two leaves hold at
// most contract(α, n.kmax) classes, fitted by TAO on rows
// (ExpandIterations iterations, the leaves warm-started from n's weights).
// It returns the stump when it misclassifies at most ρ times as many of
// the rows as the leaf does ("the accuracy of τ̂_j is at least as good as
// the original softmax f_j or within a reasonable tolerance ratio ρ", §5)
// and both of its leaves still receive rows; nil otherwise, and for a leaf
// that misclassifies none of its rows, a pure leaf, a leaf with fewer than
// two rows or a leaf at MaxGrowthDepth.
func (tr *trainer) expand(n *node, depth int, rows []int, rng *rand.Rand) *node {
	if depth >= tr.s.growthDepth || len(rows) < 2 || len(tr.topClasses(rows, 2)) < 2 {
		return nil
	}
	before := tr.errors(n, rows)
	if before == 0 {
		return nil
	}
	kmax := contract(tr.s.alpha, n.kmax)
	stump := tr.medianSplit(rows, rng)
	left, right := tr.split(stump, rows)
	if len(left) == 0 || len(right) == 0 {
		return nil
	}
	child := func(rows []int) *node {
		c := &node{leaf: true, kmax: kmax, classes: n.classes, W: n.W, wb: n.wb}
		tr.fitLeaf(c, rows, true)
		return c
	}
	stump.left, stump.right = child(left), child(right)
	tr.optimise(stump, rows, tr.s.expand, 1, nil)
	if after := tr.errors(stump, rows); float64(after) > tr.s.rho*float64(before) {
		return nil
	}
	if c := tr.counts(stump, rows); c[stump.left] == 0 || c[stump.right] == 0 {
		return nil
	}
	return stump
}

// grow runs the growth rounds of an AST from the fitted tree at root
// (Fig. 1, right): every leaf is offered an expansion, in parallel (the
// leaves' reduced sets are disjoint), the accepted ones replace their
// leaves, then the whole tree is optimised by TAO and pruned; until a
// round leaves the structure as it found it, or MaxRounds. report is
// called after every round's expansions and global iterations.
func (tr *trainer) grow(root *node, report func(round, it, expanded int, root *node, obj func() float64)) *node {
	for round := 1; round <= tr.s.rounds; round++ {
		before := signature(root)
		reach := tr.reduced(root, tr.all)
		type cand struct {
			leaf  *node
			depth int
		}
		var leaves []cand
		root.walk(0, func(n *node, depth int) {
			if n.leaf {
				leaves = append(leaves, cand{n, depth})
			}
		})
		stumps := make([]*node, len(leaves))
		parallel.For(len(leaves), tr.s.threads, func(u int) {
			rng := rand.New(rand.NewPCG(tr.s.seed, uint64(round)<<32|uint64(u)))
			stumps[u] = tr.expand(leaves[u].leaf, leaves[u].depth, reach[leaves[u].leaf], rng)
		})
		expanded := 0
		for u, s := range stumps {
			if s != nil {
				*leaves[u].leaf = *s // the leaf becomes the stump's decision node
				expanded++
			}
		}
		report(round, 0, expanded, root, func() float64 { return tr.objective(root, tr.all) })
		if expanded == 0 {
			break
		}
		tr.optimise(root, tr.all, tr.s.iterations, tr.s.threads, func(it int, obj float64) {
			report(round, it, expanded, root, func() float64 { return obj })
		})
		root = prune(root, tr.counts(root, tr.all))
		if signature(root) == before {
			break
		}
	}
	return root
}

// signature describes the shape of the subtree at n.
func signature(n *node) string {
	var b []byte
	n.walk(0, func(m *node, _ int) {
		if m.leaf {
			b = append(b, 'L')
		} else {
			b = append(b, 'D')
		}
	})
	return string(b)
}

// errors returns the number of rows the subtree at n misclassifies.
func (tr *trainer) errors(n *node, rows []int) int {
	e := 0
	for _, r := range rows {
		x := tr.row(r)
		if n.route(x).predict(x) != tr.y[r] {
			e++
		}
	}
	return e
}
