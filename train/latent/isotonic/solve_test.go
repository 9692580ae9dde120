package isotonic

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// kktTol is the tolerance of the KKT conditions and of the comparisons
// with the brute force.
const kktTol = 1e-9

// checkSolution checks s against in: the KKT conditions, z* = clip(q, 0, a*),
// the groups (connected, one value each) and that a reused Solution gives
// the same bits.
func checkSolution(t *testing.T, in instance, s, reused *Solution) bool {
	t.Helper()
	T := in.tree.Len()
	if k := checkKKT(in, s.A); k.worst > kktTol {
		t.Errorf("KKT violated by %g: %s\n%v\na = %v", k.worst, k.where, in, s.A)
		return false
	}
	for i := range in.n {
		for u := range T {
			if z, want := s.Z[i*T+u], min(max(in.q[i*T+u], 0), s.A[u]); z != want {
				t.Errorf("Z[%d,%d] = %v, want %v", i, u, z, want)
				return false
			}
		}
	}
	for u := range T {
		g := s.Group(u)
		if s.A[u] != s.A[g] || g > u || (g != u && s.Group(in.tree.Parent[u]) != g) {
			t.Errorf("node %d: group %d is not a connected group of one value\n%v", u, g, in)
			return false
		}
	}
	reused.Solve(in.tree, in.eta, in.q, in.n)
	if !slices.Equal(reused.A, s.A) || !slices.Equal(reused.Z, s.Z) {
		t.Errorf("a reused Solution differs\n%v", in)
		return false
	}
	return true
}

// TestSolveRandom checks Solve on random instances against the KKT
// conditions, and the small ones against a brute force over all partitions
// of the tree. The values are drawn to make ties (between q's, q and η, q
// and 0 or 1) and clipped groups.
func TestSolveRandom(t *testing.T) {
	families := []struct {
		name  string
		count int
		tree  func(r *rand.Rand) Tree
		maxN  int
		brute bool
		draw  func(r *rand.Rand, tr Tree, maxN int) instance
	}{
		{"rewards", 2000, func(r *rand.Rand) Tree { return Heap(1 + r.IntN(6)) }, 64, false, func(r *rand.Rand, tr Tree, maxN int) instance {
			depth := 0
			for T := tr.Len(); T > 1; T /= 2 {
				depth++
			}
			sigma := []float64{0, 0.3, 1, 3}[r.IntN(4)]
			return rewardsInstance(r, depth, 1+r.IntN(maxN), sigma, 1+r.ExpFloat64(), randomDraw(r))
		}},
		{"heap1", 800, func(*rand.Rand) Tree { return Heap(1) }, 64, false, nil},
		{"heap2", 1500, func(*rand.Rand) Tree { return Heap(2) }, 64, false, nil},
		{"heap3", 1500, func(*rand.Rand) Tree { return Heap(3) }, 64, false, nil},
		{"heap4", 1200, func(*rand.Rand) Tree { return Heap(4) }, 64, false, nil},
		{"heap5", 1000, func(*rand.Rand) Tree { return Heap(5) }, 64, false, nil},
		{"heap6", 800, func(*rand.Rand) Tree { return Heap(6) }, 64, false, nil},
		{"random", 2500, func(r *rand.Rand) Tree { return randomTree(r, 1+r.IntN(60)) }, 64, false, nil},
		{"brute-heap2", 1000, func(*rand.Rand) Tree { return Heap(2) }, 4, true, nil},
		{"brute-random", 3000, func(r *rand.Rand) Tree { return randomTree(r, 1+r.IntN(7)) }, 4, true, nil},
	}
	total, clipped, inner, merged, brute := 0, 0, 0, 0, 0
	for fi, f := range families {
		t.Run(f.name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(fi)))
			reused := new(Solution)
			for range f.count {
				var in instance
				if f.draw != nil {
					in = f.draw(r, f.tree(r), f.maxN)
				} else {
					in = randomInstance(r, f.tree(r), f.maxN)
				}
				s := Solve(in.tree, in.eta, in.q, in.n)
				total++
				merged += s.merges
				for g := range s.A {
					if s.nd[g].up == g {
						if s.nd[g].state == interior {
							inner++
						} else {
							clipped++
						}
					}
				}
				if !checkSolution(t, in, s, reused) {
					return
				}
				if f.brute {
					brute++
					want := bruteForce(in)
					if d := maxAbsDiff(s.A, want); d > kktTol {
						t.Fatalf("a differs from the brute force by %g\n%v\na     = %v\nbrute = %v", d, in, s.A, want)
					}
					if fs, fb := Objective(in.tree, in.eta, in.q, in.n, s.A), Objective(in.tree, in.eta, in.q, in.n, want); fs > fb+1e-12 {
						t.Fatalf("objective %v above the brute force's %v\n%v", fs, fb, in)
					}
				}
			}
		})
	}
	t.Logf("%d instances (%d against the brute force), %d merges, %d interior and %d clipped groups",
		total, brute, merged, inner, clipped)
	if total < 10000 {
		t.Errorf("only %d instances", total)
	}
}

