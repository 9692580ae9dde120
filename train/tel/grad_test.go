package tel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomEnsemble returns an ensemble with random parameters: W and b
// uniform in (-a, a), O uniform in (-1, 1).
func randomEnsemble(rng *rand.Rand, trees, depth, p, k int, act Activation, gamma, a float64, bias bool) *ensemble {
	s := settings{act: act, gamma: gamma, alpha: gamma, bias: bias}
	if act == LogisticActivation {
		s.gamma = 0
	}
	e := newEnsemble(trees, depth, p, k, s)
	for i := range e.w {
		e.w[i] = a * (2*rng.Float64() - 1)
	}
	if bias {
		for i := range e.b {
			e.b[i] = a * (2*rng.Float64() - 1)
		}
	}
	for i := range e.o {
		e.o[i] = 2*rng.Float64() - 1
	}
	return e
}

// linearLoss is L = <r, T(x)> for the conditional forward pass.
func linearLoss(e *ensemble, x, r []float64) float64 {
	out := make([]float64, e.k)
	e.forward(x, out, make([]float64, e.k))
	l := 0.0
	for j, v := range out {
		l += r[j] * v
	}
	return l
}

// conditionalGrad returns ∂L/∂θ and ∂L/∂x of L = <r, T(x)> by Algorithms 1
// and 2, and checks that the fractional tree has U-1 nodes.
func conditionalGrad(t *testing.T, e *ensemble, x, r []float64) (*gradient, []float64) {
	t.Helper()
	g := e.newGradient()
	dx := make([]float64, e.p)
	tv := make([]float64, e.k)
	for tr := range e.trees {
		var trc trace
		clear(tv)
		u := e.forwardTree(tr, x, tv, &trc)
		if len(trc.fracs) != u-1 {
			t.Fatalf("tree %d: %d fractional nodes for %d reachable leaves, want U-1", tr, len(trc.fracs), u)
		}
		e.backwardTree(tr, r, trc.leaves, trc.fracs, make([]float64, 2*len(trc.fracs)), dx)
		e.accumulate(g, tr, x, r, trc.leaves, trc.fracs)
	}
	return g, dx
}

// awayFromKinks reports whether every node's margin at x is farther than
// delta from ±γ/2, where S is not twice differentiable.
func awayFromKinks(e *ensemble, x []float64, delta float64) bool {
	if e.logistic {
		return true
	}
	for r := range e.trees * e.inner {
		z := e.b[r]
		for j, w := range e.w[r*e.p : (r+1)*e.p] {
			z += w * x[j]
		}
		if math.Abs(z-e.half) < delta || math.Abs(z+e.half) < delta {
			return false
		}
	}
	return true
}

// relErr is ‖a-b‖/max(‖a‖, ‖b‖) (0 when both are 0).
func relErr(a, b []float64) float64 {
	var d, na, nb float64
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	if na == 0 && nb == 0 {
		return 0
	}
	return math.Sqrt(d / math.Max(na, nb))
}

// centralDiff returns the central finite differences of f with respect to
// every element of v, with step h.
func centralDiff(v []float64, h float64, f func() float64) []float64 {
	d := make([]float64, len(v))
	for i := range v {
		old := v[i]
		v[i] = old + h
		up := f()
		v[i] = old - h
		down := f()
		v[i] = old
		d[i] = (up - down) / (2 * h)
	}
	return d
}

// TestGradients checks the conditional backward pass against central
// finite differences and against the dense backward pass, for random
// trees of depth 1 to 8, γ in {0.1, 1, 10}, with small weights (every node
// fractional) and large ones (most nodes hard), with and without biases,
// for the gradients with respect to W, b, O and x. It also checks that the
// conditional and dense forward passes agree to 1e-12. Points within 10h
// of a kink of S (at ±γ/2, where S is only C¹) are redrawn: a finite
// difference across a kink is not a derivative.
func TestGradients(t *testing.T) {
	const h = 1e-6
	const p, k = 5, 2
	depths := []int{1, 2, 3, 5, 8}
	if testing.Short() {
		depths = []int{1, 3, 6}
	}
	for _, depth := range depths {
		for _, gamma := range []float64{0.1, 1, 10} {
			for _, region := range []string{"inside", "outside"} {
				for _, bias := range []bool{false, true} {
					name := fmt.Sprintf("depth=%d/gamma=%g/%s/bias=%v", depth, gamma, region, bias)
					t.Run(name, func(t *testing.T) {
						checkGradients(t, uint64(depth*1000)+uint64(gamma*10), depth, p, k, SmoothStep, gamma, region, bias, h)
					})
				}
			}
		}
	}
	for _, depth := range []int{1, 4} {
		t.Run(fmt.Sprintf("logistic/depth=%d", depth), func(t *testing.T) {
			checkGradients(t, uint64(depth), depth, p, k, LogisticActivation, 0.5, "inside", true, h)
		})
	}
}

