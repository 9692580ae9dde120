package smoothstep

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
)

// Vector scoring of level groups.
//
// Built with GOEXPERIMENT=simd on amd64, the vector file of a float32
// package (emit.VectorFileName) scores the blocks of rows of PredictBatch
// with AVX-512 or AVX2 instructions: each lane of a vector is a row, so
// that a vector of 16 float32 lanes (AVX-512; 8 with AVX2) computes the
// margins of one node for 16 rows at once, every lane
// doing the operations that the interpreter does for its row, in the same
// order: separate multiplications and additions, the smooth-step's cubic
// and its clipping by comparison masks, a NaN margin sent by the node's
// default direction.
//
// A level group is evaluated tree by tree, level by level, for each chunk
// of rows in the lanes: the frontier is the list of the nodes of the level
// that some row of the chunk reaches with a path probability other than 0,
// left to right, each with the vector of its rows' path probabilities (0 in
// the lanes of the rows that do not reach it). Its margins are computed
// four nodes at a time. A node sends P·s left and P·(1-s) right, and a
// child joins the next frontier when a lane's probability is not 0. At the
// last internal level the leaf terms P·v are added to the tree value in
// frontier order, which is the depth-first order of the interpreter, and
// the tree value is added to each row's accumulators.
//
// A lane whose row does not reach a node computes it anyway, with
// probability 0, and this changes no bit of its row's result: a path
// probability is a product of smooth-steps in [0, 1] (never NaN, whatever
// the margin) and so lies in [+0, 1], a child of a node of probability 0
// has probability +0, and a leaf term +0·v (v finite) is ±0, which leaves
// the tree value, a sum started at +0 and so never -0, as it is.
//
// The frontier of one tree has at most 2^(D-1) nodes: it fits arrays of
// that size, and no row needs the depth-first fallback of the scalar code.
// Deeper groups are evaluated with AVX-512 a node in each lane (lanes.go)
// when they are dense and have one γ. The other deep groups, groups whose
// leaves have more than 8 values, and the other trees are scored row by
// row by the scalar code, each in its turn, so that every row's
// accumulators receive the tree values in tree order.

// vlvMaxDepth is the depth of the deepest level group that the vector code
// evaluates: deeper groups measured no faster than the portable code (as
// fast at depth 7, slower at depth 8; see the package documentation), the
// rows of a vector reaching too many nodes between them. Its frontier
// arrays take 2 · 2^(D-1) · 64 bytes.
const vlvMaxDepth = 6

// vecISA is a set of vector instructions that the vector file uses.
type vecISA struct {
	name    string // as BatchInstructions reports it: "AVX-512"
	id      string // the suffix of the names of its functions: "AVX512"
	feature string // the method of archsimd.X86 that reports it
	lanes   int    // the rows in a vector
	typ     string // the archsimd type of a vector: "Float64x8"
}

// vecISAs are the instruction sets of the vector file, the preferred
// first, with float32 lanes.
var vecISAs = []vecISA{
	{name: "AVX-512", id: "AVX512", feature: "AVX512", lanes: 16, typ: "Float32x16"},
	{name: "AVX2", id: "AVX2", feature: "AVX2", lanes: 8, typ: "Float32x8"},
}

// broadcast returns a vector of lanes all e.
func (v vecISA) broadcast(e jen.Code) *jen.Statement {
	return jen.Qual("simd/archsimd", "Broadcast"+v.typ).Call(e)
}

// load returns the vector at the address e.
func (v vecISA) load(e jen.Code) *jen.Statement {
	return jen.Qual("simd/archsimd", "Load"+v.typ).Call(e)
}

// vectorizable reports whether the vector code evaluates level group l.
func vectorizable(l *lvLayout) bool { return l != nil && l.D <= vlvMaxDepth && l.regs }

