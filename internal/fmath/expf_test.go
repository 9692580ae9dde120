package fmath

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestExpfGlibc compares Expf with the C library's expf on the inputs of
// testdata/expf.txt (made by testdata/make_expf.py with glibc's expf),
// bit for bit. The table holds, besides special values and a regular
// sample, hundreds of inputs where glibc's expf is not the float64 exp
// rounded to float32: the test also checks that rounding Exp would miss
// them, so that it cannot pass with the wrong function.
func TestExpfGlibc(t *testing.T) {
	f, err := os.Open("testdata/expf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n, hard, bad := 0, 0, 0
	for line := 1; sc.Scan(); line++ {
		xb, yb, err := parseBitsPair(sc.Text())
		if err != nil {
			t.Fatalf("testdata/expf.txt:%d: %v", line, err)
		}
		n++
		x, want := math.Float32frombits(xb), math.Float32frombits(yb)
		got := Expf(x)
		if math.Float32bits(got) != yb && !(got != got && want != want) {
			bad++
			if bad <= 10 {
				t.Errorf("Expf(%v) = %v (%08x), expf %v (%08x)", x, got, math.Float32bits(got), want, yb)
			}
		}
		if !math.IsNaN(float64(x)) && math.Float32bits(float32(Exp(float64(x)))) != yb {
			hard++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if bad > 10 {
		t.Errorf("%d of %d inputs differ", bad, n)
	}
	if n < 2000 || hard < 100 {
		t.Errorf("testdata/expf.txt has %d inputs, %d where float32(Exp(x)) differs from expf: want at least 2000 and 100", n, hard)
	}
}

// parseBitsPair reads a line "XXXXXXXX YYYYYYYY" of two float32s' bits.
func parseBitsPair(s string) (x, y uint32, err error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("%d fields, want 2", len(f))
	}
	a, err := strconv.ParseUint(f[0], 16, 32)
	if err != nil {
		return 0, 0, fmt.Errorf("input %q is not 8 hexadecimal digits", f[0])
	}
	b, err := strconv.ParseUint(f[1], 16, 32)
	if err != nil {
		return 0, 0, fmt.Errorf("result %q is not 8 hexadecimal digits", f[1])
	}
	return uint32(a), uint32(b), nil
}

// TestExpfSpecial pins the special cases: NaN, ±Inf, overflow, underflow,
// the least subnormal, and exact values.
func TestExpfSpecial(t *testing.T) {
	inf := float32(math.Inf(1))
	tests := []struct {
		x, want float32
	}{
		{0, 1},
		{float32(math.Copysign(0, -1)), 1},
		{inf, inf},
		{-inf, 0},
		{88.8, inf},
		{math.MaxFloat32, inf},
		{-104, 0},
		{-math.MaxFloat32, 0},
		{-103.5, 0x1p-149},
	}
	for _, tt := range tests {
		got := Expf(tt.x)
		if math.Float32bits(got) != math.Float32bits(tt.want) {
			t.Errorf("Expf(%v) = %v, want %v", tt.x, got, tt.want)
		}
	}
	if got := Expf(float32(math.NaN())); got == got {
		t.Errorf("Expf(NaN) = %v, want NaN", got)
	}
}

// ExampleExpf shows the bits of XGBoost's float32 exponential, and one
// input where the float64 exponential rounded to float32 is one unit away.
func ExampleExpf() {
	fmt.Println(Expf(1), Expf(-1))
	x := math.Float32frombits(0x3a9efd4e) // 0.0012129934
	fmt.Printf("expf %08x, rounded exp %08x\n", math.Float32bits(Expf(x)), math.Float32bits(float32(Exp(float64(x)))))
	// Output:
	// 2.7182817 0.36787945
	// expf 3f8027c6, rounded exp 3f8027c5
}