// TestNoRows: with n = 0 the problem is the isotonic regression of η on the
// tree, clipped to [0, 1]; on a path it is the classical pool-adjacent-
// violators fit.
func TestNoRows(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 0))
	for range 500 {
		T := 1 + r.IntN(30)
		p := make([]int, T)
		p[0] = -1
		for u := 1; u < T; u++ {
			p[u] = u - 1
		}
		in := instance{tree: Tree{Parent: p}, eta: make([]float64, T)}
		d := randomDraw(r)
		for u := range in.eta {
			in.eta[u] = d.draw(r)
		}
		s := Solve(in.tree, in.eta, nil, 0)
		if want := pavPath(in.eta); maxAbsDiff(s.A, want) > kktTol {
			t.Fatalf("path: a = %v, want %v (η = %v)", s.A, want, in.eta)
		}
		if len(s.Z) != 0 {
			t.Fatalf("len(Z) = %d", len(s.Z))
		}
		if k := checkKKT(in, s.A); k.worst > kktTol {
			t.Fatalf("KKT: %s", k.where)
		}
		// The same on a random tree against the brute force.
		tr := randomTree(r, 1+r.IntN(7))
		in = instance{tree: tr, eta: make([]float64, tr.Len())}
		for u := range in.eta {
			in.eta[u] = d.draw(r)
		}
		s = Solve(in.tree, in.eta, []float64{}, 0)
		if want := bruteForce(in); maxAbsDiff(s.A, want) > kktTol {
			t.Fatalf("tree %v: a = %v, want %v (η = %v)", tr.Parent, s.A, want, in.eta)
		}
	}
}