func checkGradients(t *testing.T, seed uint64, depth, p, k int, act Activation, gamma float64, region string, bias bool, h float64) {
	rng := rand.New(rand.NewPCG(seed, 3))
	// Margins of about ±γ/10 (inside) or ±2γ (outside) for x of unit scale.
	a := gamma / 10 / math.Sqrt(float64(p))
	if region == "outside" {
		a = 2 * gamma / math.Sqrt(float64(p))
	}
	var e *ensemble
	var x []float64
	for try := 0; ; try++ {
		if try == 1000 {
			t.Fatal("no point away from the kinks")
		}
		e = randomEnsemble(rng, 2, depth, p, k, act, gamma, a, bias)
		x = make([]float64, p)
		for j := range x {
			x[j] = 2*rng.Float64() - 1
		}
		if awayFromKinks(e, x, 10*h*math.Max(1, 3*a)) {
			break
		}
	}
	r := []float64{0.7, -1.3}
	g, dx := conditionalGrad(t, e, x, r)

	// Finite differences.
	loss := func() float64 { return linearLoss(e, x, r) }
	fw := centralDiff(e.w, h, loss)
	fo := centralDiff(e.o, h, loss)
	fx := centralDiff(x, h, loss)
	checks := []struct {
		name     string
		got, fd  []float64
		skipZero bool
	}{{"W", g.w, fw, false}, {"O", g.o, fo, false}, {"x", dx, fx, false}}
	if bias {
		checks = append(checks, struct {
			name     string
			got, fd  []float64
			skipZero bool
		}{"b", g.b, centralDiff(e.b, h, loss), false})
	}
	for _, c := range checks {
		if err := relErr(c.got, c.fd); err > 1e-6 {
			t.Errorf("∂L/∂%s: conditional backward vs finite differences: relative error %.3g", c.name, err)
		}
	}

	checkFull(t, e, x, r, g, dx)

	// The dense passes over a batch of three rows (x and two more) give the
	// sum of the rows' conditional gradients.
	rows := [][]float64{x}
	for len(rows) < 3 {
		y := make([]float64, p)
		for j := range y {
			y[j] = 2*rng.Float64() - 1
		}
		if awayFromKinks(e, y, 1e-9) {
			rows = append(rows, y)
		}
	}
	xb := make([]float64, 0, 3*p)
	dT := make([]float64, 0, 3*k)
	sum := e.newGradient()
	var sumDx []float64
	for _, y := range rows {
		xb = append(xb, y...)
		dT = append(dT, r...)
		gy, dxy := conditionalGrad(t, e, y, r)
		for i, v := range gy.all {
			sum.all[i] += v
		}
		sumDx = append(sumDx, dxy...)
	}
	w, err := newDenseWork(e, 3)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]float64, 3*k)
	e.denseForward(w, xb, 3, out, 2)
	for i, y := range rows {
		want := make([]float64, k)
		e.forward(y, want, make([]float64, k))
		for j := range k {
			if got := out[i*k+j]; math.Abs(got-want[j]) > 1e-12*math.Max(1, math.Abs(want[j])) {
				t.Errorf("row %d output %d: dense forward %v, conditional forward %v", i, j, got, want[j])
			}
		}
	}
	gd := e.newGradient()
	ddx := make([]float64, 3*p)
	e.denseBackward(w, xb, 3, dT, gd, ddx, 2)
	for _, c := range []struct {
		name      string
		dense, cd []float64
	}{{"W", gd.w, sum.w}, {"b", gd.b, sum.b}, {"O", gd.o, sum.o}, {"x", ddx, sumDx}} {
		if err := relErr(c.dense, c.cd); err > 1e-6 {
			t.Errorf("∂L/∂%s: conditional vs dense backward: relative error %.3g", c.name, err)
		}
	}
}

