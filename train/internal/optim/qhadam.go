package optim

import "math"

// QHAdam is quasi-hyperbolic Adam (Ma and Yarats, "Quasi-hyperbolic
// momentum and Adam for deep learning", ICLR 2019) with its recommended
// defaults ν1 = 0.7, ν2 = 1, β1 = 0.995, β2 = 0.999 and ε = 1e-8:
//
//	m = β1·m + (1-β1)·g;  v = β2·v + (1-β2)·g²
//	m̂ = m/(1-β1^t);  v̂ = v/(1-β2^t)
//	θ = θ - lr·((1-ν1)·g + ν1·m̂) / (√((1-ν2)·g² + ν2·v̂) + ε)
//
// It is the optimiser of the latent-tree paper. The learning rate may be
// changed between steps (SetLearningRate), as a schedule that decays it on
// a plateau does.
type QHAdam struct {
	lr         float64
	m, v       []float64
	pow1, pow2 float64 // β1^t, β2^t after t steps
}

// QHAdam's defaults.
const (
	qhNu1     = 0.7
	qhNu2     = 1.0
	qhBeta1   = 0.995
	qhBeta2   = 0.999
	qhEpsilon = 1e-8
)

// NewQHAdam returns QHAdam for n parameters with learning rate lr.
func NewQHAdam(n int, lr float64) *QHAdam {
	return &QHAdam{lr: lr, m: make([]float64, n), v: make([]float64, n), pow1: 1, pow2: 1}
}

// LearningRate returns the current learning rate.
func (a *QHAdam) LearningRate() float64 { return a.lr }

// SetLearningRate sets the learning rate of the next steps.
func (a *QHAdam) SetLearningRate(lr float64) { a.lr = lr }

// Step moves theta against the gradient g.
func (a *QHAdam) Step(theta, g []float64) {
	a.pow1 *= qhBeta1
	a.pow2 *= qhBeta2
	c1, c2 := 1/(1-a.pow1), 1/(1-a.pow2)
	for i, gi := range g {
		m := qhBeta1*a.m[i] + (1-qhBeta1)*gi
		v := qhBeta2*a.v[i] + (1-qhBeta2)*gi*gi
		a.m[i], a.v[i] = m, v
		num := (1-qhNu1)*gi + qhNu1*m*c1
		den := math.Sqrt((1-qhNu2)*gi*gi+qhNu2*v*c2) + qhEpsilon
		theta[i] -= a.lr * num / den
	}
}