// TestEdgeCases covers instances whose solution is known in closed form.
func TestEdgeCases(t *testing.T) {
	inf := math.Inf(1)
	cases := []struct {
		name  string
		tree  Tree
		eta   []float64
		q     []float64 // n×T
		n     int
		wantA []float64
	}{
		{"empty tree", Tree{}, nil, nil, 3, nil},
		{"single node, no rows", Heap(0), []float64{0.3}, nil, 0, []float64{0.3}},
		{"single node, η above 1", Heap(0), []float64{7}, nil, 0, []float64{1}},
		{"single node, η below 0", Heap(0), []float64{-2}, []float64{-1, -3}, 2, []float64{0}},
		// a(0) = 0.5 ≤ 0.9, a(1) = (0.5+0.9)/2 = 0.7 > 0.2.
		{"single node, Proposition 2", Heap(0), []float64{0.5}, []float64{0.9, 0.2}, 2, []float64{0.7}},
		// a(0) = 0, a(1) = 0.4 ≤ 0.6, a(2) = (0.8+0.6)/3 = 1.4/3 > 0.1.
		{"single node, two in the support", Heap(0), []float64{0}, []float64{0.8, 0.1, 0.6}, 3, []float64{1.4 / 3}},
		// The support at a = 0.5 holds the tie q = 0.5.
		{"single node, tie", Heap(0), []float64{0.5}, []float64{0.5, 0.5}, 2, []float64{0.5}},
		{"all q negative: clip(η) made isotonic", Heap(1), []float64{0.2, 0.6, -0.4},
			[]float64{-1, -0.5, -2, -0.1, -3, -0.25}, 2, []float64{0.4, 0.4, 0}},
		// Pooled: (-5 + 3 + 9)/3 > 1.
		{"all q negative, η far", Heap(1), []float64{-5, 3, 9},
			[]float64{-1, -1, -1}, 1, []float64{1, 1, 1}},
		{"all q negative, η far below", Heap(1), []float64{-5, 3, 1},
			[]float64{-1, -1, -1}, 1, []float64{0, 0, 0}},
		{"η ≥ 1 and q ≥ 1: all 1", Heap(2), []float64{1, 2, 1, 5, 1, 1, 3},
			[]float64{1, 1.5, 2, 1, 1, 9, 1, 4, 1, 1, 1, 1, 1, 1}, 2, []float64{1, 1, 1, 1, 1, 1, 1}},
		{"q = +Inf forces 1", Heap(1), []float64{-3, -3, 0.5},
			[]float64{inf, inf, 0.25}, 1, []float64{1, 1, 0.5}},
		{"q = -Inf is inert", Heap(1), []float64{0.5, 0.25, 0.75},
			[]float64{math.Inf(-1), math.Inf(-1), math.Inf(-1)}, 1, []float64{0.625, 0.25, 0.625}},
		{"ties everywhere", Heap(2), []float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5},
			[]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 2,
			[]float64{0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}},
		// Children 0.9 > root 0.1: the larger child (2) pools first,
		// {0, 2} = 0.5; child 1 still violates, {0, 1, 2} = 0.6.
		{"pooling order", Heap(1), []float64{0.1, 0.8, 0.9}, nil, 0, []float64{0.6, 0.6, 0.6}},
		// Equal children both pool: {0, 1} = 0.5 first, then 1.6/3.
		{"equal violators", Heap(1), []float64{0.2, 0.7, 0.7}, nil, 0, []float64{1.6 / 3, 1.6 / 3, 1.6 / 3}},
		// A child equal to its pooled parent stays a group of its own.
		{"equal child not pooled", Heap(1), []float64{0.5, 0.5, 0.2}, nil, 0, []float64{0.5, 0.5, 0.2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Solve(c.tree, c.eta, c.q, c.n)
			if d := maxAbsDiff(s.A, c.wantA); d > 1e-15 || len(s.A) != len(c.wantA) {
				t.Fatalf("a = %v, want %v", s.A, c.wantA)
			}
			T := c.tree.Len()
			for j, v := range c.q {
				if z, want := s.Z[j], min(max(v, 0), c.wantA[j%T]); math.Abs(z-want) > 1e-15 {
					t.Fatalf("Z[%d] = %v, want %v", j, z, want)
				}
			}
			in := instance{tree: c.tree, eta: c.eta, q: c.q, n: c.n}
			if !slices.Contains(c.q, inf) {
				if k := checkKKT(in, s.A); k.worst > kktTol {
					t.Fatalf("KKT: %s", k.where)
				}
			}
			gEta, gQ := s.Backward(nil, nil)
			if len(gEta) != T || len(gQ) != c.n*T || slices.ContainsFunc(gEta, func(v float64) bool { return v != 0 }) {
				t.Fatalf("Backward(nil, nil) = %v, %v", gEta, gQ)
			}
		})
	}
}

// TestGroups checks the partition on an instance whose pooling is known:
// in "equal child not pooled" node 1 equals the root but is a group of its
// own, and in "ties everywhere" nothing pools.
func TestGroups(t *testing.T) {
	s := Solve(Heap(1), []float64{0.5, 0.5, 0.2}, nil, 0)
	if s.Group(1) != 1 || s.Group(2) != 2 || s.merges != 0 {
		t.Errorf("groups %d %d, merges %d", s.Group(1), s.Group(2), s.merges)
	}
	s = Solve(Heap(1), []float64{0.1, 0.8, 0.9}, nil, 0)
	if s.Group(1) != 0 || s.Group(2) != 0 || s.merges != 2 {
		t.Errorf("groups %d %d, merges %d", s.Group(1), s.Group(2), s.merges)
	}
}

// TestPanics checks the input validation.
func TestPanics(t *testing.T) {
	cases := []struct {
		name string
		f    func()
	}{
		{"bad root", func() { Solve(Tree{Parent: []int{0}}, []float64{0}, nil, 0) }},
		{"parent after child", func() { Solve(Tree{Parent: []int{-1, 2, 0}}, []float64{0, 0, 0}, nil, 0) }},
		{"eta length", func() { Solve(Heap(1), []float64{0}, nil, 0) }},
		{"q length", func() { Solve(Heap(0), []float64{0}, []float64{1}, 2) }},
		{"eta infinite", func() { Solve(Heap(0), []float64{math.Inf(1)}, nil, 0) }},
		{"q NaN", func() { Solve(Heap(0), []float64{0}, []float64{math.NaN()}, 1) }},
		{"gA length", func() { Solve(Heap(0), []float64{0}, nil, 0).Backward([]float64{1, 2}, nil) }},
		{"gZ length", func() { Solve(Heap(0), []float64{0}, []float64{1}, 1).Backward(nil, []float64{1, 2}) }},
		{"heap depth", func() { Heap(-1) }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("no panic")
				}
			}()
			c.f()
		})
	}
}
