package l1

import (
	"fmt"
	"testing"
)

// The benchmarks solve problems of the size of a TAO trainer's largest:
// 16,000 rows of 16 features, a leaf of 26 classes (letter) and a decision
// node's binary problem, both with labels drawn from a noisy linear model,
// λ = 0.01 and MaxIter 100, from a zero warm start each time, with a
// Workspace that an earlier solve has sized.

func benchmarkSoftmax(b *testing.B, o Options) {
	const n, d, k = 16000, 16, 26
	p := softmaxProblem(1, n, d, k, false)
	X := p.design()
	W, bb := make([]float64, k*d), make([]float64, k)
	var ws Workspace
	ws.Softmax(X, p.label, k, nil, W, bb, o)
	var res Result
	b.ReportAllocs()
	for b.Loop() {
		clear(W)
		clear(bb)
		res = ws.Softmax(X, p.label, k, nil, W, bb, o)
	}
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(res.Violation/n, "viol/Σc")
}

func benchmarkLogistic(b *testing.B, o Options) {
	const n, d = 16000, 16
	p := binaryProblem(2, n, d, false)
	X := p.design()
	var total float64
	for _, c := range p.c {
		total += c
	}
	w := make([]float64, d)
	var bias float64
	var ws Workspace
	ws.Logistic(X, p.sides, p.c, w, &bias, o)
	var res Result
	b.ReportAllocs()
	for b.Loop() {
		clear(w)
		bias = 0
		res = ws.Logistic(X, p.sides, p.c, w, &bias, o)
	}
	b.ReportMetric(float64(res.Iterations), "iters")
	b.ReportMetric(res.Violation/total, "viol/Σc")
}

// BenchmarkSoftmax: N = 16000, D = 16, k = 26 (all weights 1).
func BenchmarkSoftmax(b *testing.B) {
	benchmarkSoftmax(b, Options{Lambda: 0.01, MaxIter: 100})
}

// BenchmarkLogistic: N = 16000, D = 16 (random weights, some 0).
func BenchmarkLogistic(b *testing.B) {
	benchmarkLogistic(b, Options{Lambda: 0.01, MaxIter: 100})
}

// BenchmarkSweeps compares bounds on the coordinate-descent sweeps per
// quadratic model (Options.InnerSweeps): with 3 the sweeps scan the rows,
// with 10 and 50 they run on the Gram matrix.
func BenchmarkSweeps(b *testing.B) {
	for _, s := range []int{3, 10, 50} {
		o := Options{Lambda: 0.01, MaxIter: 100, InnerSweeps: s}
		b.Run(fmt.Sprintf("softmax/sweeps=%d", s), func(b *testing.B) { benchmarkSoftmax(b, o) })
		b.Run(fmt.Sprintf("logistic/sweeps=%d", s), func(b *testing.B) { benchmarkLogistic(b, o) })
	}
}
