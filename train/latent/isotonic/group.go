package isotonic

// A group G's one-dimensional problem (8) is the minimisation over [0, 1] of
//
//	f_G(a) = Σ_{t∈G} g_t(a),  f'_G(a) = |G|·a - Σ_{t∈G} η_t + Σ_{(i,t): q_it ≥ a} (a - q_it),
//
// a strictly increasing, continuous, concave, piecewise-linear derivative:
// f'_G(a) = min over sets S of L_S(a) = (|G| + |S|)·a - Σ η_t - Σ_S q_it,
// the minimum being at S = {q_it ≥ a}. Writing a(S) for the zero of L_S,
// the unconstrained minimiser is therefore a°_G = max_S a(S), attained at
// S = {q_it ≥ a°_G}: Proposition 2's a(k*) and S(k*), since k ↦ a(k) over
// the sorted q rises while a(k) ≤ q_(k+1) and falls after. The group's value
// is a_G = clip(a°_G, 0, 1), exact because f_G is convex, and a°_G ≥ 1 iff
// f'_G(1) ≤ 0, a°_G ≤ 0 iff f'_G(0) ≥ 0, tests which need only the group's
// sums. Otherwise 0 < a°_G < 1, its support holds every q_it ≥ 1, and walk
// finds which entries (q_it in (0, 1)) it holds.

// initGroups makes every node a group of its own and solves it; the
// counts and sumHi are sortEntries'.
func (s *Solution) initGroups(eta []float64) {
	for t := range s.nodes {
		d := &s.nd[t]
		d.up, d.next, d.last = t, -1, t
		d.size, d.hiCnt, d.kin, d.cur = 1, d.nHi, 0, 0
		d.sumEta, d.sum01, d.sumIn = eta[t], s.prefix(t)[d.nEnt], 0
		s.settle(t)
	}
}

// merge merges group r into its parent group p (Algorithm 1, lines 6–7):
// r's members join p's list, the sums add, and p's value is solved anew.
func (s *Solution) merge(p, r int) {
	s.merges++
	dp, dr := &s.nd[p], &s.nd[r]
	s.nd[dp.last].next = r
	dp.last = dr.last
	dr.up = p
	dp.size += dr.size
	dp.hiCnt += dr.hiCnt
	dp.kin += dr.kin
	dp.sumEta += dr.sumEta
	dp.sumHi += dr.sumHi
	dp.sum01 += dr.sum01
	dp.sumIn += dr.sumIn
	s.settle(p)
}

// settle sets group g's value and state from its sums and, when the value
// is interior, moves its members' cursors to its support.
func (s *Solution) settle(g int) {
	d := &s.nd[g]
	cnt := float64(d.size + d.hiCnt)
	base := d.sumEta + d.sumHi
	switch {
	case cnt-base <= 0: // f'_G(1) = |G| + #{q ≥ 1} - Ση - Σ_{q≥1} q ≤ 0
		d.val, d.state = 1, clipHigh
	case base+d.sum01 <= 0: // f'_G(0) = -Ση - Σ_{q>0} q ≥ 0
		d.val, d.state = 0, clipLow
	default:
		a := s.walk(g)
		switch {
		case a >= 1: // only by rounding
			d.val, d.state = 1, clipHigh
		case a <= 0:
			d.val, d.state = 0, clipLow
		default:
			d.val, d.state = a, interior
		}
	}
}

// walk moves group g's support to {entries ≥ a°_G} and returns a°_G, for a
// group with 0 < a°_G < 1.
//
// The cursors may start anywhere: the support S is then the cur largest
// entries of each member, and a = a(S) ≤ a°_G. Adding an entry ≥ a, or
// removing one < a, never decreases a, so an entry removed is never added
// again, and the walk ends, after moving each entry at most twice, where
// every entry in S is ≥ a and every other is < a: at a°_G. Adding the
// largest outside entries first and then removing the smallest inside ones
// suffices, since the removals only raise a above the entries outside.
// Equal values stay in (and come into) the support, as in Proposition 2,
// whose k* is the smallest k with a(k) > q_(k+1).
//
// After a merge the cursors are the two parts' supports (a clipped part's
// cursors are left where they were): in exact arithmetic only entries of
// the lower part between the two values come in and only entries of the
// upper part between them go out, so the walk costs the members once each
// and O(log |G|) per entry that moves.
func (s *Solution) walk(g int) float64 {
	nd, n := s.nd, s.n
	d := &nd[g]
	base := d.sumEta + d.sumHi
	cnt := d.size + d.hiCnt
	k, in := d.kin, d.sumIn
	a := (base + in) / float64(cnt+k)
	if d.next < 0 { // a single node: a plain scan of its sorted entries
		ent, pre, c := s.entries(g), s.prefix(g), d.cur
		for c < len(ent) && !(a > ent[c].v) {
			c++
			a = (base + pre[c]) / float64(cnt+c)
		}
		for c > 0 && ent[c-1].v < a {
			c--
			a = (base + pre[c]) / float64(cnt+c)
		}
		d.cur, d.kin, d.sumIn = c, c, pre[c]
		return a
	}

	// Additions, the largest outside entry first: a max-heap of the
	// members whose largest outside entry is ≥ a (a only grows, so no
	// other member can ever add).
	h := s.nodeHeap[:0]
	for u := g; u >= 0; u = nd[u].next {
		if c := nd[u].cur; c < nd[u].nEnt && !(a > s.ent[u*n+c].v) {
			h = append(h, u)
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		s.siftOut(h, i)
	}
	for len(h) > 0 {
		u := h[0]
		x := s.ent[u*n+nd[u].cur].v
		if a > x {
			break
		}
		nd[u].cur++
		k++
		in += x
		a = (base + in) / float64(cnt+k)
		if nd[u].cur == nd[u].nEnt {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		s.siftOut(h, 0)
	}

	// Removals, the smallest inside entry first: a min-heap of the
	// members with a non-empty support.
	h = h[:0]
	for u := g; u >= 0; u = nd[u].next {
		if nd[u].cur > 0 {
			h = append(h, u)
		}
	}
	for i := len(h)/2 - 1; i >= 0; i-- {
		s.siftIn(h, i)
	}
	for len(h) > 0 {
		u := h[0]
		x := s.ent[u*n+nd[u].cur-1].v
		if !(x < a) {
			break
		}
		nd[u].cur--
		k--
		in -= x
		a = (base + in) / float64(cnt+k)
		if nd[u].cur == 0 {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		s.siftIn(h, 0)
	}
	s.nodeHeap = h

	// The support's sum afresh from the prefix sums, free of the
	// rounding of the additions and removals.
	in = 0
	for u := g; u >= 0; u = nd[u].next {
		in += s.pre[u*(n+1)+nd[u].cur]
	}
	d.kin, d.sumIn = k, in
	return (base + in) / float64(cnt+k)
}

// siftOut restores the max-heap order of h below i by each member's
// largest entry outside its support.
func (s *Solution) siftOut(h []int, i int) {
	key := func(u int) float64 { return s.ent[u*s.n+s.nd[u].cur].v }
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && key(h[r]) > key(h[l]) {
			c = r
		}
		if !(key(h[c]) > key(h[i])) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// siftIn restores the min-heap order of h below i by each member's
// smallest entry inside its support.
func (s *Solution) siftIn(h []int, i int) {
	key := func(u int) float64 { return s.ent[u*s.n+s.nd[u].cur-1].v }
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && key(h[r]) < key(h[l]) {
			c = r
		}
		if !(key(h[c]) < key(h[i])) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