// Vector returns the declarations of the vector file: the init function
// that sets vectorISA to AVX-512 or AVX2, vectorBlock, which runs the code
// of the one it names, and for each a function that scores a block and the
// functions of the level groups it evaluates. It returns none for a
// float64 package, whose vector blocks measured slower than its portable
// code (see the package documentation), for a model without a level group
// that it evaluates (one of depth vlvMaxDepth at most), and for one whose rows exceed the size of a block
// (emit.Gen.BatchEnabled).
func (Backend) Vector(g *emit.Gen, opts emit.Options) ([]jen.Code, error) {
	if !g.Is32() || !g.BatchEnabled() {
		return nil, nil
	}
	units, layouts, err := compile(g, opts)
	if err != nil {
		return nil, err
	}
	rows, nodes := false, false
	for _, l := range layouts {
		rows = rows || vectorizable(l)
		nodes = nodes || nodesInLanes(l)
	}
	isas := vecISAs
	switch {
	case !rows && !nodes:
		return nil, nil
	case !rows:
		isas = vecISAs[:1] // nodes in lanes take AVX-512; without it, the portable code
	}
	decls := genVectorInit(g, isas)
	for _, v := range isas {
		decls = append(decls, genVectorBlock(g, v, units, layouts))
		for _, l := range layouts {
			if vectorizable(l) {
				decls = append(decls, genVlvTrees(g, v, l))
			}
		}
	}
	if nodes {
		decls = append(decls, genNlShared(g.Model.NumFeatures)...)
		for _, l := range layouts {
			if nodesInLanes(l) {
				decls = append(decls, genNlGroup(g, l)...)
			}
		}
	}
	return decls, nil
}

// genVectorInit declares the init function that sets vectorISA to the
// first of vecISAs that the processor has, and vectorBlock, which calls the
// block function of the one that vectorISA names.
func genVectorInit(g *emit.Gen, isas []vecISA) []jen.Code {
	var cases []jen.Code
	for _, v := range isas {
		cases = append(cases, jen.Case(jen.Qual("simd/archsimd", "X86").Dot(v.feature).Call()).Block(
			jen.Id("vectorISA").Op("=").Lit(v.name),
		))
	}
	x, a := jen.Id("x"), jen.Id("a")
	wide := isas[0]
	run := jen.Id("vectorBlock"+wide.id).Call(x.Clone(), a.Clone())
	if len(isas) > 1 {
		narrow := isas[1]
		run = jen.If(jen.Id("vectorISA").Op("==").Lit(wide.name)).Block(run).Else().Block(
			jen.Id("vectorBlock"+narrow.id).Call(x, a),
		)
	}
	return []jen.Code{
		emit.Doc("init sets vectorISA to the widest instructions the processor has that vectorBlock has code for.").Line().
			Func().Id("init").Params().Block(jen.Switch().Block(cases...)),
		g.VectorFunc(run),
	}
}

// xtType returns the type of the transposed block of rows that the
// functions of v read: chunk c holds the rows c·lanes to c·lanes+lanes-1,
// feature by feature, the values of a feature in the lanes of a vector.
func xtType(g *emit.Gen, v vecISA) *jen.Statement {
	return jen.Index(jen.Id("batchRows").Op("/").Lit(v.lanes)).Index(jen.Id("NumFeatures")).Index(jen.Lit(v.lanes)).Add(g.Float())
}

