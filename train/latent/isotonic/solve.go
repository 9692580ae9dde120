package isotonic

import (
	"fmt"
	"math"
)

// Solution holds the solution of problem (3) for one tree, one η and one
// batch of q, and what the backward pass needs: the partition of the nodes
// into groups, each group's support S*_G and whether its value is clipped.
// A Solution may be reused: Solve overwrites it, reusing its storage. It is
// not safe for concurrent use, Backward included.
type Solution struct {
	// A is a*, one value per node, in [0, 1], with A[t] ≤ A[Parent[t]].
	A []float64
	// Z is z*, row-major n×T: Z[i*T+t] = clip(q_it, 0, A[t]).
	Z []float64

	n, nodes int
	parent   []int  // a copy of the tree's Parent
	merges   int    // the number of merges of the last Solve
	nd       []node // per node: its entries' counts, links and group

	// Node t's q_it in (0, 1), its entries, sorted once in decreasing
	// order (equal values by increasing row), are s.entries(t), with
	// their prefix sums s.prefix(t); its q_it ≥ 1 are s.highs(t) (see
	// entries.go).
	ent []entry
	pre []float64

	chOff, ch, fill []int // the children of each node (tree.go)
	nodeHeap        []int
	sortBuf         []entry
	viol            []violator
	gA              []float64
}

// node is what the algorithm keeps of a node: its counts, its links and
// its cursor, and, while it tops a group (up is the node itself), the
// group's data. The top of a group is its member nearest the root.
type node struct {
	nEnt, nHi int // the numbers of the node's entries and of its q_it ≥ 1
	cur       int // the number of its entries in its group's support: its cur largest
	up        int // union-find: the node itself iff it tops a group; after Solve, its group's top
	next      int // the next member of its group from the top, or -1

	last             int     // the group's final member
	size, hiCnt, kin int     // |G|, the number of its q_it ≥ 1, of its entries in the support
	sumEta, sumHi    float64 // Σ η_t, Σ of its q_it ≥ 1
	sum01, sumIn     float64 // Σ of its entries, of its entries in the support
	val              float64 // a_G
	state            int8    // interior, clipLow or clipHigh
}

// The states of a group's value.
const (
	interior int8 = iota // 0 < a_G < 1: a_G = a(k*) of Proposition 2
	clipLow              // a_G = 0: the unconstrained minimiser is ≤ 0
	clipHigh             // a_G = 1: the unconstrained minimiser is ≥ 1
)

// Solve runs the forward pass for n rows of q (row-major n×T: q[i*T+t] is
// q_it) and eta (len T) on the tree tr and returns the new Solution. See
// the package documentation for the problem, the algorithm and the
// conventions. It panics if the lengths do not match, if tr is malformed,
// if some η_t is not finite or if some q_it is NaN; q_it may be ±Inf.
func Solve(tr Tree, eta, q []float64, n int) *Solution {
	s := new(Solution)
	s.Solve(tr, eta, q, n)
	return s
}

// Solve is the package function Solve writing into s and reusing its
// storage: after a first call, calls of the same or smaller sizes allocate
// nothing.
func (s *Solution) Solve(tr Tree, eta, q []float64, n int) {
	T := len(tr.Parent)
	if err := tr.Validate(); err != nil {
		panic("isotonic: " + err.Error())
	}
	if len(eta) != T {
		panic(fmt.Sprintf("isotonic: len(eta) = %d, want T = %d", len(eta), T))
	}
	if n < 0 || n > math.MaxInt32 || len(q) != n*T {
		panic(fmt.Sprintf("isotonic: len(q) = %d, want n·T = %d·%d", len(q), n, T))
	}
	for t, e := range eta {
		if math.IsNaN(e) || math.IsInf(e, 0) {
			panic(fmt.Sprintf("isotonic: eta[%d] = %v is not finite", t, e))
		}
	}
	s.n, s.nodes, s.merges = n, T, 0
	s.parent = resize(s.parent, T)
	copy(s.parent, tr.Parent)
	s.children()
	s.sortEntries(q)
	s.initGroups(eta)
	s.pool()

	s.A = resize(s.A, T)
	for t := range T {
		g := s.find(t)
		s.nd[t].up = g
		s.A[t] = s.nd[g].val
	}
	// z_it = clip(q_it, 0, a_t), 0 for the q_it ≤ 0, which are not kept.
	s.Z = resize(s.Z, n*T)
	clear(s.Z)
	for t, a := range s.A {
		for _, e := range s.entries(t) {
			s.Z[int(e.r)*T+t] = min(e.v, a)
		}
		for _, e := range s.highs(t) {
			s.Z[int(e.r)*T+t] = a
		}
	}
}

// Group returns the top of t's group in the final partition, its node
// nearest the root. The nodes of a group share one value of A; a child
// whose value equals its parent's may still top a group of its own.
func (s *Solution) Group(t int) int { return s.nd[t].up }

// pool is Algorithm 1's loop: while some group top r has a_r > a_p(r), it
// takes the one with the largest a_r, the smallest r among equal values,
// and merges r's group into its parent's.
//
// s.viol is a lazy priority queue of candidate violators: an entry is
// current while its node still tops a group of that value, and a current
// entry still has to violate when it comes out. Every violator has a
// current entry, because a group starts to violate only when its value
// changes (the group a merge makes) or when its parent group's value
// decreases (the children of the lower part of a merge), and both push.
func (s *Solution) pool() {
	nd := s.nd
	s.viol = s.viol[:0]
	for t := 1; t < s.nodes; t++ {
		if nd[t].val > nd[s.parent[t]].val {
			s.viol = append(s.viol, violator{nd[t].val, t})
		}
	}
	s.heapifyViolators()
	for len(s.viol) > 0 {
		e := s.popViolator()
		r := e.node
		if nd[r].up != r || nd[r].val != e.val {
			continue
		}
		p := s.find(s.parent[r])
		if !(nd[r].val > nd[p].val) {
			continue
		}
		s.merge(p, r)
		v := nd[p].val
		if p != 0 && v > nd[s.find(s.parent[p])].val {
			s.pushViolator(violator{v, p})
		}
		// r's members, the lower part, now hold the value v ≤ a_r: their
		// child groups may now violate.
		for u := r; u >= 0; u = nd[u].next {
			for _, c := range s.ch[s.chOff[u]:s.chOff[u+1]] {
				if nd[c].up == c && nd[c].val > v {
					s.pushViolator(violator{nd[c].val, c})
				}
			}
		}
	}
}

// find returns the top of t's group, halving the paths it walks.
func (s *Solution) find(t int) int {
	nd := s.nd
	for nd[t].up != t {
		nd[t].up = nd[nd[t].up].up
		t = nd[t].up
	}
	return t
}
