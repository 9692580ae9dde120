// Package fmath holds the few mathematical functions whose results treegen
// fixes bit for bit on every architecture.
//
// math.Exp is exact to within one unit in the last place, but its last bit
// depends on the architecture: amd64 and arm64 use assembly, other ports the
// Go code, and the compiler may fuse multiply-adds there. treegen promises
// the same prediction on a server and on an ARM or RISC-V board, so the
// interpreter and the generated code both use Exp below: the classic
// argument reduction and rational approximation (as in fdlibm's e_exp.c),
// written with an explicit rounding after every product so that no fused
// multiply-add can change a bit. It is accurate to within one unit in the
// last place.
package fmath

import "math"

// Coefficients of the approximation of R(r) = r*(exp(r)+1)/(exp(r)-1) on
// [-ln2/2, ln2/2], and the pieces of ln 2.
const (
	ln2Hi  = 6.93147180369123816490e-01 // ln 2, upper bits: k*ln2Hi is exact
	ln2Lo  = 1.90821492927058770002e-10 // ln 2 - ln2Hi
	log2e  = 1.44269504088896338700e+00
	p1     = 1.66666666666666019037e-01
	p2     = -2.77777777770155933842e-03
	p3     = 6.61375632143793436117e-05
	p4     = -1.65339022054652515390e-06
	p5     = 4.13813679705723846039e-08
	expMax = 7.09782712893383973096e+02  // exp overflows above
	expMin = -7.45133219101941108420e+02 // exp underflows to 0 below
	tiny   = 1.0 / (1 << 28)
)

// Exp returns e**x, the same bits on every architecture.
func Exp(x float64) float64 {
	switch {
	case x != x || x > expMax:
		return x * math.Inf(1) // NaN stays NaN, overflow gives +Inf
	case x < expMin:
		return 0
	case x > -tiny && x < tiny:
		return 1 + x
	}
	// x = k*ln2 + r, |r| <= ln2/2, with r = hi - lo carried in two parts.
	var k int
	if x < 0 {
		k = int(float64(log2e*x) - 0.5)
	} else {
		k = int(float64(log2e*x) + 0.5)
	}
	fk := float64(k)
	hi := x - float64(fk*ln2Hi)
	lo := float64(fk * ln2Lo)
	r := hi - lo
	t := float64(r * r)
	poly := p4 + float64(t*p5)
	poly = p3 + float64(t*poly)
	poly = p2 + float64(t*poly)
	poly = p1 + float64(t*poly)
	c := r - float64(t*poly)
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	return scale(y, k)
}

// scale returns y * 2**k for y in [0.5, 4), rounding once at the end.
func scale(y float64, k int) float64 {
	if k > 1023 {
		return float64(y*0x1p1023) * pow2(k-1023)
	}
	if k < -1021 {
		// Two steps, so that only the last product can round (to a
		// subnormal).
		return float64(y*0x1p-1021) * pow2(k+1021)
	}
	return y * pow2(k)
}

// pow2 returns 2**k for -1022 <= k <= 1023 (and 0 below, which the callers
// only reach when the result underflows anyway).
func pow2(k int) float64 {
	if k < -1074 {
		return 0
	}
	if k < -1022 {
		return math.Float64frombits(1 << uint(k+1074)) // subnormal
	}
	return math.Float64frombits(uint64(k+1023) << 52)
}