// genVectorBlock declares vectorBlock<v.id>: it transposes the block, then
// runs the units in tree order, each level group that the vector code
// evaluates with its function, the other units row by row.
func genVectorBlock(g *emit.Gen, v vecISA, units []emit.Unit, layouts []*lvLayout) jen.Code {
	W, r, j := jen.Lit(v.lanes), jen.Id("r"), jen.Id("j")
	var body []jen.Code
	transpose := []jen.Code{
		jen.Var().Id("xt").Add(xtType(g, v)),
		jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(
			jen.For(j.Clone().Op(":=").Lit(0), j.Clone().Op("<").Id("NumFeatures"), j.Clone().Op("++")).Block(
				jen.Id("xt").Index(r.Clone().Op("/").Add(W)).Index(j.Clone()).Index(r.Clone().Op("%").Add(W)).Op("=").
					Id("x").Index(r.Clone().Op("*").Id("NumFeatures").Op("+").Add(j.Clone())),
			),
		),
	}
	for _, l := range layouts {
		if vectorizable(l) {
			body = transpose
			break
		}
	}
	var rowCalls []jen.Code
	flush := func() {
		if len(rowCalls) == 0 {
			return
		}
		stmts := append([]jen.Code{
			jen.List(jen.Id("x"), jen.Id("a")).Op(":=").List(
				jen.Parens(g.RowType()).Call(jen.Id("x").Index(r.Clone().Op("*").Id("NumFeatures").Op(":"))),
				jen.Parens(g.OutType()).Call(jen.Id("a").Index(r.Clone().Op("*").Id("NumOutputs").Op(":"))),
			),
		}, rowCalls...)
		body = append(body, jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(stmts...))
		rowCalls = nil
	}
	for i, u := range units {
		if l := layouts[i]; vectorizable(l) {
			flush()
			body = append(body, jen.Id(l.name("vlvTrees")+v.id).Call(jen.Op("&").Id("xt"), jen.Id("a")))
			continue
		}
		if l := layouts[i]; v == nlF32 && nodesInLanes(l) {
			flush()
			body = append(body, jen.Id(l.name("nlTrees")).Call(jen.Id("x"), jen.Id("a")))
			continue
		}
		rowCalls = append(rowCalls, u.Calls...)
	}
	flush()
	block := func(n string, typ jen.Code) *jen.Statement {
		return jen.Op("*").Index(jen.Id("batchRows").Op("*").Id(n)).Add(typ)
	}
	how := fmt.Sprintf("the level groups %d rows at a time, one in each lane of a vector, the other trees row by row", v.lanes)
	switch {
	case v == nlF32 && !slices.ContainsFunc(layouts, vectorizable):
		how = "the level groups a node in each lane of a vector, the other trees row by row"
	case v == nlF32 && slices.ContainsFunc(layouts, nodesInLanes):
		how = fmt.Sprintf("the level groups of depth %d at most %d rows at a time, one in each lane of a vector, "+
			"the deeper ones a node in each lane, the other trees row by row", vlvMaxDepth, v.lanes)
	}
	return emit.Doc(fmt.Sprintf("vectorBlock%s adds the values of all the trees to the accumulators of the batchRows rows of x, "+
		"row by row in a, in tree order, with %s instructions: %s.", v.id, v.name, how)).Line().
		Func().Id("vectorBlock"+v.id).Params(
		jen.Id("x").Add(block("NumFeatures", g.VectorInput())),
		jen.Id("a").Add(block("NumOutputs", g.Float())),
	).Block(body...)
}

