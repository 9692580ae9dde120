package smoothstep

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
)

// The code of a level group, emitted from its layout (lvLayout): the
// tables, lvStep, the depth-first fallback (lvRec, lvSlow), lvMargins and
// lvTrees, the level-synchronous evaluation that the comment at the top of
// level.go describes.

// lvMulti lays out a composite literal one element per line.
var lvMulti = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// lvBoolsPerLine is the number of elements on a line of the table lvL.
const lvBoolsPerLine = 16

// lvUnit returns the unit of level group gr, its layout, and the
// package-level helpers its code calls.
func lvUnit(g *emit.Gen, gr lvGroup, prune float64) (emit.Unit, *lvLayout, helpers) {
	l := lvLayoutOf(g, gr, prune)
	decls := genLvTables(g, l)
	decls = append(decls, genLvStep(g, l))
	if l.outTable {
		decls = append(decls, genLvOuts(l))
	}
	if l.sparse {
		decls = append(decls, genLvExact(g, l))
	}
	decls = append(decls, genLvRec(g, l), genLvSlow(g, l), genLvMargins(g, l), genLvTrees(g, l))
	call := jen.Id(l.name("lvTrees")).Call(jen.Id("x"), jen.Id("a"))
	uses := helpers{dot: true, dot4: true}
	if l.sparse {
		uses = helpers{}
	}
	return emit.Unit{Decls: decls, Calls: []jen.Code{call}, Size: l.size}, l, uses
}

// rowType returns the type of the row that the functions of the group but
// lvTrees read: *[NumFeatures]F, or, for a sparse group, *[NumFeatures + 1]F,
// the row followed by a 0 that the padding of lvI reads.
func (l *lvLayout) rowType(g *emit.Gen) *jen.Statement {
	if l.sparse {
		return jen.Op("*").Index(jen.Id("NumFeatures").Op("+").Lit(1)).Add(g.Float())
	}
	return g.RowType()
}

// row returns the row that lvTrees passes to the other functions of the
// group: x, or, for a sparse group, &xz, its copy followed by a 0.
func (l *lvLayout) row() *jen.Statement {
	if l.sparse {
		return jen.Op("&").Id("xz")
	}
	return jen.Id("x")
}

// intType returns the type of the entries of lvI and lvN: the smallest of
// uint8, uint16 and int32 that holds NumFeatures.
func (l *lvLayout) intType() *jen.Statement {
	switch {
	case l.p < 1<<8:
		return jen.Uint8()
	case l.p < 1<<16:
		return jen.Uint16()
	}
	return jen.Int32()
}

// genLvTables declares the tables of the group: lvW and lvV, lvG and lvH
// when γ differs among the nodes, lvL when their default directions do.
func genLvTables(g *emit.Gen, l *lvLayout) []jen.Code {
	nameW, nameV := l.name("lvW"), l.name("lvV")
	width := jen.Id("NumFeatures").Op("+").Lit(1)
	what := "bias and weights"
	if l.sparse {
		width = jen.Lit(l.nw + 1)
		what = fmt.Sprintf("bias and the weights of the features in %s (0 past the node's %s)", l.name("lvI"), l.name("lvN"))
	}
	decls := []jen.Code{
		emit.Doc(fmt.Sprintf("%s holds the %s of the soft nodes of %s, level by level: "+
			"node i (from the left) of level L of the t-th tree is row (2^L-1)*%d + t*2^L + i.", nameW, what, l.trees, l.T)).Line().
			Var().Id(nameW).Op("=").Index(jen.Lit(len(l.weights))).Index(width).Add(g.Float()).
			Custom(lvMulti, lvRows(g, l.weights)...),
		emit.Doc(fmt.Sprintf("%s holds the values of the leaves of %s: leaf i (from the left) of the t-th tree is row t*%d + i.",
			nameV, l.trees, 1<<l.D)).Line().
			Var().Id(nameV).Op("=").Index(jen.Lit(len(l.values))).Index(jen.Lit(l.K)).Add(g.Float()).
			Custom(lvMulti, lvRows(g, l.values)...),
	}
	if l.sparse {
		decls = append(decls, genLvFeats(l)...)
	}
	if l.stepTables {
		decls = append(decls,
			genLvFloats(g, l.name("lvG"), fmt.Sprintf("holds the width γ of the soft nodes of %s, in the order of %s.", l.trees, nameW), l.gammas),
			genLvFloats(g, l.name("lvH"), fmt.Sprintf("holds γ/2 of the soft nodes of %s, in the order of %s.", l.trees, nameW), l.halves))
	}
	if l.nan == lvNaNTable {
		decls = append(decls, genLvLefts(l))
	}
	return decls
}

// lvLits returns the literals of values in F.
func lvLits(g *emit.Gen, vs []float64) []jen.Code {
	lits := make([]jen.Code, len(vs))
	for i, v := range vs {
		lits[i] = g.Lit(v)
	}
	return lits
}

// lvRows returns the rows of a table of values in F, each a composite
// literal.
func lvRows(g *emit.Gen, rows [][]float64) []jen.Code {
	codes := make([]jen.Code, len(rows))
	for i, r := range rows {
		codes[i] = jen.Values(lvLits(g, r)...)
	}
	return codes
}

