package emit

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// The working precisions of generated code.
const (
	Float64 = "float64"
	Float32 = "float32"
)

// Config is what the driver (package codegen) tells the emitter.
type Config struct {
	// Package is the name of the generated package, a valid Go identifier.
	Package string
	// Precision is Float64 or Float32.
	Precision string
	// Source is the model file name shown in the header ("" leaves it out).
	Source string
	// Version is the treegen version shown in the header ("" leaves it out).
	Version string
	// Backend is the backend's name, shown in the package documentation.
	Backend string
	// Prune is the weight threshold of backends that drop small weights
	// (see codegen.Options.Prune); 0 drops nothing.
	Prune float64
}

// File is one generated file.
type File struct {
	Name string
	Data []byte
}

// Backend generates the code of a model's trees.
type Backend interface {
	// Check returns an error, naming the first tree concerned, if the
	// backend cannot compile the (validated) model.
	Check(m *ir.Model) error
	// Units returns the code of all the trees, in tree order. The
	// accumulation statements of the units, run in order, must add every
	// tree's values to the margins as ir/doc.go defines.
	Units(g *Gen) ([]Unit, error)
}

// Unit is a piece of tree code: usually one tree.
//
// Decls are top-level declarations (each preceded by its doc comment).
// Calls are statements run, in order, inside a function of the same file
// whose parameters are
//
//	x *[NumFeatures]F  // the (preprocessed) input row
//	a *[NumOutputs]F   // the accumulators
//
// where an accumulator starts at the base score (sum aggregation) or at 0
// (mean aggregation), and must receive a_k = a_k + t_k for each tree value
// t_k in tree order. Size measures the amount of code (for instance nodes
// plus weights) and decides the split across files.
//
// Batch, if a backend scores blocks of rows, are statements run, in order,
// inside a function of the same file whose parameters are
//
//	x *[BatchRows * NumFeatures]C  // BatchRows (preprocessed) rows without NaN, in the comparison type C (BatchInput)
//	a *[BatchRows * NumOutputs]F   // their accumulators, row by row
//
// and which must do for every row what Calls do for one. Either every unit
// of a model has Batch statements or none has; with none, PredictBatch
// predicts row by row.
type Unit struct {
	Decls []jen.Code
	Calls []jen.Code
	Batch []jen.Code
	Size  int
}

// Gen holds the facts about a model that the generated code depends on,
// computed once, and the helpers that emit its arithmetic in the working
// precision.
type Gen struct {
	// Model is the (validated) model.
	Model *ir.Model
	// F is the working precision: Float64 or Float32.
	F string
	// Prune is Config.Prune: backends that drop small weights drop those
	// with |w| <= Prune when it is > 0.
	Prune float64

	usesNegZero bool
	usesExp     bool

	catSets    []*categorySet // in order of first use
	catIndex   map[string]*categorySet
	usesBitset bool
	usesSorted bool
}

// NewGen returns a Gen for m in the given precision (Float64 or Float32).
func NewGen(m *ir.Model, precision string) (*Gen, error) {
	switch precision {
	case Float64, Float32:
	default:
		return nil, fmt.Errorf("unknown precision %q (want float64 or float32)", precision)
	}
	return &Gen{Model: m, F: precision}, nil
}

// Is32 reports whether the working precision is float32.
func (g *Gen) Is32() bool { return g.F == Float32 }

// Float returns the type F.
func (g *Gen) Float() *jen.Statement { return jen.Id(g.F) }

// RowType returns *[NumFeatures]F, the type of an input row.
func (g *Gen) RowType() *jen.Statement {
	return jen.Op("*").Index(jen.Id("NumFeatures")).Id(g.F)
}

// OutType returns *[NumOutputs]F, the type of the accumulators.
func (g *Gen) OutType() *jen.Statement {
	return jen.Op("*").Index(jen.Id("NumOutputs")).Id(g.F)
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
	if g.Is32() {
		return g.lit(v, 32, Float32)
	}
	return g.lit(v, 64, Float64)
}

// Lit32 returns the literal of v rounded to float32, for a float32 context
// (the thresholds of axis tests with Float32Compare).
func (g *Gen) Lit32(v float64) *jen.Statement { return g.lit(v, 32, Float32) }

// lit returns v rounded to bitSize bits, as an expression of type typ.
func (g *Gen) lit(v float64, bitSize int, typ string) *jen.Statement {
	if bitSize == 32 {
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
		return jen.Id(typ).Call(inf)
	case math.IsNaN(v):
		// Validated models hold no NaN; kept for completeness.
		return jen.Id(typ).Call(jen.Qual("math", "NaN").Call())
	case v == 0 && math.Signbit(v):
		g.usesNegZero = true
		if typ == g.F {
			return jen.Id("negZero")
		}
		return jen.Id(typ).Call(jen.Id("negZero"))
	}
	return jen.Id(strconv.FormatFloat(v, 'g', -1, bitSize))
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
// exp (see genExp) in float64, rounded to F.
func (g *Gen) Exp(e jen.Code) *jen.Statement {
	g.usesExp = true
	if g.Is32() {
		return jen.Id(Float32).Call(jen.Id("exp").Call(jen.Id(Float64).Call(e)))
	}
	return jen.Id("exp").Call(e)
}

// SoftmaxLeaf returns the statements that compute the values of a softmax
// leaf (ir/doc.go): the margins z0, z1, ... of its rows, their maximum mx,
// e_j = exp(z_j - mx) and their sum s, left to right. value(j) is the
// expression e_j / s, the leaf's value for class sp.Classes[j]; the values
// of the other classes are 0. The statements declare variables and belong in
// a block of their own.
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
	sum := e(0)
	for j := 0; j < n; j++ {
		stmts = append(stmts, e(j).Op(":=").Add(g.Exp(z(j).Op("-").Id("mx"))))
		if j > 0 {
			sum = sum.Op("+").Add(e(j))
		}
	}
	stmts = append(stmts, jen.Id("s").Op(":=").Add(sum))
	return stmts, func(j int) *jen.Statement { return e(j).Op("/").Id("s") }
}

// NeedsZeroAdd reports whether adding a tree value of +0 to accumulator k
// can change it. a + 0 == a for every a but -0, and an accumulator is -0
// only if it starts at -0 (sum aggregation with a base score of -0) and only
// -0 was added to it since: code that skips adding +0 when NeedsZeroAdd is
// false computes exactly what ir/doc.go defines.
func (g *Gen) NeedsZeroAdd(k int) bool {
	if g.Model.Aggregation != ir.Sum {
		return false
	}
	b := g.Round(g.Model.Base(k))
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
