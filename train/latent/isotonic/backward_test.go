package isotonic

import (
	"math"
	"math/rand/v2"
	"testing"
)

// differentiable reports whether every kink of the solution map is more
// than delta away from in: no q_it or η_t within delta of its node's value
// a_t, no q_it within delta of 0; every interior value within (delta,
// 1-delta); every inactive edge with a gap above delta; and every active
// constraint held with a multiplier above delta (checkKKT's), so that a
// small perturbation keeps the partition and the supports: μ_t > delta on
// an active edge in a block at a value in (0, 1] (else the group could
// split), ν_t > delta at the top of a block at 1 and ν_t < -delta at the
// top of a block at 0 (else the block could leave the bound; a block at 0
// stays there iff every set of its nodes closed under parents has
// Σ g'_t(0) > 0, the least of which is -ν_top). Edges inside a block at 0
// need no margin: its nodes stay at 0 together.
func differentiable(in instance, a []float64, delta float64) bool {
	T := in.tree.Len()
	for i := range in.n {
		for t := range T {
			if v := in.q[i*T+t]; math.Abs(v-a[t]) <= delta || math.Abs(v) <= delta {
				return false
			}
		}
	}
	k := checkKKT(in, a)
	for t := range T {
		if math.Abs(in.eta[t]-a[t]) <= delta {
			return false
		}
		active := t > 0 && a[t] >= a[in.tree.Parent[t]]-tightTol
		if t > 0 && !active && a[in.tree.Parent[t]]-a[t] <= delta {
			return false
		}
		switch {
		case a[t] == 0:
			if !active && k.nu[t] >= -delta {
				return false
			}
		case a[t] == 1:
			if active && k.mu[t] <= delta || !active && k.nu[t] <= delta {
				return false
			}
		default:
			if a[t] <= delta || a[t] >= 1-delta || active && k.mu[t] <= delta {
				return false
			}
		}
	}
	return true
}

// TestBackwardFiniteDifferences compares Backward's vector–Jacobian
// products with central differences of ⟨gA, a*⟩ + ⟨gZ, z*⟩ in every
// coordinate of η and q, on random instances where the solution map is
// differentiable. The map is piecewise linear, so the differences are
// exact but for rounding.
func TestBackwardFiniteDifferences(t *testing.T) {
	const (
		h     = 1e-7
		delta = 1e-6
		tol   = 1e-6
		want  = 600
	)
	r := rand.New(rand.NewPCG(3, 0))
	accepted, tried, coords := 0, 0, 0
	var interiorGroups, clippedGroups, pooled int
	for accepted < want {
		tried++
		if tried > 50*want {
			t.Fatalf("only %d of %d instances differentiable", accepted, tried)
		}
		var in instance
		switch r.IntN(3) {
		case 0: // the rewards of a tree's batch
			in = rewardsInstance(r, 1+r.IntN(3), 1+r.IntN(6), 1, 1+r.ExpFloat64(), valueDraw{lo: -0.5, hi: 1.5})
		default:
			tr := randomTree(r, 1+r.IntN(12))
			if r.IntN(2) == 0 {
				tr = Heap(r.IntN(4))
			}
			T, n := tr.Len(), 1+r.IntN(6)
			in = instance{tree: tr, eta: make([]float64, T), q: make([]float64, n*T), n: n}
			far := r.Float64() < 0.3
			for u := range in.eta {
				in.eta[u] = -0.5 + 2*r.Float64()
				if far && r.IntN(3) == 0 {
					in.eta[u] = 6*r.Float64() - 3
				}
			}
			for j := range in.q {
				in.q[j] = -0.5 + 2*r.Float64()
			}
		}
		tr, T, n := in.tree, in.tree.Len(), in.n
		s := Solve(tr, in.eta, in.q, n)
		if !differentiable(in, s.A, delta) {
			continue
		}
		accepted++
		for g := range T {
			if s.nd[g].up == g {
				if s.nd[g].state == interior {
					interiorGroups++
				} else {
					clippedGroups++
				}
			}
		}
		pooled += s.merges

		gA, gZ := make([]float64, T), make([]float64, n*T)
		for u := range gA {
			gA[u] = r.NormFloat64()
		}
		for j := range gZ {
			gZ[j] = r.NormFloat64()
		}
		switch r.IntN(4) {
		case 0:
			gA = nil
		case 1:
			gZ = nil
		}
		gEta, gQ := s.Backward(gA, gZ)

		loss := func(eta, q []float64) float64 {
			s := Solve(tr, eta, q, n)
			var l float64
			for u, g := range gA {
				l += g * s.A[u]
			}
			for j, g := range gZ {
				l += g * s.Z[j]
			}
			return l
		}
		check := func(x []float64, j int, got float64, what string) {
			x0 := x[j]
			x[j] = x0 + h
			lp := loss(in.eta, in.q)
			x[j] = x0 - h
			lm := loss(in.eta, in.q)
			x[j] = x0
			fd := (lp - lm) / (2 * h)
			coords++
			if math.Abs(fd-got) > tol*max(1, math.Abs(got)) {
				t.Fatalf("%s[%d]: Backward %v, finite difference %v\n%v\na = %v", what, j, got, fd, in, s.A)
			}
		}
		for u := range in.eta {
			check(in.eta, u, gEta[u], "gEta")
		}
		for j := range in.q {
			check(in.q, j, gQ[j], "gQ")
		}
	}
	t.Logf("%d of %d instances differentiable; %d coordinates; %d interior and %d clipped groups, %d merges",
		accepted, tried, coords, interiorGroups, clippedGroups, pooled)
}