// genLvFloats declares the table name of values in F, one per line; doc
// follows the name in its doc comment.
func genLvFloats(g *emit.Gen, name, doc string, vs []float64) jen.Code {
	return emit.Doc(name+" "+doc).Line().
		Var().Id(name).Op("=").Index(jen.Lit(len(vs))).Add(g.Float()).Custom(lvMulti, lvLits(g, vs)...)
}

// genLvFeats declares lvI, the features of the weights of each row of
// lvW, and lvN, the number of weights of each node, for a sparse group.
func genLvFeats(l *lvLayout) []jen.Code {
	rows := make([]jen.Code, len(l.feats))
	for i, r := range l.feats {
		fs := make([]jen.Code, len(r))
		for j, f := range r {
			fs[j] = jen.Lit(f)
		}
		rows[i] = jen.Values(fs...)
	}
	lines := litLines(l.counts)
	nameI, nameN := l.name("lvI"), l.name("lvN")
	return []jen.Code{
		emit.Doc(fmt.Sprintf("%s holds the features of the weights of %s, row by row; past the node's %s, NumFeatures, "+
			"the index of the 0 that follows the row in the copy that %s makes of it.", nameI, l.name("lvW"), nameN, l.name("lvTrees"))).Line().
			Var().Id(nameI).Op("=").Index(jen.Lit(len(l.feats))).Index(jen.Lit(l.nw)).Add(l.intType()).Custom(lvMulti, rows...),
		emit.Doc(fmt.Sprintf("%s holds the number of weights of each soft node of %s, in the order of %s.", nameN, l.trees, l.name("lvW"))).Line().
			Var().Id(nameN).Op("=").Index(jen.Lit(len(l.counts))).Add(l.intType()).Custom(lvMulti, lines...),
	}
}

// genLvExact declares lvExact, the margin of a node of a sparse group: its
// bias plus the products of its weights, added left to right as the
// interpreter adds them.
func genLvExact(g *emit.Gen, l *lvLayout) jen.Code {
	name, r, x, q := l.name("lvExact"), jen.Id("r"), jen.Id("x"), jen.Id("q")
	return emit.Doc(fmt.Sprintf("%s returns the margin of soft node r of %s (its row in %s): the bias plus the products of its weights, "+
		"added left to right.", name, l.trees, l.name("lvW"))).Line().
		Func().Id(name).Params(r.Clone().Int(), x.Clone().Add(l.rowType(g))).Add(g.Float()).Block(
		jen.List(jen.Id("w"), jen.Id("f")).Op(":=").List(jen.Op("&").Id(l.name("lvW")).Index(r.Clone()), jen.Op("&").Id(l.name("lvI")).Index(r.Clone())),
		jen.Id("m").Op(":=").Id("w").Index(jen.Lit(0)),
		jen.For(q.Clone().Op(":=").Lit(0), q.Clone().Op("<").Int().Call(jen.Id(l.name("lvN")).Index(r.Clone())), q.Clone().Op("++")).Block(
			jen.Id("m").Op("+=").Add(g.Float().Call(jen.Id("w").Index(q.Clone().Op("+").Lit(1)).Op("*").Add(x.Clone().Index(jen.Id("f").Index(q.Clone()))))),
		),
		jen.Return(jen.Id("m")),
	)
}

// litLines returns the literals of vals, lvBoolsPerLine to a line.
func litLines[T any](vals []T) []jen.Code {
	var lines []jen.Code
	for i := 0; i < len(vals); i += lvBoolsPerLine {
		var line []jen.Code
		for _, v := range vals[i:min(i+lvBoolsPerLine, len(vals))] {
			line = append(line, jen.Lit(v))
		}
		lines = append(lines, jen.List(line...))
	}
	return lines
}

// genLvLefts declares lvL, the default direction of every soft node,
// lvBoolsPerLine to a line.
func genLvLefts(l *lvLayout) jen.Code {
	lines := litLines(l.lefts)
	name := l.name("lvL")
	return emit.Doc(fmt.Sprintf("%s says which soft nodes of %s send a NaN margin left, in the order of %s.",
		name, l.trees, l.name("lvW"))).Line().
		Var().Id(name).Op("=").Index(jen.Lit(len(l.lefts))).Bool().Custom(lvMulti, lines...)
}

// genLvOuts declares lvO, the output of each tree of a group of
// single-output trees that write different outputs.
func genLvOuts(l *lvLayout) jen.Code {
	outs := make([]jen.Code, len(l.outs))
	for t, o := range l.outs {
		outs[t] = jen.Lit(o)
	}
	name := l.name("lvO")
	return emit.Doc(fmt.Sprintf("%s holds the output of each of %s.", name, l.trees)).Line().
		Var().Id(name).Op("=").Index(jen.Lit(l.T)).Int().Values(outs...)
}

// genLvStep declares lvStep, the smooth-step of a node of the group.
func genLvStep(g *emit.Gen, l *lvLayout) jen.Code {
	name := l.name("lvStep")
	body := append(lvStepStmts(g, l, jen.Id("r")), jen.Return(jen.Id("s")))
	return emit.Doc(fmt.Sprintf("%s returns S_γ(m), the probability that soft node r of %s (its row in %s) sends the row left, given its margin m.",
		name, l.trees, l.name("lvW"))).Line().
		Func().Id(name).Params(jen.Id("m").Add(g.Float()), jen.Id("r").Int()).Add(g.Float()).Block(body...)
}

