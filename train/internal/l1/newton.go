package l1

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

const (
	armijo      = 0.01  // the sufficient decrease of the line search, a fraction of the model's
	maxHalvings = 30    // the most times the line search halves the step
	ridgeFactor = 1e-12 // the Hessian's diagonal gets ridgeFactor·(1+Σh), so it is never 0
	// maxLogitStep bounds the first trial step of the line search: no row's
	// logit moves by more (a factor e^256 in its odds). Far from the
	// optimum, where the rows are confidently right or wrong, the curvature
	// vanishes while the gradient does not, and the Newton step can be so
	// long that 30 halvings leave it too long to decrease F.
	maxLogitStep = 256
)

// The proximal Newton step shared by the two problems. The loss of row n
// as a function of the logit of the block being stepped (the binary
// problem's only logit, or one class's) is, up to a constant,
// c_n·softplus(u_n + sgn_n·Δz) for a change Δz of the logit; the caller
// fills, per row, sgn (±1), sig = σ(u_n), sbar = σ(-u_n) (each accurate on
// its own, not as 1 minus the other), a = c_n·sgn_n·σ(u_n), the derivative
// of the loss in z, and h = c_n·σ(u_n)σ(-u_n), its second derivative; rows
// of weight 0 have a = h = 0.

// softplus returns log(1 + exp(x)) without overflow or loss of the small
// values.
func softplus(x float64) float64 {
	return max(x, 0) + math.Log1p(math.Exp(-math.Abs(x)))
}

// lossChange returns softplus(u + dz) - softplus(u) for σ(u) = sig and
// σ(-u) = sbar, as log(1 + σ(u)·(exp(dz) - 1)), accurate for the small
// changes near an optimum where a difference of losses is not, and
// expm1(dz) (+Inf when not computed). ok is false when the change cannot
// be represented (a probability that underflowed, moved by hundreds of
// units of logit), which the line search takes for a rejected step.
func lossChange(sig, sbar, dz float64) (d, em float64, ok bool) {
	if dz < 700 {
		em = math.Expm1(dz)
		if x := sig * em; x > -0.5 {
			return math.Log1p(x), em, true
		}
		// 1 + x = σ(-u) + σ(u)·exp(dz), summed without cancellation.
		d = math.Log(sbar + sig*math.Exp(dz))
		return d, em, d > math.Inf(-1)
	}
	if sig > 0 {
		return dz + math.Log(sig+sbar*math.Exp(-dz)), math.Inf(1), true
	}
	return 0, math.Inf(1), false
}

// gradient fills ws.g with Xᵀa and returns Σa, the gradient of the bias.
func (ws *Workspace) gradient(X *Design) float64 {
	g := ws.g[:X.D]
	for j, col := range X.Cols {
		g[j] = floats.Dot(ws.a, col)
	}
	return floats.Sum(ws.a)
}

// violation returns the largest KKT violation of the weights w and bias
// of gradients g and gb under the penalty λ‖w‖₁.
func violation(g []float64, gb float64, w []float64, lambda float64) float64 {
	v := math.Abs(gb)
	for j, gj := range g {
		switch {
		case w[j] > 0:
			v = max(v, math.Abs(gj+lambda))
		case w[j] < 0:
			v = max(v, math.Abs(gj-lambda))
		default:
			v = max(v, math.Abs(gj)-lambda)
		}
	}
	return v
}

// l1norm returns ‖w‖₁.
func l1norm(w []float64) float64 {
	var s float64
	for _, v := range w {
		s += math.Abs(v)
	}
	return s
}

// softThreshold returns the minimiser of ½(v - x)² + t|v|.
func softThreshold(x, t float64) float64 {
	switch {
	case x > t:
		return x - t
	case x < -t:
		return x + t
	}
	return 0
}

