package latent

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// objective returns Eq. 13 on the minibatch idx: the mean loss plus
// λ‖η‖∞, computing the gradient into ps.grad as a side effect.
func objective(ps *pass, x, y []float64, idx []int, lambda float64) float64 {
	sum := ps.gradient(x, y, idx, lambda)
	return sum/float64(len(idx)) + ps.nt.penalty(lambda, nil)
}

// TestGradient checks the gradient of Eq. 13 with respect to every
// parameter (split weights and biases θ, pruning preferences η, read-out
// φ) against central differences, for each loss, both splits and several
// depths, with η drawn so that the tree program has interior, clipped and
// merged groups.
func TestGradient(t *testing.T) {
	cases := []struct {
		loss  Loss
		k     int
		elu   bool
		depth int
	}{
		{SquaredError, 1, false, 1},
		{SquaredError, 2, false, 3},
		{SquaredError, 1, true, 2},
		{Logistic, 1, false, 2},
		{Logistic, 1, true, 3},
		{Softmax, 3, false, 2},
		{Softmax, 3, true, 2},
	}
	for _, c := range cases {
		for seed := uint64(1); seed <= 4; seed++ {
			name := fmt.Sprintf("%s/k=%d/elu=%v/depth=%d/seed=%d", c.loss, c.k, c.elu, c.depth, seed)
			t.Run(name, func(t *testing.T) { checkGradient(t, c.loss, c.k, c.elu, c.depth, seed) })
		}
	}
}

func checkGradient(t *testing.T, loss Loss, k int, elu bool, depth int, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 99))
	const p, n = 3, 7
	tgt := &target{loss: loss, k: k}
	wd := k
	if loss != SquaredError {
		tgt.names = make([]string, max(k, 2))
		wd = 1
	}
	nt := newNet(p, k, depth, elu)
	for i := range nt.theta {
		nt.theta[i] = rng.NormFloat64()
	}
	for t := range nt.eta {
		nt.eta[t] = rng.Float64()*1.6 - 0.3 // some clipped at 0 or 1, most interior
	}
	x := make([]float64, n*p)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y := make([]float64, n*wd)
	for i := range y {
		switch loss {
		case SquaredError:
			y[i] = rng.NormFloat64()
		case Logistic:
			y[i] = float64(rng.IntN(2))
		default:
			y[i] = float64(rng.IntN(k))
		}
	}
	idx := []int{0, 1, 2, 3, 4, 5, 6}
	const lambda = 0.3
	ps := newPass(nt, tgt, n, 2)
	objective(ps, x, y, idx, lambda)
	g := append([]float64(nil), ps.grad.theta...)
	const h = 1e-6
	bad := 0
	for i := range nt.theta {
		v := nt.theta[i]
		nt.theta[i] = v + h
		fp := objective(ps, x, y, idx, lambda)
		nt.theta[i] = v - h
		fm := objective(ps, x, y, idx, lambda)
		nt.theta[i] = v
		fd := (fp - fm) / (2 * h)
		if math.Abs(fd-g[i]) > 1e-5*max(1, math.Abs(fd)) {
			bad++
			t.Errorf("parameter %d (%s): analytic %.9g, central difference %.9g", i, nt.describe(i), g[i], fd)
			if bad > 5 {
				t.FailNow()
			}
		}
	}
}

// describe names parameter i of the vector theta.
func (nt *net) describe(i int) string {
	B, T, p, k := nt.B, nt.T, nt.p, nt.k
	switch {
	case i < B*p:
		return fmt.Sprintf("w[%d][%d]", i/p, i%p)
	case i < B*p+B:
		return fmt.Sprintf("b[%d]", i-B*p)
	case i < B*p+B+T:
		return fmt.Sprintf("eta[%d]", i-B*p-B)
	case i < B*p+B+T+k*(p+T):
		j := i - B*p - B - T
		return fmt.Sprintf("r[%d][%d]", j/(p+T), j%(p+T))
	}
	return fmt.Sprintf("c[%d]", i-B*p-B-T-k*(p+T))
}
