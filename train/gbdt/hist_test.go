package gbdt

import (
	"math/rand/v2"
	"testing"
)

// TestAddRows checks that the histogram builder's assembly version, where
// there is one, adds exactly what the portable one adds: the same sums,
// bit for bit, and the same counts, for 1 to maxUnitGroups groups, on rows
// in and out of order, with many rows in one bin.
func TestAddRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const n = 3000
	for groups := 1; groups <= maxUnitGroups; groups++ {
		for _, bins := range []int{1, 3, 256} {
			var a, b rowAdder
			a.groups, b.groups = groups, groups
			for j := range groups {
				words := make([]uint32, n)
				for r := range words {
					for k := range 4 {
						words[r] |= uint32(rng.IntN(bins)) << (8 * k)
					}
				}
				a.words[j], b.words[j] = words, words
				for k := range 4 {
					a.slots[4*j+k] = make([]cell, bins)
					b.slots[4*j+k] = make([]cell, bins)
				}
			}
			grad := make([]gradPair, n)
			for r := range grad {
				grad[r] = gradPair{rng.NormFloat64() * 1e3, rng.Float64()}
			}
			// Most rows, or (with 256 bins) one in ten, far enough apart
			// that the assembly fetches their bins ahead.
			keep := func() bool { return rng.IntN(3) > 0 }
			if bins == 256 {
				keep = func() bool { return rng.IntN(10) == 0 }
			}
			rows := make([]int32, 0, n)
			for r := range n {
				if keep() {
					rows = append(rows, int32(r))
				}
			}
			rng.Shuffle(len(rows)/2, func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
			var ord []gradPair
			if groups%2 == 0 {
				ord = make([]gradPair, len(rows))
				for i, r := range rows {
					ord[i] = grad[r]
				}
			}
			a.addRows(rows, grad, ord)
			b.addRowsGo(rows, grad, nil)
			for s := range a.slots[:4*groups] {
				for i := range a.slots[s] {
					if a.slots[s][i] != b.slots[s][i] {
						t.Fatalf("groups %d, bins %d: slot %d of feature %d: %+v, want %+v", groups, bins, i, s, a.slots[s][i], b.slots[s][i])
					}
				}
			}
		}
	}
}
