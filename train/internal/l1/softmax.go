package l1

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// Softmax solves the weighted multinomial L1 logistic regression
//
//	minimise F(W, b) = Σ_n c_n·[logsumexp_c(z_nc) - z_{n,y_n}] + λ Σ_{c,j} |W_cj|
//
// over k classes, z_nc = W_cᵀx_n + b_c, for the rows of X with labels
// y[n] in [0, k) and weights c (nil: all 1). W (row-major k×D, W[c*D+j])
// and b (len k) hold the warm start and receive the solution. With k = 1
// the loss is 0 whatever W: it sets W and b to 0 and returns. With no rows
// or no weight it returns at once with the warm start unchanged. It panics
// on mismatched lengths, a label out of range or a negative weight.
//
// The biases are defined up to a common shift, and with λ = 0 so are the
// columns W_·j; with λ > 0 each column is shifted to minimise its penalty
// (to a median of its k weights).
func (ws *Workspace) Softmax(X *Design, y []int, k int, c []float64, W, b []float64, o Options) Result {
	checkSoftmax(X, y, k, c, W, b)
	o = o.withDefaults()
	if k == 1 {
		clear(W)
		clear(b)
		return Result{}
	}
	N, D, lambda := X.N, X.D, o.Lambda
	c, total := ws.weights(c, N)
	if N == 0 || total == 0 {
		return Result{
			Violation: SoftmaxViolation(X, y, k, c, W, b, lambda),
			Objective: SoftmaxObjective(X, y, k, c, W, b, lambda),
		}
	}
	ws.softmaxSetup(X, y, k, W, b)
	l := &ws.lg

	var res Result
	for it := 0; ; it++ {
		res.Iterations = it
		res.Violation = ws.softmaxViolation(X, y, c, W, lambda)
		if res.Violation <= o.Tol*total || it >= o.MaxIter {
			break
		}
		moved := false
		for cl := range k {
			ws.classCurvature(y, cl, c)
			gb := ws.gradient(X)
			wc := W[cl*D : (cl+1)*D]
			if violation(ws.g[:D], gb, wc, lambda) <= o.Tol*total {
				continue // this class is optimal enough given the others
			}
			alpha := ws.step(X, c, wc, &b[cl], gb, lambda, o.InnerSweeps)
			if alpha == 0 {
				continue
			}
			moved = true
			ws.classUpdate(y, cl, alpha, c)
		}
		if !moved {
			break // the point, and so res.Violation, is unchanged
		}
		if lambda > 0 {
			ws.centre(W, k, D)
		}
	}
	var loss float64
	for n, yn := range y {
		if cn := c[n]; cn != 0 {
			loss += cn * l.loss(n, yn)
		}
	}
	res.Objective = loss + lambda*l1norm(W)
	return res
}

// softmaxSetup sizes the buffers of a multinomial problem and sets the
// logits of (W, b).
func (ws *Workspace) softmaxSetup(X *Design, y []int, k int, W, b []float64) {
	N, D := X.N, X.D
	ws.rows(N, D)
	ws.acoef = grow(ws.acoef, k*N)
	ws.gall = grow(ws.gall, k*D)
	ws.col = grow(ws.col, k)
	ws.rest = grow(ws.rest, N)
	ws.lg.set(X, y, k, W, b)
}

// centre moves each feature's weights W_·j by the common shift that
// minimises Σ_c |W_cj - t|, a median (of the interval of medians of an
// even k, the point nearest 0, so that an optimal column stays put). The
// loss does not change, since every logit of a row moves by the same
// t·x_nj, nor do the shifted logits; the penalty does not grow. Block
// coordinate descent can move along this flat direction of the loss only
// by a zigzag of small steps; glmnet centres its multinomial coefficients
// in the same way.
func (ws *Workspace) centre(W []float64, k, D int) {
	col := ws.col[:k]
	for j := range D {
		for cl := range k {
			col[cl] = W[cl*D+j]
		}
		slices.Sort(col)
		t := col[k/2]
		if k%2 == 0 {
			t = min(max(0, col[k/2-1]), col[k/2])
		}
		if t == 0 {
			continue
		}
		for cl := range k {
			W[cl*D+j] -= t
		}
	}
}

