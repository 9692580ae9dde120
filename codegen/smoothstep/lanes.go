package smoothstep

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
)

// Vector scoring of deep level groups: nodes in lanes.
//
// A level group of depth nlMinDepth or more is evaluated, with AVX-512, a
// node in each lane of a vector rather than a row: a row reaches few of
// the 2^D - 1 nodes of a deep tree, and with its rows in the lanes a
// vector computes nodes that most of its rows do not need. Each row of a
// block of 16 computes the margins of the nodes of a tree in blocks of
// 16, each lane the margin of one node for the row, in the interpreter's
// order: the bias, then the products of the weights and the row's values
// (broadcast once into nlScratch.xw), added left to right, a multiply then
// an add, never fused. Levels 0 to 3 of a tree are one block (15 nodes),
// level 4 is one, and level L > 4 is 2^(L-4) blocks; the blocks of one
// tree are numbered in that order, so that the children of the nodes of
// block b of a level past 4 are blocks 2b and 2b+1.
//
// The top two blocks are computed for every row, four rows at once
// (nlTop). Their smooth-steps give the path probabilities of the 16 nodes
// of level 4 by permutes (a product of four factors, root first, as the
// interpreter multiplies them), and those the probabilities of the 32
// nodes of level 5, two blocks. Past level 4 a row's blocks are entries of
// a list, row<<S | block (S = D-4 bits for the block), with the vector of
// the path probabilities of the block's nodes, and only the blocks that
// the row reaches with a probability other than 0 in some lane join the
// list of the next level (appended without a branch: written, and the
// length advanced by 0 or 1). The margins of four entries at a time are
// computed by nlDot, whose every load has a constant offset from a
// pointer. At the last internal level the children are blocks of leaves;
// the leaf terms F(P·v) of the lanes whose probability is not 0 are added,
// entry by entry, to the values of their rows, in list order, which for
// each row is the interpreter's depth-first order, and each row's tree
// value is then added to its accumulators.
//
// The lanes of a block that a row does not reach compute anyway, with
// probability 0, which changes no bit (see the comment at the top of
// vector.go); the lane of block 0 past the 15 nodes of levels 0 to 3 is
// never read. A NaN margin goes the node's default way, read per lane
// from nlL for groups whose nodes differ in it.
//
// Alignment. A 64-byte vector load that straddles two cache lines costs
// about twice one that does not (BenchmarkMarginFloor), and Go aligns
// arrays on the stack, vectors included, to 8 bytes only. The working
// memory of a group (nlScratch) and its node tables therefore live on the
// heap, in objects of 512 bytes or more, which Go's allocator places at
// multiples of 64 bytes. The tables are built once, at init, from the
// group's level tables (only on a processor with AVX-512); the working
// memory comes from a pool of at most nlPoolSize blocks, allocated on
// first use and kept in a buffered channel. A call that finds the pool
// empty, with nlPoolSize calls already under way, uses a block on its own
// stack: slower, the same bits. Nothing is allocated after the first
// nlPoolSize concurrent calls.
//
// Spills. Go saves no vector register across a call: a constant vector
// kept in a register across the calls of nlTop and nlDot is spilled to
// the stack, 8-byte aligned, and reloaded after each. The constants of the
// smooth-step and the permutes are therefore stored once in the working
// memory and loaded after each call.

const (
	// nlMinDepth is the depth of the shallowest level group that the
	// nodes-in-lanes code evaluates; shallower ones are evaluated with
	// rows in lanes (vlvMaxDepth).
	nlMinDepth = vlvMaxDepth + 1
	// nlRows is the number of rows of a sub-block: the rows of one
	// nlSub call, whose broadcast values take 16·NumFeatures·64 bytes.
	nlRows = 16
	// nlChain is the number of list entries whose margins nlDot computes
	// at once.
	nlChain = 4
	// nlPoolSize is the number of heap blocks of working memory that a
	// group keeps for the calls under way at the same time.
	nlPoolSize = 8
	// nlMaxScratch bounds the size of a group's working memory, which a
	// call that finds the pool empty declares on its stack: Go moves a
	// local variable of more than 128 KB to the heap.
	nlMaxScratch = 120 << 10
)

// nlCap returns the capacity of the lists of entries of a group of depth
// D: every row of a sub-block in every block of leaves, plus nlChain for
// the entries past the list's end that nlDot reads (and whose margins are
// ignored).
func nlCap(D int) int { return nlRows<<(D-4) + nlChain }

// nlScratchSize returns the size in bytes of the working memory of a group
// of depth D on p features (nlScratch).
func nlScratchSize(D, p int) int {
	c := nlCap(D)
	vectors := nlRows*p + 2*c + 8 + nlChain + nlMaxConsts + 6 // xw, pa and pb, ts, ms, kc, ks
	return vectors*64 + 2*c*4 + c*2
}

// nodesInLanes reports whether the nodes-in-lanes code evaluates level
// group l: a dense group of depth nlMinDepth or more, with one γ, whose
// working memory stays within nlMaxScratch.
func nodesInLanes(l *lvLayout) bool {
	return l != nil && !l.sparse && !l.stepTables && l.D >= nlMinDepth && nlScratchSize(l.D, l.p) <= nlMaxScratch
}

