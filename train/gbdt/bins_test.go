package gbdt

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestQuantileEdges(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name  string
		vals  []float64
		limit int
		want  []float64
	}{
		{"empty", nil, 256, nil},
		{"one value", []float64{3, 3, 3}, 256, []float64{}},
		{"few distinct values: one bin each", []float64{5, 1, 3, 1, 5}, 256, []float64{3, 5}},
		{"exactly limit distinct values", []float64{4, 3, 2, 1}, 4, []float64{2, 3, 4}},
		{"quartiles", []float64{8, 7, 6, 5, 4, 3, 2, 1}, 4, []float64{3, 5, 7}},
		{"two bins", []float64{1, 2, 3, 4, 5}, 2, []float64{3}},
		{"ties: the next value", []float64{1, 1, 1, 1, 1, 1, 2, 3}, 2, []float64{2}},
		{"ties: the next values", []float64{1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 5}, 4, []float64{2, 3, 4}},
		{"ties: values run out", []float64{1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4}, 3, []float64{2, 3}},
		{"infinities are values", []float64{-inf, 0, inf}, 256, []float64{0, inf}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := quantileEdges(slices.Clone(tt.vals), tt.limit, nil)
			if len(got) != len(tt.want) || (len(got) > 0 && !slices.Equal(got, tt.want)) {
				t.Errorf("quantileEdges(%v, %d) = %v, want %v", tt.vals, tt.limit, got, tt.want)
			}
		})
	}
}

// TestBinsAgreeWithThresholds checks, for many values and every split of a
// feature, that the bin of a value is on the same side of the split as the
// IR test of the split's threshold sends the value.
func TestBinsAgreeWithThresholds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	inf := math.Inf(1)
	for trial := range 200 {
		n := 1 + rng.IntN(600)
		vals := make([]float64, n)
		for i := range vals {
			switch rng.IntN(10) {
			case 0:
				vals[i] = inf
			case 1:
				vals[i] = -inf
			case 2:
				vals[i] = math.NaN()
			case 3:
				vals[i] = math.Copysign(0, -1)
			case 4:
				vals[i] = float64(rng.IntN(5))
			default:
				vals[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(20)-10))
			}
		}
		d := column(vals, make([]float64, n))
		bm := newBinned(d, 2+rng.IntN(255), 2)
		nb := bm.nb[0]
		for r, v := range vals {
			b := bm.bin(0, r)
			if v != v {
				if b != nb {
					t.Fatalf("trial %d: NaN in bin %d, want the missing bin %d", trial, b, nb)
				}
				continue
			}
			if b >= nb {
				t.Fatalf("trial %d: %v in bin %d of %d", trial, v, b, nb)
			}
			for split := -1; split < nb; split++ {
				if split == nb-1 && bm.posInf[0] || split == -1 && bm.negInf[0] {
					continue // never made
				}
				thr, le := bm.threshold(0, split)
				if math.IsInf(thr, 0) || math.IsNaN(thr) {
					t.Fatalf("trial %d: split %d has threshold %v", trial, split, thr)
				}
				left := v < thr
				if le {
					left = v <= thr
				}
				if left != (b <= split) {
					t.Fatalf("trial %d: value %v in bin %d; split after bin %d (x %s %v) sends it %s",
						trial, v, b, split, map[bool]string{false: "<", true: "<="}[le], thr, map[bool]string{false: "right", true: "left"}[left])
				}
			}
		}
	}
}

func TestChoose(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	counts := make([]int, 10)
	for range 10000 {
		var got []int
		choose(rng, 10, 3, func(i, v int) {
			if i != len(got) {
				t.Fatalf("index %d after %d values", i, len(got))
			}
			got = append(got, v)
		})
		if len(got) != 3 || !slices.IsSorted(got) || got[0] == got[1] || got[1] == got[2] {
			t.Fatalf("choose 3 of 10: %v", got)
		}
		for _, v := range got {
			counts[v]++
		}
	}
	for v, c := range counts {
		if c < 2700 || c > 3300 { // expected 3000 each
			t.Errorf("value %d chosen %d times in 10000 draws of 3 of 10", v, c)
		}
	}
}
