package isotonic

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// prop2 returns Proposition 2's solution of the one-dimensional problem
// (8) for the η and q of a group: k* and clip(a(k*), 0, 1), from one sort
// of all its q.
func prop2(etas, qs []float64) (kStar int, a float64) {
	qs = slices.Clone(qs)
	slices.SortFunc(qs, func(x, y float64) int { return -cmpFloat(x, y) })
	sum := 0.0
	for _, e := range etas {
		sum += e
	}
	for k := 0; ; k++ {
		ak := sum / float64(len(etas)+k)
		if k == len(qs) || ak > qs[k] {
			return k, min(max(ak, 0), 1)
		}
		sum += qs[k]
	}
}

func cmpFloat(x, y float64) int {
	switch {
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// TestWalkFromAnyState pools all the nodes of an instance into one group
// with random cursors and checks settle against Proposition 2: the value,
// and the support's size k* where no q is within 1e-12 of the value.
func TestWalkFromAnyState(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 0))
	compared := 0
	for range 5000 {
		in := randomInstance(r, randomTree(r, 1+r.IntN(12)), 40)
		T := in.tree.Len()
		s := Solve(in.tree, in.eta, in.q, in.n)
		// Only the entries are kept: the groups' sums are rebuilt.
		g := 0
		d := &s.nd[g]
		d.next, d.size, d.hiCnt, d.kin = -1, 0, 0, 0
		d.sumEta, d.sumHi, d.sum01, d.sumIn = 0, 0, 0, 0
		perm := r.Perm(T)
		prev := -1
		for _, u := range perm {
			if u == g {
				continue
			}
			if prev < 0 {
				d.next = u
			} else {
				s.nd[prev].next = u
			}
			s.nd[u].next = -1
			prev = u
		}
		for u := g; u >= 0; u = s.nd[u].next {
			c := r.IntN(s.nd[u].nEnt + 1)
			s.nd[u].cur = c
			d.size++
			d.hiCnt += s.nd[u].nHi
			d.kin += c
			d.sumEta += in.eta[u]
			for _, e := range s.highs(u) {
				d.sumHi += e.v
			}
			d.sum01 += s.prefix(u)[s.nd[u].nEnt]
			d.sumIn += s.prefix(u)[c]
		}
		s.settle(g)

		kStar, want := prop2(in.eta, in.q)
		if math.Abs(d.val-want) > 1e-12 {
			t.Fatalf("value %v, Proposition 2 %v\n%v", d.val, want, in)
		}
		if d.state != interior {
			continue
		}
		if slices.ContainsFunc(in.q, func(v float64) bool { return math.Abs(v-d.val) < 1e-12 }) {
			continue
		}
		compared++
		if got := d.hiCnt + d.kin; got != kStar {
			t.Fatalf("support of %d, Proposition 2's k* = %d\n%v", got, kStar, in)
		}
		for u := range T {
			for j, e := range s.entries(u) {
				if (j < s.nd[u].cur) != (e.v >= d.val) {
					t.Fatalf("node %d: entry %v, cursor %d, a = %v", u, e.v, s.nd[u].cur, d.val)
				}
			}
		}
	}
	t.Logf("%d supports compared", compared)
}

// TestSortDesc checks the merge sort against a stable sort of the
// standard library, on lengths around the insertion runs and with ties.
func TestSortDesc(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 0))
	var buf []entry
	for _, m := range []int{0, 1, 2, insertionRun - 1, insertionRun, insertionRun + 1, 2 * insertionRun, 100, 1000, 4097} {
		for range 20 {
			x := make([]entry, m)
			for i := range x {
				x[i] = entry{float64(r.IntN(1 + m/3)), int32(i)}
				if r.IntN(2) == 0 {
					x[i].v = r.Float64()
				}
			}
			want := slices.Clone(x)
			slices.SortStableFunc(want, func(a, b entry) int { return -cmpFloat(a.v, b.v) })
			buf = sortDesc(x, buf)
			if !slices.Equal(x, want) {
				t.Fatalf("length %d: sortDesc differs from a stable sort", m)
			}
		}
	}
}