// nlF32 is the vector type of the nodes-in-lanes code.
var nlF32 = vecISAs[0]

// nlArr returns the type [n]...[16]float32 with the given outer lengths.
func nlArr(dims ...jen.Code) *jen.Statement {
	s := jen.Null()
	for _, d := range dims {
		s = s.Index(d)
	}
	return s.Index(jen.Lit(16)).Float32()
}

// nlRow returns the type of the broadcast values of one row, and nlWRow
// that of the weights of one block, bias first.
func nlRow() *jen.Statement  { return nlArr(jen.Id("NumFeatures")) }
func nlWRow() *jen.Statement { return nlArr(jen.Id("NumFeatures").Op("+").Lit(1)) }

// genNlShared declares what the nodes-in-lanes code of every group uses:
// the permutes of nlSel, nlTop and nlDot, for p features.
func genNlShared(p int) []jen.Code {
	var sel []jen.Code
	for k := 0; k < 4; k++ {
		var lanes []jen.Code
		for j := 0; j < 16; j++ {
			a, right := j>>(4-k), (j>>(3-k))&1
			lanes = append(lanes, jen.Lit(1<<k-1+a+16*right))
		}
		sel = append(sel, jen.Values(lanes...))
	}
	for _, base := range []int{0, 8} {
		var lanes []jen.Code
		for j := 0; j < 16; j++ {
			lanes = append(lanes, jen.Lit(base+j/2+16*(j%2)))
		}
		sel = append(sel, jen.Values(lanes...))
	}
	return []jen.Code{
		emit.Doc("nlSel holds the permutes of the nodes-in-lanes code, lanes of the concatenation of two vectors "+
			"(0-15 the first, 16-31 the second). Rows 0 to 3: for each of the 16 nodes of level 4, its ancestor at "+
			"levels 0 to 3 in the block of levels 0 to 3, from the smooth-steps s (the ancestor goes left) or 1-s "+
			"(it goes right). Rows 4 and 5: the children of nodes 0-7 and 8-15 of a block, from the probabilities "+
			"of their left children and of their right children, in order.").Line().
			Var().Id("nlSel").Op("=").Index(jen.Lit(6)).Index(jen.Lit(16)).Uint32().Custom(lvMulti, sel...),
		genNlTop(p),
		genNlDot(p),
	}
}

// genNlTop declares nlTop: the margins of blocks 0 and 1 of a tree (wt,
// wb) for four rows.
func genNlTop(p int) jen.Code {
	load := func(e jen.Code) *jen.Statement { return nlF32.load(jen.Op("&").Add(e)) }
	body := []jen.Code{
		jen.Id("a0").Op(":=").Add(load(jen.Id("wt").Index(jen.Lit(0)))),
		jen.Id("b0").Op(":=").Add(load(jen.Id("wb").Index(jen.Lit(0)))),
		jen.List(jen.Id("a1"), jen.Id("a2"), jen.Id("a3")).Op(":=").List(jen.Id("a0"), jen.Id("a0"), jen.Id("a0")),
		jen.List(jen.Id("b1"), jen.Id("b2"), jen.Id("b3")).Op(":=").List(jen.Id("b0"), jen.Id("b0"), jen.Id("b0")),
	}
	for f := 0; f < p; f++ {
		at := func(x string, k int) *jen.Statement { return load(jen.Id(x).Index(jen.Lit(k))) }
		blk := []jen.Code{
			jen.List(jen.Id("y0"), jen.Id("y1"), jen.Id("y2"), jen.Id("y3")).Op(":=").List(at("x0", f), at("x1", f), at("x2", f), at("x3", f)),
			jen.List(jen.Id("wa"), jen.Id("wc")).Op(":=").List(at("wt", f+1), at("wb", f+1)),
		}
		blk = append(blk, nlMulAdd("a", "wa")...)
		body = append(body, jen.Block(append(blk, nlMulAdd("b", "wc")...)...))
	}
	for i := 0; i < 4; i++ {
		body = append(body,
			jen.Id(fmt.Sprint("a", i)).Dot("Store").Call(jen.Op("&").Id("ts").Index(jen.Lit(i))),
			jen.Id(fmt.Sprint("b", i)).Dot("Store").Call(jen.Op("&").Id("ts").Index(jen.Lit(4+i))))
	}
	return emit.Doc("nlTop stores in ts[i] and ts[4+i] the margins of the nodes of blocks wt (levels 0 to 3) and wb "+
		"(level 4) of a tree for the row whose broadcast values are xi: the bias, then the products of the weights and "+
		"the values added left to right.").Line().
		Comment("//").Line().Comment("//go:noinline").Line().
		Func().Id("nlTop").Params(
		jen.Id("ts").Op("*").Add(nlArr(jen.Lit(8))),
		jen.List(jen.Id("wt"), jen.Id("wb")).Op("*").Add(nlWRow()),
		jen.List(jen.Id("x0"), jen.Id("x1"), jen.Id("x2"), jen.Id("x3")).Op("*").Add(nlRow()),
	).Block(body...)
}

