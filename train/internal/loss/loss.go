// Package loss holds the losses treegen's gradient trainers share, with
// their gradients with respect to the margins.
package loss

import (
	"math"
	"slices"
)

// Logistic returns the log-loss log(1 + exp(m)) - y·m of the margin m for
// the label y ∈ {0, 1}, computed without overflow, and its derivative
// σ(m) - y.
func Logistic(m, y float64) (loss, grad float64) {
	p := 1 / (1 + math.Exp(-m))
	return math.Max(m, 0) + math.Log1p(math.Exp(-math.Abs(m))) - y*m, p - y
}

// Softmax returns the cross-entropy of the softmax of the margins z for
// the class c, log Σ exp(z_j) - z_c, and writes its gradient, softmax(z)
// minus the indicator of c, multiplied by scale, into dz.
func Softmax(z []float64, c int, dz []float64, scale float64) float64 {
	mx := slices.Max(z)
	s := 0.0
	for _, v := range z {
		s += math.Exp(v - mx)
	}
	for j, v := range z {
		q := math.Exp(v-mx) / s
		if j == c {
			q--
		}
		dz[j] = q * scale
	}
	return math.Log(s) + mx - z[c]
}