// lvStepStmts returns the statements that set s to S_γ(m), the
// interpreter's smooth-step of the margin m of the node of row r (an
// expression), its three cases selected without branches: m <= -h iff
// -h-m >= 0, and m >= h iff m-h >= 0, for finite h = γ/2 and any m but NaN
// (a difference is ±0 only if its operands are equal, and then +0; it
// overflows to the infinity of its sign), read on the sign bits of the
// differences and applied as masks to the bits of the cubic.
func lvStepStmts(g *emit.Gen, l *lvLayout, r jen.Code) []jen.Code {
	F := g.Float
	bits, frombits, shift := lvBitsFuncs(g)
	u := jen.Id("u").Op(":=").Id("m").Op("/").Add(lvNodeConst(g, l, "lvG", l.gammas[0], r))
	if !l.stepTables && l.gammas[0] == 1 {
		u = jen.Id("u").Op(":=").Id("m").Comment("m/1 == m")
	}
	cubic := F().Call(jen.Id("u").Op("*").Add(F().Call(jen.Lit(1.5).Op("-").Add(F().Call(jen.Lit(2).Op("*").Id("u").Op("*").Id("u"))))))
	half := func() *jen.Statement { return lvNodeConst(g, l, "lvH", l.halves[0], r) }
	return []jen.Code{
		u,
		jen.Id("b").Op(":=").Qual("math", bits).Call(cubic.Op("+").Lit(0.5)),
		jen.Id("le").Op(":=").Lit(1).Op("-").Qual("math", bits).Call(jen.Op("-").Add(half()).Op("-").Id("m")).
			Op(">>").Lit(shift).Comment("m <= -γ/2"),
		jen.Id("ge").Op(":=").Lit(1).Op("-").Qual("math", bits).Call(jen.Id("m").Op("-").Add(half())).
			Op(">>").Lit(shift).Comment("m >= γ/2"),
		jen.Id("b").Op("=").Id("b").Op("&").Parens(jen.Id("le").Op("-").Lit(1)).Op("&^").Parens(jen.Op("-").Id("ge")).
			Op("|").Qual("math", bits).Call(jen.Lit(1)).Op("&").Parens(jen.Op("-").Id("ge")),
		jen.Id("s").Op(":=").Qual("math", frombits).Call(jen.Id("b")),
		jen.If(jen.Id("m").Op("!=").Id("m")).Block(lvNaNStmts(l, r)...),
	}
}

// lvBitsFuncs returns the functions of package math that give the bits of
// a value in F and the value of bits, and the shift that moves the sign bit
// to bit 0.
func lvBitsFuncs(g *emit.Gen) (bits, frombits string, shift int) {
	if g.Is32() {
		return "Float32bits", "Float32frombits", 31
	}
	return "Float64bits", "Float64frombits", 63
}

// lvNodeConst returns γ or γ/2 of the node of row r: the constant shared,
// which every node of the group has, or the entry r of the table whose
// name starts with prefix (lvG, lvH).
func lvNodeConst(g *emit.Gen, l *lvLayout, prefix string, shared float64, r jen.Code) *jen.Statement {
	if l.stepTables {
		return jen.Id(l.name(prefix)).Index(r)
	}
	return g.Lit(shared)
}

// lvNaNStmts returns the statements that set s for a NaN margin of the node
// of row r: 1 if the node sends it left, else 0.
func lvNaNStmts(l *lvLayout, r jen.Code) []jen.Code {
	switch l.nan {
	case lvNaNLeft:
		return []jen.Code{jen.Id("s").Op("=").Lit(1)}
	case lvNaNRight:
		return []jen.Code{jen.Id("s").Op("=").Lit(0)}
	}
	return []jen.Code{
		jen.Id("s").Op("=").Lit(0),
		jen.If(jen.Id(l.name("lvL")).Index(r)).Block(jen.Id("s").Op("=").Lit(1)),
	}
}

// lvAdd returns the statement that adds v to the accumulator a[k]: a[k] +=
// v, or, with Float32Sum in a float64 package,
// a[k] = float64(float32(a[k]) + float32(v)).
func lvAdd(g *emit.Gen, k, v jen.Code) *jen.Statement {
	ak := jen.Id("a").Index(k)
	if g.Sum32() {
		return ak.Clone().Op("=").Float64().Call(jen.Float32().Call(ak).Op("+").Float32().Call(v))
	}
	return ak.Op("+=").Add(v)
}

// lvOut returns the output that single-output tree t of the group writes:
// a constant, or its entry in lvO.
func lvOut(l *lvLayout) jen.Code {
	if l.outTable {
		return jen.Id(l.name("lvO")).Index(jen.Id("t"))
	}
	return jen.Lit(l.outs[0])
}

