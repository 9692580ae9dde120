package isotonic

import "fmt"

// entry is one q_it: its value and its row i.
type entry struct {
	v float64
	r int32
}

// Node t's q_it are kept in the bucket ent[t·n : (t+1)·n]: its entries (the
// q_it in (0, 1)) at the front, sorted, and its q_it ≥ 1 at the back; the
// q_it ≤ 0 are not kept.

// entries returns node t's entries, in decreasing order.
func (s *Solution) entries(t int) []entry {
	return s.ent[t*s.n : t*s.n+s.nd[t].nEnt]
}

// highs returns node t's q_it ≥ 1, in no particular order.
func (s *Solution) highs(t int) []entry {
	return s.ent[(t+1)*s.n-s.nd[t].nHi : (t+1)*s.n]
}

// prefix returns the prefix sums of node t's entries: prefix(t)[k] is the
// sum of its k largest.
func (s *Solution) prefix(t int) []float64 {
	return s.pre[t*(s.n+1) : t*(s.n+1)+s.nd[t].nEnt+1]
}

// sortEntries sorts each node's q once, the preprocessing of Section 3.2.
// Only the q_it in (0, 1) need an order: a group's value a_G is in (0, 1)
// unless it is clipped, so its support {q_it ≥ a_G} is all the q_it ≥ 1,
// which only count through their number and sum, and some of the largest
// entries in (0, 1); q_it ≤ 0 is never in it. (A clipped value needs no
// support: see settle.)
func (s *Solution) sortEntries(q []float64) {
	T, n := s.nodes, s.n
	s.nd = resize(s.nd, T)
	nd := s.nd
	for t := range nd {
		nd[t].nEnt, nd[t].nHi, nd[t].sumHi = 0, 0, 0
	}
	s.ent = resize(s.ent, n*T)
	for i := range n {
		row := q[i*T : (i+1)*T]
		nd := nd[:len(row)]
		for t, v := range row {
			switch {
			case v <= 0:
			case v >= 1:
				d := &nd[t]
				d.nHi++
				s.ent[(t+1)*n-d.nHi] = entry{v, int32(i)}
				d.sumHi += v
			case v > 0:
				s.ent[t*n+nd[t].nEnt] = entry{v, int32(i)}
				nd[t].nEnt++
			default:
				panic(fmt.Sprintf("isotonic: q[%d] is NaN", i*T+t))
			}
		}
	}
	s.pre = resize(s.pre, (n+1)*T)
	for t := range T {
		seg := s.entries(t)
		s.sortBuf = sortDesc(seg, s.sortBuf)
		pre := s.prefix(t)
		pre[0] = 0
		for k, e := range seg {
			pre[k+1] = pre[k] + e.v
		}
	}
}

// insertionRun is the length of the runs sortDesc sorts by insertion.
const insertionRun = 24

// sortDesc sorts x by decreasing value, stably, so that entries filled in
// increasing row order keep equal values in that order. It is a bottom-up
// merge sort over runs sorted by insertion, buf its scratch space; it
// returns buf, grown if need be.
func sortDesc(x, buf []entry) []entry {
	m := len(x)
	for lo := 0; lo < m; lo += insertionRun {
		run := x[lo:min(lo+insertionRun, m)]
		for i := 1; i < len(run); i++ {
			e := run[i]
			j := i
			for ; j > 0 && run[j-1].v < e.v; j-- {
				run[j] = run[j-1]
			}
			run[j] = e
		}
	}
	if m <= insertionRun {
		return buf
	}
	buf = resize(buf, m)
	src, dst := x, buf
	for width := insertionRun; width < m; width *= 2 {
		for lo := 0; lo < m; lo += 2 * width {
			mid, hi := min(lo+width, m), min(lo+2*width, m)
			i, j, k := lo, mid, lo
			for i < mid && j < hi {
				if src[j].v > src[i].v {
					dst[k] = src[j]
					j++
				} else {
					dst[k] = src[i]
					i++
				}
				k++
			}
			k += copy(dst[k:], src[i:mid])
			copy(dst[k:], src[j:hi])
		}
		src, dst = dst, src
	}
	if &src[0] != &x[0] {
		copy(x, src)
	}
	return buf
}