// genVlvTrees declares vlvTrees<id><v.id>, the vector evaluation of level
// group l (see the comment at the top of this file).
func genVlvTrees(g *emit.Gen, v vecISA, l *lvLayout) jen.Code {
	F, W := g.Float, jen.Lit(v.lanes)
	C := jen.Lit(max(4, 1<<(l.D-1)))
	t, c, n := jen.Id("t"), jen.Id("c"), jen.Id("n")
	ids, ps := []jen.Code{jen.Id("ia")}, []jen.Code{jen.Id("pa")}
	if l.D > 1 {
		ids, ps = append(ids, jen.Id("ib")), append(ps, jen.Id("pb"))
	}
	body := []jen.Code{
		jen.Var().List(ids...).Index(C.Clone()).Int32().Comment("a tree's frontier: its nodes, by their index in their level"),
		jen.Var().List(ps...).Index(C.Clone()).Index(W.Clone()).Add(F()).Comment("and their path probabilities, lane by lane"),
		jen.Var().Id("tvs").Index(jen.Lit(l.K)).Index(W.Clone()).Add(F()).Comment("a tree's values, lane by lane"),
	}
	if !l.sparse {
		body = append(body, jen.Var().Id("ms").Index(jen.Lit(4)).Index(W.Clone()).Add(F()).Comment("the margins of four nodes of the frontier"))
	}
	consts := [][2]jen.Code{{jen.Id("zero"), jen.Lit(0)}, {jen.Id("one"), jen.Lit(1)}, {jen.Id("two"), jen.Lit(2)},
		{jen.Id("c15"), jen.Lit(1.5)}, {jen.Id("c05"), jen.Lit(0.5)}}
	if !l.stepTables {
		if l.gammas[0] != 1 {
			consts = append(consts, [2]jen.Code{jen.Id("gamma"), g.Lit(l.gammas[0])})
		}
		consts = append(consts, [2]jen.Code{jen.Id("half"), g.Lit(l.halves[0])}, [2]jen.Code{jen.Id("nhalf"), g.Lit(-l.halves[0])})
	}
	for _, k := range consts {
		body = append(body, jen.Add(k[0]).Op(":=").Add(v.broadcast(k[1])))
	}
	start := []jen.Code{
		jen.Id("xc").Op(":=").Op("&").Id("xt").Index(c.Clone()),
	}
	if l.D > 1 {
		start = append(start, jen.List(jen.Id("cr"), jen.Id("cp"), jen.Id("nr"), jen.Id("np")).Op(":=").
			List(jen.Op("&").Id("ia"), jen.Op("&").Id("pa"), jen.Op("&").Id("ib"), jen.Op("&").Id("pb")))
	} else {
		start = append(start, jen.List(jen.Id("cr"), jen.Id("cp")).Op(":=").List(jen.Op("&").Id("ia"), jen.Op("&").Id("pa")))
	}
	start = append(start,
		jen.Id("cr").Index(jen.Lit(0)).Op("=").Lit(0),
		jen.Id("one").Dot("Store").Call(jen.Op("&").Id("cp").Index(jen.Lit(0))),
		n.Clone().Op(":=").Lit(1),
	)
	if l.D > 1 {
		start = append(start, vlvInnerLevels(g, v, l))
	}
	start = append(start, vlvLastLevel(g, v, l)...)
	body = append(body, jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("<").Lit(l.T), t.Clone().Op("++")).Block(
		jen.For(c.Clone().Op(":=").Range().Id("xt")).Block(start...),
	))
	name := l.name("vlvTrees") + v.id
	return emit.Doc(fmt.Sprintf("%s adds the values of %s (perfect soft trees of depth %d) to the accumulators acc of the batchRows rows "+
		"of the transposed block xt, in tree order, as %s adds them for one row, bit for bit: "+
		"%d rows at a time, one in each lane of the %s vectors, tree by tree and level by level (see the package documentation).",
		name, l.trees, l.D, l.name("lvTrees"), v.lanes, v.name)).Line().
		Func().Id(name).Params(
		jen.Id("xt").Op("*").Add(xtType(g, v)),
		jen.Id("acc").Op("*").Index(jen.Id("batchRows").Op("*").Id("NumOutputs")).Add(F()),
	).Block(body...)
}

// vlvLevel returns the statement that sets base, the row in lvW of the
// first node of level L (an expression) of tree t, and, for the dense
// margins, mask, which keeps an index of the frontier within the level.
func vlvLevel(l *lvLayout, L func() *jen.Statement) jen.Code {
	base := jen.Parens(jen.Lit(1).Op("<<").Add(L()).Op("-").Lit(1)).Op("*").Lit(l.T).Op("+").Id("t").Op("<<").Add(L())
	if l.sparse {
		return jen.Id("base").Op(":=").Add(base)
	}
	return jen.List(jen.Id("base"), jen.Id("mask")).Op(":=").List(base, jen.Int32().Call(jen.Lit(1)).Op("<<").Add(L()).Op("-").Lit(1))
}