// lvFlush returns the statements that add tv, the value of tree t of the
// group, to the accumulators and reset it to 0; regs says that tv is held
// in the variables tv0, tv1, ... rather than in the array tv.
func lvFlush(g *emit.Gen, l *lvLayout, regs bool) []jen.Code {
	tv := func(k int) *jen.Statement {
		if regs {
			return lvReg(k)
		}
		return jen.Id("tv").Index(jen.Lit(k))
	}
	switch {
	case !l.vector:
		return []jen.Code{lvAdd(g, lvOut(l), tv(0)), tv(0).Op("=").Lit(0)}
	case !regs:
		return []jen.Code{jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("tv")).Block(
			lvAdd(g, jen.Id("k"), jen.Id("v")),
			jen.Id("tv").Index(jen.Id("k")).Op("=").Lit(0),
		)}
	}
	var stmts, vars, zeros []jen.Code
	for k := 0; k < l.K; k++ {
		stmts = append(stmts, lvAdd(g, jen.Lit(k), tv(k)))
		vars = append(vars, tv(k))
		zeros = append(zeros, jen.Lit(0))
	}
	return append(stmts, jen.List(vars...).Op("=").List(zeros...))
}

// lvLeafTerms returns the statements that add the terms F(prob·v) of the
// values v of the leaf of row to the tree value tv, held in the variables
// tv0, tv1, ... (regs) or in the array tv.
func lvLeafTerms(g *emit.Gen, l *lvLayout, regs bool, prob string, row jen.Code) []jen.Code {
	leaf := func() *jen.Statement { return jen.Id(l.name("lvV")).Index(row) }
	switch {
	case regs:
		var stmts []jen.Code
		for k := 0; k < l.K; k++ {
			stmts = append(stmts, lvReg(k).Op("+=").Add(g.Float().Call(jen.Id(prob).Op("*").Add(leaf().Index(jen.Lit(k))))))
		}
		return stmts
	case l.K == 1:
		return []jen.Code{jen.Id("tv").Index(jen.Lit(0)).Op("+=").Add(g.Float().Call(jen.Id(prob).Op("*").Add(leaf().Index(jen.Lit(0)))))}
	}
	return []jen.Code{jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Op("&").Add(leaf())).Block(
		jen.Id("tv").Index(jen.Id("k")).Op("+=").Add(g.Float().Call(jen.Id(prob).Op("*").Id("v"))),
	)}
}

// lvReg is the variable tvk that holds value k of the tree value in
// lvTrees (see lvLayout.regs).
func lvReg(k int) *jen.Statement { return jen.Id("tv" + strconv.Itoa(k)) }

// genLvRec declares lvRec, the depth-first recursion of the fallback: the
// interpreter's order, over the group's tables.
func genLvRec(g *emit.Gen, l *lvLayout) jen.Code {
	name := l.name("lvRec")
	L, q, p := jen.Id("L"), jen.Id("q"), jen.Id("p")
	// child visits the child at node q of level L+1, reached with
	// probability prob = p·factor, unless prob is 0.
	child := func(prob string, factor, q jen.Code) jen.Code {
		return jen.If(jen.Id(prob).Op(":=").Add(p.Clone()).Op("*").Add(factor), jen.Id(prob).Op("!=").Lit(0)).Block(
			jen.Id(name).Call(jen.Id("x"), L.Clone().Op("+").Lit(1), q, jen.Id(prob), jen.Id("tv")),
		)
	}
	margin := jen.Id("dotExact").Call(jen.Op("&").Id(l.name("lvW")).Index(jen.Id("r")), jen.Id("x"))
	if l.sparse {
		margin = jen.Id(l.name("lvExact")).Call(jen.Id("r"), jen.Id("x"))
	}
	return emit.Doc(fmt.Sprintf("%s adds to tv the value of the subtree at node q of level L of %s, "+
		"reached with probability p: depth first, left before right, skipping children reached with probability 0.", name, l.trees)).Line().
		Func().Id(name).Params(
		jen.Id("x").Add(l.rowType(g)), jen.List(L.Clone(), q.Clone()).Int(), p.Clone().Add(g.Float()),
		jen.Id("tv").Op("*").Index(jen.Lit(l.K)).Add(g.Float()),
	).Block(
		jen.If(L.Clone().Op("==").Lit(l.D)).Block(append(lvLeafTerms(g, l, false, "p", q.Clone()), jen.Return())...),
		jen.Id("r").Op(":=").Parens(jen.Lit(1).Op("<<").Add(L.Clone()).Op("-").Lit(1)).Op("*").Lit(l.T).Op("+").Add(q.Clone()),
		jen.Id("s").Op(":=").Id(l.name("lvStep")).Call(margin, jen.Id("r")),
		child("l", jen.Id("s"), jen.Lit(2).Op("*").Add(q.Clone())),
		child("r", jen.Parens(jen.Lit(1).Op("-").Id("s")), jen.Lit(2).Op("*").Add(q.Clone()).Op("+").Lit(1)),
	)
}

// genLvSlow declares lvSlow, the fallback for rows whose frontier outgrows
// the arrays of lvTrees: the trees one by one, depth first.
func genLvSlow(g *emit.Gen, l *lvLayout) jen.Code {
	if l.sparse {
		return genLvSlowSparse(g, l)
	}
	name, t := l.name("lvSlow"), jen.Id("t")
	return emit.Doc(fmt.Sprintf("%s adds the values of %s to the accumulators a, depth first: for rows whose frontier outgrows the arrays of %s.",
		name, l.trees, l.name("lvTrees"))).Line().
		Func().Id(name).Params(jen.Id("x").Add(l.rowType(g)), jen.Id("a").Add(g.OutType())).Block(
		jen.Var().Id("tv").Index(jen.Lit(l.K)).Add(g.Float()),
		jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("<").Lit(l.T), t.Clone().Op("++")).Block(
			append([]jen.Code{jen.Id(l.name("lvRec")).Call(jen.Id("x"), jen.Lit(0), t.Clone(), jen.Lit(1), jen.Op("&").Id("tv"))},
				lvFlush(g, l, false)...)...,
		),
	)
}

