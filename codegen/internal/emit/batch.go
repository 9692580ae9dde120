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

// VectorFileName is the name of the vector file of a generated package: the
// code built only with GOEXPERIMENT=simd on amd64 that scores blocks of rows
// with SIMD instructions. NoVectorFileName is the file that stands in for it
// in other builds.
const (
	VectorFileName   = "vector.go"
	NoVectorFileName = "vector_portable.go"
)

// VectorBuild is the build constraint of the vector file.
const VectorBuild = "goexperiment.simd && amd64"

// genBlockBatch writes PredictBatch for a backend that scores blocks of rows
// (with the functions batchFuncs, or with the vector file's vectorBlock when
// vector is set and the build has it), and predictBlock, which scores one
// block.
func (g *Gen) genBlockBatch(f *jen.File, batchFuncs []string, vector bool) {
	f.Add(Doc("batchRows is the number of rows that PredictBatch scores together."))
	f.Const().Id("batchRows").Op("=").Lit(BatchRows)
	f.Line()
	if vector {
		g.genVectorHooks(f)
	}
	g.genBlocksPredictBatch(f, vector)
	g.genPredictBlock(f, batchFuncs, vector)
}

// genVectorHooks declares vectorISA, which the vector file sets, and
// BatchInstructions, which reports it.
func (g *Gen) genVectorHooks(f *jen.File) {
	f.Add(Doc("vectorISA names the instructions of vectorBlock, which scores blocks of rows with SIMD instructions: " +
		"the init function of " + VectorFileName + ", which builds only with GOEXPERIMENT=simd on amd64, " +
		"sets it when the processor has AVX2 or AVX-512. It stays \"\" otherwise, and PredictBatch then " +
		"does not call vectorBlock."))
	f.Var().Id("vectorISA").String()
	f.Line()
	f.Add(Doc("BatchInstructions names the instructions with which PredictBatch scores blocks of rows: " +
		"\"AVX-512\" or \"AVX2\" when the package is built with GOEXPERIMENT=simd on amd64 " +
		"and the processor has them, else \"portable\"."))
	f.Func().Id("BatchInstructions").Params().String().Block(
		jen.If(jen.Id("vectorISA").Op("==").Lit("")).Block(jen.Return(jen.Lit("portable"))),
		jen.Return(jen.Id("vectorISA")),
	)
	f.Line()
}

// NoVectorFile returns the file that stands in for the vector file in the
// builds that do not have it: an empty vectorBlock, which PredictBatch
// never calls there (vectorISA stays "").
func NoVectorFile(g *Gen, pkg string, header []string) *jen.File {
	f := jen.NewFile(pkg)
	for _, l := range header {
		f.HeaderComment(l)
	}
	f.HeaderComment("")
	f.HeaderComment("//go:build !(" + VectorBuild + ")")
	f.Add(Doc("vectorBlock stands in for the SIMD code of " + VectorFileName + ", which this build does not have " +
		"(it needs GOEXPERIMENT=simd on amd64): vectorISA stays \"\", and PredictBatch never calls it."))
	f.Func().Id("vectorBlock").Params(g.vectorParams()...).Block()
	return f
}

// vectorParams returns the parameters of vectorBlock.
func (g *Gen) vectorParams() []jen.Code {
	return []jen.Code{
		jen.Id("x").Add(blockType("NumFeatures", g.VectorInput())),
		jen.Id("a").Add(blockType("NumOutputs", g.Float())),
	}
}

// VectorFunc returns the declaration of vectorBlock in the vector file,
// with the body body.
func (g *Gen) VectorFunc(body ...jen.Code) jen.Code {
	return Doc("vectorBlock adds the values of all the trees to the accumulators of the batchRows rows " +
		"of x, row by row in a, in tree order, with the instructions that vectorISA names: " +
		"as the other code does, bit for bit, missing (NaN) values included.").Line().
		Func().Id("vectorBlock").Params(g.vectorParams()...).Block(body...)
}

// VectorInput returns the type of the values that vectorBlock reads: the
// rows of PredictBatch themselves (F) when they need no preprocessing and
// tests compare in F, else the comparison type of BatchInput.
func (g *Gen) VectorInput() *jen.Statement {
	if g.vectorDirect() {
		return g.Float()
	}
	return g.BatchInput()
}