// vlvVisit returns the loop over the frontier (cr[:n], cp[:n]) of a level,
// four nodes at a time: the margins of the four (of dense nodes, before the
// visits), then the visit of each, which starts with i, r, m, p and s, the
// node's index in its level, its row in lvW (when the code reads a table
// by it), its margin, its path probability and its smooth-step, and the probabilities l and rp of its
// children, and goes on with then.
func vlvVisit(g *emit.Gen, v vecISA, l *lvLayout, then []jen.Code) jen.Code {
	j, e := jen.Id("j"), jen.Id("e")
	visit := []jen.Code{jen.Id("i").Op(":=").Id("cr").Index(e.Clone())}
	if l.sparse || l.stepTables || l.nan == lvNaNTable {
		visit = append(visit, jen.Id("r").Op(":=").Id("base").Op("+").Int().Call(jen.Id("i")))
	}
	if l.sparse {
		visit = append(visit, vlvSparseMargin(v, l)...)
	} else {
		visit = append(visit, jen.Id("m").Op(":=").Add(v.load(jen.Op("&").Id("ms").Index(e.Clone().Op("-").Add(j.Clone())))))
	}
	visit = append(visit, jen.Id("p").Op(":=").Add(v.load(jen.Op("&").Id("cp").Index(e.Clone()))))
	visit = append(visit, vlvStep(g, v, l)...)
	visit = append(visit, jen.List(jen.Id("l"), jen.Id("rp")).Op(":=").List(
		jen.Id("p").Dot("Mul").Call(jen.Id("s")),
		jen.Id("p").Dot("Mul").Call(jen.Id("one").Dot("Sub").Call(jen.Id("s"))),
	))
	visit = append(visit, then...)
	var body []jen.Code
	if !l.sparse {
		body = append(body, vlvDenseMargins(v, l)...)
	}
	body = append(body, jen.For(e.Clone().Op(":=").Add(j.Clone()), e.Clone().Op("<").Add(j.Clone()).Op("+").Lit(4).Op("&&").
		Add(e.Clone()).Op("<").Id("n"), e.Clone().Op("++")).Block(visit...))
	return jen.For(j.Clone().Op(":=").Lit(0), j.Clone().Op("<").Id("n"), j.Clone().Op("+=").Lit(4)).Block(body...)
}

// vlvDenseMargins returns the statements that set ms[0:4] to the margins
// of the dense nodes of frontier entries j to j+3 (those past n are nodes
// of the level too, masked, whose margins are ignored): each the bias plus
// the products of its weights, added left to right, the four sums
// interleaved.
func vlvDenseMargins(v vecISA, l *lvLayout) []jen.Code {
	var rs, rows, ws, wrows, ms, bias, adds, stores []jen.Code
	f := jen.Id("f")
	for e := 0; e < 4; e++ {
		entry := jen.Id("j")
		if e > 0 {
			entry = entry.Op("+").Lit(e)
		}
		r, w, m := jen.Id("r"+strconv.Itoa(e)), jen.Id("w"+strconv.Itoa(e)), jen.Id("m"+strconv.Itoa(e))
		rs, ws, ms = append(rs, r), append(ws, w), append(ms, m)
		rows = append(rows, jen.Id("base").Op("+").Int().Call(jen.Id("cr").Index(entry).Op("&").Id("mask")))
		wrows = append(wrows, jen.Op("&").Id(l.name("lvW")).Index(r.Clone()))
		bias = append(bias, v.broadcast(w.Clone().Index(jen.Lit(0))))
		adds = append(adds, m.Clone().Op("=").Add(m.Clone()).Dot("Add").Call(
			jen.Id("xf").Dot("Mul").Call(v.broadcast(w.Clone().Index(f.Clone().Op("+").Lit(1))))))
		stores = append(stores, m.Clone().Dot("Store").Call(jen.Op("&").Id("ms").Index(jen.Lit(e))))
	}
	loop := append([]jen.Code{jen.Id("xf").Op(":=").Add(v.load(jen.Op("&").Id("xc").Index(f.Clone())))}, adds...)
	stmts := []jen.Code{
		jen.List(rs...).Op(":=").List(rows...),
		jen.List(ws...).Op(":=").List(wrows...),
		jen.List(ms...).Op(":=").List(bias...),
		jen.For(f.Clone().Op(":=").Lit(0), f.Clone().Op("<").Id("NumFeatures"), f.Clone().Op("++")).Block(loop...),
	}
	return append(stmts, stores...)
}

// vlvSparseMargin returns the statements that set m to the margin of the
// sparse node of row r: its bias plus the products of its weights, added
// left to right.
func vlvSparseMargin(v vecISA, l *lvLayout) []jen.Code {
	q := jen.Id("q")
	return []jen.Code{
		jen.List(jen.Id("w"), jen.Id("fs")).Op(":=").List(jen.Op("&").Id(l.name("lvW")).Index(jen.Id("r")), jen.Op("&").Id(l.name("lvI")).Index(jen.Id("r"))),
		jen.Id("m").Op(":=").Add(v.broadcast(jen.Id("w").Index(jen.Lit(0)))),
		jen.For(q.Clone().Op(":=").Lit(0), q.Clone().Op("<").Int().Call(jen.Id(l.name("lvN")).Index(jen.Id("r"))), q.Clone().Op("++")).Block(
			jen.Id("m").Op("=").Id("m").Dot("Add").Call(
				v.load(jen.Op("&").Id("xc").Index(jen.Id("fs").Index(q.Clone()))).Dot("Mul").Call(v.broadcast(jen.Id("w").Index(q.Clone().Op("+").Lit(1))))),
		),
	}
}

