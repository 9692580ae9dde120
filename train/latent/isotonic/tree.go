package isotonic

import (
	"errors"
	"fmt"
)

// Tree is the shape of a rooted tree of T = len(Parent) nodes: Parent[t] is
// t's parent, Parent[0] = -1 (node 0 is the root) and Parent[t] < t for
// t > 0, so that every node comes after its parent. The constraints of the
// problem are a_t ≤ a_Parent[t] for every t > 0.
type Tree struct {
	Parent []int
}

// Heap returns the complete binary tree of the given depth in heap order:
// 2^(depth+1) - 1 nodes, the children of t being 2t+1 and 2t+2. Depth 0 is
// a single node. It panics if depth is negative or above 30.
func Heap(depth int) Tree {
	if depth < 0 || depth > 30 {
		panic(fmt.Sprintf("isotonic: Heap depth %d outside [0, 30]", depth))
	}
	T := 1<<(depth+1) - 1
	p := make([]int, T)
	p[0] = -1
	for t := 1; t < T; t++ {
		p[t] = (t - 1) / 2
	}
	return Tree{Parent: p}
}

// Len returns the number of nodes T.
func (tr Tree) Len() int { return len(tr.Parent) }

// Validate returns an error unless tr is well formed: Parent[0] = -1 and
// 0 ≤ Parent[t] < t for t > 0. The tree of no nodes is well formed.
func (tr Tree) Validate() error {
	if len(tr.Parent) == 0 {
		return nil
	}
	if tr.Parent[0] != -1 {
		return errors.New("Parent[0] must be -1")
	}
	for t := 1; t < len(tr.Parent); t++ {
		if p := tr.Parent[t]; p < 0 || p >= t {
			return fmt.Errorf("Parent[%d] = %d not in [0, %d)", t, p, t)
		}
	}
	return nil
}

// children fills s.chOff and s.ch with the children of every node in
// increasing order: node t's children are s.ch[s.chOff[t]:s.chOff[t+1]].
func (s *Solution) children() {
	T := s.nodes
	s.chOff = resize(s.chOff, T+1)
	clear(s.chOff)
	for t := 1; t < T; t++ {
		s.chOff[s.parent[t]+1]++
	}
	for t := 0; t < T; t++ {
		s.chOff[t+1] += s.chOff[t]
	}
	s.ch = resize(s.ch, max(T-1, 0))
	fill := resize(s.fill, T)
	copy(fill, s.chOff[:T])
	for t := 1; t < T; t++ {
		p := s.parent[t]
		s.ch[fill[p]] = t
		fill[p]++
	}
	s.fill = fill
}

// resize returns a slice of length n, x's storage when it is large enough.
// Its contents are unspecified.
func resize[S ~[]E, E any](x S, n int) S {
	if cap(x) < n {
		return make(S, n)
	}
	return x[:n]
}
