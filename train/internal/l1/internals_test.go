package l1

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

// TestGradients: the gradients behind the violation functions, and those
// the solvers compute, match central differences of the objectives.
func TestGradients(t *testing.T) {
	const h = 1e-5
	close := func(name string, fd, g float64) {
		t.Helper()
		if math.Abs(fd-g) > 1e-6*max(1, math.Abs(g)) {
			t.Errorf("%s: gradient %.12g, central difference %.12g", name, g, fd)
		}
	}
	rng := newRand(12)

	p := binaryProblem(13, 80, 4, false)
	X := p.design()
	w := []float64{0.7, -1.2, 0.1, 2}
	b := 0.3
	g, gb := logisticGradient(X, p.sides, p.c, w, b)
	f := func(w []float64, b float64) float64 { return LogisticObjective(X, p.sides, p.c, w, b, 0) }
	for j := range w {
		wp, wm := slices.Clone(w), slices.Clone(w)
		wp[j] += h
		wm[j] -= h
		close(fmt.Sprintf("logistic w[%d]", j), (f(wp, b)-f(wm, b))/(2*h), g[j])
	}
	close("logistic b", (f(w, b+h)-f(w, b-h))/(2*h), gb)
	var ws Workspace
	ws.rows(X.N, X.D)
	ws.logisticSetup(X, p.sides, w, b)
	ws.logisticCurvature(p.c)
	if sgb := ws.gradient(X); math.Abs(sgb-gb) > 1e-10 || maxAbsDiff(ws.g[:X.D], g) > 1e-10 {
		t.Errorf("the solver's gradient %v, %v; the violation's %v, %v", ws.g[:X.D], sgb, g, gb)
	}

	const k, d = 4, 3
	q := softmaxProblem(14, 80, d, k, false)
	Y := q.design()
	W, bb := make([]float64, k*d), make([]float64, k)
	for i := range W {
		W[i] = rng.NormFloat64()
	}
	for i := range bb {
		bb[i] = rng.NormFloat64()
	}
	G, gbb := softmaxGradient(Y, q.label, k, q.c, W, bb)
	F := func(W, b []float64) float64 { return SoftmaxObjective(Y, q.label, k, q.c, W, b, 0) }
	for i := range W {
		wp, wm := slices.Clone(W), slices.Clone(W)
		wp[i] += h
		wm[i] -= h
		close(fmt.Sprintf("softmax W[%d]", i), (F(wp, bb)-F(wm, bb))/(2*h), G[i])
	}
	for cl := range bb {
		bp, bm := slices.Clone(bb), slices.Clone(bb)
		bp[cl] += h
		bm[cl] -= h
		close(fmt.Sprintf("softmax b[%d]", cl), (F(W, bp)-F(W, bm))/(2*h), gbb[cl])
	}
	// The solver's: of all classes at once, and of each class's block.
	ws.softmaxSetup(Y, q.label, k, W, bb)
	ws.softmaxViolation(Y, q.label, q.c, W, 0)
	if diff := maxAbsDiff(ws.gall[:k*d], G); diff > 1e-10 {
		t.Errorf("the solver's full gradient differs by %g", diff)
	}
	for cl := range k {
		ws.classCurvature(q.label, cl, q.c)
		sgb := ws.gradient(Y)
		if math.Abs(sgb-gbb[cl]) > 1e-10 || maxAbsDiff(ws.g[:d], G[cl*d:(cl+1)*d]) > 1e-10 {
			t.Errorf("class %d: the solver's block gradient %v, %v; the violation's %v, %v", cl, ws.g[:d], sgb, G[cl*d:(cl+1)*d], gbb[cl])
		}
	}
}

// TestLossChange: the line search's change of a row's loss matches the
// difference of losses where that is accurate, and the first-order change
// where the step is tiny.
func TestLossChange(t *testing.T) {
	for _, u := range []float64{-800, -50, -5, -0.3, 0, 3, 40, 800} {
		sig, sbar := sigmoid(u), sigmoid(-u)
		for _, dz := range []float64{-1000, -30, -1, -1e-9, 0, 1e-9, 2, 50, 699, 800} {
			d, _, ok := lossChange(sig, sbar, dz)
			want := softplus(u+dz) - softplus(u)
			scale := max(1, softplus(u+dz), softplus(u))
			if !ok {
				// Only a probability that underflowed may be unrepresentable.
				if sig > 0 && sbar > 0 {
					t.Errorf("u=%v dz=%v: no change computed", u, dz)
				}
				continue
			}
			if math.Abs(d-want) > 1e-12*scale {
				t.Errorf("u=%v dz=%v: change %v, difference of losses %v", u, dz, d, want)
			}
			if math.Abs(dz) < 1e-6 && math.Abs(d-sig*dz) > 1e-6*math.Abs(sig*dz) {
				t.Errorf("u=%v dz=%v: change %v, first order %v", u, dz, d, sig*dz)
			}
		}
	}
}

