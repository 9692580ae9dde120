package emit

import (
	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// SplitTest returns the condition under which the hard split n sends the row
// left, and a statement that must run before it (or nil). NaN goes the
// default way with no extra test: without DefaultLeft the test is x < t
// (false for NaN), with it !(x >= t) (true for NaN).
//
// n is an axis, categorical or oblique split, or a soft split whose
// smooth-step has no width in F (ir/doc.go: then it goes left iff its margin
// is > 0, which the caller checks with [Gen.SoftIsHard]). A margin is
// declared as m.
func (g *Gen) SplitTest(n *ir.Node) (init, cond jen.Code) {
	var lhs, rhs *jen.Statement
	op, neg := "<", ">="
	if n.LessEqual {
		op, neg = "<=", ">"
	}
	switch n.Kind {
	case ir.Axis:
		lhs, rhs = g.X(n.Feature), g.Lit(n.Threshold)
		if g.Model.Float32Compare && !g.Is32() {
			lhs, rhs = jen.Id("float32").Call(lhs), g.Lit32(n.Threshold)
		}
	case ir.Categorical:
		v := g.X(n.Feature)
		if g.Model.Float32Compare && !g.Is32() {
			v = g.Float().Call(jen.Id("float32").Call(v))
		}
		in := g.InCategories(v, n.Categories)
		if n.DefaultLeft {
			nan := g.X(n.Feature)
			return nil, nan.Clone().Op("!=").Add(nan).Op("||").Add(in)
		}
		return nil, in
	case ir.Oblique:
		init = jen.Id("m").Op(":=").Add(g.Dot(n.Bias, n.Indices, n.Weights))
		lhs, rhs = jen.Id("m"), jen.Lit(0)
	case ir.Soft:
		init = jen.Id("m").Op(":=").Add(g.Dot(n.Bias, n.Indices, n.Weights))
		lhs, rhs = jen.Id("m"), jen.Lit(0)
		op, neg = ">", "<="
	default:
		panic("emit: not a hard split: " + string(n.Kind))
	}
	if !n.DefaultLeft {
		return init, lhs.Op(op).Add(rhs)
	}
	return init, jen.Op("!").Parens(lhs.Op(neg).Add(rhs))
}

// SoftHalf returns γ/2 of soft node n in F, as the interpreter computes it:
// γ rounded to F, then halved in F.
func (g *Gen) SoftHalf(n *ir.Node) float64 {
	if g.Is32() {
		return float64(float32(n.Gamma) / 2)
	}
	return n.Gamma / 2
}

// SoftIsHard reports whether the smooth-step of soft node n has no width in
// F (γ = 0, or a γ so small that γ/2 rounds to 0): the node then sends the
// row left iff its margin is > 0, and a NaN margin by its default direction.
func (g *Gen) SoftIsHard(n *ir.Node) bool { return g.SoftHalf(n) == 0 }
