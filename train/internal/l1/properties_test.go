package l1

import (
	"math"
	"slices"
	"testing"
)

// TestWarmStart: solving again from a solution takes at most one outer
// iteration and returns the same point.
func TestWarmStart(t *testing.T) {
	o := Options{Lambda: 0.5, Tol: 1e-9}
	var ws Workspace
	p := binaryProblem(15, 200, 5, true)
	X := p.design()
	w, b := make([]float64, 5), 0.0
	ws.Logistic(X, p.sides, p.c, w, &b, o)
	w2, b2 := slices.Clone(w), b
	res := ws.Logistic(X, p.sides, p.c, w2, &b2, o)
	if res.Iterations > 1 || maxAbsDiff(w, w2) > 1e-8 || math.Abs(b-b2) > 1e-8 {
		t.Errorf("logistic: %d iterations from the solution, moved by %g", res.Iterations, max(maxAbsDiff(w, w2), math.Abs(b-b2)))
	}

	const k = 4
	q := softmaxProblem(16, 200, 5, k, true)
	Y := q.design()
	W, bb := make([]float64, k*5), make([]float64, k)
	ws.Softmax(Y, q.label, k, q.c, W, bb, o)
	W2, bb2 := slices.Clone(W), slices.Clone(bb)
	res = ws.Softmax(Y, q.label, k, q.c, W2, bb2, o)
	if res.Iterations > 1 || maxAbsDiff(W, W2) > 1e-8 || maxAbsDiff(bb, bb2) > 1e-8 {
		t.Errorf("softmax: %d iterations from the solution, moved by %g", res.Iterations, max(maxAbsDiff(W, W2), maxAbsDiff(bb, bb2)))
	}
}

// TestMonotone: the returned objective never exceeds the objective at the
// warm start, whatever the budget, and is the objective at the returned
// point.
func TestMonotone(t *testing.T) {
	var ws Workspace
	for trial := range 12 {
		seed := uint64(200 + trial)
		rng := newRand(seed)
		lambda := []float64{0, 0.01, 1, 10}[trial%4]
		o := Options{Lambda: lambda, MaxIter: 1 + trial%5, InnerSweeps: 1 + trial%3}

		p := binaryProblem(seed, 100, 6, false)
		X := p.design()
		w, b := make([]float64, 6), 3*rng.NormFloat64()
		for j := range w {
			w[j] = 4 * rng.NormFloat64()
		}
		before := LogisticObjective(X, p.sides, p.c, w, b, lambda)
		res := ws.Logistic(X, p.sides, p.c, w, &b, o)
		after := LogisticObjective(X, p.sides, p.c, w, b, lambda)
		if res.Objective > before || math.Abs(res.Objective-after) > 1e-9*after {
			t.Errorf("logistic trial %d: objective %.15g from %.15g, %.15g at the point returned", trial, res.Objective, before, after)
		}

		const k = 4
		q := softmaxProblem(seed, 100, 6, k, false)
		Y := q.design()
		W, bb := make([]float64, k*6), make([]float64, k)
		for i := range W {
			W[i] = 4 * rng.NormFloat64()
		}
		for i := range bb {
			bb[i] = 3 * rng.NormFloat64()
		}
		before = SoftmaxObjective(Y, q.label, k, q.c, W, bb, lambda)
		res = ws.Softmax(Y, q.label, k, q.c, W, bb, o)
		after = SoftmaxObjective(Y, q.label, k, q.c, W, bb, lambda)
		if res.Objective > before || math.Abs(res.Objective-after) > 1e-9*after {
			t.Errorf("softmax trial %d: objective %.15g from %.15g, %.15g at the point returned", trial, res.Objective, before, after)
		}
	}
}

