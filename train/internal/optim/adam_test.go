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

// TestQHAdam checks QHAdam's first step against the formula by hand and
// that it minimises a quadratic.
func TestQHAdam(t *testing.T) {
	theta := []float64{3, -2, 0.5}
	a := NewQHAdam(len(theta), 0.01)
	g := []float64{6, -4, 1}
	before := append([]float64(nil), theta...)
	a.Step(theta, g)
	for i, gi := range g {
		// m̂ = g and v̂ = g² after one step, so the step is
		// lr·(0.3g + 0.7g)/(|g| + ε).
		want := before[i] - 0.01*gi/(math.Abs(gi)+1e-8)
		if math.Abs(theta[i]-want) > 1e-15 {
			t.Fatalf("first step of parameter %d: got %v, want %v", i, theta[i], want)
		}
	}
	a.SetLearningRate(0.05)
	if a.LearningRate() != 0.05 {
		t.Fatalf("LearningRate = %v after SetLearningRate(0.05)", a.LearningRate())
	}
	for range 3000 {
		for i, th := range theta {
			g[i] = 2 * th
		}
		a.Step(theta, g)
	}
	for i, th := range theta {
		if math.Abs(th) > 1e-2 {
			t.Fatalf("parameter %d = %v after 3000 steps on θ², want about 0", i, th)
		}
	}
}

// TestAdamL1 minimises Σ_i (θ_i - c_i)² + λ·Σ_{i<4} |θ_i|, whose minimiser
// is c soft-thresholded by λ/2 on the first four parameters and c on the
// fifth: the proximal steps must reach exact zeros where |c_i| <= λ/2, and
// leave the parameter outside [lo, hi) alone.
func TestAdamL1(t *testing.T) {
	c := []float64{3, 0.05, -0.05, -2, 0.05}
	want := []float64{2.75, 0, 0, -1.75, 0.05}
	const lambda = 0.5
	theta := make([]float64, len(c))
	g := make([]float64, len(c))
	a := NewAdam(len(theta), 0.05)
	for step := range 3000 {
		if step == 2000 {
			a.SetLearningRate(0.001)
		}
		for i, th := range theta {
			g[i] = 2 * (th - c[i])
		}
		a.Step(theta, g, 1)
		a.ProxL1(theta, 0, 2, lambda)
		a.ProxL1(theta, 2, 4, lambda)
	}
	for i, th := range theta {
		if want[i] == 0 {
			if th != 0 {
				t.Errorf("parameter %d = %v, want exactly 0", i, th)
			}
		} else if math.Abs(th-want[i]) > 0.01 {
			t.Errorf("parameter %d = %v, want about %v", i, th, want[i])
		}
	}
}
