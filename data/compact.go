package data

import "math"

// compactKind is how the values of a compact data set are encoded in 4
// bytes: all of them as short decimals, or all as float32.
type compactKind uint8

const (
	compactDecimal compactKind = iota // encodeCompact
	compactFloat32                    // the bits of a float32 that is the value exactly
)

// decode returns the float64 of a compact value of kind k, a NaN as
// math.NaN(), the NaN that reading a missing value gives.
func (k compactKind) decode(c uint32) float64 {
	if k == compactFloat32 {
		f := math.Float32frombits(c)
		if f != f {
			return math.NaN()
		}
		return float64(f)
	}
	return decodeCompact(c)
}

// encode returns the compact value of v in kind k, and whether it has one.
func (k compactKind) encode(v float64) (uint32, bool) {
	if k == compactFloat32 {
		return math.Float32bits(float32(v)), float64(float32(v)) == v || v != v
	}
	return encodeCompact(v)
}

// A compact value is a float64 in 4 bytes, when it is a short decimal: a
// whole number m below 2^26 divided by 10^k (k = 0 to 22), or multiplied
// by 10^j (j = 1 to 8). Data files write most numbers so: 7 significant
// digits, or integers. The float64 is float64(m) / 10^k, which is exact
// because both operands are, and so the correctly rounded value of the
// decimal, which is what reading the decimal gives; likewise m × 10^j,
// exact below 2^53. Bits:
//
//	31     sign
//	26-30  scale s: 0..22 divides by 10^s, 23..30 multiplies by 10^(s-22),
//	       31 is a special value: m = 0 NaN, m = 1 infinity
//	0-25   m
const (
	compactBits    = 26
	compactMant    = 1<<compactBits - 1
	compactSign    = 1 << 31
	compactSpecial = 31
	compactMulBase = 22 // scales above multiply by 10^(scale-22)
)

// encodeCompact returns the compact value of v, or false when v is not a
// short decimal. decodeCompact gives v back, bit for bit (a NaN as
// math.NaN()).
func encodeCompact(v float64) (uint32, bool) {
	var sign uint32
	if math.Signbit(v) {
		sign, v = compactSign, -v
	}
	switch {
	case v != v:
		return compactSpecial << compactBits, true
	case math.IsInf(v, 0):
		return sign | compactSpecial<<compactBits | 1, true
	}
	for k := 0; k <= 22; k++ {
		m := math.Round(v * pow10[k]) // the product may be a rounding off m
		if m > compactMant {
			break // larger scales only make m larger
		}
		if m/pow10[k] == v {
			return sign | uint32(k)<<compactBits | uint32(m), true
		}
	}
	if v == math.Trunc(v) {
		for j := 1; j <= 8; j++ {
			m := v / pow10[j]
			if m <= compactMant && m == math.Trunc(m) && m*pow10[j] == v {
				return sign | uint32(compactMulBase+j)<<compactBits | uint32(m), true
			}
		}
	}
	return 0, false
}

// encodeCompactText is encodeCompact for the value v of a cell: the digits
// after the cell's decimal point are the scale to try first, which is the
// one that fits unless the cell has an exponent or trailing zeros.
func encodeCompactText(cell []byte, v float64) (uint32, bool) {
	if k, ok := decimals(cell); ok && v == v {
		a := math.Abs(v)
		if m := math.Round(a * pow10[k]); m <= compactMant && m/pow10[k] == a {
			var sign uint32
			if math.Signbit(v) {
				sign = compactSign
			}
			return sign | uint32(k)<<compactBits | uint32(m), true
		}
	}
	return encodeCompact(v)
}

// decimals returns how many digits follow the decimal point of a cell
// written without an exponent (at most 22).
func decimals(cell []byte) (int, bool) {
	k, dot := 0, false
	for _, c := range cell {
		switch {
		case c == '.':
			dot = true
		case c >= '0' && c <= '9':
			if dot {
				k++
			}
		case c == 'e' || c == 'E':
			return 0, false
		}
	}
	return k, k <= 22
}

// decodeCompact returns the float64 of a compact value.
func decodeCompact(c uint32) float64 {
	m := float64(c & compactMant)
	var v float64
	switch s := c >> compactBits & 31; {
	case s <= compactMulBase:
		v = m / pow10[s]
	case s < compactSpecial:
		v = m * pow10[s-compactMulBase]
	case m == 0:
		return math.NaN()
	default:
		v = math.Inf(1)
	}
	if c&compactSign != 0 {
		return -v
	}
	return v
}

// encodeAll encodes x into dst (reused), as short decimals when every
// value is one, else as float32 when every value is one exactly, and says
// which kinds hold every value (neither: dst is not complete).
func encodeAll(dst []uint32, x []float64) (out []uint32, kind compactKind, decimal, f32 bool) {
	decimal, f32 = true, true
	for _, v := range x {
		if float64(float32(v)) != v && v == v {
			f32 = false
			break
		}
	}
	dst = dst[:0]
	for _, v := range x {
		c, ok := encodeCompact(v)
		if !ok {
			decimal = false
			break
		}
		dst = append(dst, c)
	}
	if decimal {
		return dst, compactDecimal, true, f32
	}
	if !f32 {
		return dst[:0], compactDecimal, false, false
	}
	return encodeIn(dst[:0], x, compactFloat32), compactFloat32, false, true
}

// compactKinds finishes the compact values of a block whose cells were
// encoded as short decimals while they could be: it notes whether its
// values are all float32, and encodes them so when they are not all short
// decimals.
func (b *Block) compactKinds() {
	b.kind, b.fitsFloat32, b.coded = compactDecimal, true, true
	for _, v := range b.X {
		if float64(float32(v)) != v && v == v {
			b.fitsFloat32 = false
			break
		}
	}
	if !b.fitsDecimal && b.fitsFloat32 {
		b.xc, b.kind = encodeIn(b.xc[:0], b.X, compactFloat32), compactFloat32
	}
}

// encodeIn appends the values of x, which all have one, in kind k.
func encodeIn(dst []uint32, x []float64, k compactKind) []uint32 {
	for _, v := range x {
		c, _ := k.encode(v)
		dst = append(dst, c)
	}
	return dst
}
