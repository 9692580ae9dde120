package fmath

import "math"

// Expf's constants: 2^(i/32) for i = 0..31, correctly rounded to float64,
// stored as their bits minus i<<47 so that adding k<<47 for k = 32q + i
// gives the bits of 2^(k/32); 32/ln 2; the shift that rounds to an integer;
// and the coefficients of the cubic approximation of 2^(r/32) - 1 on
// [-1/2, 1/2].
var expfTable = [32]uint64{
	0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
	0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
	0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
	0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
	0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
	0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
	0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
	0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540,
}

// ExpfTable returns Expf's table: 2^(i/32) for i = 0..31, correctly
// rounded to float64, each as its bits minus i<<47. Generated code that
// computes Expf emits it.
func ExpfTable() [32]uint64 { return expfTable }

const (
	expfInvLn2N = 0x1.71547652b82fep+5 // 32/ln 2
	expfShift   = 0x1.8p+52            // adding it rounds |z| < 2^51 to an integer
	expfC0      = 0x1.c6af84b912394p-20
	expfC1      = 0x1.ebfce50fac4f3p-13
	expfC2      = 0x1.62e42ff0c52d6p-6
	expfMax     = 0x1.62e42ep6  // ln(2^128): Expf overflows above
	expfMin     = -0x1.9fe368p6 // ln(2^-150): Expf is 0 below
	expfMinSub  = -0x1.9d1d9ep6 // ln(2^-149): Expf is the least subnormal below
)

// Expf returns e**x in float32, the same bits on every architecture: the
// bits of the C library's expf on Linux (glibc 2.27 and later, on x86-64
// with FMA, the instructions of every x86-64 processor since 2013), which
// XGBoost's float32 links call. It is not always the correctly rounded
// result (at most 0.502 units in the last place away), which is why
// float32(Exp(float64(x))) does not give the same bits.
//
// The algorithm: x·32/ln 2 = k + r with k an integer and |r| <= 1/2, so
// that e**x = 2^(k/32) · 2^(r/32); 2^(k/32) comes from a table of 32
// values scaled by a power of two, 2^(r/32) from a cubic, all in float64
// with the fused multiply-adds of the C library's code (math.FMA, which
// rounds once on every architecture), and the product is rounded to
// float32 once.
func Expf(x float32) float32 {
	if abstop := math.Float32bits(x) >> 20 & 0x7ff; abstop >= 0x42b { // |x| >= 88 or NaN
		switch {
		case math.IsInf(float64(x), -1):
			return 0
		case abstop >= 0x7f8: // +Inf or NaN
			return x + x
		case x > expfMax:
			return float32(math.Inf(1))
		case x < expfMin:
			return 0
		case x < expfMinSub:
			return 0x1p-149
		}
	}
	xd := float64(x)
	kd := math.FMA(expfInvLn2N, xd, expfShift) // k + shift, k = round(x·32/ln 2)
	ki := math.Float64bits(kd)
	kd -= expfShift
	r := math.FMA(expfInvLn2N, xd, -kd)
	s := math.Float64frombits(expfTable[ki%32] + ki<<47)
	z := math.FMA(expfC0, r, expfC1)
	r2 := float64(r * r)
	y := math.FMA(expfC2, r, 1)
	y = math.FMA(z, r2, y)
	return float32(float64(y * s))
}