// TestSeparable: on separable data with λ = 0.01 (an optimum far away) the
// solvers stop at MaxIter with finite results and a lower objective, even
// with large features.
func TestSeparable(t *testing.T) {
	const lambda = 0.01
	o := Options{Lambda: lambda, MaxIter: 100}
	var ws Workspace
	for _, scale := range []float64{1, 1e3} {
		p := binaryProblem(17, 300, 4, false)
		for n, x := range p.rows {
			for j := range x {
				x[j] *= scale
			}
			p.sides[n] = x[0]+x[1] > 0
		}
		X := p.design()
		w, b := make([]float64, 4), 0.0
		before := LogisticObjective(X, p.sides, p.c, w, b, lambda)
		res := ws.Logistic(X, p.sides, p.c, w, &b, o)
		if !allFinite(w, []float64{b, res.Objective, res.Violation}) || !(res.Objective < before) {
			t.Errorf("logistic, scale %g: w=%v b=%v %+v (objective %v at 0)", scale, w, b, res, before)
		}

		// Four classes, one of them absent (its bias goes to -∞ as far as
		// the iterations allow).
		const k = 4
		q := softmaxProblem(18, 300, 4, k, false)
		for n, x := range q.rows {
			for j := range x {
				x[j] *= scale
			}
			q.label[n] = argmax([]float64{x[0], x[1], x[2], -1e9})
		}
		Y := q.design()
		W, bb := make([]float64, k*4), make([]float64, k)
		before = SoftmaxObjective(Y, q.label, k, q.c, W, bb, lambda)
		res = ws.Softmax(Y, q.label, k, q.c, W, bb, o)
		if !allFinite(W, bb, []float64{res.Objective, res.Violation}) || !(res.Objective < before) {
			t.Errorf("softmax, scale %g: W=%v b=%v %+v (objective %v at 0)", scale, W, bb, res, before)
		}
		if after := SoftmaxObjective(Y, q.label, k, q.c, W, bb, lambda); math.Abs(after-res.Objective) > 1e-8*max(1, after) {
			t.Errorf("softmax, scale %g: Result.Objective %v, %v at the point", scale, res.Objective, after)
		}
	}
}

// TestWeights: a weight of 2 is a duplicated row.
func TestWeights(t *testing.T) {
	// duplicate gives every third row of p weight 2 and the others 1, and
	// returns the problem of unit weights with those rows twice.
	duplicate := func(p *problem) *problem {
		q := &problem{k: p.k}
		for n, x := range p.rows {
			times := 1
			if n%3 == 0 {
				times = 2
			}
			for range times {
				q.rows = append(q.rows, x)
				q.c = append(q.c, 1)
				if p.sides != nil {
					q.sides = append(q.sides, p.sides[n])
				} else {
					q.label = append(q.label, p.label[n])
				}
			}
		}
		for n := range p.c {
			p.c[n] = 1
			if n%3 == 0 {
				p.c[n] = 2
			}
		}
		return q
	}
	o := withLambda(tight, 0.01)
	var ws Workspace

	p := binaryProblem(19, 120, 4, true)
	q := duplicate(p)
	w1, w2 := make([]float64, 4), make([]float64, 4)
	var b1, b2 float64
	ws.Logistic(p.design(), p.sides, p.c, w1, &b1, o)
	ws.Logistic(q.design(), q.sides, nil, w2, &b2, o)
	if diff := max(maxAbsDiff(w1, w2), math.Abs(b1-b2)); diff > 1e-8 {
		t.Errorf("logistic: weights 2 and duplicated rows differ by %g: %v %v, %v %v", diff, w1, b1, w2, b2)
	}

	const k = 3 // odd: the median of each feature's weights, and so W, is unique
	p = softmaxProblem(20, 120, 4, k, true)
	q = duplicate(p)
	W1, W2 := make([]float64, k*4), make([]float64, k*4)
	bb1, bb2 := make([]float64, k), make([]float64, k)
	ws.Softmax(p.design(), p.label, k, p.c, W1, bb1, o)
	ws.Softmax(q.design(), q.label, k, nil, W2, bb2, o)
	if diff := max(maxAbsDiff(W1, W2), maxAbsDiff(centred(bb1), centred(bb2))); diff > 1e-8 {
		t.Errorf("softmax: weights 2 and duplicated rows differ by %g", diff)
	}
}

// TestDeterministic: a reused Workspace and a fresh one give the same bits.
func TestDeterministic(t *testing.T) {
	const k = 5
	q := softmaxProblem(21, 300, 6, k, false)
	Y := q.design()
	var used Workspace
	p := binaryProblem(22, 500, 9, false)
	w, b := make([]float64, 9), 0.0
	used.Logistic(p.design(), p.sides, p.c, w, &b, Options{Lambda: 0.01})
	solve := func(ws *Workspace) ([]float64, []float64, Result) {
		W, bb := make([]float64, k*6), make([]float64, k)
		res := ws.Softmax(Y, q.label, k, q.c, W, bb, Options{Lambda: 0.01})
		return W, bb, res
	}
	W1, b1, r1 := solve(&used)
	W2, b2, r2 := solve(new(Workspace))
	if !slices.Equal(W1, W2) || !slices.Equal(b1, b2) || r1 != r2 {
		t.Errorf("a reused Workspace gives %v %v %+v, a fresh one %v %v %+v", W1, b1, r1, W2, b2, r2)
	}
}
