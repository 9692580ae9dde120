package tel

import (
	"math"
	"sync"
	"sync/atomic"
)

// parallelFor calls fn(u) for every unit of work u = 0 .. n-1, on up to
// threads goroutines, the calling one among them, handing the units out to
// whichever goroutine is free. Callers make the result of a unit depend
// only on u, never on the goroutine that computes it, so that neither the
// number of goroutines nor their scheduling changes a result.
func parallelFor(n, threads int, fn func(u int)) {
	if threads <= 1 || n <= 1 {
		for u := range n {
			fn(u)
		}
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			u := int(next.Add(1) - 1)
			if u >= n {
				return
			}
			fn(u)
		}
	}
	var wg sync.WaitGroup
	for range min(threads, n) - 1 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// adam is the Adam optimiser with Keras's defaults (β1 = 0.9, β2 = 0.999,
// ε = 1e-7) and its update rule:
//
//	m = β1·m + (1-β1)·g;  v = β2·v + (1-β2)·g²
//	θ = θ - lr·√(1-β2^t)/(1-β1^t) · m/(√v + ε)
type adam struct {
	lr         float64
	m, v       []float64
	t          int
	pow1, pow2 float64 // β1^t, β2^t
}

const (
	adamBeta1   = 0.9
	adamBeta2   = 0.999
	adamEpsilon = 1e-7
	// adamBlock is the number of parameters of a unit of work of a step.
	adamBlock = 1 << 14
)

func newAdam(n int, lr float64) *adam {
	return &adam{lr: lr, m: make([]float64, n), v: make([]float64, n), pow1: 1, pow2: 1}
}

// step moves theta against the gradient g.
func (a *adam) step(theta, g []float64, threads int) {
	a.t++
	a.pow1 *= adamBeta1
	a.pow2 *= adamBeta2
	lr := a.lr * math.Sqrt(1-a.pow2) / (1 - a.pow1)
	n := len(theta)
	if n < 4*adamBlock {
		threads = 1
	}
	parallelFor((n+adamBlock-1)/adamBlock, threads, func(u int) {
		lo, hi := u*adamBlock, min(n, (u+1)*adamBlock)
		th, gr, m, v := theta[lo:hi], g[lo:hi], a.m[lo:hi], a.v[lo:hi]
		for i, gi := range gr {
			mi := adamBeta1*m[i] + (1-adamBeta1)*gi
			vi := adamBeta2*v[i] + (1-adamBeta2)*gi*gi
			m[i], v[i] = mi, vi
			th[i] -= lr * mi / (math.Sqrt(vi) + adamEpsilon)
		}
	})
}
