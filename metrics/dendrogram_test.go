package metrics

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDendrogramPurity checks the counting formula against the definition,
// pair by pair, on random hierarchies, and two cases by hand.
func TestDendrogramPurity(t *testing.T) {
	// Two pure leaves under a root: every same-class pair meets in a pure
	// leaf.
	if got := DendrogramPurity([][]int{{0, 1}, {0, 1}, {0, 2}, {0, 2}}, []int{0, 0, 1, 1}); got != 1 {
		t.Fatalf("pure leaves: %v, want 1", got)
	}
	// Everything at the root: each pair's purity is its class's share.
	if got, want := DendrogramPurity([][]int{{0}, {0}, {0}, {0}, {0}}, []int{0, 0, 0, 1, 1}), (3*0.6+1*0.4)/4; math.Abs(got-want) > 1e-15 {
		t.Fatalf("flat: %v, want %v", got, want)
	}
	if got := DendrogramPurity([][]int{{0}, {0}}, []int{0, 1}); !math.IsNaN(got) {
		t.Fatalf("no pair of a class: %v, want NaN", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n, classes, depth := 1+rng.IntN(40), 1+rng.IntN(4), rng.IntN(5)
		paths := make([][]int, n)
		class := make([]int, n)
		for i := range paths {
			class[i] = rng.IntN(classes)
			node := 0
			paths[i] = []int{node}
			for range rng.IntN(depth + 1) {
				node = 2*node + 1 + rng.IntN(2) // heap numbering
				paths[i] = append(paths[i], node)
			}
		}
		got, want := DendrogramPurity(paths, class), bruteDendrogramPurity(paths, class)
		if !(math.Abs(got-want) <= 1e-12) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("trial %d: %v, by the definition %v", trial, got, want)
		}
	}
}

// bruteDendrogramPurity follows the definition: for every pair of points
// of one class, the purity of the points whose paths hold their least
// common ancestor.
func bruteDendrogramPurity(paths [][]int, class []int) float64 {
	sum, pairs := 0.0, 0
	for i := range paths {
		for j := i + 1; j < len(paths); j++ {
			if class[i] != class[j] {
				continue
			}
			d := 0
			for d+1 < len(paths[i]) && d+1 < len(paths[j]) && paths[i][d+1] == paths[j][d+1] {
				d++
			}
			lca := paths[i][d]
			in, same := 0, 0
			for k, p := range paths {
				for _, node := range p {
					if node == lca {
						in++
						if class[k] == class[i] {
							same++
						}
					}
				}
			}
			sum += float64(same) / float64(in)
			pairs++
		}
	}
	if pairs == 0 {
		return math.NaN()
	}
	return sum / float64(pairs)
}
