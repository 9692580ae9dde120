package smoothstep

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// The margin filter.
//
// The margin m = b + p_1 + ... + p_n of a soft node, p_i = F(w_i·x_i), must
// be added left to right: that is the chain of n dependent additions whose
// latency bounds the speed of a soft tree. Most nodes route the row hard,
// though (|m| >= γ/2), and for those only the side of ±γ/2 that m lies on
// matters. The unrolled code of a dense soft node (one that weighs every
// feature: isDense) therefore first adds the same products in four
// interleaved partial sums, whose latency is a quarter, into mf, and goes
// left when mf > e, right when mf < -e, where
//
//	e = K·xm + D,  xm = max_j |x_j| (+Inf if some x_j is NaN or infinite)
//
// bounds |mf - m| from above and includes γ/2. Only when -e <= mf <= e (or
// mf is NaN) does it add the products left to right and apply the
// smooth-step to the exact margin. The result is the same bits either way.
// Sparse nodes have no filter: their chains are short, and on sparse TEL
// trees the filter's work (xm, the second sum, the test) cost more than
// the latency it saved (TestDensity: 1.3 to 1.9 times slower with it).
//
// Why e is large enough: let T = |b| + Σ|p_i| and S = b + Σ p_i, exactly.
// Any order of the n additions, without overflow, returns S within γ_n·T,
// γ_n = n·u/(1-n·u) with u the unit roundoff of F (2^-53 or 2^-24), so
// |mf - m| <= 2γ_n·T. |p_i| <= (1+u)|w_i|·xm + η, where η is half the
// smallest subnormal (a product that underflows). K = 4n·u·(1+u)·Σ|w_i| and
// D = γ/2·(1+4u) + 4n·u·(|b| + n·η), rounded up to F, exceed what is needed
// by a factor of about 2, which covers the roundings of K·xm + D, so that
// mf > e implies m >= γ/2, where S_γ(m) = 1, and mf < -e implies m <= -γ/2,
// where it is 0. A NaN or infinite feature makes e infinite (or NaN), so
// that the exact path decides. Overflow is ruled out by keeping the filter
// off for nodes with Σ|w_i| > 2^500 or |b| > 2^900 (2^40 and 2^100 in
// float32), and by maxAbs returning +Inf for an xm > 2^400 (2^40): the
// partial sums then stay below 2^902 (2^102).

// filterMinWeights is the least number of weights for which a node gets the
// filter: below, the left-to-right sum is short anyway.
const filterMinWeights = 6

// filterAccs is the number of interleaved partial sums of the filter.
const filterAccs = 4

// limits returns, for precision F, the largest Σ|w_i|, |b| and xm for which
// the filter is used, and u and η.
func limits(prec ir.Precision) (maxW, maxB, maxX, u, eta float64) {
	if prec.Is32() {
		return 0x1p40, 0x1p100, 0x1p40, 0x1p-24, 0x1p-150
	}
	return 0x1p500, 0x1p900, 0x1p400, 0x1p-53, 0x1p-1075
}

// Filter returns the constants K and D of the margin filter of a soft node
// (of width γ > 0 in F) whose margin has bias b and the weights ws, in
// precision prec, and whether the node gets the filter
// at all.
func Filter(b float64, ws []float64, gamma float64, prec ir.Precision) (k, d float64, ok bool) {
	maxW, maxB, _, u, eta := limits(prec)
	f32 := prec.Is32()
	n := float64(len(ws))
	round := func(v float64) float64 { return v }
	if f32 {
		round = func(v float64) float64 { return float64(float32(v)) }
		b, gamma = round(b), round(gamma)
	}
	h := gamma / 2
	if f32 {
		h = float64(float32(gamma) / 2)
	}
	sumW := 0.0
	for _, w := range ws {
		sumW += math.Abs(round(w))
	}
	if len(ws) < filterMinWeights || sumW == 0 || sumW > maxW || math.Abs(b) > maxB || h == 0 || math.IsInf(h, 0) {
		return 0, 0, false
	}
	// The sums above are in float64, with a relative error far below the
	// slack of 1 + 2^-20 applied next.
	slack := 1 + 0x1p-20
	c := 4 * n * u * (1 + u) * slack
	k = up(c*sumW*slack, prec)
	d = up((h*(1+4*u)+4*n*u*(math.Abs(b)+n*eta))*slack, prec)
	if math.IsInf(k, 0) || math.IsInf(d, 0) {
		return 0, 0, false
	}
	return k, d, true
}

// up returns v rounded up to F.
func up(v float64, prec ir.Precision) float64 {
	if !prec.Is32() {
		return math.Nextafter(v, math.Inf(1)) // v is within an ulp anyway; one more
	}
	r := float32(v)
	if float64(r) < v {
		r = math.Nextafter32(r, float32(math.Inf(1)))
	}
	return float64(r)
}

