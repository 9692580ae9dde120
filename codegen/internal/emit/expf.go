package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/internal/fmath"
)

// genExpf emits expf, the float32 exponential of float32 generated code:
// the algorithm, constants and roundings of internal/fmath.Expf (the bits
// of the C library's expf, which XGBoost's float32 links call), with
// math.FMA where that code fuses a multiply-add and a conversion around
// every other product.
func (g *Gen) genExpf(f *jen.File) {
	id := jen.Id
	fma := func(a, b, c jen.Code) *jen.Statement { return jen.Qual("math", "FMA").Call(a, b, c) }
	table := fmath.ExpfTable()
	rows := make([]jen.Code, 0, len(table))
	for _, v := range table {
		rows = append(rows, id(fmt.Sprintf("%#016x", v)))
	}
	f.Add(Table("expfTable", "holds 2^(i/32) for i = 0..31 (float64 bits minus i<<47).", jen.Uint64(), rows))
	f.Add(Doc("expf returns e**x in float32, the bits of the C library's expf on every architecture: x·32/ln 2 = k + r, e**x = 2^(k/32) · 2^(r/32), the first factor from a table, the second from a cubic, in float64 with the C code's fused multiply-adds (math.FMA rounds once everywhere)."))
	f.Func().Id("expf").Params(id("x").Float32()).Float32().Block(
		jen.Const().Defs(
			id("invLn2N").Op("=").Id("0x1.71547652b82fep+5"),
			id("shift").Op("=").Id("0x1.8p+52"),
			id("c0").Op("=").Id("0x1.c6af84b912394p-20"),
			id("c1").Op("=").Id("0x1.ebfce50fac4f3p-13"),
			id("c2").Op("=").Id("0x1.62e42ff0c52d6p-6"),
		),
		jen.If(id("abstop").Op(":=").Qual("math", "Float32bits").Call(id("x")).Op(">>").Lit(20).Op("&").Id("0x7ff"), id("abstop").Op(">=").Id("0x42b")).Block(
			jen.Comment("|x| >= 88, ±Inf or NaN"),
			jen.Switch().Block(
				jen.Case(id("x").Op("<").Op("-").Qual("math", "MaxFloat32")).Block(jen.Return(jen.Lit(0))),
				jen.Case(id("abstop").Op(">=").Id("0x7f8")).Block(jen.Return(id("x").Op("+").Id("x"))),
				jen.Case(id("x").Op(">").Id("0x1.62e42ep6")).Block(jen.Return(jen.Float32().Call(jen.Qual("math", "Inf").Call(jen.Lit(1))))),
				jen.Case(id("x").Op("<").Id("-0x1.9fe368p6")).Block(jen.Return(jen.Lit(0))),
				jen.Case(id("x").Op("<").Id("-0x1.9d1d9ep6")).Block(jen.Return(id("0x1p-149"))),
			),
		),
		id("xd").Op(":=").Float64().Call(id("x")),
		id("kd").Op(":=").Add(fma(id("invLn2N"), id("xd"), id("shift"))),
		id("ki").Op(":=").Qual("math", "Float64bits").Call(id("kd")),
		id("kd").Op("-=").Id("shift"),
		id("r").Op(":=").Add(fma(id("invLn2N"), id("xd"), jen.Op("-").Id("kd"))),
		id("s").Op(":=").Qual("math", "Float64frombits").Call(id("expfTable").Index(id("ki").Op("%").Lit(32)).Op("+").Id("ki").Op("<<").Lit(47)),
		id("z").Op(":=").Add(fma(id("c0"), id("r"), id("c1"))),
		id("r2").Op(":=").Float64().Call(id("r").Op("*").Id("r")),
		id("y").Op(":=").Add(fma(id("c2"), id("r"), jen.Lit(1))),
		id("y").Op("=").Add(fma(id("z"), id("r2"), id("y"))),
		jen.Return(jen.Float32().Call(jen.Float64().Call(id("y").Op("*").Id("s")))),
	)
}