// vlvStep returns the statements that set s to the smooth-step of the
// margins m of the node of row r, lane by lane as the interpreter computes
// it: the cubic F(u·F(1.5-F(2·u·u))) + 0.5 of u = m/γ, then 0 where
// m <= -γ/2, 1 where m >= γ/2, and for a NaN margin 1 or 0 as the node's
// default direction says.
func vlvStep(g *emit.Gen, v vecISA, l *lvLayout) []jen.Code {
	m, s := jen.Id("m"), jen.Id("s")
	var stmts []jen.Code
	if l.stepTables {
		stmts = append(stmts, jen.List(jen.Id("gamma"), jen.Id("half"), jen.Id("nhalf")).Op(":=").List(
			v.broadcast(jen.Id(l.name("lvG")).Index(jen.Id("r"))),
			v.broadcast(jen.Id(l.name("lvH")).Index(jen.Id("r"))),
			v.broadcast(jen.Op("-").Id(l.name("lvH")).Index(jen.Id("r"))),
		))
	}
	stmts = append(stmts, vecCubic(!l.stepTables && l.gammas[0] == 1)...)
	nan := m.Clone().Dot("IsNaN").Call()
	switch l.nan {
	case lvNaNLeft:
		stmts = append(stmts, s.Clone().Op("=").Id("one").Dot("Merge").Call(s.Clone(), nan))
	case lvNaNRight:
		stmts = append(stmts, s.Clone().Op("=").Id("zero").Dot("Merge").Call(s.Clone(), nan))
	default:
		stmts = append(stmts,
			jen.Id("d").Op(":=").Id("zero"),
			jen.If(jen.Id(l.name("lvL")).Index(jen.Id("r"))).Block(jen.Id("d").Op("=").Id("one")),
			s.Clone().Op("=").Id("d").Dot("Merge").Call(s.Clone(), nan),
		)
	}
	return stmts
}

// vecCubic returns the statements that set s to the smooth-step of the
// margins m, lane by lane, but for NaN margins: the cubic
// F(u·F(1.5-F(2·u·u))) + 0.5 of u = m/γ (m itself when unit, γ = 1), then
// 0 where m <= -γ/2 and 1 where m >= γ/2, with the vectors zero, one, two,
// c15, c05, gamma, half and nhalf.
func vecCubic(unit bool) []jen.Code {
	m, s := jen.Id("m"), jen.Id("s")
	u := m.Clone().Dot("Div").Call(jen.Id("gamma"))
	if unit {
		u = m.Clone().Comment("m/1 == m")
	}
	return []jen.Code{
		jen.Id("u").Op(":=").Add(u),
		s.Clone().Op(":=").Id("u").Dot("Mul").Call(jen.Id("c15").Dot("Sub").Call(jen.Id("two").Dot("Mul").Call(jen.Id("u")).Dot("Mul").Call(jen.Id("u")))).
			Dot("Add").Call(jen.Id("c05")),
		s.Clone().Op("=").Id("zero").Dot("Merge").Call(s.Clone(), m.Clone().Dot("LessEqual").Call(jen.Id("nhalf"))),
		s.Clone().Op("=").Id("one").Dot("Merge").Call(s.Clone(), m.Clone().Dot("GreaterEqual").Call(jen.Id("half"))),
	}
}