// nlMulAdd returns the statements p0 = p0.Add(w.Mul(y0)) ... for the
// four rows.
func nlMulAdd(p, w string) []jen.Code {
	var s []jen.Code
	for i := 0; i < 4; i++ {
		v := jen.Id(fmt.Sprint(p, i))
		s = append(s, v.Clone().Op("=").Add(v).Dot("Add").Call(jen.Id(w).Dot("Mul").Call(jen.Id(fmt.Sprint("y", i)))))
	}
	return s
}

// genNlDot declares nlDot: the margins of nlChain blocks wi, each for the
// row xi, unrolled over the p features so that every load has a
// constant offset.
func genNlDot(p int) jen.Code {
	var ws, xs, body, stores []jen.Code
	load := func(e jen.Code) *jen.Statement { return nlF32.load(jen.Op("&").Add(e)) }
	for i := 0; i < nlChain; i++ {
		ws, xs = append(ws, jen.Id(fmt.Sprint("w", i))), append(xs, jen.Id(fmt.Sprint("x", i)))
		body = append(body, jen.Id(fmt.Sprint("m", i)).Op(":=").Add(load(jen.Id(fmt.Sprint("w", i)).Index(jen.Lit(0)))))
		stores = append(stores, jen.Id(fmt.Sprint("m", i)).Dot("Store").Call(jen.Op("&").Id("ms").Index(jen.Lit(i))))
	}
	for f := 0; f < p; f++ {
		for i := 0; i < nlChain; i++ {
			m := jen.Id(fmt.Sprint("m", i))
			body = append(body, m.Clone().Op("=").Add(m).Dot("Add").Call(
				load(jen.Id(fmt.Sprint("w", i)).Index(jen.Lit(f+1))).Dot("Mul").Call(load(jen.Id(fmt.Sprint("x", i)).Index(jen.Lit(f))))))
		}
	}
	body = append(body, stores...)
	return emit.Doc(fmt.Sprintf("nlDot stores in ms[i] the margins of the nodes of block wi for the row whose broadcast values are xi, "+
		"i < %d: the bias, then the products of the weights and the values added left to right.", nlChain)).Line().
		Comment("//").Line().Comment("//go:noinline").Line().
		Func().Id("nlDot").Params(
		jen.Id("ms").Op("*").Add(nlArr(jen.Lit(nlChain))),
		jen.List(ws...).Op("*").Add(nlWRow()),
		jen.List(xs...).Op("*").Add(nlRow()),
	).Block(body...)
}

// genNlGroup declares the nodes-in-lanes code of level group l: its tables
// (nlW, nlL, nlV), its working memory (nlScratch) and pool, nlTrees, which
// scores a block, nlSub, which scores 16 rows of it, and nlStep.
func genNlGroup(g *emit.Gen, l *lvLayout) []jen.Code {
	return []jen.Code{
		genNlTables(l),
		genNlScratch(l),
		genNlTrees(g, l),
		genNlStep(l),
		genNlSub(g, l),
	}
}

// nlBlocks returns the number of blocks of a tree of depth D, which is
// also its number of blocks of leaves.
func nlBlocks(D int) int { return 1 << (D - 4) }

