package emit

import "github.com/dave/jennifer/jen"

// genExp emits exp, the exponential that the generated code uses in place of
// math.Exp: the same algorithm, constants and roundings as
// internal/fmath.Exp, so that predictions are the same bits on every
// architecture (math.Exp's last bit depends on the architecture).
func (g *Gen) genExp(f *jen.File) {
	f64 := func(e jen.Code) *jen.Statement { return jen.Float64().Call(e) }
	id := jen.Id
	f.Add(Doc("exp returns e**x with the same bits on every architecture (math.Exp's last bit varies between them): argument reduction by ln 2 and a rational approximation, with every product rounded, so that no fused multiply-add changes a bit."))
	f.Func().Id("exp").Params(id("x").Float64()).Float64().Block(
		jen.Const().Defs(
			id("ln2Hi").Op("=").Id("6.93147180369123816490e-01"),
			id("ln2Lo").Op("=").Id("1.90821492927058770002e-10"),
			id("log2e").Op("=").Id("1.44269504088896338700e+00"),
			id("p1").Op("=").Id("1.66666666666666019037e-01"),
			id("p2").Op("=").Id("-2.77777777770155933842e-03"),
			id("p3").Op("=").Id("6.61375632143793436117e-05"),
			id("p4").Op("=").Id("-1.65339022054652515390e-06"),
			id("p5").Op("=").Id("4.13813679705723846039e-08"),
		),
		jen.Switch().Block(
			jen.Case(id("x").Op("!=").Id("x").Op("||").Id("x").Op(">").Id("7.09782712893383973096e+02")).Block(
				jen.Return(id("x").Op("*").Qual("math", "Inf").Call(jen.Lit(1))),
			),
			jen.Case(id("x").Op("<").Id("-7.45133219101941108420e+02")).Block(jen.Return(jen.Lit(0))),
			jen.Case(id("x").Op(">").Op("-").Parens(jen.Lit(1.0).Op("/").Parens(jen.Lit(1).Op("<<").Lit(28))).Op("&&").Id("x").Op("<").Lit(1.0).Op("/").Parens(jen.Lit(1).Op("<<").Lit(28))).Block(
				jen.Return(jen.Lit(1).Op("+").Id("x")),
			),
		),
		jen.Var().Id("k").Int(),
		jen.If(id("x").Op("<").Lit(0)).Block(
			id("k").Op("=").Int().Call(f64(id("log2e").Op("*").Id("x")).Op("-").Lit(0.5)),
		).Else().Block(
			id("k").Op("=").Int().Call(f64(id("log2e").Op("*").Id("x")).Op("+").Lit(0.5)),
		),
		id("fk").Op(":=").Float64().Call(id("k")),
		id("hi").Op(":=").Id("x").Op("-").Add(f64(id("fk").Op("*").Id("ln2Hi"))),
		id("lo").Op(":=").Add(f64(id("fk").Op("*").Id("ln2Lo"))),
		id("r").Op(":=").Id("hi").Op("-").Id("lo"),
		id("t").Op(":=").Add(f64(id("r").Op("*").Id("r"))),
		id("poly").Op(":=").Id("p4").Op("+").Add(f64(id("t").Op("*").Id("p5"))),
		id("poly").Op("=").Id("p3").Op("+").Add(f64(id("t").Op("*").Id("poly"))),
		id("poly").Op("=").Id("p2").Op("+").Add(f64(id("t").Op("*").Id("poly"))),
		id("poly").Op("=").Id("p1").Op("+").Add(f64(id("t").Op("*").Id("poly"))),
		id("c").Op(":=").Id("r").Op("-").Add(f64(id("t").Op("*").Id("poly"))),
		id("y").Op(":=").Lit(1).Op("-").Parens(jen.Parens(id("lo").Op("-").Add(f64(id("r").Op("*").Id("c"))).Op("/").Parens(jen.Lit(2).Op("-").Id("c"))).Op("-").Id("hi")),
		jen.Comment("y * 2**k, rounding once at the end."),
		jen.Switch().Block(
			jen.Case(id("k").Op(">").Lit(1023)).Block(
				jen.Return(f64(id("y").Op("*").Id("0x1p1023")).Op("*").Id("pow2").Call(id("k").Op("-").Lit(1023))),
			),
			jen.Case(id("k").Op("<").Lit(-1021)).Block(
				jen.Return(f64(id("y").Op("*").Id("0x1p-1021")).Op("*").Id("pow2").Call(id("k").Op("+").Lit(1021))),
			),
		),
		jen.Return(id("y").Op("*").Id("pow2").Call(id("k"))),
	)
	f.Add(Doc("pow2 returns 2**k for -1074 <= k <= 1023, and 0 below."))
	f.Func().Id("pow2").Params(id("k").Int()).Float64().Block(
		jen.If(id("k").Op("<").Lit(-1074)).Block(jen.Return(jen.Lit(0))),
		jen.If(id("k").Op("<").Lit(-1022)).Block(
			jen.Return(jen.Qual("math", "Float64frombits").Call(jen.Lit(1).Op("<<").Uint().Call(id("k").Op("+").Lit(1074)))),
		),
		jen.Return(jen.Qual("math", "Float64frombits").Call(jen.Uint64().Call(id("k").Op("+").Lit(1023)).Op("<<").Lit(52))),
	)
}