// vlvInnerLevels returns the loop over the internal levels but the last:
// the children of the frontier that some lane reaches with a probability
// other than 0 (> 0, as probabilities are >= +0) make the next frontier.
// A child is appended without a branch: written, and the length of the
// next frontier advanced by 1 only if a lane reaches it.
func vlvInnerLevels(g *emit.Gen, v vecISA, l *lvLayout) jen.Code {
	push := func(prob string, child jen.Code) []jen.Code {
		b := jen.Id("b")
		return []jen.Code{
			jen.Id("nr").Index(jen.Id("k")).Op("=").Add(child),
			jen.Id(prob).Dot("Store").Call(jen.Op("&").Id("np").Index(jen.Id("k"))),
			b.Clone().Op("=").Int32().Call(jen.Id(prob).Dot("Greater").Call(jen.Id("zero")).Dot("ToBits").Call()),
			jen.Id("k").Op("+=").Int().Call(jen.Parens(b.Clone().Op("|").Op("-").Add(b.Clone())).Op(">>").Lit(31).Op("&").Lit(1)),
		}
	}
	then := []jen.Code{jen.Var().Id("b").Int32()}
	then = append(then, push("l", jen.Lit(2).Op("*").Id("i"))...)
	then = append(then, push("rp", jen.Lit(2).Op("*").Id("i").Op("+").Lit(1))...)
	L := jen.Id("L")
	return jen.For(L.Clone().Op(":=").Lit(0), L.Clone().Op("<").Lit(l.D-1), L.Clone().Op("++")).Block(
		vlvLevel(l, L.Clone),
		jen.Id("k").Op(":=").Lit(0),
		vlvVisit(g, v, l, then),
		jen.List(jen.Id("cr"), jen.Id("cp"), jen.Id("nr"), jen.Id("np")).Op("=").List(jen.Id("nr"), jen.Id("np"), jen.Id("cr"), jen.Id("cp")),
		jen.Id("n").Op("=").Id("k"),
	)
}

// vlvLastLevel returns the statements of the last internal level: each node
// adds its leaf terms to the tree value, in frontier order, and the tree
// value is added to the accumulators of the rows of the chunk.
func vlvLastLevel(g *emit.Gen, v vecISA, l *lvLayout) []jen.Code {
	var vars, zeros, terms, stores, adds []jen.Code
	leaf := func(k int, prob string, q jen.Code) jen.Code {
		return lvReg(k).Op("=").Add(lvReg(k)).Dot("Add").Call(jen.Id(prob).Dot("Mul").Call(
			v.broadcast(jen.Id(l.name("lvV")).Index(q).Index(jen.Lit(k)))))
	}
	q := jen.Id("q")
	terms = append(terms, q.Clone().Op(":=").Id("t").Op("<<").Lit(l.D).Op("+").Lit(2).Op("*").Int().Call(jen.Id("i")).
		Comment("the node's leaves are q and q+1"))
	for k := 0; k < l.K; k++ {
		vars = append(vars, lvReg(k))
		zeros = append(zeros, jen.Id("zero"))
		terms = append(terms, leaf(k, "l", q.Clone()))
	}
	for k := 0; k < l.K; k++ {
		terms = append(terms, leaf(k, "rp", q.Clone().Op("+").Lit(1)))
		stores = append(stores, lvReg(k).Dot("Store").Call(jen.Op("&").Id("tvs").Index(jen.Lit(k))))
		out := jen.Code(jen.Lit(k))
		if !l.vector {
			out = lvOut(l)
		}
		adds = append(adds, lvAdd(g, out, jen.Id("tvs").Index(jen.Lit(k)).Index(jen.Id("lane"))))
	}
	lane := jen.Id("lane")
	row := jen.Parens(jen.Id("c").Op("*").Lit(v.lanes).Op("+").Add(lane.Clone())).Op("*").Id("NumOutputs")
	stmts := []jen.Code{
		vlvLevel(l, func() *jen.Statement { return jen.Lit(l.D - 1) }),
		jen.List(vars...).Op(":=").List(zeros...),
		vlvVisit(g, v, l, terms),
	}
	stmts = append(stmts, stores...)
	return append(stmts, jen.For(lane.Clone().Op(":=").Lit(0), lane.Clone().Op("<").Lit(v.lanes), lane.Clone().Op("++")).Block(
		append([]jen.Code{jen.Id("a").Op(":=").Parens(g.OutType()).Call(jen.Id("acc").Index(row.Op(":")))}, adds...)...,
	))
}