// genNlTables declares nlW, nlL (for a group whose nodes differ in their
// default direction) and nlV, filled at init from the group's level tables
// on a processor with AVX-512, and the function that fills them.
func genNlTables(l *lvLayout) jen.Code {
	NB := nlBlocks(l.D)
	nb := jen.Lit(l.T * NB)
	id := jen.Id
	table := l.nan == lvNaNTable
	nameW, nameV, nameL, fn := l.name("nlW"), l.name("nlV"), l.name("nlL"), l.name("nlTables")
	types := map[string]func() *jen.Statement{
		"w": func() *jen.Statement { return jen.Index(nb.Clone()).Add(nlWRow()) },
		"v": func() *jen.Statement { return nlArr(nb.Clone(), jen.Lit(l.K)) },
		"d": func() *jen.Statement { return nlArr(nb.Clone()) },
	}
	vars, names := []string{"w", "v"}, []jen.Code{id(nameW), id(nameV)}
	if table {
		vars, names = append(vars, "d"), append(names, id(nameL))
	}
	var results, made []jen.Code
	for _, x := range vars {
		results = append(results, id(x).Op("*").Add(types[x]()))
		made = append(made, id(x).Op("=").New(types[x]()))
	}
	t, L, i, f, k, r := id("t"), id("L"), id("i"), id("f"), id("k"), id("r")
	node := []jen.Code{
		r.Clone().Op(":=").Parens(jen.Lit(1).Op("<<").Add(L.Clone()).Op("-").Lit(1)).Op("*").Lit(l.T).Op("+").Add(t.Clone()).Op("<<").Add(L.Clone()).Op("+").Add(i.Clone()),
		jen.List(id("b"), id("lane")).Op(":=").List(t.Clone().Op("*").Lit(NB), jen.Lit(1).Op("<<").Add(L.Clone()).Op("-").Lit(1).Op("+").Add(i.Clone())),
		jen.If(L.Clone().Op(">=").Lit(4)).Block(
			jen.List(id("b"), id("lane")).Op("=").List(
				t.Clone().Op("*").Lit(NB).Op("+").Lit(1).Op("<<").Parens(L.Clone().Op("-").Lit(4)).Op("+").Add(i.Clone()).Op("/").Lit(16),
				i.Clone().Op("%").Lit(16)),
		),
		jen.For(f.Clone().Op(":=").Range().Id(l.name("lvW")).Index(r.Clone())).Block(
			id("w").Index(id("b")).Index(f.Clone()).Index(id("lane")).Op("=").Id(l.name("lvW")).Index(r.Clone()).Index(f.Clone()),
		),
	}
	if table {
		node = append(node, jen.If(id(l.name("lvL")).Index(r.Clone())).Block(id("d").Index(id("b")).Index(id("lane")).Op("=").Lit(1)))
	}
	body := []jen.Code{jen.If(jen.Op("!").Qual("simd/archsimd", "X86").Dot("AVX512").Call()).Block(jen.Return())}
	body = append(body, made...)
	body = append(body,
		jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("<").Lit(l.T), t.Clone().Op("++")).Block(
			jen.For(L.Clone().Op(":=").Lit(0), L.Clone().Op("<").Lit(l.D), L.Clone().Op("++")).Block(
				jen.For(i.Clone().Op(":=").Lit(0), i.Clone().Op("<").Lit(1).Op("<<").Add(L.Clone()), i.Clone().Op("++")).Block(node...),
			),
			jen.For(i.Clone().Op(":=").Lit(0), i.Clone().Op("<").Lit(1<<l.D), i.Clone().Op("++")).Block(
				jen.For(k.Clone().Op(":=").Lit(0), k.Clone().Op("<").Lit(l.K), k.Clone().Op("++")).Block(
					id("v").Index(t.Clone().Op("*").Lit(NB).Op("+").Add(i.Clone()).Op("/").Lit(16)).Index(k.Clone()).Index(i.Clone().Op("%").Lit(16)).Op("=").
						Id(l.name("lvV")).Index(t.Clone().Op("<<").Lit(l.D).Op("+").Add(i.Clone())).Index(k.Clone()),
				),
			),
		),
		jen.Return(),
	)
	docL, from := "", l.name("lvW")+" and "+l.name("lvV")
	if table {
		docL = fmt.Sprintf(" %s holds their default directions in the same order: 1 in the lane of a node that sends a NaN margin left.", nameL)
		from = l.name("lvW") + ", " + l.name("lvV") + " and " + l.name("lvL")
	}
	return emit.Doc(fmt.Sprintf("%s holds the bias and weights of the soft nodes of %s for the nodes-in-lanes code, block by block, "+
		"a node in each lane: block b of tree t is %s[t*%d+b], its row 0 the biases of its nodes, its row f+1 their weights of feature f. "+
		"Block 0 holds levels 0 to 3 (node i of level L in lane 2^L-1+i), block 1 level 4, blocks 2^(L-4) to 2^(L-3)-1 level L. "+
		"%s holds the values of the leaves, leaf i of tree t in lane i%%16 of %s[t*%d+i/16].%s They are nil on a processor without AVX-512.",
		nameW, l.trees, nameW, NB, nameV, nameV, NB, docL)).Line().
		Var().List(names...).Op("=").Id(fn).Call().Line().Line().
		Add(emit.Doc(fmt.Sprintf("%s allocates the tables of the nodes-in-lanes code of %s (64-byte aligned, as the heap places them) "+
			"and fills them from %s.", fn, l.trees, from))).Line().
		Func().Id(fn).Params().Params(results...).Block(body...)
}

// genNlScratch declares nlScratch, the working memory of the group, and
// its pool, nlPool and nlMade. The vectors come first, so that each lies
// at a multiple of 64 bytes from the start.
func genNlScratch(l *lvLayout) jen.Code {
	c := jen.Lit(nlCap(l.D))
	typ, pool, made := l.name("nlScratch"), l.name("nlPool"), l.name("nlMade")
	return emit.Doc(fmt.Sprintf("%s is the working memory of %s: the broadcast values of the rows of a sub-block, "+
		"two lists of entries (row<<%d | block) with their path probabilities, the margins of nlTop and nlDot, "+
		"and the constant vectors, which are loaded after each call rather than kept in registers that the call would spill to the stack, "+
		"whose alignment is 8 bytes.",
		typ, l.name("nlTrees"), l.D-4)).Line().
		Type().Id(typ).Struct(
		jen.Id("xw").Index(jen.Lit(nlRows)).Add(nlRow()).Comment("row r's value of feature f in every lane of xw[r][f]"),
		jen.List(jen.Id("pa"), jen.Id("pb")).Add(nlArr(c.Clone())).Comment("the path probabilities of the nodes of the entries"),
		jen.Id("ts").Add(nlArr(jen.Lit(8))).Comment("the margins of nlTop"),
		jen.Id("kc").Add(nlArr(jen.Lit(len(nlConsts(nil, l))))).Comment("the constants of nlStep"),
		jen.Id("ks").Index(jen.Lit(6)).Index(jen.Lit(16)).Uint32().Comment("a copy of nlSel"),
		jen.Id("ms").Add(nlArr(jen.Lit(nlChain))).Comment("the margins of nlDot"),
		jen.List(jen.Id("ea"), jen.Id("eb")).Index(c.Clone()).Int32().Comment("the entries of two lists"),
		jen.Id("nm").Index(c.Clone()).Uint16().Comment("the lanes of a list of leaves that their row reaches"),
	).Line().Line().
		Add(emit.Doc(fmt.Sprintf("%s keeps the working memory of %s between calls, and %s holds a token for each block of it allocated.",
			pool, l.name("nlTrees"), made))).Line().
		Var().Defs(
		jen.Id(pool).Op("=").Make(jen.Chan().Op("*").Id(typ), jen.Lit(nlPoolSize)),
		jen.Id(made).Op("=").Make(jen.Chan().Struct(), jen.Lit(nlPoolSize)),
	)
}