// classCurvature fills ws.sgn, ws.sig, ws.sbar, ws.a and ws.h (see step)
// for a step on class cl, and ws.rest with each row's R = Σ_{c≠cl} e_c,
// without a transcendental function. The probability of class cl is
// p = e_cl/(e_cl + R). For a row of label cl the loss in its logit is
// softplus(log R - s_cl): sgn = -1, σ(u) = 1 - p = R/(e_cl + R); for
// another label it is softplus(s_cl - log R) plus a constant: sgn = +1,
// σ(u) = p. Each of p and 1 - p is a ratio of sums, not a difference.
//
// For another label R is oy - e_cl + ey, whose rounding error is a few
// ulps of oy; where that is not small beside R (class cl has nearly all
// of the row's probability) the sum is taken anew.
func (ws *Workspace) classCurvature(y []int, cl int, c []float64) {
	l := &ws.lg
	N := l.N
	sgn, sig, sbar, a, h := ws.sgn[:N], ws.sig[:N], ws.sbar[:N], ws.a[:N], ws.h[:N]
	rest, oy, ey, e := ws.rest[:N], l.oy[:N], l.ey[:N], l.e[cl*N:(cl+1)*N]
	for n, yn := range y {
		cn := c[n]
		if cn == 0 {
			sgn[n], sig[n], sbar[n], a[n], h[n], rest[n] = 0, 0, 0, 0, 0, 0
			continue
		}
		ec := e[n]
		var p, q, sg float64 // σ(u), σ(-u), sgn
		if yn == cl {
			R := oy[n]
			rest[n] = R
			inv := 1 / (ec + R)
			p, q, sg = R*inv, ec*inv, -1
		} else {
			R := max(oy[n]-ec, 0) + ey[n]
			if oy[n] > exactRatio*R {
				R = l.others(n, yn, cl) + ey[n]
			}
			rest[n] = R
			inv := 1 / (ec + R)
			p, q, sg = ec*inv, R*inv, 1
		}
		sgn[n], sig[n], sbar[n] = sg, p, q
		a[n] = cn * sg * p
		h[n] = cn * p * q
	}
}

// classUpdate moves the logits of class cl by α·ws.r, updates their
// exponentials and the rows' sums, and shifts again a row whose total
// leaves [minRowTotal, maxRowTotal]. After a full step (α = 1) the new
// exponential is the old one times exp(Δz) = 1 + ws.em[n], which the line
// search computed, where that keeps its precision: the old one a normal
// number, 1 + em not the difference of nearly equal numbers; otherwise it
// is exp of the new logit. oy changes by the difference of the old and
// new exponentials, or is summed anew where the old one was most of it.
func (ws *Workspace) classUpdate(y []int, cl int, alpha float64, c []float64) {
	l := &ws.lg
	N := l.N
	s, e := l.s[cl*N:(cl+1)*N], l.e[cl*N:(cl+1)*N]
	rest, oy, ey, r, em := ws.rest[:N], l.oy[:N], l.ey[:N], ws.r[:N], ws.em[:N]
	for n, cn := range c[:N] {
		if cn == 0 {
			continue
		}
		sv := s[n] + alpha*r[n]
		old := e[n]
		yn := y[n]
		var ev float64
		if m := em[n]; alpha == 1 && old >= 1e-290 && m > -0.5 && m < 1e300 {
			// em is expm1(sgn·r): sgn = -1 for the label's class.
			if yn == cl {
				ev = old / (1 + m)
			} else {
				ev = old * (1 + m)
			}
		} else {
			ev = math.Exp(sv)
		}
		s[n], e[n] = sv, ev
		switch {
		case !(rest[n]+ev >= minRowTotal && rest[n]+ev <= maxRowTotal):
			l.normalise(n, yn)
		case yn == cl:
			ey[n] = ev
		default:
			if o := oy[n] + (ev - old); old <= exactRatio*(o+ey[n]) {
				oy[n] = max(o, 0)
			} else {
				oy[n] = l.others(n, yn, -1)
			}
		}
	}
}

// softmaxViolation returns the largest KKT violation at the current point,
// after refreshing the rows' sums.
func (ws *Workspace) softmaxViolation(X *Design, y []int, c, W []float64, lambda float64) float64 {
	l := &ws.lg
	N, D := X.N, X.D
	l.sums(y)
	l.coefficients(ws.acoef, ws.r, y, c)
	var v float64
	for cl := range l.k {
		ac, g := ws.acoef[cl*N:(cl+1)*N], ws.gall[cl*D:(cl+1)*D]
		for j, col := range X.Cols {
			g[j] = floats.Dot(ac, col)
		}
		v = max(v, violation(g, floats.Sum(ac), W[cl*D:(cl+1)*D], lambda))
	}
	return v
}

// checkSoftmax panics unless the arguments of a multinomial problem agree.
func checkSoftmax(X *Design, y []int, k int, c, W, b []float64) {
	X.check()
	if k < 1 {
		panic(fmt.Sprintf("l1: %d classes", k))
	}
	if len(y) != X.N {
		panic(fmt.Sprintf("l1: %d labels for %d rows", len(y), X.N))
	}
	for n, v := range y {
		if v < 0 || v >= k {
			panic(fmt.Sprintf("l1: label %d of row %d is not in [0, %d)", v, n, k))
		}
	}
	if c != nil && len(c) != X.N {
		panic(fmt.Sprintf("l1: %d weights for %d rows", len(c), X.N))
	}
	if len(W) != k*X.D {
		panic(fmt.Sprintf("l1: %d weights W for %d classes of %d features", len(W), k, X.D))
	}
	if len(b) != k {
		panic(fmt.Sprintf("l1: %d biases for %d classes", len(b), k))
	}
}
