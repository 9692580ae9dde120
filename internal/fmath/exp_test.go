package fmath

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExpAccuracy compares Exp with math.Exp, which on amd64 is itself off
// by more than one unit in the last place at times: the two must stay within
// two units. TestExpExact pins Exp to correctly rounded values.
func TestExpAccuracy(t *testing.T) {
	special := []struct{ x, want float64 }{
		{0, 1}, {math.Copysign(0, -1), 1}, {1, math.E}, {math.Inf(1), math.Inf(1)}, {math.Inf(-1), 0},
		{710, math.Inf(1)}, {-746, 0}, {expMax, math.Exp(expMax)},
	}
	for _, s := range special {
		if got := Exp(s.x); got != s.want && math.Abs(got-s.want) > ulp(s.want) {
			t.Errorf("Exp(%v) = %v, want %v", s.x, got, s.want)
		}
	}
	if !math.IsNaN(Exp(math.NaN())) {
		t.Error("Exp(NaN) is not NaN")
	}
	r := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for i := 0; i < 1_000_000; i++ {
		var x float64
		switch i % 4 {
		case 0:
			x = r.NormFloat64()
		case 1:
			x = (r.Float64() - 0.5) * 1400
		case 2:
			x = (r.Float64() - 0.5) * 40
		default:
			x = -745 + r.Float64()*20 // subnormal results
		}
		got, want := Exp(x), math.Exp(x)
		if got == want {
			continue
		}
		d := math.Abs(got-want) / ulp(want)
		if d > worst {
			worst = d
		}
		if d > 2 {
			t.Fatalf("Exp(%v) = %v, math.Exp %v: %.2f ulp apart", x, got, want, d)
		}
	}
	t.Logf("largest difference from math.Exp: %.2f ulp", worst)
}

// TestExpExact checks Exp against values computed with 50 decimal digits
// and rounded to the nearest float64: within one unit in the last place (the
// algorithm is not correctly rounded: exp(1) is one unit high).
func TestExpExact(t *testing.T) {
	for _, c := range []struct{ x, want float64 }{
		{0.32422809288428656, 1.382962715101502}, // math.Exp on amd64: 1.3829627151015025
		{1, 2.718281828459045},
		{-1, 0.36787944117144233},
		{10, 22026.465794806718},
		{-20, 2.061153622438558e-09},
		{700, 1.0142320547350045e+304},
	} {
		if got := Exp(c.x); got != c.want && math.Abs(got-c.want) > ulp(c.want) {
			t.Errorf("Exp(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

func ulp(x float64) float64 {
	x = math.Abs(x)
	return math.Nextafter(x, math.Inf(1)) - x
}

func BenchmarkExp(b *testing.B) {
	b.ReportAllocs()
	x, s := 0.125, 0.0
	for b.Loop() {
		s += Exp(x)
		x += 1e-9
	}
	_ = s
}
