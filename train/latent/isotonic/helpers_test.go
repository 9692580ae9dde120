package isotonic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// instance is one problem: a tree, η and n rows of q.
type instance struct {
	tree Tree
	eta  []float64
	q    []float64
	n    int
}

func (in instance) String() string {
	return fmt.Sprintf("Parent=%v eta=%v n=%d q=%v", in.tree.Parent, in.eta, in.n, in.q)
}

// discrete is the set of values that makes ties: between q's, between q and
// η, between q and a group's value, at the kinks 0 and 1.
var discrete = []float64{-1, -0.5, 0, 0.25, 0.5, 0.5, 1, 1.5, 2}

// valueDraw draws values of one instance's η or q: from discrete with
// probability pDisc, else continuous in [lo, hi), and with probability
// pFar far outside [0, 1].
type valueDraw struct {
	pDisc, pFar float64
	lo, hi      float64
}

func (d valueDraw) draw(r *rand.Rand) float64 {
	switch u := r.Float64(); {
	case u < d.pFar:
		if r.IntN(2) == 0 {
			return 1 + 20*r.Float64()
		}
		return -20 * r.Float64()
	case u < d.pFar+d.pDisc:
		return discrete[r.IntN(len(discrete))]
	default:
		return d.lo + (d.hi-d.lo)*r.Float64()
	}
}

// randomDraw picks how an instance's η or q are drawn: all discrete, all
// continuous, mixed, some far, mostly negative (as the rewards of a tree,
// which leave more groups unclipped).
func randomDraw(r *rand.Rand) valueDraw {
	d := valueDraw{lo: -1, hi: 2}
	switch r.IntN(7) {
	case 0:
		d.pDisc = 1
	case 1:
		d.pDisc = 0
	case 2:
		d.pDisc = 0.5
	case 3:
		d.pDisc, d.pFar = 0.4, 0.3
	case 4:
		d.pDisc, d.lo, d.hi = 0.3, 0, 1
	case 5:
		d.pDisc, d.lo, d.hi = 0.2, -3, 1
	case 6:
		d.pDisc, d.lo, d.hi = 0.5, -1, 1
	}
	return d
}

// randomTree returns a tree of T nodes: random parents, a path, a star, or
// a caterpillar.
func randomTree(r *rand.Rand, T int) Tree {
	p := make([]int, T)
	p[0] = -1
	kind := r.IntN(4)
	for t := 1; t < T; t++ {
		switch kind {
		case 0:
			p[t] = r.IntN(t)
		case 1:
			p[t] = t - 1
		case 2:
			p[t] = 0
		case 3:
			if t%2 == 1 || r.IntN(3) == 0 {
				p[t] = max(t-2, 0)
			} else {
				p[t] = r.IntN(t)
			}
		}
	}
	return Tree{Parent: p}
}

// randomInstance draws an instance on the tree with up to maxN rows.
func randomInstance(r *rand.Rand, tr Tree, maxN int) instance {
	T := tr.Len()
	n := 1 + r.IntN(maxN)
	de, dq := randomDraw(r), randomDraw(r)
	in := instance{tree: tr, eta: make([]float64, T), q: make([]float64, n*T), n: n}
	for t := range in.eta {
		in.eta[t] = de.draw(r)
	}
	if r.IntN(8) == 0 { // one η for all nodes
		for t := range in.eta {
			in.eta[t] = in.eta[0]
		}
	}
	for j := range in.q {
		in.q[j] = dq.draw(r)
	}
	return in
}

// rewardsInstance draws an instance shaped like a tree's batch (problem
// (1)) on Heap(depth): node t's split score s_it per row, q_root = root and
// q_child = min(q_parent, -s_it) for a left child, min(q_parent, s_it) for
// a right one; the scores are N(0, σ²), or discrete (ties) when σ = 0.
func rewardsInstance(r *rand.Rand, depth, n int, sigma, root float64, eta valueDraw) instance {
	tr := Heap(depth)
	T := tr.Len()
	in := instance{tree: tr, eta: make([]float64, T), q: make([]float64, n*T), n: n}
	for t := range in.eta {
		in.eta[t] = eta.draw(r)
	}
	for i := range n {
		q := in.q[i*T : (i+1)*T]
		q[0] = root
		for t := 0; 2*t+2 < T; t++ {
			s := sigma * r.NormFloat64()
			if sigma == 0 {
				s = discrete[r.IntN(len(discrete))]
			}
			q[2*t+1] = min(q[t], -s)
			q[2*t+2] = min(q[t], s)
		}
	}
	return in
}