// genLvSlowSparse declares lvSlow of a sparse group: the fallback that
// goes on depth first from the frontier that would outgrow the arrays of
// lvTrees, in its order (the trees in turn, each left to right), rather than
// from the roots. The path probabilities of its nodes are those the
// interpreter reaches them with, and their subtrees are visited as the
// interpreter visits them.
func genLvSlowSparse(g *emit.Gen, l *lvLayout) jen.Code {
	name, t, q, L := l.name("lvSlow"), jen.Id("t"), jen.Id("q"), jen.Id("L")
	return emit.Doc(fmt.Sprintf("%s adds the values of %s to the accumulators a, depth first from the nodes of level L of the frontier "+
		"(the rows cr[:n], reached with the probabilities cp[:n]), in order: for rows whose frontier outgrows the arrays of %s.",
		name, l.trees, l.name("lvTrees"))).Line().
		Func().Id(name).Params(
		jen.Id("x").Add(l.rowType(g)), L.Clone().Int(),
		jen.Id("cr").Op("*").Index(jen.Lit(l.C)).Int32(), jen.Id("cp").Op("*").Index(jen.Lit(l.C)).Add(g.Float()), jen.Id("n").Int(),
		jen.Id("a").Add(g.OutType()),
	).Block(
		jen.Var().Id("tv").Index(jen.Lit(l.K)).Add(g.Float()),
		t.Clone().Op(":=").Lit(0),
		jen.Id("base").Op(":=").Parens(jen.Lit(1).Op("<<").Add(L.Clone()).Op("-").Lit(1)).Op("*").Lit(l.T),
		jen.For(jen.List(jen.Id("i"), jen.Id("r")).Op(":=").Range().Id("cr").Index(jen.Op(":").Id("n"))).Block(
			q.Clone().Op(":=").Int().Call(jen.Id("r")).Op("-").Id("base").Comment("t*2^L + i"),
			jen.For(jen.Id("tree").Op(":=").Add(q.Clone()).Op(">>").Add(L.Clone()), t.Clone().Op("<").Id("tree"), t.Clone().Op("++")).
				Block(lvFlush(g, l, false)...),
			jen.Id(l.name("lvRec")).Call(jen.Id("x"), L.Clone(), q.Clone(), jen.Id("cp").Index(jen.Id("i")), jen.Op("&").Id("tv")),
		),
		jen.For(jen.Empty(), t.Clone().Op("<").Lit(l.T), t.Clone().Op("++")).Block(lvFlush(g, l, false)...),
	)
}

// genLvMargins declares lvMargins, the margins of the frontier's nodes:
// eight at a time (lvDot8), then four (lvDot4).
func genLvMargins(g *emit.Gen, l *lvLayout) jen.Code {
	if l.sparse {
		return genLvMarginsSparse(g, l)
	}
	name, j, n := l.name("lvMargins"), jen.Id("j"), jen.Id("n")
	return emit.Doc(fmt.Sprintf("%s sets ms[i] to the margin of the node of row rows[i] of %s, for i < n, "+
		"eight or four at a time (and the margins of a few of the following rows).", name, l.name("lvW"))).Line().
		Func().Id(name).Params(
		jen.Id("x").Add(g.RowType()),
		jen.Id("rows").Op("*").Index(jen.Lit(l.C)).Int32(),
		n.Clone().Int(),
		jen.Id("ms").Op("*").Index(jen.Lit(l.C)).Add(g.Float()),
	).Block(
		j.Clone().Op(":=").Lit(0),
		jen.For(jen.Empty(), j.Clone().Op("+").Lit(4).Op("<").Add(n.Clone()), j.Clone().Op("+=").Lit(8)).Block(lvDotCall(l, 8)),
		jen.If(j.Clone().Op("<").Add(n.Clone())).Block(lvDotCall(l, 4)),
	)
}

// lvSparseChains is the number of margins that lvMargins of a sparse group
// computes at once.
const lvSparseChains = 4

