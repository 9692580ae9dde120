package isotonic

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// benchInstance returns a batch shaped like a tree's (rewardsInstance):
// scores N(0, 1), q_root = +Inf (the minimum over no ancestors) and
// η_t ~ N(0.5, 1).
func benchInstance(depth, n int) instance {
	r := rand.New(rand.NewPCG(uint64(depth), uint64(n)))
	in := rewardsInstance(r, depth, n, 1, math.Inf(1), valueDraw{})
	for t := range in.eta {
		in.eta[t] = 0.5 + r.NormFloat64()
	}
	return in
}

var benchSizes = []struct{ depth, n int }{{6, 512}, {10, 64}}

// BenchmarkSolve: the forward pass into a reused Solution.
func BenchmarkSolve(b *testing.B) {
	for _, c := range benchSizes {
		b.Run(fmt.Sprintf("depth=%d/n=%d", c.depth, c.n), func(b *testing.B) {
			in := benchInstance(c.depth, c.n)
			s := Solve(in.tree, in.eta, in.q, in.n)
			b.ReportAllocs()
			for b.Loop() {
				s.Solve(in.tree, in.eta, in.q, in.n)
			}
			b.ReportMetric(float64(s.merges), "merges")
		})
	}
}

// BenchmarkBackward: the backward pass of dense upstream gradients into
// reused outputs.
func BenchmarkBackward(b *testing.B) {
	for _, c := range benchSizes {
		b.Run(fmt.Sprintf("depth=%d/n=%d", c.depth, c.n), func(b *testing.B) {
			in := benchInstance(c.depth, c.n)
			s := Solve(in.tree, in.eta, in.q, in.n)
			T := in.tree.Len()
			r := rand.New(rand.NewPCG(9, 9))
			gA, gZ := make([]float64, T), make([]float64, in.n*T)
			for t := range gA {
				gA[t] = r.NormFloat64()
			}
			for j := range gZ {
				gZ[j] = r.NormFloat64()
			}
			gEta, gQ := s.Backward(gA, gZ)
			b.ReportAllocs()
			for b.Loop() {
				s.BackwardInto(gEta, gQ, gA, gZ)
			}
		})
	}
}
