package gbdt

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortFloats checks the radix sort against slices.Sort on values of
// every sign and magnitude, with duplicates and infinities, at lengths
// around the one where it starts.
func TestSortFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	draws := []func() float64{
		func() float64 { return r.NormFloat64() },
		func() float64 { return float64(r.IntN(7)) - 3 },
		func() float64 { return math.Ldexp(r.Float64()-0.5, r.IntN(2100)-1075) }, // subnormals to huge
		func() float64 {
			return []float64{math.Inf(1), math.Inf(-1), 0, 5e-324, -5e-324, math.MaxFloat64}[r.IntN(6)]
		},
		func() float64 { return 1 + float64(r.IntN(2000))*0x1p-52 }, // one digit differs: an odd number of passes
	}
	var scratch []uint64
	for _, n := range []int{0, 1, radixMin - 1, radixMin, radixMin + 1, 5000, 100_000} {
		for i, draw := range draws {
			vals := make([]float64, n)
			for j := range vals {
				vals[j] = draw() + 0 // no -0, as newBinned gives
			}
			want := slices.Clone(vals)
			slices.Sort(want)
			scratch = sortFloats(vals, scratch)
			for j := range vals {
				if math.Float64bits(vals[j]) != math.Float64bits(want[j]) {
					t.Fatalf("n %d, draw %d: value %d is %v, want %v", n, i, j, vals[j], want[j])
				}
			}
		}
	}
}

// TestBinOf checks the branch-free search against counting.
func TestBinOf(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for range 2000 {
		edges := make([]float64, r.IntN(300))
		for i := range edges {
			edges[i] = float64(r.IntN(500)) - 250
		}
		slices.Sort(edges)
		edges = slices.Compact(edges)
		for range 20 {
			v := float64(r.IntN(600)) - 300 + []float64{0, 0.5}[r.IntN(2)]
			want := 0
			for _, e := range edges {
				if e <= v {
					want++
				}
			}
			if got := binOf(edges, v); got != want {
				t.Fatalf("binOf(%v, %v) = %d, want %d", edges, v, got, want)
			}
		}
	}
}

// BenchmarkSortFloats compares the radix sort with slices.Sort on a
// million normal values, as a feature of a million rows gives.
func BenchmarkSortFloats(b *testing.B) {
	r := rand.New(rand.NewPCG(9, 10))
	vals := make([]float64, 1_000_000)
	for i := range vals {
		vals[i] = r.NormFloat64()
	}
	work := make([]float64, len(vals))
	for _, bb := range []struct {
		name string
		sort func()
	}{
		{"radix", func() { sortFloats(work, nil) }},
		{"slices.Sort", func() { slices.Sort(work) }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(work, vals)
				bb.sort()
			}
		})
	}
}