// genLvMarginsSparse declares lvMargins of a sparse group: the margins of
// lvSparseChains frontier nodes at once, their products added in turn, up
// to the largest number of weights of the lvSparseChains (the others read
// their padding, weights 0 of the 0 at x[NumFeatures], which add +0 and
// leave the margins as they are).
func genLvMarginsSparse(g *emit.Gen, l *lvLayout) jen.Code {
	name, j, n, k, kn := l.name("lvMargins"), jen.Id("j"), jen.Id("n"), jen.Id("k"), jen.Id("kn")
	id := func(s string, i int) *jen.Statement { return jen.Id(s + strconv.Itoa(i)) }
	var rs, at, ws, wrows, fs, frows, ms, bias, counts, outs, adds []jen.Code
	entry := func(i int) *jen.Statement { // (j+i) & (C-1)
		if i == 0 {
			return j.Clone().Op("&").Lit(l.C - 1)
		}
		return jen.Parens(j.Clone().Op("+").Lit(i)).Op("&").Lit(l.C - 1)
	}
	for i := 0; i < lvSparseChains; i++ {
		rs = append(rs, id("r", i))
		at = append(at, jen.Id("rows").Index(entry(i)))
		ws = append(ws, id("w", i))
		wrows = append(wrows, jen.Op("&").Id(l.name("lvW")).Index(id("r", i)))
		fs = append(fs, id("f", i))
		frows = append(frows, jen.Op("&").Id(l.name("lvI")).Index(id("r", i)))
		ms = append(ms, id("m", i))
		bias = append(bias, id("w", i).Index(jen.Lit(0)))
		counts = append(counts, jen.Id(l.name("lvN")).Index(id("r", i)))
		outs = append(outs, jen.Id("ms").Index(entry(i)))
		adds = append(adds, id("m", i).Op("+=").Add(g.Float().Call(
			id("w", i).Index(k.Clone().Op("+").Lit(1)).Op("*").Add(jen.Id("x").Index(id("f", i).Index(k.Clone()))))))
	}
	return emit.Doc(fmt.Sprintf("%s sets ms[i] to the margin of the node of row rows[i] of %s, for i < n, "+
		"%d at a time (and the margins of a few of the following rows): each is the bias plus the products of its weights, "+
		"added left to right, and then products of the padding, +0, which leave it as it is.", name, l.name("lvW"), lvSparseChains)).Line().
		Func().Id(name).Params(
		jen.Id("x").Add(l.rowType(g)),
		jen.Id("rows").Op("*").Index(jen.Lit(l.C)).Int32(),
		n.Clone().Int(),
		jen.Id("ms").Op("*").Index(jen.Lit(l.C)).Add(g.Float()),
	).Block(
		jen.For(j.Clone().Op(":=").Lit(0), j.Clone().Op("<").Add(n.Clone()), j.Clone().Op("+=").Lit(lvSparseChains)).Block(
			jen.List(rs...).Op(":=").List(at...),
			jen.List(ws...).Op(":=").List(wrows...),
			jen.List(fs...).Op(":=").List(frows...),
			jen.List(ms...).Op(":=").List(bias...),
			jen.For(jen.List(k.Clone(), kn.Clone()).Op(":=").List(jen.Lit(0), jen.Int().Call(jen.Id("max").Call(counts...))),
				k.Clone().Op("<").Add(kn.Clone()), k.Clone().Op("++")).Block(adds...),
			jen.List(outs...).Op("=").List(ms...),
		),
	)
}

// lvDotCall returns the statement that sets the margins of the k frontier
// nodes from entry j on (modulo the capacity) with lvDot<k>.
func lvDotCall(l *lvLayout, k int) jen.Code {
	var outs, rows []jen.Code
	for i := 0; i < k; i++ {
		at := func() *jen.Statement { return jen.Parens(jen.Id("j").Op("+").Lit(i)).Op("&").Lit(l.C - 1) }
		outs = append(outs, jen.Id("ms").Index(at()))
		rows = append(rows, jen.Op("&").Id(l.name("lvW")).Index(jen.Id("rows").Index(at())))
	}
	return jen.List(outs...).Op("=").Id("lvDot" + strconv.Itoa(k)).Call(append(rows, jen.Id("x"))...)
}

// genLvTrees declares lvTrees, the level-synchronous evaluation of the
// group. The frontier holds the rows of its nodes in lvW (the children of
// row r are rows 2r+T and 2r+T+1) and their path probabilities; entries
// past its end hold rows of earlier levels (or 0), valid rows whose margins
// are computed and ignored.
func genLvTrees(g *emit.Gen, l *lvLayout) jen.Code {
	name := l.name("lvTrees")
	var body []jen.Code
	if l.sparse {
		body = append(body,
			jen.Var().Id("xz").Index(jen.Id("NumFeatures").Op("+").Lit(1)).Add(g.Float()).Comment("the row, then the 0 that the padding of "+l.name("lvI")+" reads"),
			jen.Copy(jen.Id("xz").Index(jen.Empty(), jen.Empty()), jen.Id("x").Index(jen.Empty(), jen.Empty())),
		)
	}
	body = append(body, lvFrontier(g, l)...)
	if l.D > 1 {
		body = append(body, lvInnerLevels(g, l))
	}
	body = append(body, lvLastLevel(g, l)...)
	what := "the sum, over the leaves the row reaches, of the probability of the path to the leaf times its value"
	return emit.Doc(fmt.Sprintf("%s adds the values of %s (perfect soft trees of depth %d) to the accumulators a, in tree order: "+
		"for each output, %s. It evaluates the trees level by level, all together (see the package documentation).",
		name, l.trees, l.D, what)).Line().
		Func().Id(name).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(body...)
}

