package isotonic

import "fmt"

// Backward returns the vector–Jacobian products of the last Solve: for the
// upstream gradients gA (len T) on a* and gZ (n×T, row-major) on z*, it
// returns gEta = (∂a*/∂η)ᵀgA + (∂z*/∂η)ᵀgZ (len T) and gQ, the same with
// respect to q (n×T). Either upstream gradient may be nil, meaning zero.
// See the package documentation for the Jacobians and their conventions.
func (s *Solution) Backward(gA, gZ []float64) (gEta, gQ []float64) {
	gEta = make([]float64, s.nodes)
	gQ = make([]float64, s.n*s.nodes)
	s.BackwardInto(gEta, gQ, gA, gZ)
	return gEta, gQ
}

// BackwardInto is Backward writing into gEta (len T) and gQ (n×T), whose
// contents it overwrites; it allocates nothing once s has done one
// backward pass of its size.
func (s *Solution) BackwardInto(gEta, gQ, gA, gZ []float64) {
	T, n := s.nodes, s.n
	if len(gEta) != T || len(gQ) != n*T {
		panic(fmt.Sprintf("isotonic: BackwardInto lengths %d, %d, want %d, %d", len(gEta), len(gQ), T, n*T))
	}
	if gA != nil && len(gA) != T {
		panic(fmt.Sprintf("isotonic: len(gA) = %d, want %d", len(gA), T))
	}
	if gZ != nil && len(gZ) != n*T {
		panic(fmt.Sprintf("isotonic: len(gZ) = %d, want %d", len(gZ), n*T))
	}

	// ga = gA + (∂z/∂a)ᵀgZ and the direct part of gQ: z_it = clip(q_it, 0,
	// a_t) is a_t where q_it ≥ a_t and q_it where 0 < q_it < a_t, which
	// are all among t's entries and q_it ≥ 1 unless a_t = 0, when a_t is
	// a constant and z_it = 0.
	ga := resize(s.gA, T)
	s.gA = ga
	if gA != nil {
		copy(ga, gA)
	} else {
		clear(ga)
	}
	clear(gQ)
	if gZ != nil {
		for t, a := range s.A {
			if a == 0 {
				continue
			}
			for _, e := range s.entries(t) {
				if j := int(e.r)*T + t; e.v >= a {
					ga[t] += gZ[j]
				} else {
					gQ[j] = gZ[j]
				}
			}
			for _, e := range s.highs(t) {
				ga[t] += gZ[int(e.r)*T+t]
			}
		}
	}

	// a_t = a_G = (Σ_{t'∈G} η_t' + Σ_{S*_G} q)/(|G| + k*) for an interior
	// group, a constant for a clipped one.
	clear(gEta)
	nd := s.nd
	for g := range T {
		d := &nd[g]
		if d.up != g || d.state != interior {
			continue
		}
		var sum float64
		for u := g; u >= 0; u = nd[u].next {
			sum += ga[u]
		}
		w := sum / float64(d.size+d.hiCnt+d.kin)
		for u := g; u >= 0; u = nd[u].next {
			gEta[u] = w
			for _, e := range s.highs(u) {
				gQ[int(e.r)*T+u] += w
			}
			for _, e := range s.entries(u)[:nd[u].cur] {
				gQ[int(e.r)*T+u] += w
			}
		}
	}
}