// step takes one proximal Newton step on the block of weights w and bias
// *b, whose gradient is ws.g and gb. It returns the step length α, 0 when
// no step decreases the objective (w and *b unchanged); after a step the
// block's logit of row n has changed by α·ws.r[n], and after a full step
// ws.em[n] is expm1(sgn_n·r_n), or +Inf where not computed.
func (ws *Workspace) step(X *Design, c, w []float64, b *float64, gb, lambda float64, sweeps int) float64 {
	N, D := X.N, X.D
	h := ws.h[:N]
	g := ws.g[:D]
	wn := ws.wn[:D]
	r := ws.r[:N]

	// The active features, those not both at zero and inside [-λ, λ].
	active := ws.active[:0]
	for j := range D {
		if w[j] != 0 || math.Abs(g[j]) >= lambda {
			active = append(active, j)
		}
	}
	ws.active = active
	ridge := ridgeFactor * (1 + floats.Sum(h))
	copy(wn, w)
	var bn float64
	if gramCheaper(len(active), sweeps) {
		bn = ws.cdGram(X, active, w, *b, gb, lambda, ridge, sweeps)
	} else {
		bn = ws.cdRows(X, active, w, *b, gb, lambda, ridge, sweeps)
	}

	// The decrease the model predicts for its linear and L1 parts, which
	// bounds the true decrease of a short enough step.
	delta := gb*(bn-*b) + lambda*l1Change(w, wn, 1)
	for _, j := range active {
		delta += g[j] * (wn[j] - w[j])
	}
	if !(delta < 0) {
		return 0
	}

	// Backtracking on F, each row's change of loss computed as such, not
	// as a difference of losses, so that the test stays reliable for the
	// small steps near the optimum.
	sgn, sig, sbar, em := ws.sgn[:N], ws.sig[:N], ws.sbar[:N], ws.em[:N]
	var rmax float64
	for n, cn := range c[:N] {
		if cn != 0 {
			rmax = max(rmax, math.Abs(r[n]))
		}
	}
	alpha := 1.0
	if rmax > maxLogitStep {
		alpha = maxLogitStep / rmax
	}
	for range maxHalvings + 1 {
		diff := lambda * l1Change(w, wn, alpha)
		for n, cn := range c[:N] {
			if cn == 0 {
				continue
			}
			d, m, ok := lossChange(sig[n], sbar[n], alpha*sgn[n]*r[n])
			if alpha == 1 {
				em[n] = m
			}
			if !ok {
				diff = math.Inf(1)
				break
			}
			diff += cn * d
		}
		if diff <= armijo*alpha*delta {
			if alpha == 1 {
				copy(w, wn)
				*b = bn
			} else {
				for j, wj := range w {
					w[j] = wj + alpha*(wn[j]-wj)
				}
				*b += alpha * (bn - *b)
			}
			return alpha
		}
		alpha /= 2
	}
	return 0
}

// l1Change returns ‖w + α(wn - w)‖₁ - ‖w‖₁ summed term by term, each
// exactly α·|d_j| with its sign while w_j keeps its sign, so that its
// rounding error is relative to the change, not to ‖w‖₁.
func l1Change(w, wn []float64, alpha float64) float64 {
	var s float64
	for j, wj := range w {
		d := wn[j] - wj
		if d == 0 {
			continue
		}
		a := wn[j]
		if alpha != 1 {
			a = wj + alpha*d
		}
		switch {
		case wj > 0 && a > 0:
			s += alpha * d
		case wj < 0 && a < 0:
			s -= alpha * d
		default:
			s += math.Abs(a) - math.Abs(wj)
		}
	}
	return s
}

// rows sizes the per-row and per-feature buffers for N rows and D features.
func (ws *Workspace) rows(N, D int) {
	ws.u = grow(ws.u, N)
	ws.sgn = grow(ws.sgn, N)
	ws.a = grow(ws.a, N)
	ws.h = grow(ws.h, N)
	ws.sig = grow(ws.sig, N)
	ws.sbar = grow(ws.sbar, N)
	ws.r = grow(ws.r, N)
	ws.em = grow(ws.em, N)
	ws.g = grow(ws.g, D)
	ws.hd = grow(ws.hd, D)
	ws.wn = grow(ws.wn, D)
	if cap(ws.active) < D {
		ws.active = make([]int, 0, D)
	}
}
