package l1

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// The coordinate descent on the quadratic model of a step,
//
//	q(d) = gᵀd + g_b·d_b + ½ dᵀHd + λ‖w + d‖₁,  H = Xᵀdiag(h)X with the bias column,
//
// over the active features and the bias, in one of two ways of the same
// result: cdRows keeps r = Xd + d_b up to date and takes each coordinate's
// curvature term Σ h_n x_nj r_n as a scan of the rows, 2N operations per
// coordinate; cdGram forms the Gram matrix H of the active features once,
// N·m²/2 operations, after which a coordinate costs m. step picks the
// cheaper for the number of sweeps. Both keep the step as the new point
// (wn, bn), so that a weight soft-thresholded to zero is exactly zero, and
// leave r = X(wn - w) + (bn - b), the change of the block's logits.

const (
	// gramChunk is the number of rows of a block of the Gram matrix's
	// sums: h ⊙ X and X of a block of rows stay in cache while all the
	// products of their columns are taken.
	gramChunk = 512
	// innerRelTol ends the sweeps over a model once a sweep decreases it
	// by no more than this fraction of the decrease so far: the remaining
	// sweeps would refine a step whose model is itself approximate. As the
	// criterion is relative, the models are solved as well near the
	// optimum as far from it, and the outer iterations converge fast.
	innerRelTol = 1e-3
)

// gramCheaper reports whether forming the Gram matrix of m active features
// costs less than the given sweeps of row scans.
func gramCheaper(m, sweeps int) bool {
	return m*(m+1)/2+3*m <= 2*m+sweeps*(2*m+2)
}

// coordinate returns the minimiser of G·δ + ½H·δ² + λ|x + δ| in x + δ and
// the decrease of the model, ≤ 0, of moving there from x.
func coordinate(x, G, H, lambda float64) (nx, dq float64) {
	nx = softThreshold(x-G/H, lambda/H)
	d := nx - x
	return nx, G*d + 0.5*H*d*d + lambda*(math.Abs(nx)-math.Abs(x))
}

// cdRows runs the sweeps keeping r up to date; it returns bn.
func (ws *Workspace) cdRows(X *Design, active []int, w []float64, b, gb, lambda, ridge float64, sweeps int) float64 {
	N := X.N
	h, g, hd, wn, r := ws.h[:N], ws.g, ws.hd, ws.wn, ws.r[:N]
	ws.hx = grow(ws.hx, N*X.D)
	hb := floats.Sum(h) + ridge
	for _, j := range active {
		hxj := ws.hx[j*N : (j+1)*N]
		floats.MulTo(hxj, h, X.Cols[j])
		hd[j] = floats.Dot(hxj, X.Cols[j]) + ridge
	}
	clear(r)
	bn := b
	var total float64
	for range sweeps {
		var dec float64
		if db := -(gb + floats.Dot(h, r)) / hb; db != 0 {
			bn += db
			floats.AddConst(db, r)
			dec -= 0.5 * hb * db * db
		}
		for _, j := range active {
			hxj := ws.hx[j*N : (j+1)*N]
			G := g[j] + floats.Dot(hxj, r)
			nw, dq := coordinate(wn[j], G, hd[j], lambda)
			if d := nw - wn[j]; d != 0 {
				wn[j] = nw
				floats.AddScaled(r, d, X.Cols[j])
				dec += dq
			}
		}
		total += dec
		if !(dec < innerRelTol*total) {
			break
		}
	}
	return bn
}

// cdGram runs the sweeps on the Gram matrix of the active features, then
// sets r; it returns bn.
func (ws *Workspace) cdGram(X *Design, active []int, w []float64, b, gb, lambda, ridge float64, sweeps int) float64 {
	N, m := X.N, len(active)
	M := m + 1 // the bias is coordinate m
	h, g, wn, r := ws.h[:N], ws.g, ws.wn, ws.r[:N]
	ws.q = grow(ws.q, M*M)
	ws.qd = grow(ws.qd, M)
	Q, qd := ws.q, ws.qd
	clear(Q)
	chunk := min(gramChunk, N)
	ws.hx = grow(ws.hx, m*chunk) // h ⊙ X_j of a chunk of rows for each active feature j
	for lo := 0; lo < N; lo += chunk {
		hi := min(lo+chunk, N)
		hc := h[lo:hi]
		for a, j := range active {
			hxa := ws.hx[a*chunk : a*chunk+hi-lo]
			floats.MulTo(hxa, hc, X.Cols[j][lo:hi])
			Q[a*M+m] += floats.Sum(hxa)
			for a2, j2 := range active[:a+1] {
				Q[a*M+a2] += floats.Dot(hxa, X.Cols[j2][lo:hi])
			}
		}
	}
	Q[m*M+m] = floats.Sum(h)
	for a := range M {
		Q[a*M+a] += ridge
		for a2 := range a {
			Q[a2*M+a] = Q[a*M+a2]
		}
		Q[m*M+a] = Q[a*M+m]
	}

	// Sweeps, keeping qd = Q·(step).
	clear(qd)
	bn := b
	var total float64
	for range sweeps {
		var dec float64
		if db := -(gb + qd[m]) / Q[m*M+m]; db != 0 {
			bn += db
			floats.AddScaled(qd, db, Q[m*M:(m+1)*M])
			dec -= 0.5 * Q[m*M+m] * db * db
		}
		for a, j := range active {
			nw, dq := coordinate(wn[j], g[j]+qd[a], Q[a*M+a], lambda)
			if d := nw - wn[j]; d != 0 {
				wn[j] = nw
				floats.AddScaled(qd, d, Q[a*M:(a+1)*M])
				dec += dq
			}
		}
		total += dec
		if !(dec < innerRelTol*total) {
			break
		}
	}

	// r = X(wn - w) + (bn - b).
	for n := range r {
		r[n] = bn - b
	}
	for _, j := range active {
		if d := wn[j] - w[j]; d != 0 {
			floats.AddScaled(r, d, X.Cols[j])
		}
	}
	return bn
}
