package optim

import (
	"math"
	"testing"
)

// TestAdamMinimises checks the update rule on a quadratic, and that the
// first step moves every parameter by the learning rate (Adam's bias
// correction makes the first step lr·sign(g), up to ε).
func TestAdamMinimises(t *testing.T) {
	theta := []float64{3, -2, 0.5}
	a := NewAdam(len(theta), 0.1)
	g := make([]float64, len(theta))
	for i, th := range theta {
		g[i] = 2 * th
	}
	before := append([]float64(nil), theta...)
	a.Step(theta, g, 1)
	for i := range theta {
		if d := before[i] - theta[i]; math.Abs(math.Abs(d)-0.1) > 1e-6 || math.Signbit(d) != math.Signbit(before[i]) {
			t.Fatalf("first step of parameter %d: %v", i, d)
		}
	}
	for range 500 {
		for i, th := range theta {
			g[i] = 2 * th
		}
		a.Step(theta, g, 1)
	}
	for i, th := range theta {
		if math.Abs(th) > 0.05 {
			t.Errorf("parameter %d = %v after 500 steps on x², want about 0", i, th)
		}
	}
}

// TestAdamThreads: the result does not depend on the number of goroutines.
func TestAdamThreads(t *testing.T) {
	n := 5*adamBlock + 3
	run := func(threads int) []float64 {
		theta := make([]float64, n)
		g := make([]float64, n)
		for i := range g {
			theta[i] = float64(i%7) - 3
			g[i] = math.Sin(float64(i))
		}
		a := NewAdam(n, 0.01)
		for range 3 {
			a.Step(theta, g, threads)
		}
		return theta
	}
	one, four := run(1), run(4)
	for i := range one {
		if one[i] != four[i] {
			t.Fatalf("parameter %d: %v with 1 goroutine, %v with 4", i, one[i], four[i])
		}
	}
}
