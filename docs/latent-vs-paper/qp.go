package main

import "math"

// admmQP solves problem (3) of the latent-tree paper as a generic convex
// quadratic program, knowing nothing of its tree structure beyond its
// constraint matrix: the alternating direction method of multipliers in
// the form of OSQP (Stellato et al. 2020, the solver the paper times),
//
//	min ½vᵀPv + cᵀv  s.t.  l ≤ Av ≤ u,
//
// with v = [z (n×T, row-major), a (T)], P = I, c = -[q, η], and A the rows
// a_t - a_p(t) ≤ 0, z_it - a_t ≤ 0, 0 ≤ z_it ≤ 1 and 0 ≤ a_t ≤ 1. OSQP
// factorises the linear system of every iteration once; here conjugate
// gradients solve it, warm-started, matrix-free; like OSQP it adapts its
// step ρ to balance the primal and dual residuals. It stops when the primal
// and dual residuals are below eps (∞-norm) or after maxIter iterations.
type admmQP struct {
	n, T   int
	parent []int
	rho    float64
	sigma  float64
	alpha  float64
	eps    float64
	iters  int // ADMM iterations of the last solve
	cgIter int // conjugate-gradient iterations in all
}

func newADMM(parent []int, n int) *admmQP {
	return &admmQP{n: n, T: len(parent), parent: parent, rho: 0.1, sigma: 1e-6, alpha: 1.6, eps: 1e-7}
}

// rows returns the number of constraints.
func (s *admmQP) rows() int { return (s.T - 1) + 2*s.n*s.T + s.T }

// mulA writes Av into out.
func (s *admmQP) mulA(v, out []float64) {
	n, T := s.n, s.T
	z, a := v[:n*T], v[n*T:]
	o := 0
	for t := 1; t < T; t++ {
		out[o] = a[t] - a[s.parent[t]]
		o++
	}
	for i := range n * T {
		out[o] = z[i] - a[i%T]
		o++
	}
	copy(out[o:], v) // the box rows of z and a
}

// mulAT writes Aᵀw into out.
func (s *admmQP) mulAT(w, out []float64) {
	n, T := s.n, s.T
	clear(out)
	z, a := out[:n*T], out[n*T:]
	o := 0
	for t := 1; t < T; t++ {
		a[t] += w[o]
		a[s.parent[t]] -= w[o]
		o++
	}
	for i := range n * T {
		z[i] += w[o]
		a[i%T] -= w[o]
		o++
	}
	for i := range out {
		out[i] += w[o+i]
	}
}

// bounds returns l and u.
func (s *admmQP) bounds() (l, u []float64) {
	m := s.rows()
	l, u = make([]float64, m), make([]float64, m)
	o := (s.T - 1) + s.n*s.T
	for i := range o {
		l[i], u[i] = math.Inf(-1), 0
	}
	for i := o; i < m; i++ {
		l[i], u[i] = 0, 1
	}
	return l, u
}

// solve returns a and z for rewards q (n×T) and preferences eta, and the
// largest violation of a constraint at the returned point.
func (s *admmQP) solve(q, eta []float64, maxIter int) (a, z []float64) {
	n, T := s.n, s.T
	nv, m := n*T+T, s.rows()
	c := make([]float64, nv)
	for i := range n * T {
		c[i] = -q[i]
	}
	for t := range T {
		c[n*T+t] = -eta[t]
	}
	l, u := s.bounds()
	x, xt := make([]float64, nv), make([]float64, nv)
	zc, zt, y := make([]float64, m), make([]float64, m), make([]float64, m)
	rhs, tmp, av := make([]float64, nv), make([]float64, m), make([]float64, m)
	cg := newCG(nv)
	matvec := func(v, out []float64) { // (P + σI + ρAᵀA)v
		s.mulA(v, av)
		s.mulAT(av, out)
		for i := range out {
			out[i] = (1+s.sigma)*v[i] + s.rho*out[i]
		}
	}
	s.cgIter = 0
	for it := 1; it <= maxIter; it++ {
		s.iters = it
		for i := range tmp {
			tmp[i] = s.rho*zc[i] - y[i]
		}
		s.mulAT(tmp, rhs)
		for i := range rhs {
			rhs[i] += s.sigma*x[i] - c[i]
		}
		copy(xt, x)
		s.cgIter += cg.solve(matvec, rhs, xt, 1e-10)
		s.mulA(xt, zt)
		for i := range x {
			x[i] = s.alpha*xt[i] + (1-s.alpha)*x[i]
		}
		for i := range zc {
			zr := s.alpha*zt[i] + (1-s.alpha)*zc[i]
			zn := min(max(zr+y[i]/s.rho, l[i]), u[i])
			y[i] += s.rho * (zr - zn)
			zc[i] = zn
		}
		// Residuals: primal ‖Ax - z‖∞, dual ‖Px + c + Aᵀy‖∞.
		s.mulA(x, av)
		prim := 0.0
		for i := range av {
			prim = max(prim, math.Abs(av[i]-zc[i]))
		}
		s.mulAT(y, rhs)
		dual := 0.0
		for i := range rhs {
			dual = max(dual, math.Abs(x[i]+c[i]+rhs[i]))
		}
		if prim < s.eps && dual < s.eps {
			break
		}
		// OSQP's adaptive step: balance the two residuals.
		if it%25 == 0 && prim > 0 && dual > 0 {
			if r := math.Sqrt(prim / dual); r > 5 || r < 0.2 {
				s.rho *= min(max(r, 0.1), 10)
			}
		}
	}
	return x[n*T:], x[:n*T]
}

// cgSolver is conjugate gradients for a symmetric positive definite
// operator, with its scratch.
type cgSolver struct{ r, p, ap []float64 }

func newCG(n int) *cgSolver {
	return &cgSolver{r: make([]float64, n), p: make([]float64, n), ap: make([]float64, n)}
}

// solve improves x towards M x = b and returns the iterations taken.
func (c *cgSolver) solve(mul func(v, out []float64), b, x []float64, tol float64) int {
	mul(x, c.ap)
	rr := 0.0
	for i := range b {
		c.r[i] = b[i] - c.ap[i]
		c.p[i] = c.r[i]
		rr += c.r[i] * c.r[i]
	}
	bb := 0.0
	for _, v := range b {
		bb += v * v
	}
	for it := 1; it <= 200; it++ {
		if rr <= tol*tol*max(bb, 1) {
			return it - 1
		}
		mul(c.p, c.ap)
		pap := 0.0
		for i := range c.p {
			pap += c.p[i] * c.ap[i]
		}
		al := rr / pap
		nr := 0.0
		for i := range x {
			x[i] += al * c.p[i]
			c.r[i] -= al * c.ap[i]
			nr += c.r[i] * c.r[i]
		}
		for i := range c.p {
			c.p[i] = c.r[i] + nr/rr*c.p[i]
		}
		rr = nr
	}
	return 200
}
