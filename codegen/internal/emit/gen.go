package emit

import (
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// Gen holds the facts about a model that the generated code depends on,
// all computed by [NewGen] before anything is emitted, and the helpers that
// emit its arithmetic in the working precision. Its methods do not change
// it: backends may call them in any order, and the main file (see
// [MainFile]) declares exactly the package-level helpers that the facts
// say the tree code may use.
type Gen struct {
	// Model is the (validated) model.
	Model *ir.Model
	// Prec is the working precision: Float64 or Float32.
	Prec Precision

	needs needs
}

// NewGen returns a Gen for the validated model m in precision prec ("" is
// Float64), having computed the facts that the main file needs.
func NewGen(m *ir.Model, prec Precision) (*Gen, error) {
	p, err := prec.Resolve()
	if err != nil {
		return nil, err
	}
	return &Gen{Model: m, Prec: p, needs: scan(m, p)}, nil
}

// Is32 reports whether the working precision is float32.
func (g *Gen) Is32() bool { return g.Prec.Is32() }

// Float returns the type F.
func (g *Gen) Float() *jen.Statement { return jen.Id(g.Prec.String()) }

// RowType returns *[NumFeatures]F, the type of an input row.
func (g *Gen) RowType() *jen.Statement {
	return jen.Op("*").Index(jen.Id("NumFeatures")).Add(g.Float())
}

// OutType returns *[NumOutputs]F, the type of the accumulators.
func (g *Gen) OutType() *jen.Statement {
	return jen.Op("*").Index(jen.Id("NumOutputs")).Add(g.Float())
}

// Round returns v converted to F, as the generated code holds it.
func (g *Gen) Round(v float64) float64 {
	if g.Is32() {
		return float64(float32(v))
	}
	return v
}

// Lit returns the literal of the model value v in F: the value rounded to F
// and printed so that it converts back to exactly that value.
func (g *Gen) Lit(v float64) *jen.Statement {
	return g.lit(v, g.Prec)
}

// Lit32 returns the literal of v rounded to float32, for a float32 context
// (the thresholds of axis tests with Float32Compare).
func (g *Gen) Lit32(v float64) *jen.Statement { return g.lit(v, Float32) }

// lit returns v rounded to precision typ, as an expression of type typ.
func (g *Gen) lit(v float64, typ Precision) *jen.Statement {
	if typ.Is32() {
		v = float64(float32(v))
	}
	switch {
	case math.IsInf(v, 0):
		sign := 1
		if v < 0 {
			sign = -1
		}
		inf := jen.Qual("math", "Inf").Call(jen.Lit(sign))
		if typ == Float64 {
			return inf
		}
		return jen.Id(typ.String()).Call(inf)
	case math.IsNaN(v):
		// Validated models hold no NaN; kept for completeness.
		return jen.Id(typ.String()).Call(jen.Qual("math", "NaN").Call())
	case v == 0 && math.Signbit(v):
		// scan saw this value: the main file declares negZero.
		if typ == g.Prec {
			return jen.Id("negZero")
		}
		return jen.Id(typ.String()).Call(jen.Id("negZero"))
	}
	return jen.Id(strconv.FormatFloat(v, 'g', -1, typ.BitSize()))
}

// X returns x[f], feature f of the row.
func (g *Gen) X(f int) *jen.Statement { return jen.Id("x").Index(jen.Lit(f)) }

// Dot returns the margin bias + w·x of sparse weights, accumulated left to
// right from the bias, each product rounded on its own:
//
//	b + F(w0*x[i0]) + F(w1*x[i1]) + ...
//
// The expression has type F.
func (g *Gen) Dot(bias float64, indices []int, weights []float64) *jen.Statement {
	s := g.Lit(bias)
	if len(indices) == 0 {
		return g.Float().Call(s)
	}
	for i, f := range indices {
		s = s.Op("+").Add(g.Product(weights[i], g.X(f)))
	}
	return s
}

// Product returns F(w*e): the product of a model value and an expression of
// type F, rounded before anything is added to it.
func (g *Gen) Product(w float64, e jen.Code) *jen.Statement {
	return g.Float().Call(g.Lit(w).Op("*").Add(e))
}

// Exp returns exp(e) for an expression e of type F: the package's portable
// exp (see genExp) in float64, its expf (see genExpf) in float32.
func (g *Gen) Exp(e jen.Code) *jen.Statement {
	// scan saw the link or the softmax leaf: the main file declares exp or
	// expf.
	if g.Is32() {
		return jen.Id("expf").Call(e)
	}
	return jen.Id("exp").Call(e)
}

// sumTerm returns a term e of type F of a softmax's sum of exponentials as
// the sum takes it: in float64 whatever F (ir/doc.go).
func (g *Gen) sumTerm(e jen.Code) *jen.Statement {
	if g.Is32() {
		return jen.Float64().Call(e)
	}
	return jen.Add(e)
}

// sumRounded returns the float64 sum s of a softmax's exponentials rounded
// to F, the divisor of each of them.
func (g *Gen) sumRounded(s jen.Code) *jen.Statement {
	if g.Is32() {
		return jen.Float32().Call(s)
	}
	return jen.Add(s)
}

// SoftmaxLeaf returns the statements that compute the values of a softmax
// leaf (ir/doc.go): the margins z0, z1, ... of its rows, their maximum mx,
// e_j = exp(z_j - mx) and their sum s, left to right (in float64, rounded
// to F). value(j) is the expression e_j / s, the leaf's value for class
// sp.Classes[j]; the values of the other classes are 0. The statements
// declare variables and belong in a block of their own.
func (g *Gen) SoftmaxLeaf(sp *ir.SoftmaxParams) (stmts []jen.Code, value func(j int) *jen.Statement) {
	n := len(sp.Classes)
	z := func(j int) *jen.Statement { return jen.Id("z" + strconv.Itoa(j)) }
	e := func(j int) *jen.Statement { return jen.Id("e" + strconv.Itoa(j)) }
	for j := 0; j < n; j++ {
		stmts = append(stmts, z(j).Op(":=").Add(g.Dot(sp.Bias[j], sp.Rows[j].Indices, sp.Rows[j].Weights)))
	}
	stmts = append(stmts, jen.Id("mx").Op(":=").Add(z(0)))
	for j := 1; j < n; j++ {
		stmts = append(stmts, jen.If(z(j).Op(">").Id("mx")).Block(jen.Id("mx").Op("=").Add(z(j))))
	}
	sum := g.sumTerm(e(0))
	for j := 0; j < n; j++ {
		stmts = append(stmts, e(j).Op(":=").Add(g.Exp(z(j).Op("-").Id("mx"))))
		if j > 0 {
			sum = sum.Op("+").Add(g.sumTerm(e(j)))
		}
	}
	stmts = append(stmts, jen.Id("s").Op(":=").Add(g.sumRounded(sum)))
	return stmts, func(j int) *jen.Statement { return e(j).Op("/").Id("s") }
}

// NeedsZeroAdd reports whether adding a tree value of +0 to accumulator k
// can change it. a + 0 == a for every a but -0, and an accumulator is -0
// only if it starts at -0 (sum aggregation with a base score that is -0 in
// the precision of the sums: float32 under Float32Sum) and only -0 was added
// to it since: code that skips adding +0 when NeedsZeroAdd is false computes
// exactly what ir/doc.go defines.
func (g *Gen) NeedsZeroAdd(k int) bool {
	if g.Model.Aggregation != ir.Sum {
		return false
	}
	b := g.baseMargin(k)
	return b == 0 && math.Signbit(b)
}

// TreeFunc returns the name of the function of tree i: "tree17".
func TreeFunc(i int) string { return "tree" + strconv.Itoa(i) }

// AddValue returns the statement that adds the tree value v (an expression
// of type F) to accumulator k: a[k] += v, or, for a float64 package of a
// model with Float32Sum, a[k] = float64(float32(a[k]) + float32(v)).
func (g *Gen) AddValue(k int, v jen.Code) *jen.Statement {
	ak := jen.Id("a").Index(jen.Lit(k))
	if g.Sum32() {
		return ak.Clone().Op("=").Float64().Call(jen.Float32().Call(ak).Op("+").Float32().Call(v))
	}
	return ak.Op("+=").Add(v)
}

// AddLit is AddValue of the model value v, a constant: with Float32Sum the
// constant is v rounded to float32 (never a decimal rounded twice).
func (g *Gen) AddLit(k int, v float64) *jen.Statement {
	if g.Sum32() {
		ak := jen.Id("a").Index(jen.Lit(k))
		return ak.Clone().Op("=").Float64().Call(jen.Float32().Call(ak).Op("+").Add(g.Lit32(g.Round(v))))
	}
	return g.AddValue(k, g.Lit(v))
}

// Sum32 reports whether margins are accumulated in float32 inside a float64
// package (a model with Float32Sum).
func (g *Gen) Sum32() bool { return g.Model.Float32Sum && !g.Is32() }