// gPrime returns g'_t(a) = (a - η_t) + Σ_{i: q_it ≥ a} (a - q_it), the
// derivative of g_t (continuous: the term of a q_it = a is zero).
func gPrime(in instance, t int, a float64) float64 {
	T := in.tree.Len()
	d := a - in.eta[t]
	for i := range in.n {
		if v := in.q[i*T+t]; v >= a {
			d += a - v
		}
	}
	return d
}

// kktResult holds the multipliers checkKKT found and the largest violation
// of the conditions.
type kktResult struct {
	mu, nu []float64 // μ_t of the edge t → Parent[t] (0 at the root), ν_t of t's box
	worst  float64
	where  string
}

// tightTol is how close a child's value must be to its parent's for its
// edge to count as active.
const tightTol = 1e-12

// checkKKT checks a against the KKT conditions of problem (7), which
// characterise its solution exactly since the problem is convex with linear
// constraints. With multipliers μ_t ≥ 0 for a_t ≤ a_p(t) (t not the root),
// λ⁺_t ≥ 0 for a_t ≤ 1 and λ⁻_t ≥ 0 for -a_t ≤ 0, stationarity at node t is
//
//	g'_t(a_t) + μ_t - Σ_{c: p(c)=t} μ_c + ν_t = 0,  ν_t = λ⁺_t - λ⁻_t,
//
// with μ_root = 0, and complementary slackness asks μ_t = 0 where
// a_t < a_p(t), ν_t ≤ 0 only where a_t = 0, ν_t ≥ 0 only where a_t = 1 (and
// ν_t = 0 where 0 < a_t < 1). So μ_t = r_t - ν_t with r_t = Σ_c μ_c -
// g'_t(a_t), computed from the leaves up (Parent[t] < t). Multipliers
// exist iff the following choices, made bottom-up, violate nothing:
//
//   - 0 < a_t < 1: ν_t = 0, μ_t = r_t; need μ_t ≥ 0 on an active edge,
//     μ_t = 0 on an inactive edge and at the root.
//   - a_t = 1: a child at 1 is on an active edge; ν_t = 0 maximises μ_t,
//     which only helps the ancestors (μ enters their r positively), so
//     μ_t = r_t ≥ 0 is needed; at the root (the only node at 1 that can
//     have an inactive edge) ν_t = r_t ≥ 0 is needed.
//   - a_t = 0: on an active edge (the parent at 0 too) the smallest
//     admissible μ_t = max(r_t, 0), with ν_t = min(r_t, 0) ≤ 0, helps the
//     ancestors most, as the top of the block at 0 needs μ = 0; on an
//     inactive edge or at the root, μ_t = 0 and ν_t = r_t ≤ 0 is needed.
//
// Violations are measured in absolute terms.
func checkKKT(in instance, a []float64) kktResult {
	T := in.tree.Len()
	res := kktResult{mu: make([]float64, T), nu: make([]float64, T)}
	bad := func(v float64, format string, args ...any) {
		if v > res.worst {
			res.worst = v
			res.where = fmt.Sprintf(format, args...)
		}
	}
	for t := range T {
		if !(a[t] >= 0 && a[t] <= 1) {
			bad(math.Inf(1), "a[%d] = %v outside [0, 1]", t, a[t])
		}
		if t > 0 && !(a[t] <= a[in.tree.Parent[t]]) {
			bad(math.Inf(1), "a[%d] = %v > a[parent] = %v", t, a[t], a[in.tree.Parent[t]])
		}
	}
	sum := make([]float64, T)
	for t := T - 1; t >= 0; t-- {
		p := -1
		if t > 0 {
			p = in.tree.Parent[t]
		}
		active := p >= 0 && a[t] >= a[p]-tightTol
		r := sum[t] - gPrime(in, t, a[t])
		var mu, nu float64
		switch {
		case a[t] >= 1-tightTol:
			if active {
				mu = r
				bad(-mu, "μ[%d] = %v < 0 (a = 1)", t, mu)
			} else {
				nu = r
				bad(-nu, "ν[%d] = %v < 0 at the top of a block at 1", t, nu)
			}
		case a[t] <= tightTol:
			if active {
				mu, nu = max(r, 0), min(r, 0)
			} else {
				nu = r
				bad(nu, "ν[%d] = %v > 0 at the top of a block at 0", t, nu)
			}
		default:
			mu = r
			if active {
				bad(-mu, "μ[%d] = %v < 0 on an active edge", t, mu)
			} else {
				bad(math.Abs(mu), "μ[%d] = %v ≠ 0 on an inactive edge or at the root", t, mu)
			}
		}
		if p < 0 {
			mu = 0
		} else {
			sum[p] += mu
		}
		res.mu[t], res.nu[t] = mu, nu
	}
	return res
}