// lvFrontier returns the statements that declare the frontier arrays (one
// pair, the roots, for trees of depth 1; else the current and the next
// frontier) and the margins, and start the frontier with the roots.
func lvFrontier(g *emit.Gen, l *lvLayout) []jen.Code {
	C, F, t := jen.Lit(l.C), g.Float, jen.Id("t")
	var stmts []jen.Code
	if l.D > 1 {
		stmts = append(stmts,
			jen.Var().List(jen.Id("ra"), jen.Id("rb")).Index(C.Clone()).Int32().Comment("the frontier: the rows of its nodes"),
			jen.Var().List(jen.Id("pa"), jen.Id("pb")).Index(C.Clone()).Add(F()).Comment("and their path probabilities"),
			jen.List(jen.Id("cr"), jen.Id("cp"), jen.Id("nr"), jen.Id("np")).Op(":=").
				List(jen.Op("&").Id("ra"), jen.Op("&").Id("pa"), jen.Op("&").Id("rb"), jen.Op("&").Id("pb")),
		)
	} else {
		stmts = append(stmts,
			jen.Var().Id("ra").Index(C.Clone()).Int32().Comment("the roots"),
			jen.Var().Id("pa").Index(C.Clone()).Add(F()).Comment("and their probability, 1"),
			jen.List(jen.Id("cr"), jen.Id("cp")).Op(":=").List(jen.Op("&").Id("ra"), jen.Op("&").Id("pa")),
		)
	}
	return append(stmts,
		jen.Var().Id("ms").Index(C.Clone()).Add(F()).Comment("the margins of the frontier's nodes"),
		jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("<").Lit(l.T), t.Clone().Op("++")).Block(
			jen.List(jen.Id("cr").Index(t.Clone()), jen.Id("cp").Index(t.Clone())).Op("=").List(jen.Int32().Call(t.Clone()), jen.Lit(1)),
		),
		jen.Id("n").Op(":=").Lit(l.T),
	)
}

// lvEntry returns the statements that start the visit of frontier entry i,
// the node of row r: its path probability p, its margin m, its smooth-step
// s, and the path probabilities l and rp of its children.
func lvEntry(g *emit.Gen, l *lvLayout) []jen.Code {
	stmts := []jen.Code{jen.List(jen.Id("p"), jen.Id("m")).Op(":=").List(jen.Id("cp").Index(jen.Id("i")), jen.Id("ms").Index(jen.Id("i")))}
	stmts = append(stmts, lvStepStmts(g, l, jen.Int().Call(jen.Id("r")))...)
	return append(stmts, jen.List(jen.Id("l"), jen.Id("rp")).Op(":=").
		List(jen.Id("p").Op("*").Id("s"), jen.Id("p").Op("*").Parens(jen.Lit(1).Op("-").Id("s"))))
}

// lvInnerLevels returns the loop over the internal levels but the last: the
// frontier's children whose probability is not 0 make the next frontier.
// The length k of the next frontier advances by 1 iff a child's probability
// is not 0: it is >= +0, so that its bits are 0 iff it is 0. When the
// frontier can outgrow its arrays, the loop first hands such rows to lvSlow.
func lvInnerLevels(g *emit.Gen, l *lvLayout) jen.Code {
	bits, _, shift := lvBitsFuncs(g)
	mask := func() *jen.Statement { return jen.Id("k").Op("&").Lit(l.C - 1) }
	next := func(row jen.Code, prob, b string) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("nr").Index(mask()), jen.Id("np").Index(mask())).Op("=").List(row, jen.Id(prob)),
			jen.Id(b).Op(":=").Qual("math", bits).Call(jen.Id(prob)),
			jen.Id("k").Op("+=").Int().Call(jen.Parens(jen.Id(b).Op("|").Op("-").Id(b)).Op(">>").Lit(shift)),
		}
	}
	entry := lvEntry(g, l)
	entry = append(entry, jen.Id("c").Op(":=").Lit(2).Op("*").Id("r").Op("+").Lit(l.T))
	entry = append(entry, next(jen.Id("c"), "l", "lbits")...)
	entry = append(entry, next(jen.Id("c").Op("+").Lit(1), "rp", "rbits")...)
	var body []jen.Code
	slow := jen.Id(l.name("lvSlow")).Call(jen.Id("x"), jen.Id("a"))
	if l.sparse {
		slow = jen.Id(l.name("lvSlow")).Call(l.row(), jen.Id("L"), jen.Id("cr"), jen.Id("cp"), jen.Id("n"), jen.Id("a"))
	}
	if l.T<<(l.D-1) > l.C {
		body = append(body, jen.If(jen.Lit(2).Op("*").Id("n").Op(">").Lit(l.C)).Block(
			slow,
			jen.Return(),
		))
	}
	L := jen.Id("L")
	return jen.For(L.Clone().Op(":=").Lit(0), L.Clone().Op("<").Lit(l.D-1), L.Clone().Op("++")).Block(append(body,
		lvMarginsCall(l),
		jen.Id("k").Op(":=").Lit(0),
		jen.For(jen.List(jen.Id("i"), jen.Id("r")).Op(":=").Range().Id("cr").Index(jen.Op(":").Id("n"))).Block(entry...),
		jen.List(jen.Id("cr"), jen.Id("cp"), jen.Id("nr"), jen.Id("np")).Op("=").
			List(jen.Id("nr"), jen.Id("np"), jen.Id("cr"), jen.Id("cp")),
		jen.Id("n").Op("=").Id("k"),
	)...)
}

