package emit

import (
	"errors"
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// BatchRows is the number of rows that the PredictBatch of a backend with
// Unit.Batch statements scores together (the constant batchRows of the
// generated package).
const BatchRows = 64

// maxBatchFeatures bounds the features of a model whose PredictBatch scores
// blocks: a block of rows is a local array (64 rows of 256 float64 values
// take 128 KiB of stack).
const maxBatchFeatures = 256

// BatchUnits reports whether the units score blocks of rows: all of them
// have Batch statements, or none (an error for a mix).
func BatchUnits(units []Unit) (bool, error) {
	n := 0
	for _, u := range units {
		if len(u.Batch) > 0 {
			n++
		}
	}
	if n > 0 && n < len(units) {
		return false, errors.New("internal error: some units score blocks of rows and others do not")
	}
	return n > 0, nil
}

// BatchInput returns the type of the values of a block of rows: float32
// when tests compare in float32 (a float32 package, or Float32Compare),
// else F.
func (g *Gen) BatchInput() *jen.Statement {
	if g.Is32() || g.Model.Float32Compare {
		return jen.Float32()
	}
	return g.Float()
}

// BatchEnabled reports whether a backend may give its units Batch
// statements for this model: the model has at most maxBatchFeatures
// features.
func (g *Gen) BatchEnabled() bool { return g.Model.NumFeatures <= maxBatchFeatures }

// blockType returns the type *[batchRows * n]typ.
func blockType(n string, typ jen.Code) *jen.Statement {
	return jen.Op("*").Index(jen.Id("batchRows").Op("*").Id(n)).Add(typ)
}

// batchFunc returns the function name that runs the Batch statements of a
// tree file.
func (g *Gen) batchFunc(name string, calls []jen.Code) jen.Code {
	return Doc(name+" adds the values of the trees of this file to the accumulators of the batchRows rows of x, "+
		"row by row in a, in tree order.").Line().
		Func().Id(name).Params(
		jen.Id("x").Add(blockType("NumFeatures", g.BatchInput())),
		jen.Id("a").Add(blockType("NumOutputs", g.Float())),
	).Block(calls...)
}

// genBlockBatch writes PredictBatch for a backend that scores blocks of rows,
// and predictBlock, which scores one block with the functions batchFuncs.
func (g *Gen) genBlockBatch(f *jen.File, batchFuncs []string) {
	f.Add(Doc("batchRows is the number of rows that PredictBatch scores together."))
	f.Const().Id("batchRows").Op("=").Lit(BatchRows)
	f.Line()
	g.genBlocksPredictBatch(f)
	g.genPredictBlock(f, batchFuncs)
}

// rowAt returns row idx of the rows xs, as a *[NumFeatures]F.
func (g *Gen) rowAt(xs, idx jen.Code) *jen.Statement {
	return jen.Parens(g.RowType()).Call(jen.Add(xs).Index(jen.Add(idx).Op("*").Id("NumFeatures").Op(":")))
}

// outAt returns the predictions of row idx in out, as a *[NumOutputs]F
// dereferenced.
func (g *Gen) outAt(idx jen.Code) *jen.Statement {
	return jen.Op("*").Parens(g.OutType()).Call(jen.Id("out").Index(jen.Add(idx).Op("*").Id("NumOutputs").Op(":")))
}

// genBlocksPredictBatch writes PredictBatch that hands every full block of
// rows to predictBlock and predicts the rows of the other blocks one by one.
func (g *Gen) genBlocksPredictBatch(f *jen.File) {
	F := g.Float()
	i, r := jen.Id("i"), jen.Id("r")
	f.Add(Doc("PredictBatch predicts n rows at once: x holds n rows of NumFeatures values, "+
		"one after the other, and out receives the n rows of NumOutputs predictions, "+
		"the same as Predict gives. It returns ErrFeatureCount if len(x) is not a multiple of NumFeatures and "+
		"ErrOutputCount if len(out) != n*NumOutputs, before predicting anything.",
		"Rows are scored in blocks of batchRows, tree by tree, which keeps each tree's tables "+
			"in the processor's cache for the whole block; a block with a missing (NaN) value, "+
			"and the last rows, are predicted row by row."))
	f.Func().Id("PredictBatch").Params(jen.Id("x"), jen.Id("out").Index().Add(F.Clone())).Error().Block(
		jen.If(jen.Len(jen.Id("x")).Op("%").Id("NumFeatures").Op("!=").Lit(0)).Block(
			jen.Return(jen.Id("ErrFeatureCount")),
		),
		jen.Id("n").Op(":=").Len(jen.Id("x")).Op("/").Id("NumFeatures"),
		jen.If(jen.Len(jen.Id("out")).Op("!=").Id("n").Op("*").Id("NumOutputs")).Block(
			jen.Return(jen.Id("ErrOutputCount")),
		),
		jen.For(i.Clone().Op(":=").Lit(0), i.Clone().Op("<").Id("n"), i.Clone().Op("+=").Id("batchRows")).Block(
			jen.Id("end").Op(":=").Add(i.Clone()).Op("+").Id("batchRows"),
			jen.If(jen.Id("end").Op("<=").Id("n").Op("&&").Id("predictBlock").Call(
				jen.Parens(blockType("NumFeatures", F.Clone())).Call(jen.Id("x").Index(i.Clone().Op("*").Id("NumFeatures").Op(":"))),
				jen.Parens(blockType("NumOutputs", F.Clone())).Call(jen.Id("out").Index(i.Clone().Op("*").Id("NumOutputs").Op(":"))),
			)).Block(jen.Continue()),
			jen.If(jen.Id("end").Op(">").Id("n")).Block(jen.Id("end").Op("=").Id("n")),
			jen.For(r.Clone().Op(":=").Add(i.Clone()), r.Clone().Op("<").Id("end"), r.Clone().Op("++")).Block(
				g.outAt(r.Clone()).Op("=").Id("Predict").Call(g.rowAt(jen.Id("x"), r.Clone())),
			),
		),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

// genPredictBlock writes predictBlock: it copies the rows of a block into
// xb (giving up on a NaN), starts the accumulators at the base scores, runs
// the functions batchFuncs, and finishes each row's margins into its
// predictions.
func (g *Gen) genPredictBlock(f *jen.File, batchFuncs []string) {
	F := g.Float()
	r := jen.Id("r")
	body := []jen.Code{
		jen.Var().Id("xb").Index(jen.Id("batchRows").Op("*").Id("NumFeatures")).Add(g.BatchInput()),
		jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(g.blockLoad()...),
		jen.Var().Id("acc").Index(jen.Id("batchRows").Op("*").Id("NumOutputs")).Add(F.Clone()),
	}
	if set := g.blockBase(); len(set) > 0 {
		body = append(body, jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Len(jen.Id("acc")),
			r.Clone().Op("+=").Id("NumOutputs")).Block(set...))
	}
	for _, fn := range batchFuncs {
		body = append(body, jen.Id(fn).Call(jen.Op("&").Id("xb"), jen.Op("&").Id("acc")))
	}
	body = append(body,
		jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(g.blockFinish()...),
		jen.Return(jen.True()),
	)
	f.Add(Doc("predictBlock writes the predictions of the batchRows rows of x into out, " +
		"scoring the rows together, and returns true; it returns false, having written nothing, " +
		"if a row has a missing (NaN) value."))
	f.Func().Id("predictBlock").Params(
		jen.Id("x").Add(blockType("NumFeatures", F.Clone())),
		jen.Id("out").Add(blockType("NumOutputs", F.Clone())),
	).Bool().Block(body...)
	f.Line()
}

// blockLoad returns the statements that copy row r of x, preprocessed if
// the model says so, into xb, as F values or rounded to float32 when tests
// compare in float32; predictBlock returns false on a NaN.
func (g *Gen) blockLoad() []jen.Code {
	r := jen.Id("r")
	row := g.rowAt(jen.Id("x"), r.Clone())
	var load []jen.Code
	if g.Model.Preprocess != nil {
		load = append(load,
			jen.Id("xp").Op(":=").Id("preprocess").Call(row),
			jen.Id("row").Op(":=").Op("&").Id("xp"))
	} else {
		load = append(load, jen.Id("row").Op(":=").Add(row))
	}
	v := jen.Id("v")
	if !g.Is32() && g.Model.Float32Compare {
		v = jen.Float32().Call(jen.Id("v"))
	}
	return append(load, jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id("row")).Block(
		jen.If(jen.Id("v").Op("!=").Id("v")).Block(jen.Return(jen.False())),
		jen.Id("xb").Index(r.Clone().Op("*").Id("NumFeatures").Op("+").Id("j")).Op("=").Add(v),
	))
}

// blockBase returns the statements that set the accumulators of row r to
// the base scores: none for mean aggregation, and none for a base score of
// +0, what the accumulators hold.
func (g *Gen) blockBase() []jen.Code {
	if g.Model.Aggregation == ir.Mean {
		return nil
	}
	var set []jen.Code
	for k := 0; k < g.Model.NumOutputs; k++ {
		b := g.baseMargin(k)
		if b == 0 && !math.Signbit(b) {
			continue
		}
		set = append(set, jen.Id("acc").Index(jen.Id("r").Op("+").Lit(k)).Op("=").Add(g.Lit(b)))
	}
	return set
}

// blockFinish returns the statements that turn the margins of row r into
// its predictions in out: the mean of the trees for mean aggregation, then
// the link.
func (g *Gen) blockFinish() []jen.Code {
	r := jen.Id("r")
	_, link := g.linkStmts()
	finish := []jen.Code{
		jen.Id("a").Op(":=").Op("*").Parens(g.OutType()).Call(jen.Id("acc").Index(r.Clone().Op("*").Id("NumOutputs").Op(":"))),
	}
	finish = append(finish, g.meanStmts()...)
	finish = append(finish, link...)
	return append(finish, g.outAt(r.Clone()).Op("=").Id("a"))
}
