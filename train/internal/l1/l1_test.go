package l1

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

var tight = Options{Tol: 1e-12, MaxIter: 1000}

func withLambda(o Options, lambda float64) Options { o.Lambda = lambda; return o }

// TestLogisticOptimal: on random non-separable problems the solution meets
// the KKT conditions, checked by the reference gradient.
func TestLogisticOptimal(t *testing.T) {
	var ws Workspace // reused across sizes on purpose
	seed := uint64(1)
	for _, n := range []int{20, 60, 200} {
		for _, d := range []int{1, 3, 8} {
			for _, lambda := range []float64{0, 0.01, 0.5, 5} {
				seed++
				t.Run(fmt.Sprintf("N=%d/D=%d/λ=%g", n, d, lambda), func(t *testing.T) {
					p := binaryProblem(seed, n, d, true)
					w, b := make([]float64, d), 0.0
					res := ws.Logistic(p.design(), p.sides, p.c, w, &b, withLambda(tight, lambda))
					loss, g, gb := refLogistic(p, w, b)
					v := refViolation(g, []float64{gb}, w, lambda)
					if v > 1e-6 || !allFinite(w, []float64{b}) {
						t.Fatalf("KKT violation %g at w=%v b=%v (%+v)", v, w, b, res)
					}
					if math.Abs(res.Violation-v) > 1e-8 {
						t.Errorf("Result.Violation %g, reference %g", res.Violation, v)
					}
					if f := loss + lambda*l1norm(w); math.Abs(res.Objective-f) > 1e-10*max(1, f) {
						t.Errorf("Result.Objective %.15g, reference %.15g", res.Objective, f)
					}
				})
			}
		}
	}
}

// TestSoftmaxOptimal: as TestLogisticOptimal, for the multinomial problem.
func TestSoftmaxOptimal(t *testing.T) {
	var ws Workspace
	seed := uint64(100)
	for _, n := range []int{20, 60, 200} {
		for _, d := range []int{1, 3, 8} {
			for _, k := range []int{2, 3, 5} {
				for _, lambda := range []float64{0, 0.01, 0.5, 5} {
					seed++
					t.Run(fmt.Sprintf("N=%d/D=%d/k=%d/λ=%g", n, d, k, lambda), func(t *testing.T) {
						p := softmaxProblem(seed, n, d, k, true)
						W, b := make([]float64, k*d), make([]float64, k)
						res := ws.Softmax(p.design(), p.label, k, p.c, W, b, withLambda(tight, lambda))
						loss, G, gb := refSoftmax(p, W, b)
						v := refViolation(G, gb, W, lambda)
						if v > 1e-6 || !allFinite(W, b) {
							t.Fatalf("KKT violation %g (%+v)", v, res)
						}
						if math.Abs(res.Violation-v) > 1e-8 {
							t.Errorf("Result.Violation %g, reference %g", res.Violation, v)
						}
						if f := loss + lambda*l1norm(W); math.Abs(res.Objective-f) > 1e-10*max(1, f) {
							t.Errorf("Result.Objective %.15g, reference %.15g", res.Objective, f)
						}
					})
				}
			}
		}
	}
}

// TestLogisticZero: with λ above the largest gradient at w = 0 (and the
// optimal bias), the solution is exactly w = 0, from a zero or a non-zero
// warm start, and the bias is the log-odds of the weights.
func TestLogisticZero(t *testing.T) {
	p := binaryProblem(7, 150, 5, false)
	var pos, neg float64
	for n, s := range p.sides {
		if s {
			pos += p.c[n]
		} else {
			neg += p.c[n]
		}
	}
	bstar := math.Log(pos / neg)
	_, g, _ := refLogistic(p, make([]float64, 5), bstar)
	var lmax float64
	for _, x := range g {
		lmax = max(lmax, math.Abs(x))
	}
	X := p.design()
	for _, start := range [][]float64{make([]float64, 5), {3, -1, 0, 2, -5}} {
		w, b := slices.Clone(start), 1.0
		var ws Workspace
		res := ws.Logistic(X, p.sides, p.c, w, &b, withLambda(tight, 1.5*lmax))
		for j, v := range w {
			if v != 0 {
				t.Errorf("from %v: w[%d] = %g, want exactly 0 (%+v)", start, j, v, res)
			}
		}
		if math.Abs(b-bstar) > 1e-8 {
			t.Errorf("from %v: b = %v, want the log-odds %v", start, b, bstar)
		}
	}
}

// TestSoftmaxZero: as TestLogisticZero, for the multinomial problem; the
// biases are the log frequencies of the classes up to a shift.
func TestSoftmaxZero(t *testing.T) {
	const d, k = 4, 3
	p := softmaxProblem(8, 150, d, k, false)
	freq := make([]float64, k)
	for n, y := range p.label {
		freq[y] += p.c[n]
	}
	bstar := make([]float64, k)
	for cl, f := range freq {
		bstar[cl] = math.Log(f)
	}
	_, G, _ := refSoftmax(p, make([]float64, k*d), bstar)
	var lmax float64
	for _, x := range G {
		lmax = max(lmax, math.Abs(x))
	}
	W, b := make([]float64, k*d), make([]float64, k)
	for i := range W {
		W[i] = float64(i%5) - 2
	}
	var ws Workspace
	res := ws.Softmax(p.design(), p.label, k, p.c, W, b, withLambda(tight, 1.5*lmax))
	for i, v := range W {
		if v != 0 {
			t.Errorf("W[%d] = %g, want exactly 0 (%+v)", i, v, res)
		}
	}
	if diff := maxAbsDiff(centred(b), centred(bstar)); diff > 1e-8 {
		t.Errorf("b = %v, want the log frequencies %v up to a shift", b, bstar)
	}
}