// lvMarginsCall returns the call of lvMargins on the current frontier.
func lvMarginsCall(l *lvLayout) jen.Code {
	return jen.Id(l.name("lvMargins")).Call(l.row(), jen.Id("cr"), jen.Id("n"), jen.Op("&").Id("ms"))
}

// lvLastLevel returns the statements of the last internal level: each node
// adds its leaf terms to the value of its tree, and each tree's value is
// added to the accumulators in tree order.
func lvLastLevel(g *emit.Gen, l *lvLayout) []jen.Code {
	var decl jen.Code = jen.Var().Id("tv").Index(jen.Lit(l.K)).Add(g.Float())
	if l.regs {
		var vars []jen.Code
		for k := 0; k < l.K; k++ {
			vars = append(vars, lvReg(k))
		}
		decl = jen.Var().List(vars...).Add(g.Float())
	}
	t, q := jen.Id("t"), jen.Id("q")
	entry := lvEntry(g, l)
	entry = append(entry,
		q.Clone().Op(":=").Int().Call(jen.Id("r")).Op("-").Lit((1<<(l.D-1)-1)*l.T).
			Comment(fmt.Sprintf("t*2^%d + i: its leaves are 2q and 2q+1", l.D-1)),
		jen.For(jen.Id("tree").Op(":=").Add(q.Clone()).Op(">>").Lit(l.D-1), t.Clone().Op("<").Id("tree"), t.Clone().Op("++")).
			Block(lvFlush(g, l, l.regs)...),
	)
	entry = append(entry, lvLeafTerms(g, l, l.regs, "l", jen.Lit(2).Op("*").Add(q.Clone()))...)
	entry = append(entry, lvLeafTerms(g, l, l.regs, "rp", jen.Lit(2).Op("*").Add(q.Clone()).Op("+").Lit(1))...)
	return []jen.Code{
		decl,
		lvMarginsCall(l),
		t.Clone().Op(":=").Lit(0),
		jen.For(jen.List(jen.Id("i"), jen.Id("r")).Op(":=").Range().Id("cr").Index(jen.Op(":").Id("n"))).Block(entry...),
		jen.For(jen.Empty(), t.Clone().Op("<").Lit(l.T), t.Clone().Op("++")).Block(lvFlush(g, l, l.regs)...),
	}
}

// genDot declares lvDot4 (k = 4) or lvDot8 (k = 8): k dense margins at once,
// each from its row of bias and weights, the sums interleaved.
func genDot(g *emit.Gen, k int) jen.Code {
	row := jen.Op("*").Index(jen.Id("NumFeatures").Op("+").Lit(1)).Add(g.Float())
	var ws, ms, body []jen.Code
	for i := 0; i < k; i++ {
		ws = append(ws, lvDotW(i))
		ms = append(ms, lvDotM(i))
		body = append(body, lvDotM(i).Op("=").Add(lvDotW(i)).Index(jen.Lit(0)))
	}
	if g.Model.NumFeatures <= 64 {
		body = append(body, lvDotUnrolled(g, k)...)
	} else {
		body = append(body, lvDotLoop(g, k))
	}
	name := "lvDot" + strconv.Itoa(k)
	return emit.Doc(fmt.Sprintf("%s returns the margins of %d dense soft nodes from their rows of bias and weights: each is "+
		"w[0] + w[1]*x[0] + w[2]*x[1] + ..., added left to right as dotExact adds it; the sums are interleaved, "+
		"%d independent chains of additions.", name, k, k)).Line().
		Func().Id(name).Params(jen.List(ws...).Add(row), jen.Id("x").Add(g.RowType())).
		Params(jen.List(ms...).Add(g.Float())).
		Block(append(body, jen.Return())...)
}

// lvDotW is the i-th row of bias and weights of lvDot4 and lvDot8.
func lvDotW(i int) *jen.Statement { return jen.Id("w" + strconv.Itoa(i)) }

// lvDotM is the i-th margin of lvDot4 and lvDot8.
func lvDotM(i int) *jen.Statement { return jen.Id("m" + strconv.Itoa(i)) }

// lvDotUnrolled returns the statements that add the k products of each
// feature j, read once into xj, to the k margins: for models of at most 64
// features.
func lvDotUnrolled(g *emit.Gen, k int) []jen.Code {
	var stmts []jen.Code
	for j := 0; j < g.Model.NumFeatures; j++ {
		xj := "x" + strconv.Itoa(j)
		stmts = append(stmts, jen.Id(xj).Op(":=").Add(g.X(j)))
		for i := 0; i < k; i++ {
			stmts = append(stmts, lvDotM(i).Op("+=").Add(g.Float().Call(lvDotW(i).Index(jen.Lit(j+1)).Op("*").Id(xj))))
		}
	}
	return stmts
}

// lvDotLoop returns the loop over the features that adds their k products
// to the k margins: for models of more than 64 features.
func lvDotLoop(g *emit.Gen, k int) jen.Code {
	var adds []jen.Code
	for i := 0; i < k; i++ {
		adds = append(adds, lvDotM(i).Op("+=").Add(g.Float().Call(lvDotW(i).Index(jen.Id("j").Op("+").Lit(1)).Op("*").Id("v"))))
	}
	return jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id("x")).Block(adds...)
}