// Constants returns the numbers of the code generated for m that are not
// values of the model: those of the smooth-step (1.5, 2 and ±γ/2 of every
// soft node) and of the margin filter (K and D of every node that has it,
// and the largest xm), in F. Tests check every float literal against them
// and the model's values.
func Constants(m *ir.Model, prune float64, prec ir.Precision) []float64 {
	_, _, maxX, _, _ := limits(prec)
	f32 := prec.Is32()
	vs := []float64{1.5, 2, maxX}
	for _, t := range m.Trees {
		for _, n := range t.Nodes {
			if n.Kind != ir.Soft {
				continue
			}
			h := n.Gamma / 2
			if f32 {
				h = float64(float32(n.Gamma) / 2)
			}
			vs = append(vs, h, -h)
			idx, ws := Pruned(&n, prune)
			if k, d, ok := Filter(n.Bias, ws, n.Gamma, prec); ok && isDense(idx, m.NumFeatures) {
				vs = append(vs, k, d)
			}
		}
	}
	return vs
}

// genMaxAbs declares maxAbs, the xm of the filter.
func genMaxAbs(g *emit.Gen) jen.Code {
	_, _, maxX, _, _ := limits(g.Prec)
	F := g.Float
	inf := jen.Qual("math", "Inf").Call(jen.Lit(1))
	if g.Is32() {
		inf = F().Call(inf)
	}
	// The bits of |x[j]|, as unsigned integers, are in the order of the
	// values, NaN above +Inf: their maximum, in four independent chains of
	// integer maxima (no branch, no floating-point max), is that of the
	// values.
	bits, frombits, u, sign := "Float64bits", "Float64frombits", jen.Uint64(), 63
	limit := math.Float64bits(maxX)
	if g.Is32() {
		bits, frombits, u, sign = "Float32bits", "Float32frombits", jen.Uint32(), 31
		limit = uint64(math.Float32bits(float32(maxX)))
	}
	j := jen.Id("j")
	abs := func(k int) *jen.Statement {
		i := j.Clone()
		if k > 0 {
			i = i.Op("+").Lit(k)
		}
		return jen.Qual("math", bits).Call(jen.Id("x").Index(i)).Op("&^").Parens(jen.Lit(1).Op("<<").Lit(sign))
	}
	m := func(k int) *jen.Statement { return jen.Id("m" + strconv.Itoa(k)) }
	var ms, chains []jen.Code
	for k := 0; k < 4; k++ {
		ms = append(ms, m(k))
		chains = append(chains, m(k).Op("=").Max(m(k), abs(k)))
	}
	return emit.Doc("maxAbs returns the largest |x[j]|, or +Inf if some x[j] is NaN or infinite or "+
		"if the largest is above "+g.Lit(maxX).GoString()+": the xm of the margin filter of soft nodes.").Line().
		Func().Id("maxAbs").Params(jen.Id("x").Add(g.RowType())).Add(F()).Block(
		jen.Var().List(ms...).Add(u).Comment("the bits of |x[j]|, whose order is that of the values, NaN above +Inf"),
		j.Clone().Op(":=").Lit(0),
		jen.For(jen.Empty(), j.Clone().Op("+").Lit(4).Op("<=").Id("NumFeatures"), j.Clone().Op("+=").Lit(4)).Block(chains...),
		jen.For(jen.Empty(), j.Clone().Op("<").Id("NumFeatures"), j.Clone().Op("++")).Block(chains[0]),
		jen.Id("m").Op(":=").Max(ms...),
		jen.If(jen.Id("m").Op(">").Id(fmt.Sprintf("%#x", limit))).Block(
			jen.Return(inf.Clone()).Comment("NaN, infinite or too large"),
		),
		jen.Return(jen.Qual("math", frombits).Call(jen.Id("m"))),
	)
}

// genDots declares dotExact and dotFast, the margins of dense soft nodes
// from a row of bias and weights: left to right, and in filterAccs
// interleaved partial sums (the filter's mf).
func genDots(g *emit.Gen) []jen.Code {
	p := g.Model.NumFeatures
	F := g.Float
	params := jen.Params(jen.Id("w").Op("*").Index(jen.Id("NumFeatures").Op("+").Lit(1)).Add(F()), jen.Id("x").Add(g.RowType()))
	product := func(j int) *jen.Statement {
		return F().Call(jen.Id("w").Index(jen.Lit(j + 1)).Op("*").Add(g.X(j)))
	}
	exact := jen.Id("w").Index(jen.Lit(0))
	for j := 0; j < p; j++ {
		exact = exact.Op("+").Add(product(j))
	}
	acc := func(j int) *jen.Statement { return jen.Id("f" + strconv.Itoa(j)) }
	var fast []jen.Code
	for j := 0; j < p; j++ {
		a := acc(j % filterAccs)
		switch {
		case j == 0:
			fast = append(fast, a.Op(":=").Id("w").Index(jen.Lit(0)).Op("+").Add(product(j)))
		case j < filterAccs:
			fast = append(fast, a.Op(":=").Add(product(j)))
		default:
			fast = append(fast, a.Op("+=").Add(product(j)))
		}
	}
	fast = append(fast, jen.Return(jen.Parens(acc(0).Op("+").Add(acc(1))).Op("+").Parens(acc(2).Op("+").Add(acc(3)))))
	return []jen.Code{
		emit.Doc("dotExact returns the margin w[0] + w[1]*x[0] + w[2]*x[1] + ... of a dense soft node, added left to right.").Line().
			Func().Id("dotExact").Add(params).Add(F()).Block(jen.Return(exact)),
		emit.Doc("dotFast returns the same sum as dotExact in another order, in four interleaved partial sums: the margin filter's mf, within the filter's bound of the margin.").Line().
			Func().Id("dotFast").Add(params.Clone()).Add(F()).Block(fast...),
	}
}
