// Package optim holds the optimisers of treegen's gradient trainers.
package optim

import (
	"math"

	"github.com/treegen/treegen/internal/parallel"
)

// Adam is the Adam optimiser with Keras's defaults (β1 = 0.9, β2 = 0.999,
// ε = 1e-7) and its update rule:
//
//	m = β1·m + (1-β1)·g;  v = β2·v + (1-β2)·g²
//	θ = θ - lr·√(1-β2^t)/(1-β1^t) · m/(√v + ε)
type Adam struct {
	lr         float64
	m, v       []float64
	pow1, pow2 float64 // β1^t, β2^t after t steps
}

const (
	adamBeta1   = 0.9
	adamBeta2   = 0.999
	adamEpsilon = 1e-7
	// adamBlock is the number of parameters of a unit of work of a step.
	adamBlock = 1 << 14
)

// NewAdam returns Adam for n parameters with learning rate lr.
func NewAdam(n int, lr float64) *Adam {
	return &Adam{lr: lr, m: make([]float64, n), v: make([]float64, n), pow1: 1, pow2: 1}
}

// SetLearningRate sets the learning rate of the next steps, keeping the
// moments, as a schedule that decays it on a plateau does.
func (a *Adam) SetLearningRate(lr float64) { a.lr = lr }

// Step moves theta against the gradient g, on up to threads goroutines for
// large parameter vectors; the result does not depend on threads.
func (a *Adam) Step(theta, g []float64, threads int) {
	a.Begin()
	n := len(theta)
	if n < 4*adamBlock {
		threads = 1
	}
	parallel.For((n+adamBlock-1)/adamBlock, threads, func(u int) {
		a.Update(theta, g, u*adamBlock, min(n, (u+1)*adamBlock))
	})
}

// Begin starts a step that Update then applies to parts of the
// parameters: Begin, then Update on ranges that cover every parameter
// once (concurrently if they are disjoint), is Step.
func (a *Adam) Begin() {
	a.pow1 *= adamBeta1
	a.pow2 *= adamBeta2
}

// Update applies the step begun by Begin to theta[lo:hi] with the
// gradient g[lo:hi]. Every parameter's update depends on its own
// gradient and moments only, so the result does not depend on how the
// ranges are split.
func (a *Adam) Update(theta, g []float64, lo, hi int) {
	lr := a.rate()
	th, gr, m, v := theta[lo:hi], g[lo:hi], a.m[lo:hi], a.v[lo:hi]
	th, m, v = th[:len(gr)], m[:len(gr)], v[:len(gr)]
	for i, gi := range gr {
		mi := adamBeta1*m[i] + (1-adamBeta1)*gi
		vi := adamBeta2*v[i] + (1-adamBeta2)*gi*gi
		m[i], v[i] = mi, vi
		th[i] -= lr * mi / (math.Sqrt(vi) + adamEpsilon)
	}
}

// rate is the step size lr·√(1-β2^t)/(1-β1^t) of the last step.
func (a *Adam) rate() float64 { return a.lr * math.Sqrt(1-a.pow2) / (1 - a.pow1) }

// ProxL1 applies to theta[lo:hi], after a Step, the proximal operator of
// lambda·Σ|θ_i| in Adam's own metric: every parameter, which the step
// moved with the step size d_i = lr·√(1-β2^t)/(1-β1^t)/(√v_i + ε), is
// shrunk towards 0 by lambda·d_i, and set to exactly 0 when it is within
// lambda·d_i of it,
//
//	θ_i = sign(θ_i)·max(|θ_i| - lambda·d_i, 0)
//
// so that Step then ProxL1 is a proximal gradient step on the smooth loss
// plus the L1 penalty (the exact zeros are what makes the parameters
// sparse; a subgradient step would only make them small). Calls on
// disjoint ranges may run concurrently.
func (a *Adam) ProxL1(theta []float64, lo, hi int, lambda float64) {
	lr := a.rate()
	th, v := theta[lo:hi], a.v[lo:hi]
	v = v[:len(th)]
	for i, w := range th {
		t := lambda * lr / (math.Sqrt(v[i]) + adamEpsilon)
		switch {
		case w > t:
			th[i] = w - t
		case w < -t:
			th[i] = w + t
		default:
			th[i] = 0
		}
	}
}
