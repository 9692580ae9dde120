package emit

import (
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// MainSpec is what the main file of a generated package says besides the
// model: see [MainFile].
type MainSpec struct {
	// Package is the package name.
	Package string
	// Header holds the comment lines that start every file ([HeaderLines]).
	Header []string
	// Hash is the model's ir.Hash.
	Hash string
	// Backend names the backend that compiled the trees.
	Backend string
	// Approximation says how the code differs from the interpreter, in a
	// sentence; "" when it is exact.
	Approximation string
	// AddFuncs are the accumulation functions of the tree files, in order;
	// BatchFuncs those that score blocks of rows, if the backend does (one
	// per tree file), else none.
	AddFuncs, BatchFuncs []string
	// Readout are the Readout statements of the units, in order: the body
	// of the read-out function of a model with latent trees.
	Readout []jen.Code
	// Vector says that the package has a vector file ([VectorFileName]),
	// built only with GOEXPERIMENT=simd on amd64, whose init may set
	// vectorISA: PredictBatch then scores every full block of rows with its
	// vectorBlock.
	Vector bool
}

// MainFile returns the file holding the API of the generated package (see
// the package documentation): constants, names, errors, Predict,
// PredictMargin, PredictSlice, PredictBatch, PredictClass, preprocessing,
// and the helpers that NewGen found the model's code may use.
func MainFile(g *Gen, spec MainSpec) *jen.File {
	f := jen.NewFile(spec.Package)
	for _, l := range spec.Header {
		f.HeaderComment(l)
	}
	for _, l := range docLines(78, g.packageDoc(spec)...) {
		f.PackageComment(l)
	}
	g.genConsts(f, spec.Hash)
	g.genNames(f)
	g.genErrors(f, spec.Package)
	addFuncs, batchFuncs := spec.AddFuncs, spec.BatchFuncs
	g.genPredict(f)
	g.genPredictMargin(f, addFuncs)
	g.genPredictSlice(f)
	if len(batchFuncs) > 0 || spec.Vector {
		g.genBlockBatch(f, batchFuncs, spec.Vector)
	} else {
		g.genPredictBatch(f)
	}
	if g.Model.IsClassifier() {
		g.genPredictClass(f)
	}
	if g.Model.Preprocess != nil && len(addFuncs) > 0 {
		g.genPreprocess(f)
	}
	if g.Model.Readout != nil {
		g.genReadout(f, spec.Readout)
	}
	g.genCategories(f)
	switch {
	case g.needs.exp && g.Is32():
		g.genExpf(f)
	case g.needs.exp:
		g.genExp(f)
	}
	if g.needs.negZero {
		f.Add(Doc("negZero is -0, which Go constants cannot express."))
		f.Var().Id("negZero").Op("=").Add(g.Float()).Call(
			jen.Qual("math", "Copysign").Call(jen.Lit(0), jen.Lit(-1)))
	}
	return f
}

// plural returns "1 tree", "2 trees".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// packageDoc returns the paragraphs of the package documentation.
func (g *Gen) packageDoc(spec MainSpec) []string {
	m := g.Model
	name := "a tree model"
	if m.Name != "" {
		name = "the tree model " + strconv.Quote(m.Name)
	}
	first := "Package " + spec.Package + " predicts with " + name +
		", compiled to Go by treegen with the " + spec.Backend + " backend."

	var what string
	switch m.Task {
	case ir.Binary:
		what = "The model is a binary classifier of " + plural(m.NumFeatures, "feature") +
			" (NumFeatures); its one output scores the second class, ClassNames[1]."
	case ir.Multiclass:
		what = "The model classifies " + plural(m.NumFeatures, "feature") +
			" (NumFeatures) into " + strconv.Itoa(m.NumOutputs) + " classes, one output each."
	case ir.Regression:
		what = "The model is a regression model from " + plural(m.NumFeatures, "feature") +
			" (NumFeatures) to " + plural(m.NumOutputs, "output") + "."
	default:
		what = "The model is a multi-output model from " + plural(m.NumFeatures, "feature") +
			" (NumFeatures) to " + plural(m.NumOutputs, "output") + "."
	}
	if m.Preprocess != nil {
		what += " Each feature is first mapped to x' = (x - shift) * scale."
	}
	agg := "the sum"
	if m.Aggregation == ir.Mean {
		agg = "the mean"
	}
	what += " A raw score (margin) is the base score plus " + agg + " of the values of the trees that write it (" +
		plural(len(m.Trees), "tree") + " in all)"
	if n := latentTrees(m); n > 0 {
		what += ", plus a linear read-out of the features and of the activations of the nodes of the " +
			plural(n, "latent tree") + ", which have no value of their own"
	}
	what += "; "
	switch m.Link {
	case ir.Identity:
		what += "predictions are the margins themselves (identity link)."
	case ir.Sigmoid:
		what += "predictions are 1 / (1 + exp(-margin)) (sigmoid link)."
	case ir.Exp:
		what += "predictions are exp(margin) (exp link)."
	case ir.Softmax:
		what += "predictions are the softmax of the margins (softmax link)."
	}
	if spec.Approximation == "" {
		what += " All arithmetic is done in " + g.Prec.String() + ", exactly as the treegen interpreter does it."
	} else {
		what += " All arithmetic is done in " + g.Prec.String() + ", but the code is approximate. " + spec.Approximation
	}

	use := "Predict returns the predictions and PredictMargin the margins of one row; " +
		"PredictSlice and PredictBatch take slices."
	switch m.Task {
	case ir.Binary:
		use += " PredictClass returns 1 when the prediction is above 0.5, else 0."
	case ir.Multiclass:
		use += " PredictClass returns the index in ClassNames of the largest prediction."
	}
	use += " A NaN feature value means missing. No function allocates, and all are safe for concurrent use."
	return []string{first, what, use}
}

func (g *Gen) genConsts(f *jen.File, hash string) {
	m := g.Model
	f.Add(Doc("NumFeatures is the number of features of an input row."))
	f.Const().Id("NumFeatures").Op("=").Lit(m.NumFeatures)
	f.Line()
	f.Add(Doc("NumOutputs is the number of outputs: margins and predictions."))
	f.Const().Id("NumOutputs").Op("=").Lit(m.NumOutputs)
	f.Line()
	f.Add(Doc("ModelSHA256 is the SHA-256 of the model's canonical IR encoding."))
	f.Const().Id("ModelSHA256").Op("=").Add(Str(hash))
	f.Line()
}

// stringArray returns [n]string{...}, one element per line when long.
func stringArray(length jen.Code, items []string) *jen.Statement {
	lits := make([]jen.Code, len(items))
	total := 0
	for i, s := range items {
		q := strconv.Quote(s)
		total += len(q) + 2
		lits[i] = jen.Id(q)
	}
	multi := total > 60
	return jen.Index(length).String().Custom(jen.Options{
		Open: "{", Close: "}", Separator: ",", Multi: multi,
	}, lits...)
}

func (g *Gen) genNames(f *jen.File) {
	m := g.Model
	if m.FeatureNames == nil {
		// Names made up here would cost a line per declared feature, and a
		// model may declare millions it never names.
		f.Add(Doc("FeatureNames names the features of an input row, in order: the model names none, so every name is empty."))
		f.Var().Id("FeatureNames").Index(jen.Id("NumFeatures")).String()
	} else {
		f.Add(Doc("FeatureNames names the features of an input row, in order."))
		f.Var().Id("FeatureNames").Op("=").Add(stringArray(jen.Id("NumFeatures"), m.FeatureNames))
	}
	f.Line()

	var classes []string
	switch m.Task {
	case ir.Binary, ir.Multiclass:
		classes = m.ClassNames
		if classes == nil {
			n := m.NumOutputs
			if m.Task == ir.Binary {
				n = 2
			}
			classes = make([]string, n)
			for i := range classes {
				classes[i] = strconv.Itoa(i)
			}
		}
		if m.Task == ir.Binary {
			f.Add(Doc("ClassNames names the two classes; the output scores ClassNames[1]."))
		} else {
			f.Add(Doc("ClassNames names the classes, one per output."))
		}
	default:
		f.Add(Doc("ClassNames is empty: the model is not a classifier."))
	}
	f.Var().Id("ClassNames").Op("=").Add(stringArray(jen.Lit(len(classes)), classes))
	f.Line()
}

func (g *Gen) genErrors(f *jen.File, pkg string) {
	m := g.Model
	f.Add(Doc("ErrFeatureCount is the error of PredictSlice and PredictBatch for an input " +
		"that does not hold whole rows of NumFeatures values."))
	f.Var().Id("ErrFeatureCount").Op("=").Qual("errors", "New").Call(Str(
		pkg + ": wrong input length: want " + plural(m.NumFeatures, "feature") + " per row"))
	f.Line()
	f.Add(Doc("ErrOutputCount is the error of PredictBatch for an output slice that does not " +
		"hold NumOutputs values per input row."))
	f.Var().Id("ErrOutputCount").Op("=").Qual("errors", "New").Call(Str(
		pkg + ": wrong output length: want " + plural(m.NumOutputs, "output") + " per input row"))
	f.Line()
}

func (g *Gen) genPredict(f *jen.File) {
	x := jen.Id("x").Add(g.RowType())
	ret := jen.Index(jen.Id("NumOutputs")).Add(g.Float())
	what, link := g.linkStmts()
	body := []jen.Code{jen.Return(jen.Id("PredictMargin").Call(jen.Id("x")))}
	if len(link) > 0 {
		body = append([]jen.Code{jen.Id("a").Op(":=").Id("PredictMargin").Call(jen.Id("x"))}, link...)
		body = append(body, jen.Return(jen.Id("a")))
	}
	f.Add(Doc("Predict returns the predictions for row x: " + what + ". " +
		"A NaN feature value means missing."))
	f.Func().Id("Predict").Params(x).Add(ret).Block(body...)
	f.Line()
}

// linkStmts returns what the link does, in words, and the statements that
// apply it to the margins in the array a (none for the identity link).
func (g *Gen) linkStmts() (what string, stmts []jen.Code) {
	ak := jen.Id("a").Index(jen.Id("k"))
	switch g.Model.Link {
	case ir.Sigmoid:
		return "1 / (1 + exp(-margin)) for each margin (sigmoid link)", []jen.Code{
			jen.For(jen.Id("k").Op(":=").Range().Id("a")).Block(
				ak.Clone().Op("=").Lit(1).Op("/").Parens(jen.Lit(1).Op("+").Add(g.Exp(jen.Op("-").Add(ak.Clone())))),
			),
		}
	case ir.Exp:
		return "exp(margin) for each margin (exp link)", []jen.Code{
			jen.For(jen.Id("k").Op(":=").Range().Id("a")).Block(
				ak.Clone().Op("=").Add(g.Exp(ak.Clone())),
			),
		}
	case ir.Softmax:
		loop1 := func(stmts ...jen.Code) *jen.Statement {
			return jen.For(jen.Id("k").Op(":=").Lit(1), jen.Id("k").Op("<").Id("NumOutputs"), jen.Id("k").Op("++")).Block(stmts...)
		}
		return "the softmax of the margins (softmax link)", []jen.Code{
			jen.Id("mx").Op(":=").Id("a").Index(jen.Lit(0)),
			loop1(jen.If(ak.Clone().Op(">").Id("mx")).Block(jen.Id("mx").Op("=").Add(ak.Clone()))),
			jen.For(jen.Id("k").Op(":=").Range().Id("a")).Block(
				ak.Clone().Op("=").Add(g.Exp(ak.Clone().Op("-").Id("mx"))),
			),
			jen.Id("s").Op(":=").Add(g.sumTerm(jen.Id("a").Index(jen.Lit(0)))),
			loop1(jen.Id("s").Op("+=").Add(g.sumTerm(ak.Clone()))),
			jen.For(jen.Id("k").Op(":=").Range().Id("a")).Block(ak.Clone().Op("/=").Add(g.sumRounded(jen.Id("s")))),
		}
	}
	return "the margins themselves (identity link)", nil
}

// baseMargin is b_k as the package holds it: rounded to F, or to float32
// with Float32Sum.
func (g *Gen) baseMargin(k int) float64 {
	if g.Model.Float32Sum {
		return float64(float32(g.Model.Base(k)))
	}
	return g.Round(g.Model.Base(k))
}

// initMargins returns the declaration of the accumulators a, set to the
// base score (sum aggregation) or to 0 (mean).
func (g *Gen) initMargins() jen.Code {
	m := g.Model
	arr := jen.Index(jen.Id("NumOutputs")).Add(g.Float())
	zeroBase := true
	for k := 0; k < m.NumOutputs; k++ {
		b := g.baseMargin(k)
		if b != 0 || math.Signbit(b) {
			zeroBase = false
		}
	}
	if m.Aggregation == ir.Mean || zeroBase {
		return jen.Var().Id("a").Add(arr)
	}
	vals := make([]jen.Code, m.NumOutputs)
	for k := range vals {
		vals[k] = g.Lit(g.baseMargin(k))
	}
	return jen.Id("a").Op(":=").Add(arr).Values(vals...)
}

// meanStmts returns the statements that turn the sums of tree values in
// the array a into the margins of the mean aggregation (none for sum).
func (g *Gen) meanStmts() []jen.Code {
	m := g.Model
	if m.Aggregation != ir.Mean {
		return nil
	}
	var body []jen.Code
	counts := m.TreesPerOutput()
	for k := 0; k < m.NumOutputs; k++ {
		ak := jen.Id("a").Index(jen.Lit(k))
		// counts[k] > 0: Validate refuses a mean over no trees.
		b := g.baseMargin(k)
		if counts[k] == 1 && b == 0 && !math.Signbit(b) {
			// s/1 == s, and +0 + s == s since a sum that starts at +0
			// is never -0.
			continue
		}
		mean := ak.Clone()
		if g.Sum32() {
			mean = jen.Float32().Call(ak.Clone())
		}
		if counts[k] > 1 { // s/1 == s for every s
			mean = mean.Op("/").Lit(counts[k])
		}
		if g.Sum32() {
			body = append(body, ak.Clone().Op("=").Float64().Call(g.Lit32(b).Op("+").Add(mean)))
			continue
		}
		body = append(body, ak.Clone().Op("=").Add(g.Lit(b)).Op("+").Add(mean))
	}
	return body
}

func (g *Gen) genPredictMargin(f *jen.File, addFuncs []string) {
	m := g.Model
	var body []jen.Code
	row := jen.Id("x")
	if m.Preprocess != nil && len(addFuncs) > 0 {
		body = append(body, jen.Id("xp").Op(":=").Id("preprocess").Call(jen.Id("x")))
		row = jen.Op("&").Id("xp")
	}
	arr := jen.Index(jen.Id("NumOutputs")).Add(g.Float())
	body = append(body, g.initMargins())
	for _, fn := range addFuncs {
		body = append(body, jen.Id(fn).Call(row.Clone(), jen.Op("&").Id("a")))
	}
	what := "the base score plus the sum of the tree values"
	if m.Aggregation == ir.Mean {
		what = "the base score plus the mean of the values of the trees that write it"
	}
	body = append(body, g.meanStmts()...)
	if m.Readout != nil {
		what += ", plus the read-out of the latent trees"
		body = append(body, jen.Id("readout").Call(row.Clone(), jen.Op("&").Id("a")))
	}
	body = append(body, jen.Return(jen.Id("a")))
	f.Add(Doc("PredictMargin returns the raw scores (margins) for row x, before the link " +
		"function: for each output, " + what + ". A NaN feature value means missing."))
	f.Func().Id("PredictMargin").Params(jen.Id("x").Add(g.RowType())).Add(arr.Clone()).Block(body...)
	f.Line()
}

func (g *Gen) genPredictSlice(f *jen.File) {
	arr := jen.Index(jen.Id("NumOutputs")).Add(g.Float())
	f.Add(Doc("PredictSlice returns Predict of the row x, or ErrFeatureCount if " +
		"len(x) != NumFeatures."))
	f.Func().Id("PredictSlice").Params(jen.Id("x").Index().Add(g.Float())).Params(arr.Clone(), jen.Error()).Block(
		jen.If(jen.Len(jen.Id("x")).Op("!=").Id("NumFeatures")).Block(
			jen.Return(arr.Clone().Values(), jen.Id("ErrFeatureCount")),
		),
		jen.Return(jen.Id("Predict").Call(jen.Parens(g.RowType()).Call(jen.Id("x"))), jen.Nil()),
	)
	f.Line()
}

func (g *Gen) genPredictBatch(f *jen.File) {
	i := jen.Id("i")
	f.Add(Doc("PredictBatch predicts n rows at once: x holds n rows of NumFeatures values, " +
		"one after the other, and out receives the n rows of NumOutputs predictions. " +
		"It returns ErrFeatureCount if len(x) is not a multiple of NumFeatures and " +
		"ErrOutputCount if len(out) != n*NumOutputs, before predicting anything.",
	))
	f.Func().Id("PredictBatch").Params(jen.Id("x"), jen.Id("out").Index().Add(g.Float())).Error().Block(
		jen.If(jen.Len(jen.Id("x")).Op("%").Id("NumFeatures").Op("!=").Lit(0)).Block(
			jen.Return(jen.Id("ErrFeatureCount")),
		),
		jen.Id("n").Op(":=").Len(jen.Id("x")).Op("/").Id("NumFeatures"),
		jen.If(jen.Len(jen.Id("out")).Op("!=").Id("n").Op("*").Id("NumOutputs")).Block(
			jen.Return(jen.Id("ErrOutputCount")),
		),
		jen.For(i.Clone().Op(":=").Lit(0), i.Clone().Op("<").Id("n"), i.Clone().Op("++")).Block(
			jen.Op("*").Parens(g.OutType()).Call(jen.Id("out").Index(i.Clone().Op("*").Id("NumOutputs").Op(":"))).Op("=").
				Id("Predict").Call(jen.Parens(g.RowType()).Call(jen.Id("x").Index(i.Clone().Op("*").Id("NumFeatures").Op(":")))),
		),
		jen.Return(jen.Nil()),
	)
	f.Line()
}

func (g *Gen) genPredictClass(f *jen.File) {
	x := jen.Id("x").Add(g.RowType())
	if g.Model.Task == ir.Binary {
		f.Add(Doc("PredictClass returns the predicted class of row x, an index into ClassNames: " +
			"1 if Predict(x)[0] > 0.5, else 0 (also for a NaN prediction)."))
		f.Func().Id("PredictClass").Params(x).Int().Block(
			jen.If(jen.Id("Predict").Call(jen.Id("x")).Index(jen.Lit(0)).Op(">").Lit(0.5)).Block(jen.Return(jen.Lit(1))),
			jen.Return(jen.Lit(0)),
		)
		f.Line()
		return
	}
	k := jen.Id("k")
	f.Add(Doc("PredictClass returns the predicted class of row x, an index into ClassNames: " +
		"the index of the largest prediction, the first one on ties."))
	f.Func().Id("PredictClass").Params(x).Int().Block(
		jen.Id("p").Op(":=").Id("Predict").Call(jen.Id("x")),
		jen.Id("best").Op(":=").Lit(0),
		jen.For(k.Clone().Op(":=").Lit(1), k.Clone().Op("<").Id("NumOutputs"), k.Clone().Op("++")).Block(
			jen.If(jen.Id("p").Index(k.Clone()).Op(">").Id("p").Index(jen.Id("best"))).Block(
				jen.Id("best").Op("=").Add(k.Clone()),
			),
		),
		jen.Return(jen.Id("best")),
	)
	f.Line()
}

func (g *Gen) genPreprocess(f *jen.File) {
	p := g.Model.Preprocess
	var body []jen.Code
	for j := range p.Shift {
		e := jen.Id("x").Index(jen.Lit(j))
		shift, scale := g.Round(p.Shift[j]), g.Round(p.Scale[j])
		// x - (+0) == x and x * 1 == x for every x (NaN stays NaN): such
		// steps are left out. x - (-0) is not x when x is -0: kept.
		if shift != 0 || math.Signbit(shift) {
			e = jen.Parens(e.Op("-").Add(g.Lit(p.Shift[j])))
		}
		if scale != 1 {
			e = e.Op("*").Add(g.Lit(p.Scale[j]))
		}
		body = append(body, jen.Id("y").Index(jen.Lit(j)).Op("=").Add(e))
	}
	body = append(body, jen.Return())
	f.Add(Doc("preprocess maps each feature of row x to (x - shift) * scale."))
	f.Func().Id("preprocess").Params(jen.Id("x").Add(g.RowType())).
		Params(jen.Id("y").Index(jen.Id("NumFeatures")).Add(g.Float())).Block(body...)
	f.Line()
}

// latentTrees returns the number of latent trees of m.
func latentTrees(m *ir.Model) int {
	n := 0
	for i := range m.Trees {
		if m.Trees[i].Latent {
			n++
		}
	}
	return n
}

// genReadout writes readout, which adds the read-out of the latent trees
// to the margins (ir/doc.go): for each output k, r_k = Bias[k] + W[k]·x'
// accumulated left to right from the bias, continued over z by the
// statements calls (the units' Readout statements, in tree order), then
// a_k = a_k + r_k.
func (g *Gen) genReadout(f *jen.File, calls []jen.Code) {
	m := g.Model
	all := make([]int, m.NumFeatures)
	for j := range all {
		all[j] = j
	}
	sums := make([]jen.Code, m.NumOutputs)
	for k := range sums {
		sums[k] = g.Dot(m.Readout.Bias[k], all, m.Readout.Weights[k][:m.NumFeatures])
	}
	body := []jen.Code{jen.Id("r").Op(":=").Op("&").Index(jen.Id("NumOutputs")).Add(g.Float()).Custom(jen.Options{
		Open: "{", Close: "}", Separator: ",", Multi: true,
	}, sums...)}
	body = append(body, calls...)
	for k := 0; k < m.NumOutputs; k++ {
		body = append(body, g.AddValue(k, jen.Id("r").Index(jen.Lit(k))))
	}
	f.Add(Doc("readout adds to the margins a the read-out of the latent trees: for output k, " +
		"the read-out bias plus the products of the weights of row k with the features of x and " +
		"with the activations z of the nodes of the latent trees, added left to right. " +
		"The function of each latent tree adds the terms of its nodes; those of the nodes off the path " +
		"that the row takes are zeros, which it does not compute."))
	f.Func().Id("readout").Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(body...)
	f.Line()
}
