package loss

import (
	"math"
	"testing"
)

// TestGradients checks both gradients against central differences, and
// the log-loss at margins that would overflow a naive formula.
func TestGradients(t *testing.T) {
	const h = 1e-6
	for _, m := range []float64{-30, -2, -0.3, 0, 0.7, 4, 30} {
		for _, y := range []float64{0, 1} {
			_, g := Logistic(m, y)
			lp, _ := Logistic(m+h, y)
			lm, _ := Logistic(m-h, y)
			if fd := (lp - lm) / (2 * h); math.Abs(fd-g) > 1e-6 {
				t.Errorf("Logistic(%v, %v): gradient %v, central difference %v", m, y, g, fd)
			}
		}
	}
	if l, _ := Logistic(1000, 0); l != 1000 {
		t.Errorf("Logistic(1000, 0) = %v, want 1000", l)
	}
	z := []float64{0.3, -1.2, 2.5, 0}
	dz := make([]float64, len(z))
	for c := range z {
		Softmax(z, c, dz, 2)
		for j := range z {
			v := z[j]
			z[j] = v + h
			lp := Softmax(z, c, make([]float64, len(z)), 1)
			z[j] = v - h
			lm := Softmax(z, c, make([]float64, len(z)), 1)
			z[j] = v
			if fd := 2 * (lp - lm) / (2 * h); math.Abs(fd-dz[j]) > 1e-6 {
				t.Errorf("Softmax class %d, margin %d: gradient %v, central difference %v", c, j, dz[j], fd)
			}
		}
	}
}