// TestCDModes: the sweeps on the rows and on the Gram matrix reach the
// same solution, and each leaves r = X(wn - w) + (bn - b).
func TestCDModes(t *testing.T) {
	const d = 6
	p := binaryProblem(25, 150, d, true)
	X := p.design()
	if gramCheaper(d, 1) || !gramCheaper(d, DefaultInnerSweeps) {
		t.Fatal("the test needs one sweep to scan the rows and the default to form the Gram matrix")
	}
	solve := func(sweeps int) ([]float64, float64) {
		w, b := make([]float64, d), 0.0
		var ws Workspace
		ws.Logistic(X, p.sides, p.c, w, &b, Options{Lambda: 0.5, Tol: 1e-12, MaxIter: 5000, InnerSweeps: sweeps})
		return w, b
	}
	w1, b1 := solve(1)
	w2, b2 := solve(0)
	if diff := max(maxAbsDiff(w1, w2), math.Abs(b1-b2)); diff > 1e-8 {
		t.Errorf("rows %v %v, Gram %v %v", w1, b1, w2, b2)
	}

	w := []float64{0.5, 0, -1, 0, 2, 0.1}
	b := 0.2
	for _, gram := range []bool{false, true} {
		var ws Workspace
		ws.rows(X.N, X.D)
		ws.logisticSetup(X, p.sides, w, b)
		ws.logisticCurvature(p.c)
		gb := ws.gradient(X)
		active := []int{0, 1, 2, 3, 4, 5}
		copy(ws.wn, w)
		var bn float64
		if gram {
			bn = ws.cdGram(X, active, w, b, gb, 0.5, 1e-12, 50)
		} else {
			bn = ws.cdRows(X, active, w, b, gb, 0.5, 1e-12, 50)
		}
		for n := range X.N {
			z := bn - b
			for j, col := range X.Cols {
				z += (ws.wn[j] - w[j]) * col[n]
			}
			if math.Abs(ws.r[n]-z) > 1e-12*max(1, math.Abs(z)) {
				t.Fatalf("gram %v: r[%d] = %v, want %v", gram, n, ws.r[n], z)
			}
		}
	}
}

// TestEdgeCases: one class, no rows, no weight, no features.
func TestEdgeCases(t *testing.T) {
	var ws Workspace
	q := softmaxProblem(23, 30, 3, 2, false)
	Y := q.design()
	W, b := []float64{1, 2, 3}, []float64{4}
	res := ws.Softmax(Y, make([]int, 30), 1, nil, W, b, Options{})
	if slices.ContainsFunc(W, func(v float64) bool { return v != 0 }) || b[0] != 0 || res != (Result{}) {
		t.Errorf("one class: W=%v b=%v %+v", W, b, res)
	}

	empty := Gather(nil, 3, nil)
	w, bb := []float64{1, 0, -2}, 0.5
	res = ws.Logistic(empty, nil, nil, w, &bb, Options{Lambda: 1})
	if !slices.Equal(w, []float64{1, 0, -2}) || bb != 0.5 || res.Iterations != 0 || res.Objective != 3 || res.Violation != 1 {
		t.Errorf("no rows: w=%v b=%v %+v", w, bb, res)
	}

	zero := make([]float64, 30)
	W, b = []float64{1, 0, 0, 0, 0, 2}, []float64{0.5, -0.5}
	res = ws.Softmax(Y, q.label, 2, zero, W, b, Options{Lambda: 1})
	if !slices.Equal(W, []float64{1, 0, 0, 0, 0, 2}) || !slices.Equal(b, []float64{0.5, -0.5}) || res.Iterations != 0 || res.Objective != 3 {
		t.Errorf("no weight: W=%v b=%v %+v", W, b, res)
	}

	// No features: the bias alone, the log-odds.
	p := binaryProblem(24, 50, 0, false)
	var pos, all float64
	for n, s := range p.sides {
		all += p.c[n]
		if s {
			pos += p.c[n]
		}
	}
	var b0 float64
	ws.Logistic(&Design{N: 50}, p.sides, p.c, nil, &b0, tight)
	if want := math.Log(pos / (all - pos)); math.Abs(b0-want) > 1e-9 {
		t.Errorf("no features: b = %v, want %v", b0, want)
	}
}

// TestGather: the columns of a row-major matrix, of all rows or some.
func TestGather(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12} // 4 rows of 3
	X := Gather(x, 3, nil)
	if X.N != 4 || X.D != 3 || !slices.Equal(X.Cols[1], []float64{2, 5, 8, 11}) {
		t.Errorf("all rows: %+v", X)
	}
	X.Load(x, 3, []int{3, 0})
	if X.N != 2 || !slices.Equal(X.Cols[0], []float64{10, 1}) || !slices.Equal(X.Cols[2], []float64{12, 3}) {
		t.Errorf("rows 3, 0: %+v", X)
	}
}

// TestPanics: mismatched arguments are reported.
func TestPanics(t *testing.T) {
	X := Gather([]float64{1, 2, 3, 4}, 2, nil)
	var ws Workspace
	var b float64
	for name, f := range map[string]func(){
		"sides":  func() { ws.Logistic(X, []bool{true}, nil, make([]float64, 2), &b, Options{}) },
		"w":      func() { ws.Logistic(X, []bool{true, false}, nil, make([]float64, 3), &b, Options{}) },
		"weight": func() { ws.Logistic(X, []bool{true, false}, []float64{1, -1}, make([]float64, 2), &b, Options{}) },
		"label":  func() { ws.Softmax(X, []int{0, 2}, 2, nil, make([]float64, 4), make([]float64, 2), Options{}) },
		"W":      func() { ws.Softmax(X, []int{0, 1}, 2, nil, make([]float64, 3), make([]float64, 2), Options{}) },
		"lambda": func() { ws.Logistic(X, []bool{true, false}, nil, make([]float64, 2), &b, Options{Lambda: -1}) },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			f()
		}()
	}
}
