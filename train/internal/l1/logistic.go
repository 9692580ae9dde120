package l1

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// Logistic solves the weighted binary L1 logistic regression
//
//	minimise F(w, b) = Σ_n c_n·log(1 + exp(-t_n(wᵀx_n + b))) + λ‖w‖₁
//
// for the rows of X with sides y (true = right, t_n = +1; false = left,
// t_n = -1) and weights c (nil: all 1). w (len X.D) and *b hold the warm
// start and receive the solution. With no rows or no weight it returns at
// once with the warm start unchanged. It panics on mismatched lengths or a
// negative weight.
func (ws *Workspace) Logistic(X *Design, y []bool, c []float64, w []float64, b *float64, o Options) Result {
	checkLogistic(X, y, c, w)
	o = o.withDefaults()
	N, D, lambda := X.N, X.D, o.Lambda
	c, total := ws.weights(c, N)
	if N == 0 || total == 0 {
		return Result{
			Violation: LogisticViolation(X, y, c, w, *b, lambda),
			Objective: LogisticObjective(X, y, c, w, *b, lambda),
		}
	}
	ws.rows(N, D)
	ws.logisticSetup(X, y, w, *b)
	u, sgn, r := ws.u[:N], ws.sgn[:N], ws.r[:N]
	for it := 0; ; it++ {
		ws.logisticCurvature(c)
		gb := ws.gradient(X)
		v := violation(ws.g[:D], gb, w, lambda)
		if v <= o.Tol*total || it >= o.MaxIter {
			return ws.logisticResult(it, v, c, w, lambda)
		}
		alpha := ws.step(X, c, w, b, gb, lambda, o.InnerSweeps)
		if alpha == 0 {
			return ws.logisticResult(it, v, c, w, lambda)
		}
		for n := range u {
			u[n] += alpha * sgn[n] * r[n]
		}
	}
}

// logisticSetup sets ws.u[n] = -t_n·z_n, so that the loss of row n is
// c_n·softplus(u_n), and ws.sgn[n] = -t_n, so that a change Δz of its logit
// changes u_n by sgn_n·Δz.
func (ws *Workspace) logisticSetup(X *Design, y []bool, w []float64, b float64) {
	u, sgn := ws.u[:X.N], ws.sgn[:X.N]
	for n := range u {
		u[n] = b
	}
	for j, col := range X.Cols {
		if w[j] != 0 {
			floats.AddScaled(u, w[j], col)
		}
	}
	for n, right := range y {
		if right {
			sgn[n] = -1
			u[n] = -u[n]
		} else {
			sgn[n] = 1
		}
	}
}

// logisticCurvature fills ws.sig, ws.sbar, ws.a and ws.h from ws.u (see
// step), with one exponential per row of positive weight.
func (ws *Workspace) logisticCurvature(c []float64) {
	N := len(ws.u)
	u, sgn, sig, sbar, a, h := ws.u, ws.sgn[:N], ws.sig[:N], ws.sbar[:N], ws.a[:N], ws.h[:N]
	for n, un := range u {
		cn := c[n]
		if cn == 0 {
			sig[n], sbar[n], a[n], h[n] = 0, 0, 0, 0
			continue
		}
		e := math.Exp(-math.Abs(un)) // σ(|u|) = 1/(1+e), σ(-|u|) = e/(1+e)
		s := 1 / (1 + e)
		p, q := s, e*s
		if un < 0 {
			p, q = q, p
		}
		sig[n], sbar[n] = p, q
		a[n] = cn * sgn[n] * p
		h[n] = cn * p * q
	}
}

// logisticResult returns the Result of a solve that stops after it outer
// iterations with violation v.
func (ws *Workspace) logisticResult(it int, v float64, c, w []float64, lambda float64) Result {
	var loss float64
	for n, un := range ws.u {
		if cn := c[n]; cn != 0 {
			loss += cn * softplus(un)
		}
	}
	return Result{Iterations: it, Violation: v, Objective: loss + lambda*l1norm(w)}
}

// checkLogistic panics unless the arguments of a binary problem agree.
func checkLogistic(X *Design, y []bool, c, w []float64) {
	X.check()
	if len(y) != X.N {
		panic(fmt.Sprintf("l1: %d sides for %d rows", len(y), X.N))
	}
	if c != nil && len(c) != X.N {
		panic(fmt.Sprintf("l1: %d weights for %d rows", len(c), X.N))
	}
	if len(w) != X.D {
		panic(fmt.Sprintf("l1: %d weights w for %d features", len(w), X.D))
	}
}