// minimize1D returns the minimiser over [0, 1] of
// φ(a) = Σ_j ½(a - η_j)² + Σ_{q ≥ a} ½(a - q)², computed without
// Proposition 2: between consecutive breakpoints (0, 1 and the q in
// (0, 1)) φ is one quadratic, whose minimiser clipped to the interval is a
// candidate; the candidate of least φ wins.
func minimize1D(etas, qs []float64) float64 {
	phi := func(a float64) float64 {
		var f float64
		for _, e := range etas {
			f += 0.5 * (a - e) * (a - e)
		}
		for _, v := range qs {
			if v >= a {
				f += 0.5 * (a - v) * (a - v)
			}
		}
		return f
	}
	pts := []float64{0, 1}
	for _, v := range qs {
		if v > 0 && v < 1 {
			pts = append(pts, v)
		}
	}
	slices.Sort(pts)
	pts = slices.Compact(pts)
	best, bestF := pts[0], phi(pts[0])
	try := func(a float64) {
		if f := phi(a); f < bestF {
			best, bestF = a, f
		}
	}
	for j := 1; j < len(pts); j++ {
		lo, hi := pts[j-1], pts[j]
		// On (lo, hi) the q ≥ a are exactly the q ≥ hi.
		num, den := 0.0, float64(len(etas))
		for _, e := range etas {
			num += e
		}
		for _, v := range qs {
			if v >= hi {
				num += v
				den++
			}
		}
		try(min(max(num/den, lo), hi))
		try(hi)
	}
	return best
}

// bruteForce solves a small instance by enumerating the partitions of the
// tree into connected groups (each edge merged or not), solving each group
// with minimize1D and keeping the feasible candidate of least Objective.
func bruteForce(in instance) []float64 {
	T := in.tree.Len()
	top := make([]int, T)
	cand := make([]float64, T)
	var best []float64
	bestF := math.Inf(1)
	for mask := 0; mask < 1<<(T-1); mask++ {
		for t := range T {
			top[t] = t
			if t > 0 && mask>>(t-1)&1 == 1 {
				top[t] = top[in.tree.Parent[t]]
			}
		}
		for g := range T {
			if top[g] != g {
				continue
			}
			var etas, qs []float64
			for t := range T {
				if top[t] == g {
					etas = append(etas, in.eta[t])
					for i := range in.n {
						qs = append(qs, in.q[i*T+t])
					}
				}
			}
			cand[g] = minimize1D(etas, qs)
		}
		ok := true
		for t := range T {
			cand[t] = cand[top[t]]
			if t > 0 && cand[t] > cand[in.tree.Parent[t]] {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		if f := Objective(in.tree, in.eta, in.q, in.n, cand); f < bestF {
			bestF, best = f, slices.Clone(cand)
		}
	}
	return best
}

// pavPath returns the solution for a path 0 → 1 → … → T-1 with n = 0: the
// non-increasing least-squares fit of η by pooling adjacent violators,
// clipped to [0, 1].
func pavPath(eta []float64) []float64 {
	type block struct {
		sum float64
		cnt int
	}
	var bs []block
	for _, e := range eta {
		bs = append(bs, block{e, 1})
		for len(bs) > 1 {
			x, y := bs[len(bs)-2], bs[len(bs)-1]
			if x.sum/float64(x.cnt) >= y.sum/float64(y.cnt) {
				break
			}
			bs = append(bs[:len(bs)-2], block{x.sum + y.sum, x.cnt + y.cnt})
		}
	}
	var out []float64
	for _, b := range bs {
		for range b.cnt {
			out = append(out, min(max(b.sum/float64(b.cnt), 0), 1))
		}
	}
	return out
}

// maxAbsDiff returns max_j |a_j - b_j|.
func maxAbsDiff(a, b []float64) float64 { return floats.Distance(a, b, math.Inf(1)) }