// genNlTrees declares nlTrees, which scores a block with working memory
// from the pool (or on its stack, when the pool is empty and nlPoolSize
// blocks are in use), and nlRun, which scores it sub-block by sub-block.
func genNlTrees(g *emit.Gen, l *lvLayout) jen.Code {
	typ, pool, made, run := l.name("nlScratch"), l.name("nlPool"), l.name("nlMade"), l.name("nlRun")
	x, acc, sc := jen.Id("x"), jen.Id("acc"), jen.Id("sc")
	block := func(n string, typ jen.Code) *jen.Statement {
		return jen.Op("*").Index(jen.Id("batchRows").Op("*").Id(n)).Add(typ)
	}
	params := []jen.Code{x.Clone().Add(block("NumFeatures", g.VectorInput())), acc.Clone().Add(block("NumOutputs", g.Float()))}
	call := func(s jen.Code) *jen.Statement { return jen.Id(run).Call(s, x.Clone(), acc.Clone()) }
	r := jen.Id("r")
	name := l.name("nlTrees")
	return emit.Doc(fmt.Sprintf("%s adds the values of %s (perfect soft trees of depth %d) to the accumulators acc of the batchRows rows of x, "+
		"in tree order, as %s adds them for one row, bit for bit, with AVX-512 instructions, a node in each lane "+
		"(see the package documentation).", name, l.trees, l.D, l.name("lvTrees"))).Line().
		Func().Id(name).Params(params...).Block(
		jen.Select().Block(
			jen.Case(sc.Clone().Op(":=").Op("<-").Id(pool)).Block(call(sc.Clone()), jen.Id(pool).Op("<-").Add(sc.Clone())),
			jen.Default().Block(jen.Select().Block(
				jen.Case(jen.Id(made).Op("<-").Struct().Values()).Block(
					sc.Clone().Op(":=").New(jen.Id(typ)),
					call(sc.Clone()),
					jen.Id(pool).Op("<-").Add(sc.Clone()),
				),
				jen.Default().Block(
					jen.Comment("Every block of the pool is in use: this one lives on the stack."),
					jen.Qual("simd/archsimd", "ClearAVXUpperBits").Call().Comment("zeroing it may take legacy SSE instructions"),
					jen.Var().Add(sc.Clone()).Id(typ),
					call(jen.Op("&").Add(sc.Clone())),
				),
			)),
		),
	).Line().Line().
		Add(emit.Doc(fmt.Sprintf("%s runs %s on the rows of x, %d at a time, with the working memory sc.", run, l.name("nlSub"), nlRows))).Line().
		Func().Id(run).Params(append([]jen.Code{sc.Clone().Op("*").Id(typ)}, params...)...).Block(
		jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("+=").Lit(nlRows)).Block(
			jen.Id(l.name("nlSub")).Call(sc.Clone(),
				jen.Parens(jen.Op("*").Index(jen.Lit(nlRows).Op("*").Id("NumFeatures")).Add(g.VectorInput())).Call(x.Clone().Index(r.Clone().Op("*").Id("NumFeatures").Op(":"))),
				jen.Parens(jen.Op("*").Index(jen.Lit(nlRows).Op("*").Id("NumOutputs")).Add(g.Float())).Call(acc.Clone().Index(r.Clone().Op("*").Id("NumOutputs").Op(":"))),
			),
		),
	)
}

// nlConst is a constant vector of the smooth-step: its name in the code
// and the value of its lanes.
type nlConst struct {
	name string
	val  jen.Code
}

// nlMaxConsts is the largest number of nlConsts.
const nlMaxConsts = 8

// nlConsts returns the constant vectors of the smooth-step of group l, in
// the order of nlStep's parameters; their values are in F of g (nil when
// only the names are needed).
func nlConsts(g *emit.Gen, l *lvLayout) []nlConst {
	lit := func(v float64) jen.Code {
		if g == nil {
			return nil
		}
		return g.Lit(v)
	}
	c := []nlConst{{"zero", jen.Lit(0)}, {"one", jen.Lit(1)}, {"two", jen.Lit(2)}, {"c15", jen.Lit(1.5)}, {"c05", jen.Lit(0.5)}}
	if l.gammas[0] != 1 {
		c = append(c, nlConst{"gamma", lit(l.gammas[0])})
	}
	return append(c, nlConst{"half", lit(l.halves[0])}, nlConst{"nhalf", lit(-l.halves[0])})
}

