package main

import (
	"math"
	"testing"

	"github.com/treegen/treegen/train/latent/isotonic"
)

// TestADMMSolvesTheTreeProgram: the generic solver reaches Algorithm 1's
// solution, so the timings compare two solutions of one problem.
func TestADMMSolvesTheTreeProgram(t *testing.T) {
	for _, sz := range [][2]int{{1, 3}, {2, 8}, {3, 16}} {
		for seed := uint64(1); seed <= 3; seed++ {
			in := newInstance(sz[0], sz[1], seed)
			a, z := newADMM(in.tree.Parent, in.n).solve(in.q, in.eta, 50000)
			sol := isotonic.Solve(in.tree, in.eta, in.q, in.n)
			for i, v := range sol.A {
				if math.Abs(a[i]-v) > 1e-5 {
					t.Fatalf("depth %d, n %d, seed %d: a[%d] = %v, Algorithm 1 %v", sz[0], sz[1], seed, i, a[i], v)
				}
			}
			for i, v := range sol.Z {
				if math.Abs(z[i]-v) > 1e-5 {
					t.Fatalf("depth %d, n %d, seed %d: z[%d] = %v, Algorithm 1 %v", sz[0], sz[1], seed, i, z[i], v)
				}
			}
		}
	}
}
