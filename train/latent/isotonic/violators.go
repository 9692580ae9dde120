package isotonic

// violator is an entry of the queue of candidate violators: a group top
// and the group's value when it was pushed.
type violator struct {
	val  float64
	node int
}

// before orders the queue: the larger value first, the smaller node among
// equal values (Algorithm 1's tie rule).
func (v violator) before(w violator) bool {
	return v.val > w.val || v.val == w.val && v.node < w.node
}

// pushViolator adds v to the binary heap s.viol.
func (s *Solution) pushViolator(v violator) {
	h := append(s.viol, v)
	i := len(h) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].before(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
	s.viol = h
}

// heapifyViolators makes s.viol a binary heap.
func (s *Solution) heapifyViolators() {
	for i := len(s.viol)/2 - 1; i >= 0; i-- {
		siftViolator(s.viol, i)
	}
}

// popViolator removes and returns the first entry of s.viol.
func (s *Solution) popViolator() violator {
	h := s.viol
	top := h[0]
	n := len(h) - 1
	h[0] = h[n]
	s.viol = h[:n]
	siftViolator(s.viol, 0)
	return top
}

// siftViolator restores the heap order of h below i.
func siftViolator(h []violator, i int) {
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && h[r].before(h[l]) {
			c = r
		}
		if !h[c].before(h[i]) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