// TestBackwardFormulas checks the Jacobians on small instances by hand,
// ties included.
func TestBackwardFormulas(t *testing.T) {
	// jac returns the Jacobian of (a, z) with respect to (η, q), a row per
	// output, by Backward of unit vectors.
	jac := func(s *Solution) [][]float64 {
		T, n := len(s.A), len(s.Z)/max(len(s.A), 1)
		var rows [][]float64
		for o := range T + n*T {
			gA, gZ := make([]float64, T), make([]float64, n*T)
			if o < T {
				gA[o] = 1
			} else {
				gZ[o-T] = 1
			}
			gEta, gQ := s.Backward(gA, gZ)
			rows = append(rows, append(gEta, gQ...))
		}
		return rows
	}
	cases := []struct {
		name string
		tree Tree
		eta  []float64
		q    []float64
		n    int
		want [][]float64 // rows a_0…, z_00…; columns η_0…, q_00…
	}{
		// a = (0.5 + 0.9)/2 = 0.7, S* = {q_0}: z_0 = a, z_1 = q_1.
		{"one node", Heap(0), []float64{0.5}, []float64{0.9, 0.2}, 2, [][]float64{
			{0.5, 0.5, 0},
			{0.5, 0.5, 0},
			{0, 0, 1},
		}},
		// Ties q = a = 0.5 are in S*, |G| + k* = 3, and z = a there.
		{"ties in the support", Heap(0), []float64{0.5}, []float64{0.5, 0.5}, 2, [][]float64{
			{1. / 3, 1. / 3, 1. / 3},
			{1. / 3, 1. / 3, 1. / 3},
			{1. / 3, 1. / 3, 1. / 3},
		}},
		// z = 0 at q = 0 and q < 0, with ∂z/∂q = 0 at the kink q = 0.
		{"q at 0", Heap(0), []float64{0.5}, []float64{0, -0.5}, 2, [][]float64{
			{1, 0, 0},
			{0, 0, 0},
			{0, 0, 0},
		}},
		// Clipped: a = 1, no derivative through a; z = q where q < 1.
		{"clipped high", Heap(0), []float64{3}, []float64{0.4, 2}, 2, [][]float64{
			{0, 0, 0},
			{0, 1, 0},
			{0, 0, 0},
		}},
		// Root 0.1 and children 0.8, 0.9 pool into a = 0.6, |G| = 3.
		{"pooled", Heap(1), []float64{0.1, 0.8, 0.9}, nil, 0, [][]float64{
			{1. / 3, 1. / 3, 1. / 3},
			{1. / 3, 1. / 3, 1. / 3},
			{1. / 3, 1. / 3, 1. / 3},
		}},
		// Root 0.5 over child 0.9 with q = 0.6 at the child: {0, 1} has
		// a(0) = 0.7 > 0.6, so k* = 0, |G| = 2; z = q where 0 < q < a.
		{"pooled, q outside", Tree{Parent: []int{-1, 0}}, []float64{0.5, 0.9}, []float64{0, 0.6}, 1, [][]float64{
			{0.5, 0.5, 0, 0},
			{0.5, 0.5, 0, 0},
			{0, 0, 0, 0},
			{0, 0, 0, 1},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Solve(c.tree, c.eta, c.q, c.n)
			got := jac(s)
			for o := range c.want {
				if maxAbsDiff(got[o], c.want[o]) > 1e-15 {
					t.Fatalf("row %d = %v, want %v (a = %v)", o, got[o], c.want[o], s.A)
				}
			}
		})
	}
}