// TestBackwardSparsity checks Theorem 1's sparsity: the conditional
// gradient is zero on the rows of W of every node that is not fractional
// for x, and on the leaves that x does not reach.
func TestBackwardSparsity(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	e := randomEnsemble(rng, 1, 6, 4, 1, SmoothStep, 1, 1.5, false)
	x := []float64{0.3, -0.8, 0.5, 0.1}
	var trc trace
	tv := make([]float64, 1)
	u := e.forwardTree(0, x, tv, &trc)
	if u == 1 || u == e.leaves {
		t.Fatalf("%d reachable leaves: want a partly conditional tree", u)
	}
	g, _ := conditionalGrad(t, e, x, []float64{1})
	frac := map[int]bool{}
	for _, f := range trc.fracs {
		frac[int(f.node)] = true
	}
	reach := map[int]bool{}
	for _, l := range trc.leaves {
		reach[int(l.leaf)] = true
	}
	for i := range e.inner {
		nz := false
		for _, v := range g.w[i*e.p : (i+1)*e.p] {
			nz = nz || v != 0
		}
		if nz && !frac[i] {
			t.Errorf("node %d is not fractional but has a W gradient", i)
		}
	}
	for l := range e.leaves {
		if g.o[l] != 0 && !reach[l] {
			t.Errorf("leaf %d is not reachable but has an O gradient", l)
		}
	}
}

// TestPassesDoNotAllocate checks that the conditional forward and backward
// passes of a row allocate nothing once their buffers have grown.
func TestPassesDoNotAllocate(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	e := randomEnsemble(rng, 4, 6, 5, 3, SmoothStep, 1, 0.3, true)
	x := []float64{0.1, -0.4, 0.9, 0.3, -0.2}
	dT := []float64{0.2, -0.1, 0.4}
	tv := make([]float64, e.k)
	sums := make([]float64, 2*e.inner)
	dx := make([]float64, e.p)
	g := e.newGradient()
	var tr trace
	run := func() {
		for t := range e.trees {
			tr.reset()
			e.forwardTree(t, x, tv, &tr)
			e.backwardTree(t, dT, tr.leaves, tr.fracs, sums, dx)
			e.accumulate(g, t, x, dT, tr.leaves, tr.fracs)
		}
	}
	run()
	if n := testing.AllocsPerRun(100, run); n != 0 {
		t.Errorf("%v allocations per row", n)
	}
}

// checkFull checks the full passes at x against the conditional ones: the
// same tree values bit for bit, the same gradients (g, dx) to 1e-12.
func checkFull(t *testing.T, e *ensemble, x, r []float64, g *gradient, dx []float64) {
	t.Helper()
	fw := newFullWork(e, 1, 1)
	fu := fw.units[0]
	in, lv := e.inner, e.leaves
	gf := e.newGradient()
	dxf := make([]float64, e.p)
	for tr := range e.trees {
		want, got := make([]float64, e.k), make([]float64, e.k)
		var trc trace
		u := e.forwardTree(tr, x, want, &trc)
		s, ds, pn := fu.s[tr*in:(tr+1)*in], fu.ds[tr*in:(tr+1)*in], fu.pn[tr*(in+lv):(tr+1)*(in+lv)]
		if reached := e.forwardFull(tr, x, got, s, ds, pn); reached != u {
			t.Errorf("tree %d: full forward reached %d leaves, conditional %d", tr, reached, u)
		}
		for j := range want {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
				t.Errorf("tree %d output %d: full forward %v, conditional %v (want bit-identical)", tr, j, got[j], want[j])
			}
		}
		coef, prob := fw.coef[tr*in:(tr+1)*in], fw.prob[tr*lv:(tr+1)*lv]
		e.backwardFull(tr, r, s, ds, pn, fu.a, coef, prob, dxf)
		for i, c := range coef {
			row := gf.w[(tr*in+i)*e.p:][:e.p]
			for j, v := range x {
				row[j] += c * v
			}
			if gf.b != nil {
				gf.b[tr*in+i] += c
			}
		}
		for l, q := range prob {
			for j, d := range r {
				gf.o[(tr*lv+l)*e.k+j] += q * d
			}
		}
	}
	for _, c := range []struct {
		name      string
		full, con []float64
	}{{"W", gf.w, g.w}, {"b", gf.b, g.b}, {"O", gf.o, g.o}, {"x", dxf, dx}} {
		if err := relErr(c.full, c.con); err > 1e-12 {
			t.Errorf("∂L/∂%s: full vs conditional backward: relative error %.3g", c.name, err)
		}
	}
}