// vectorDirect reports whether vectorBlock reads the rows of PredictBatch
// where they are: no preprocessing, and tests compare in F.
func (g *Gen) vectorDirect() bool {
	return g.Model.Preprocess == nil && (g.Is32() || !g.Model.Float32Compare)
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
func (g *Gen) genBlocksPredictBatch(f *jen.File, vector bool) {
	F := g.Float()
	i, r := jen.Id("i"), jen.Id("r")
	how := "Rows are scored in blocks of batchRows, tree by tree, which keeps each tree's tables " +
		"in the processor's cache for the whole block; a block with a missing (NaN) value, " +
		"and the last rows, are predicted row by row."
	if vector {
		how = "Rows are scored in blocks of batchRows, tree by tree, which keeps each tree's tables " +
			"in the processor's cache for the whole block. Built with GOEXPERIMENT=simd on amd64 " +
			"(see BatchInstructions), blocks are scored with AVX2 or AVX-512 instructions, " +
			"missing (NaN) values included; otherwise a block with a NaN is predicted row by row. " +
			"The last rows are predicted row by row."
	}
	f.Add(Doc("PredictBatch predicts n rows at once: x holds n rows of NumFeatures values, "+
		"one after the other, and out receives the n rows of NumOutputs predictions, "+
		"the same as Predict gives. It returns ErrFeatureCount if len(x) is not a multiple of NumFeatures and "+
		"ErrOutputCount if len(out) != n*NumOutputs, before predicting anything.", how))
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
// predictions. With vector, it first tries vectorBlock, which takes NaN.
func (g *Gen) genPredictBlock(f *jen.File, batchFuncs []string, vector bool) {
	F := g.Float()
	r := jen.Id("r")
	var body []jen.Code
	if vector {
		body = append(body, jen.If(jen.Id("vectorISA").Op("!=").Lit("")).Block(g.vectorBlockCall()...))
	}
	if len(batchFuncs) == 0 {
		body = append(body, jen.Return(jen.False()))
	} else {
		body = append(body,
			jen.Var().Id("xb").Index(jen.Id("batchRows").Op("*").Id("NumFeatures")).Add(g.BatchInput()),
			jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(g.blockLoad(true)...),
		)
		body = append(body, g.blockAccumulators()...)
		for _, fn := range batchFuncs {
			body = append(body, jen.Id(fn).Call(jen.Op("&").Id("xb"), jen.Op("&").Id("acc")))
		}
		body = append(body, g.blockFinishAll()...)
	}
	doc := "predictBlock writes the predictions of the batchRows rows of x into out, " +
		"scoring the rows together, and returns true; it returns false, having written nothing, " +
		"if a row has a missing (NaN) value."
	if len(batchFuncs) == 0 {
		doc = "predictBlock writes the predictions of the batchRows rows of x into out with vectorBlock " +
			"and returns true; it returns false, having written nothing, when this build has no vectorBlock."
	} else if vector {
		doc = "predictBlock writes the predictions of the batchRows rows of x into out, " +
			"scoring the rows together, and returns true; it returns false, having written nothing, " +
			"if this build has no vectorBlock and a row has a missing (NaN) value."
	}
	f.Add(Doc(doc))
	f.Func().Id("predictBlock").Params(
		jen.Id("x").Add(blockType("NumFeatures", F.Clone())),
		jen.Id("out").Add(blockType("NumOutputs", F.Clone())),
	).Bool().Block(body...)
	f.Line()
}

// vectorBlockCall returns the statements that score the block x with
// vectorBlock, from the rows themselves or from their copy in xb, and
// return true.
func (g *Gen) vectorBlockCall() []jen.Code {
	r := jen.Id("r")
	var stmts []jen.Code
	src := jen.Id("x")
	if !g.vectorDirect() {
		stmts = append(stmts,
			jen.Var().Id("xb").Index(jen.Id("batchRows").Op("*").Id("NumFeatures")).Add(g.BatchInput()),
			jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(g.blockLoad(false)...),
		)
		src = jen.Op("&").Id("xb")
	}
	stmts = append(stmts, g.blockAccumulators()...)
	stmts = append(stmts, jen.Id("vectorBlock").Call(src, jen.Op("&").Id("acc")))
	return append(stmts, g.blockFinishAll()...)
}

// blockAccumulators returns the statements that declare acc, the
// accumulators of a block, and start them at the base scores.
func (g *Gen) blockAccumulators() []jen.Code {
	r := jen.Id("r")
	stmts := []jen.Code{jen.Var().Id("acc").Index(jen.Id("batchRows").Op("*").Id("NumOutputs")).Add(g.Float())}
	if set := g.blockBase(); len(set) > 0 {
		stmts = append(stmts, jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Len(jen.Id("acc")),
			r.Clone().Op("+=").Id("NumOutputs")).Block(set...))
	}
	return stmts
}

// blockFinishAll returns the statements that finish the margins of every
// row of the block into out, and return true.
func (g *Gen) blockFinishAll() []jen.Code {
	r := jen.Id("r")
	return []jen.Code{
		jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(g.blockFinish()...),
		jen.Return(jen.True()),
	}
}

// blockLoad returns the statements that copy row r of x, preprocessed if
// the model says so, into xb, as F values or rounded to float32 when tests
// compare in float32; with stopNaN, predictBlock returns false on a NaN.
func (g *Gen) blockLoad(stopNaN bool) []jen.Code {
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
	var stop []jen.Code
	if stopNaN {
		stop = append(stop, jen.If(jen.Id("v").Op("!=").Id("v")).Block(jen.Return(jen.False())))
	}
	return append(load, jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id("row")).Block(
		append(stop, jen.Id("xb").Index(r.Clone().Op("*").Id("NumFeatures").Op("+").Id("j")).Op("=").Add(v))...,
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