// sparseProblem returns a binary problem of 200 rows whose sides depend on
// features 0 and 1 only; features 2–5 are noise.
func sparseProblem() *problem {
	p := binaryProblem(9, 200, 6, false)
	rng := newRand(10)
	for n, x := range p.rows {
		p.sides[n] = 3*x[0]-3*x[1]+rng.NormFloat64() > 0
	}
	return p
}

// TestSparsity: features made irrelevant get weights of exactly 0 (their
// gradients are inside [-λ, λ]), and no weight is a rounding residue.
func TestSparsity(t *testing.T) {
	const lambda = 20
	p := sparseProblem()
	w, b := make([]float64, 6), 0.0
	var ws Workspace
	ws.Logistic(p.design(), p.sides, p.c, w, &b, withLambda(tight, lambda))
	_, g, _ := refLogistic(p, w, b)
	if w[0] <= 0 || w[1] >= 0 {
		t.Errorf("signal weights %v, want w0 > 0 > w1", w[:2])
	}
	for j := 2; j < 6; j++ {
		if w[j] != 0 || math.Abs(g[j]) >= lambda {
			t.Errorf("noise feature %d: w = %g, gradient %g, want exactly 0 inside ±%v", j, w[j], g[j], lambda)
		}
	}

	// The multinomial problem: labels from features 0 and 1 only.
	const k = 3
	q := softmaxProblem(11, 200, 6, k, false)
	rng := newRand(12)
	for n, x := range q.rows {
		q.label[n] = argmax([]float64{3 * x[0], 3 * x[1], 0.5 + rng.NormFloat64()})
	}
	W, bb := make([]float64, k*6), make([]float64, k)
	ws.Softmax(q.design(), q.label, k, q.c, W, bb, withLambda(tight, lambda))
	for i, v := range W {
		if j := i % 6; j >= 2 && v != 0 {
			t.Errorf("noise feature %d of class %d: W = %g, want exactly 0", j, i/6, v)
		}
		if v != 0 && math.Abs(v) < 1e-8 {
			t.Errorf("W[%d] = %g: a rounding residue", i, v)
		}
	}
	if W[0] == 0 || W[6+1] == 0 {
		t.Errorf("signal weights of W are 0: %v", W)
	}
}

// TestRandomProblems: problems of random sizes, penalties, feature scales
// (1e-3 to 1e3), inner sweeps and far warm starts reach the optimum, with
// a Result that agrees with the violation and objective computed afresh
// at the returned point, and an objective below the warm start's.
func TestRandomProblems(t *testing.T) {
	var ws Workspace
	for seed := uint64(1000); seed < 1080; seed++ {
		rng := newRand(seed)
		n := []int{15, 40, 100, 300}[rng.IntN(4)]
		d := 1 + rng.IntN(10)
		lambda := []float64{0, 0.01, 0.1, 1, 10}[rng.IntN(5)]
		scale := []float64{1e-3, 1, 30, 1e3}[rng.IntN(4)]
		o := Options{Lambda: lambda, Tol: 1e-12, MaxIter: 3000, InnerSweeps: []int{0, 1, 2, 5}[rng.IntN(4)]}
		name := fmt.Sprintf("seed %d, N=%d D=%d λ=%g scale %g sweeps %d", seed, n, d, lambda, scale, o.InnerSweeps)
		check := func(kind string, res Result, before, fresh, obj, ref float64, finite bool) {
			t.Helper()
			tol := 1e-6 * max(1, scale)
			switch {
			case !finite:
				t.Errorf("%s %s: not finite", kind, name)
			case ref > tol:
				t.Errorf("%s %s: KKT violation %g (%+v)", kind, name, ref, res)
			case math.Abs(res.Violation-fresh) > tol:
				t.Errorf("%s %s: Result.Violation %g, %g afresh", kind, name, res.Violation, fresh)
			case math.Abs(res.Objective-obj) > 1e-9*max(1, obj) || res.Objective > before:
				t.Errorf("%s %s: Result.Objective %.15g, %.15g afresh, %.15g at the warm start", kind, name, res.Objective, obj, before)
			}
		}

		p := binaryProblem(seed, n, d, true)
		for _, x := range p.rows {
			for j := range x {
				x[j] *= scale
			}
		}
		X := p.design()
		w, b := make([]float64, d), rng.NormFloat64()
		for j := range w {
			w[j] = 3 * rng.NormFloat64()
		}
		before := LogisticObjective(X, p.sides, p.c, w, b, lambda)
		res := ws.Logistic(X, p.sides, p.c, w, &b, o)
		_, g, gb := refLogistic(p, w, b)
		check("logistic", res, before, LogisticViolation(X, p.sides, p.c, w, b, lambda),
			LogisticObjective(X, p.sides, p.c, w, b, lambda), refViolation(g, []float64{gb}, w, lambda),
			allFinite(w, []float64{b}))

		k := 2 + rng.IntN(5)
		q := softmaxProblem(seed, n, d, k, true)
		for _, x := range q.rows {
			for j := range x {
				x[j] *= scale
			}
		}
		Y := q.design()
		W, bb := make([]float64, k*d), make([]float64, k)
		for i := range W {
			W[i] = rng.NormFloat64()
		}
		before = SoftmaxObjective(Y, q.label, k, q.c, W, bb, lambda)
		res = ws.Softmax(Y, q.label, k, q.c, W, bb, o)
		_, G, gbb := refSoftmax(q, W, bb)
		check("softmax", res, before, SoftmaxViolation(Y, q.label, k, q.c, W, bb, lambda),
			SoftmaxObjective(Y, q.label, k, q.c, W, bb, lambda), refViolation(G, gbb, W, lambda),
			allFinite(W, bb))
	}
}