// genNlStep declares nlStep: the smooth-steps of the margins m of a block,
// lane by lane as the interpreter computes them (see vlvStep), a NaN margin
// going to d (1 left, 0 right).
func genNlStep(l *lvLayout) jen.Code {
	m := jen.Id("m")
	var cs []jen.Code
	for _, c := range nlConsts(nil, l) {
		cs = append(cs, jen.Id(c.name))
	}
	body := append(vecCubic(l.gammas[0] == 1), jen.Return(jen.Id("d").Dot("Merge").Call(jen.Id("s"), m.Clone().Dot("IsNaN").Call())))
	name := l.name("nlStep")
	return emit.Doc(fmt.Sprintf("%s returns the smooth-steps of the margins m of a block of nodes of %s, lane by lane as %s computes them: "+
		"the cubic of u = m/γ, then 0 where m <= -γ/2, 1 where m >= γ/2, and d where m is NaN.", name, l.trees, l.name("lvTrees"))).Line().
		Func().Id(name).Params(jen.List(append([]jen.Code{m.Clone(), jen.Id("d")}, cs...)...).Qual("simd/archsimd", nlF32.typ)).Qual("simd/archsimd", nlF32.typ).Block(body...)
}

// genNlSub declares nlSub, the nodes-in-lanes evaluation of the group for
// the 16 rows of a sub-block (see the comment at the top of this file).
func genNlSub(g *emit.Gen, l *lvLayout) jen.Code {
	id := jen.Id
	ld := func(e jen.Code) *jen.Statement { return nlF32.load(jen.Op("&").Add(e)) }
	bc := func(e jen.Code) *jen.Statement { return nlF32.broadcast(e) }
	NB, S := nlBlocks(l.D), l.D-4
	table := l.nan == lvNaNTable
	var consts []jen.Code
	for _, c := range nlConsts(nil, l) {
		consts = append(consts, id(c.name))
	}
	// load returns the definitions of the constants of nlStep, the
	// permutes named (of nlSel's rows), and dflt, loaded from sc.
	load := func(perms ...string) []jen.Code {
		var names, loads []jen.Code
		for q, c := range nlConsts(nil, l) {
			names, loads = append(names, id(c.name)), append(loads, ld(id("sc").Dot("kc").Index(jen.Lit(q))))
		}
		for q, pn := range perms {
			if pn != "" {
				names = append(names, id(pn))
				loads = append(loads, jen.Qual("simd/archsimd", "LoadUint32x16").Call(jen.Op("&").Id("sc").Dot("ks").Index(jen.Lit(q))))
			}
		}
		defs := []jen.Code{jen.List(names...).Op(":=").List(loads...)}
		switch l.nan {
		case lvNaNLeft:
			defs = append(defs, id("dflt").Op(":=").Id("one").Comment("every node sends a NaN margin left"))
		case lvNaNRight:
			defs = append(defs, id("dflt").Op(":=").Id("zero").Comment("every node sends a NaN margin right"))
		}
		return defs
	}
	step := func(m, d jen.Code) *jen.Statement {
		return id(l.name("nlStep")).Call(append([]jen.Code{m, d}, consts...)...)
	}
	// dflt returns the default directions of block b (an expression).
	dflt := func(b jen.Code) jen.Code {
		if table {
			return ld(id("d").Index(b))
		}
		return id("dflt")
	}
	// push returns the statements that append entry e with the
	// probabilities c to the list (list, probs) of length n, which grows
	// only if a lane of c is not 0; leaves records the lanes in nm.
	push := func(list, probs, n string, e, c jen.Code, leaves bool) []jen.Code {
		s := []jen.Code{
			id(list).Index(id(n)).Op("=").Add(e),
			jen.Add(c).Dot("Store").Call(jen.Op("&").Id(probs).Index(id(n))),
			id("bs").Op("=").Uint32().Call(jen.Add(c).Dot("Greater").Call(id("zero")).Dot("ToBits").Call()),
		}
		if leaves {
			s = append(s, id("sc").Dot("nm").Index(id(n)).Op("=").Uint16().Call(id("bs")))
		}
		return append(s, id(n).Op("+=").Int().Call(jen.Parens(id("bs").Op("|").Op("-").Id("bs")).Op(">>").Lit(31)))
	}
	children := func(p, s jen.Code) []jen.Code {
		return []jen.Code{
			jen.List(id("l"), id("rp")).Op(":=").List(jen.Add(p).Dot("Mul").Call(s), jen.Add(p).Dot("Mul").Call(id("one").Dot("Sub").Call(s))),
			jen.List(id("c0"), id("c1")).Op(":=").List(id("l").Dot("ConcatPermute").Call(id("rp"), id("lo")), id("l").Dot("ConcatPermute").Call(id("rp"), id("hi"))),
			jen.Var().Id("bs").Uint32(),
		}
	}

	// The top: blocks 0 and 1 of four rows, and the first list.
	r, i, j, t := id("r"), id("i"), id("j"), id("t")
	top := []jen.Code{
		id("s").Op(":=").Add(step(ld(id("sc").Dot("ts").Index(i.Clone())), id("dt"))),
		id("q").Op(":=").Id("one").Dot("Sub").Call(id("s")),
		id("p").Op(":=").Id("s").Dot("ConcatPermute").Call(id("q"), id("s0")).
			Dot("Mul").Call(id("s").Dot("ConcatPermute").Call(id("q"), id("s1"))).
			Dot("Mul").Call(id("s").Dot("ConcatPermute").Call(id("q"), id("s2"))).
			Dot("Mul").Call(id("s").Dot("ConcatPermute").Call(id("q"), id("s3"))),
		id("s").Op("=").Add(step(ld(id("sc").Dot("ts").Index(jen.Lit(4).Op("+").Add(i.Clone()))), id("db"))),
	}
	top = append(top, children(id("p"), id("s"))...)
	top = append(top, id("e").Op(":=").Int32().Call(r.Clone().Op("+").Add(i.Clone())).Op("<<").Lit(S).Op("|").Lit(2).Comment("blocks 2 and 3: level 5"))
	top = append(top, push("cr", "cp", "n", id("e"), id("c0"), false)...)
	top = append(top, push("cr", "cp", "n", id("e").Op("+").Lit(1), id("c1"), false)...)
	var xs []jen.Code
	for q := 0; q < 4; q++ {
		xs = append(xs, jen.Op("&").Id("xw").Index(r.Clone().Op("+").Lit(q)))
	}
	dt, db := jen.Code(id("dflt")), jen.Code(id("dflt"))
	if table {
		dt, db = ld(id("d").Index(jen.Lit(0))), ld(id("d").Index(jen.Lit(1)))
	}
	tree := []jen.Code{
		jen.Var().Id("tv").Index(jen.Lit(nlRows)).Index(jen.Lit(l.K)).Float32().Comment("the tree's values, row by row"),
		id("w").Op(":=").Parens(jen.Op("*").Index(jen.Lit(NB)).Add(nlWRow())).Call(id(l.name("nlW")).Index(t.Clone().Op("*").Lit(NB).Op(":"))),
		id("v").Op(":=").Parens(jen.Op("*").Add(nlArr(jen.Lit(NB), jen.Lit(l.K)))).Call(id(l.name("nlV")).Index(t.Clone().Op("*").Lit(NB).Op(":"))),
	}
	if table {
		tree = append(tree, id("d").Op(":=").Parens(jen.Op("*").Add(nlArr(jen.Lit(NB)))).Call(id(l.name("nlL")).Index(t.Clone().Op("*").Lit(NB).Op(":"))))
	}
	tree = append(tree,
		jen.List(id("cr"), id("cp"), id("nr"), id("np")).Op(":=").List(jen.Op("&").Id("sc").Dot("ea"), jen.Op("&").Id("sc").Dot("pa"), jen.Op("&").Id("sc").Dot("eb"), jen.Op("&").Id("sc").Dot("pb")),
		id("n").Op(":=").Lit(0),
		jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Lit(nlRows), r.Clone().Op("+=").Lit(4)).Block(
			id("nlTop").Call(append([]jen.Code{jen.Op("&").Id("sc").Dot("ts"), jen.Op("&").Id("w").Index(jen.Lit(0)), jen.Op("&").Id("w").Index(jen.Lit(1))}, xs...)...),
			jen.For(i.Clone().Op(":=").Lit(0), i.Clone().Op("<").Lit(4), i.Clone().Op("++")).Block(append(append(
				load("s0", "s1", "s2", "s3", "lo", "hi"),
				jen.List(id("dt"), id("db")).Op(":=").List(dt, db)), top...)...),
		),
	)

	// A level past 4: nlChain entries at a time, their margins, then each
	// one's children.
	level := func(last bool) []jen.Code {
		var es, ents, ws, xs, visits []jen.Code
		for c := 0; c < nlChain; c++ {
			e := id(fmt.Sprint("e", c))
			idx := j.Clone()
			if c > 0 {
				idx = idx.Op("+").Lit(c)
			}
			es, ents = append(es, e.Clone()), append(ents, id("cr").Index(idx.Clone()))
			ws = append(ws, jen.Op("&").Id("w").Index(e.Clone().Op("&").Lit(NB-1)))
			xs = append(xs, jen.Op("&").Id("xw").Index(e.Clone().Op(">>").Lit(S).Op("&").Lit(nlRows-1)))
			visit := []jen.Code{
				id("b").Op(":=").Add(e.Clone()).Op("&").Lit(NB - 1),
				id("s").Op(":=").Add(step(ld(id("sc").Dot("ms").Index(jen.Lit(c))), dflt(id("b")))),
				id("p").Op(":=").Add(ld(id("cp").Index(idx.Clone()))),
			}
			visit = append(visit, children(id("p"), id("s"))...)
			if last {
				visit = append(visit, id("le").Op(":=").Add(e.Clone()).Op("&^").Lit(NB-1).Op("|").Lit(2).Op("*").Parens(id("b").Op("-").Lit(NB/2)).
					Comment("its children are blocks of leaves"))
				visit = append(visit, push("nr", "np", "k", id("le"), id("c0"), true)...)
				visit = append(visit, push("nr", "np", "k", id("le").Op("+").Lit(1), id("c1"), true)...)
			} else {
				visit = append(visit, push("nr", "np", "k", e.Clone().Op("+").Id("b"), id("c0"), false)...)
				visit = append(visit, push("nr", "np", "k", e.Clone().Op("+").Id("b").Op("+").Lit(1), id("c1"), false)...)
			}
			if c == 0 {
				visits = append(visits, jen.Block(visit...))
			} else {
				visits = append(visits, jen.If(idx.Clone().Op("<").Id("n")).Block(visit...))
			}
		}
		loop := []jen.Code{
			jen.List(es...).Op(":=").List(ents...),
			id("nlDot").Call(append(append([]jen.Code{jen.Op("&").Id("sc").Dot("ms")}, ws...), xs...)...),
		}
		loop = append(loop, load("", "", "", "", "lo", "hi")...)
		return []jen.Code{
			id("k").Op(":=").Lit(0),
			jen.For(j.Clone().Op(":=").Lit(0), j.Clone().Op("<").Id("n"), j.Clone().Op("+=").Lit(nlChain)).Block(append(loop, visits...)...),
			jen.List(id("cr"), id("cp"), id("nr"), id("np")).Op("=").List(id("nr"), id("np"), id("cr"), id("cp")),
			id("n").Op("=").Id("k"),
		}
	}
	L := id("L")
	if l.D-1 > 5 {
		tree = append(tree, jen.For(L.Clone().Op(":=").Lit(5), L.Clone().Op("<").Lit(l.D-1), L.Clone().Op("++")).Block(level(false)...))
	}
	tree = append(tree, jen.Block(level(true)...))

	// The leaves, then the accumulators.
	var terms, adds []jen.Code
	for k := 0; k < l.K; k++ {
		terms = append(terms, id("tr").Index(jen.Lit(k)).Op("+=").Float32().Call(
			id("p").Index(id("q")).Op("*").Id("lv").Index(jen.Lit(k)).Index(id("q"))))
		out := jen.Code(jen.Lit(k))
		if !l.vector {
			out = lvOut(l)
		}
		adds = append(adds, lvAdd(g, out, id("tv").Index(r.Clone()).Index(jen.Lit(k))))
	}
	mk := id("mk")
	tree = append(tree,
		jen.Qual("simd/archsimd", "ClearAVXUpperBits").Call().Comment("the leaves are scalar code"),
		jen.For(j.Clone().Op(":=").Lit(0), j.Clone().Op("<").Id("n"), j.Clone().Op("++")).Block(
			id("e").Op(":=").Id("cr").Index(j.Clone()),
			jen.List(id("lv"), id("tr"), id("p")).Op(":=").List(
				jen.Op("&").Id("v").Index(id("e").Op("&").Lit(NB-1)),
				jen.Op("&").Id("tv").Index(id("e").Op(">>").Lit(S).Op("&").Lit(nlRows-1)),
				jen.Op("&").Id("cp").Index(j.Clone())),
			jen.For(mk.Clone().Op(":=").Uint32().Call(id("sc").Dot("nm").Index(j.Clone())), mk.Clone().Op("!=").Lit(0), mk.Clone().Op("&=").Add(mk.Clone()).Op("-").Lit(1)).Block(
				append([]jen.Code{id("q").Op(":=").Qual("math/bits", "TrailingZeros32").Call(mk.Clone()).Op("&").Lit(15)}, terms...)...,
			),
		),
		jen.For(r.Clone().Op(":=").Range().Id("tv")).Block(
			append([]jen.Code{id("a").Op(":=").Parens(g.OutType()).Call(id("acc").Index(r.Clone().Op("*").Id("NumOutputs").Op(":")))}, adds...)...,
		),
	)

	// The function: broadcast the rows, set the constants, then the trees.
	x, f := id("x"), id("f")
	body := []jen.Code{
		id("xw").Op(":=").Op("&").Id("sc").Dot("xw"),
		jen.For(r.Clone().Op(":=").Range().Id("xw")).Block(
			jen.For(f.Clone().Op(":=").Range().Id("xw").Index(r.Clone())).Block(
				bc(x.Clone().Index(r.Clone().Op("*").Id("NumFeatures").Op("+").Add(f.Clone()))).Dot("Store").Call(jen.Op("&").Id("xw").Index(r.Clone()).Index(f.Clone())),
			),
		),
	}
	for q, c := range nlConsts(g, l) {
		body = append(body, bc(c.val).Dot("Store").Call(jen.Op("&").Id("sc").Dot("kc").Index(jen.Lit(q))))
	}
	for q := 0; q < 6; q++ {
		body = append(body, nlLoadSel(q).Dot("Store").Call(jen.Op("&").Id("sc").Dot("ks").Index(jen.Lit(q))))
	}
	body = append(body, jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("<").Lit(l.T), t.Clone().Op("++")).Block(tree...))
	name := l.name("nlSub")
	return emit.Doc(fmt.Sprintf("%s adds the values of %s to the accumulators acc of the %d rows of x, in tree order, "+
		"a node in each lane (see %s), with the working memory sc.", name, l.trees, nlRows, l.name("nlTrees"))).Line().
		Func().Id(name).Params(
		id("sc").Op("*").Id(l.name("nlScratch")),
		x.Clone().Op("*").Index(jen.Lit(nlRows).Op("*").Id("NumFeatures")).Add(g.VectorInput()),
		id("acc").Op("*").Index(jen.Lit(nlRows).Op("*").Id("NumOutputs")).Add(g.Float()),
	).Block(body...)
}

// nlLoadSel returns the load of row k of nlSel.
func nlLoadSel(k int) *jen.Statement {
	return jen.Qual("simd/archsimd", "LoadUint32x16").Call(jen.Op("&").Id("nlSel").Index(jen.Lit(k)))
}
