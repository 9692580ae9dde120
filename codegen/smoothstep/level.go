package smoothstep

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// Level-synchronous evaluation.
//
// A run of consecutive trees that are all perfect soft trees of the same
// depth d (a "level group": every internal node a soft node of width
// γ/2 > 0 in F with dense weights, every leaf a constant leaf with finite
// values in F, all trees writing every output or all writing one) is not
// unrolled tree by tree. Its code evaluates the trees level by level, all
// trees together: the frontier of a level is the list, in tree order and
// left to right within a tree, of the nodes that the row reaches with a
// path probability other than 0, with those probabilities. The margins of
// the nodes of a frontier are independent sums; lvDot8 computes eight of
// them at once (lvDot4 four, for a remainder), each left to right as
// ir/doc.go defines it, so that eight chains of additions are in flight
// instead of one. Each node then sends its children, P·s to the left and
// P·(1-s) to the right, to the next frontier, in order, and only if their
// probability is not 0: unreachable subtrees cost nothing, the conditional
// computation of the TEL paper.
// At the last internal level the leaf terms F(P·v) are added to the tree
// values in frontier order, which is the depth-first, left-to-right order
// of the interpreter, and each tree value is added to the margins in tree
// order.
//
// The frontier lives in small local arrays of lvCapacity entries (Go zeroes
// local arrays on every call: they must stay small). A row whose frontier
// would outgrow them is evaluated instead, from the start, by a compact
// depth-first recursion over the same tables (the interpreter's order, the
// same bits); with the capacity used, this is rare for typical rows.
//
// Nothing is branched on in the hot loop but the loop bounds: the
// smooth-step's three cases are selected by masks, on the bits of the
// result, from the sign bits of m-γ/2 and -γ/2-m (a NaN margin, rare, is a
// branch), a child is appended by writing it and advancing
// the frontier's length by 0 or 1, and a leaf term with probability 0 is
// added anyway, being ±0 (finite leaf values) which leaves a tree value,
// never -0, unchanged.

// lvMaxCap bounds the frontier's capacity.
const lvMaxCap = 256

// lvGroup is a level group: trees first, first+1, ..., first+n-1.
type lvGroup struct {
	first, n int
	depth    int
	vector   bool    // the trees write every output; else one each
	levels   [][]int // per tree: its nodes level by level, left to right, leaves last
}

// lvLevels returns the nodes of t level by level, left to right (the heap
// order of a perfect tree), its depth, and whether t is a perfect tree that
// the level-synchronous code evaluates.
func lvLevels(g *emit.Gen, t *ir.Tree, prune float64) (order []int, depth int, ok bool) {
	p := g.Model.NumFeatures
	width := 1
	if t.Output == ir.AllOutputs {
		width = g.Model.NumOutputs
	}
	cur := []int{0}
	for {
		order = append(order, cur...)
		n := &t.Nodes[cur[0]]
		if n.Kind == ir.Leaf {
			for _, i := range cur {
				l := &t.Nodes[i]
				if l.Kind != ir.Leaf || len(l.Value) != width {
					return nil, 0, false
				}
				for _, v := range l.Value {
					if r := g.Round(v); r-r != 0 { // not finite in F
						return nil, 0, false
					}
				}
			}
			return order, depth, depth > 0
		}
		var next []int
		for _, i := range cur {
			n := &t.Nodes[i]
			if n.Kind != ir.Soft || g.SoftIsHard(n) || g.Round(n.Gamma)-g.Round(n.Gamma) != 0 {
				return nil, 0, false
			}
			idx, _ := Pruned(n, prune)
			if !isDense(idx, p) {
				return nil, 0, false
			}
			next = append(next, n.Left, n.Right)
		}
		cur = next
		depth++
	}
}

// lvGroups returns the level groups of the model, in tree order.
func lvGroups(g *emit.Gen, prune float64) []lvGroup {
	m := g.Model
	var gs []lvGroup
	for i := 0; i < len(m.Trees); i++ {
		t := &m.Trees[i]
		if t.Latent {
			continue
		}
		order, d, ok := lvLevels(g, t, prune)
		if !ok {
			continue
		}
		vector := t.Output == ir.AllOutputs
		if k := len(gs) - 1; k >= 0 && gs[k].first+gs[k].n == i && gs[k].depth == d && gs[k].vector == vector {
			gs[k].n++
			gs[k].levels = append(gs[k].levels, order)
			continue
		}
		gs = append(gs, lvGroup{first: i, n: 1, depth: d, vector: vector, levels: [][]int{order}})
	}
	return gs
}

// lvCapacity returns the capacity of the frontier arrays of a group of n
// trees of depth d: the largest frontier an internal level can have, a
// power of two, but at most the larger of lvMaxCap and 2n (the roots and
// their children always fit).
func lvCapacity(n, d int) int {
	most := n << (d - 1) // the nodes of the last internal level
	if limit := 2 * n; most > limit && limit > lvMaxCap {
		most = limit
	} else if most > lvMaxCap {
		most = lvMaxCap
	}
	c := 8
	for c < most {
		c *= 2
	}
	return c
}

// lvUnit returns the unit of level group gr.
func lvUnit(g *emit.Gen, gr lvGroup, prune float64) emit.Unit {
	m := g.Model
	F := g.Prec.String()
	T, D := gr.n, gr.depth
	id := strconv.Itoa(gr.first)
	nameW, nameV := "lvW"+id, "lvV"+id
	nameG, nameH, nameL, nameO := "lvG"+id, "lvH"+id, "lvL"+id, "lvO"+id
	fn, step, slow, rec := "lvTrees"+id, "lvStep"+id, "lvSlow"+id, "lvRec"+id
	internal := 1<<D - 1
	K := 1
	if gr.vector {
		K = m.NumOutputs
	}
	lit := func(v float64) string { return g.Lit(v).GoString() }

	// The tables, level-major: node i of level L of tree t is row
	// (2^L-1)·T + t·2^L + i; leaf i of tree t is row t·2^D + i.
	var wRows, vRows []jen.Code
	var gammas, halves []float64
	var lefts []bool
	for L := 0; L <= D; L++ {
		for t := 0; t < T; t++ {
			tree := &m.Trees[gr.first+t]
			order := gr.levels[t]
			for i := 0; i < 1<<L; i++ {
				n := &tree.Nodes[order[1<<L-1+i]]
				if L == D {
					vals := make([]jen.Code, len(n.Value))
					for k, v := range n.Value {
						vals[k] = g.Lit(v)
					}
					vRows = append(vRows, jen.Values(vals...))
					continue
				}
				_, ws := Pruned(n, prune)
				vals := []jen.Code{g.Lit(n.Bias)}
				for _, w := range ws {
					vals = append(vals, g.Lit(w))
				}
				wRows = append(wRows, jen.Values(vals...))
				gammas = append(gammas, g.Round(n.Gamma))
				halves = append(halves, g.SoftHalf(n))
				lefts = append(lefts, n.DefaultLeft)
			}
		}
	}
	multi := jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}
	trees := fmt.Sprintf("trees %d to %d", gr.first, gr.first+T-1)
	if T == 1 {
		trees = fmt.Sprintf("tree %d", gr.first)
	}
	var decls []jen.Code
	decls = append(decls,
		emit.Doc(fmt.Sprintf("%s holds the bias and weights of the soft nodes of %s, level by level: "+
			"node i (from the left) of level L of the t-th tree is row (2^L-1)*%d + t*2^L + i.", nameW, trees, T)).Line().
			Var().Id(nameW).Op("=").Index(jen.Lit(T*internal)).Index(jen.Id("NumFeatures").Op("+").Lit(1)).Id(F).Custom(multi, wRows...),
		emit.Doc(fmt.Sprintf("%s holds the values of the leaves of %s: leaf i (from the left) of the t-th tree is row t*%d + i.", nameV, trees, 1<<D)).Line().
			Var().Id(nameV).Op("=").Index(jen.Lit(T<<D)).Index(jen.Lit(K)).Id(F).Custom(multi, vRows...),
	)
	same := func(vs []float64) bool {
		for _, v := range vs {
			if v != vs[0] {
				return false
			}
		}
		return true
	}
	floatTable := func(name, doc string, vs []float64) jen.Code {
		vals := make([]jen.Code, len(vs))
		for i, v := range vs {
			vals[i] = g.Lit(v)
		}
		return emit.Doc(doc).Line().Var().Id(name).Op("=").Index(jen.Lit(len(vs))).Id(F).Custom(multi, vals...)
	}
	// The smooth-step of node r, S_γ(m): γ, γ/2 and the default direction
	// are constants when every node of the group has the same.
	gamma, half := lit(gammas[0]), lit(halves[0])
	if !same(gammas) || !same(halves) {
		gamma, half = nameG+"[r]", nameH+"[r]"
		decls = append(decls,
			floatTable(nameG, fmt.Sprintf("%s holds the width γ of the soft nodes of %s, in the order of %s.", nameG, trees, nameW), gammas),
			floatTable(nameH, fmt.Sprintf("%s holds γ/2 of the soft nodes of %s, in the order of %s.", nameH, trees, nameW), halves))
	}
	allLeft, noneLeft := true, true
	for _, l := range lefts {
		allLeft = allLeft && l
		noneLeft = noneLeft && !l
	}
	if !allLeft && !noneLeft {
		var b strings.Builder
		for i, l := range lefts {
			if i > 0 {
				b.WriteString(", ")
			}
			if i%16 == 0 {
				b.WriteString("\n")
			}
			b.WriteString(strconv.FormatBool(l))
		}
		decls = append(decls, emit.Doc(fmt.Sprintf("%s says which soft nodes of %s send a NaN margin left, in the order of %s.", nameL, trees, nameW)).Line().
			Id(fmt.Sprintf("var %s = [%d]bool{%s,\n}", nameL, len(lefts), b.String())))
	}
	bitsF, fromF := "Float64bits", "Float64frombits"
	if g.Is32() {
		bitsF, fromF = "Float32bits", "Float32frombits"
	}
	// lvStep: the interpreter's smooth-step, its three cases selected
	// without branches: m <= -h iff -h-m >= 0, and m >= h iff m-h >= 0, for
	// finite h and any m but NaN (a difference is ±0 only if its operands
	// are equal, and then +0; it overflows to the infinity of its sign),
	// read on the sign bits of the differences and applied as masks to the
	// bits of the cubic.
	shift := "63"
	if g.Is32() {
		shift = "31"
	}
	// stepCode returns the statements that set s to S_γ(m) for node r of
	// the group, m and r being expressions.
	stepCode := func(m, r string) string {
		var b strings.Builder
		w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
		if gamma == lit(1) {
			w("u := %s // m/1 == m", m)
		} else {
			w("u := %s / %s", m, strings.ReplaceAll(gamma, "[r]", "["+r+"]"))
		}
		h := strings.ReplaceAll(half, "[r]", "["+r+"]")
		w("b := math.%s(%s(u*%s(1.5-%s(2*u*u))) + 0.5)", bitsF, F, F, F)
		w("le := 1 - math.%s(-%s-%s)>>%s // %s <= -γ/2", bitsF, h, m, shift, m)
		w("ge := 1 - math.%s(%s-%s)>>%s // %s >= γ/2", bitsF, m, h, shift, m)
		w("b = b&(le-1)&^(-ge) | math.%s(1)&(-ge)", bitsF)
		w("s := math.%s(b)", fromF)
		switch {
		case allLeft:
			w("if %s != %s {\ns = 1\n}", m, m)
		case noneLeft:
			w("if %s != %s {\ns = 0\n}", m, m)
		default:
			w("if %s != %s {\ns = 0\nif %s[%s] {\ns = 1\n}\n}", m, m, nameL, r)
		}
		return b.String()
	}
	stepBody := []jen.Code{src(strings.TrimSuffix(stepCode("m", "r"), "\n"))}
	stepBody = append(stepBody, jen.Return(jen.Id("s")))
	decls = append(decls, emit.Doc(fmt.Sprintf("%s returns S_γ(m), the probability that soft node r of %s (its row in %s) sends the row left, given its margin m.", step, trees, nameW)).Line().
		Func().Id(step).Params(jen.Id("m").Id(F), jen.Id("r").Int()).Id(F).Block(stepBody...))

	// Adding a tree value to the margins.
	addTo := func(k, v string) string {
		if g.Sum32() {
			return fmt.Sprintf("a[%s] = float64(float32(a[%s]) + float32(%s))", k, k, v)
		}
		return fmt.Sprintf("a[%s] += %s", k, v)
	}
	var flush string // adds tv, the value of tree t of the group, to a, and resets tv
	if gr.vector {
		flush = "for k, v := range tv {\n" + addTo("k", "v") + "\ntv[k] = 0\n}"
	} else {
		outs := make([]int, T)
		allSame := true
		for t := range outs {
			outs[t] = int(m.Trees[gr.first+t].Output)
			allSame = allSame && outs[t] == outs[0]
		}
		out := strconv.Itoa(outs[0])
		if !allSame {
			var b strings.Builder
			for t, o := range outs {
				if t > 0 {
					b.WriteString(", ")
				}
				b.WriteString(strconv.Itoa(o))
			}
			decls = append(decls, emit.Doc(fmt.Sprintf("%s holds the output of each of %s.", nameO, trees)).Line().
				Id(fmt.Sprintf("var %s = [%d]int{%s}", nameO, T, b.String())))
			out = nameO + "[t]"
		}
		flush = addTo(out, "tv[0]") + "\ntv[0] = 0"
	}
	leafAdd := func(prob, row string) string {
		if K == 1 {
			return fmt.Sprintf("tv[0] += %s(%s * %s[%s][0])", F, prob, nameV, row)
		}
		return fmt.Sprintf("for k, v := range &%s[%s] {\ntv[k] += %s(%s * v)\n}", nameV, row, F, prob)
	}

	// The fallback: depth first, as the interpreter.
	decls = append(decls,
		emit.Doc(fmt.Sprintf("%s adds to tv the value of the subtree at node q of level L of %s, "+
			"reached with probability p: depth first, left before right, skipping children reached with probability 0.", rec, trees)).Line().
			Func().Id(rec).Params(jen.Id("x").Add(g.RowType()), jen.List(jen.Id("L"), jen.Id("q")).Int(), jen.Id("p").Id(F), jen.Id("tv").Op("*").Index(jen.Lit(K)).Id(F)).Block(
			jen.Id(fmt.Sprintf("if L == %d {\n%s\nreturn\n}", D, leafAdd("p", "q"))),
			jen.Id(fmt.Sprintf("r := (1<<L-1)*%d + q", T)),
			jen.Id(fmt.Sprintf("s := %s(dotExact(&%s[r], x), r)", step, nameW)),
			jen.Id(fmt.Sprintf("if l := p * s; l != 0 {\n%s(x, L+1, 2*q, l, tv)\n}", rec)),
			jen.Id(fmt.Sprintf("if r := p * (1 - s); r != 0 {\n%s(x, L+1, 2*q+1, r, tv)\n}", rec)),
		),
		emit.Doc(fmt.Sprintf("%s adds the values of %s to the accumulators a, depth first: for rows whose frontier outgrows the arrays of %s.", slow, trees, fn)).Line().
			Func().Id(slow).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(
			jen.Id(fmt.Sprintf("var tv [%d]%s", K, F)),
			jen.Id(fmt.Sprintf("for t := 0; t < %d; t++ {\n%s(x, 0, t, 1, &tv)\n%s\n}", T, rec, flush)),
		),
	)

	// The level-synchronous evaluation. The frontier holds the rows of its
	// nodes in the table (the children of row r are rows 2r+T and 2r+T+1)
	// and their path probabilities; entries past its end hold rows of
	// earlier levels (or 0), valid rows whose margins are computed and
	// ignored.
	C := lvCapacity(T, D)
	mask := strconv.Itoa(C - 1)
	margins := "lvMargins" + id
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	if D > 1 {
		w("var ra, rb [%d]int32 // the frontier: the rows of its nodes", C)
		w("var pa, pb [%d]%s // and their path probabilities", C, F)
		w("cr, cp, nr, np := &ra, &pa, &rb, &pb")
	} else {
		w("var ra [%d]int32 // the roots", C)
		w("var pa [%d]%s // and their probability, 1", C, F)
		w("cr, cp := &ra, &pa")
	}
	w("var ms [%d]%s // the margins of the frontier's nodes", C, F)
	w("for t := 0; t < %d; t++ {\ncr[t], cp[t] = int32(t), 1\n}", T)
	w("n := %d", T)
	entry := func() {
		w("p, m := cp[i], ms[i]")
		w("%s", strings.TrimSuffix(stepCode("m", "int(r)"), "\n"))
		w("l, rp := p*s, p*(1-s)")
	}
	if D > 1 {
		w("for L := 0; L < %d; L++ {", D-1)
		if T<<(D-1) > C {
			w("if 2*n > %d {\n%s(x, a)\nreturn\n}", C, slow)
		}
		w("%s(x, cr, n, &ms)", margins)
		w("k := 0")
		w("for i, r := range cr[:n] {")
		entry()
		// k advances by 1 iff l != 0: l and rp are >= +0, so that their
		// bits are 0 iff they are 0.
		w("c := 2*r + %d", T)
		w("nr[k&%[1]s], np[k&%[1]s] = c, l", mask)
		w("lbits := math.%s(l)\nk += int((lbits | -lbits) >> %s)", bitsF, shift)
		w("nr[k&%[1]s], np[k&%[1]s] = c+1, rp", mask)
		w("rbits := math.%s(rp)\nk += int((rbits | -rbits) >> %s)", bitsF, shift)
		w("}") // i
		w("cr, cp, nr, np = nr, np, cr, cp")
		w("n = k")
		w("}") // L
	}
	// The last internal level: the leaf terms, tree by tree.
	last := (1<<(D-1) - 1) * T
	// The tree value in variables tv0, tv1, ... (registers) when it has few
	// values, else in the array tv.
	fastFlush, fastLeaf := flush, leafAdd
	if K <= 8 {
		var vars []string
		for k := 0; k < K; k++ {
			vars = append(vars, "tv"+strconv.Itoa(k))
		}
		w("var %s %s", strings.Join(vars, ", "), F)
		var fl []string
		if gr.vector {
			for k := range vars {
				fl = append(fl, addTo(strconv.Itoa(k), vars[k]))
			}
		} else {
			fl = append(fl, strings.ReplaceAll(strings.SplitN(flush, "\n", 2)[0], "tv[0]", "tv0"))
		}
		fl = append(fl, strings.Join(vars, ", ")+" = "+strings.TrimSuffix(strings.Repeat("0, ", K), ", "))
		fastFlush = strings.Join(fl, "\n")
		fastLeaf = func(prob, row string) string {
			var ls []string
			for k := range vars {
				ls = append(ls, fmt.Sprintf("%s += %s(%s * %s[%s][%d])", vars[k], F, prob, nameV, row, k))
			}
			return strings.Join(ls, "\n")
		}
	} else {
		w("var tv [%d]%s", K, F)
	}
	w("%s(x, cr, n, &ms)", margins)
	w("t := 0")
	w("for i, r := range cr[:n] {")
	entry()
	w("q := int(r) - %d // t*2^%d + i: its leaves are 2q and 2q+1", last, D-1)
	w("for tree := q >> %d; t < tree; t++ {\n%s\n}", D-1, fastFlush)
	w("%s", fastLeaf("l", "2*q"))
	w("%s", fastLeaf("rp", "2*q+1"))
	w("}") // i
	w("for ; t < %d; t++ {\n%s\n}", T, fastFlush)

	// lvMargins: the margins of the frontier, eight at a time, then four.
	var mb strings.Builder
	mw := func(format string, args ...any) { fmt.Fprintf(&mb, format+"\n", args...) }
	dotCall := func(k int) {
		var ptrs, outs []string
		for i := 0; i < k; i++ {
			ptrs = append(ptrs, fmt.Sprintf("&%s[rows[(j+%d)&%s]]", nameW, i, mask))
			outs = append(outs, fmt.Sprintf("ms[(j+%d)&%s]", i, mask))
		}
		mw("%s = lvDot%d(%s, x)", strings.Join(outs, ", "), k, strings.Join(ptrs, ", "))
	}
	mw("j := 0")
	mw("for ; j+4 < n; j += 8 {")
	dotCall(8)
	mw("}")
	mw("if j < n {")
	dotCall(4)
	mw("}")
	decls = append(decls, emit.Doc(fmt.Sprintf("%s sets ms[i] to the margin of the node of row rows[i] of %s, for i < n, "+
		"eight or four at a time (and the margins of a few of the following rows).", margins, nameW)).Line().
		Func().Id(margins).Params(jen.Id("x").Add(g.RowType()), jen.Id("rows").Op("*").Index(jen.Lit(C)).Int32(), jen.Id("n").Int(), jen.Id("ms").Op("*").Index(jen.Lit(C)).Id(F)).
		Block(jen.Id(strings.TrimSuffix(mb.String(), "\n"))))

	what := "the sum, over the leaves the row reaches, of the probability of the path to the leaf times its value"
	decls = append(decls, emit.Doc(fmt.Sprintf("%s adds the values of %s (perfect soft trees of depth %d) to the accumulators a, in tree order: "+
		"for each output, %s. It evaluates the trees level by level, all together (see the package documentation).", fn, trees, D, what)).Line().
		Func().Id(fn).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(src(strings.TrimSuffix(b.String(), "\n"))))

	size := 0
	for t := 0; t < T; t++ {
		size += emit.TreeSize(&m.Trees[gr.first+t])
	}
	return emit.Unit{Decls: decls, Calls: []jen.Code{jen.Id(fn).Call(jen.Id("x"), jen.Id("a"))}, Size: size}
}

// genDot declares lvDot4 (k = 4) or lvDot8 (k = 8): k dense margins at once.
func genDot(g *emit.Gen, k int) jen.Code {
	p := g.Model.NumFeatures
	F := g.Prec.String()
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format+"\n", args...) }
	for i := 0; i < k; i++ {
		w("m%d = w%d[0]", i, i)
	}
	if p <= 64 {
		for j := 0; j < p; j++ {
			w("x%d := x[%d]", j, j)
			for i := 0; i < k; i++ {
				w("m%d += %s(w%d[%d] * x%d)", i, F, i, j+1, j)
			}
		}
	} else {
		w("for j, v := range x {")
		for i := 0; i < k; i++ {
			w("m%d += %s(w%d[j+1] * v)", i, F, i)
		}
		w("}")
	}
	w("return")
	row := jen.Op("*").Index(jen.Id("NumFeatures").Op("+").Lit(1)).Id(F)
	var ws, ms []jen.Code
	for i := 0; i < k; i++ {
		ws = append(ws, jen.Id("w"+strconv.Itoa(i)))
		ms = append(ms, jen.Id("m"+strconv.Itoa(i)))
	}
	name := "lvDot" + strconv.Itoa(k)
	return emit.Doc(fmt.Sprintf("%s returns the margins of %d dense soft nodes from their rows of bias and weights: each is "+
		"w[0] + w[1]*x[0] + w[2]*x[1] + ..., added left to right as dotExact adds it; the sums are interleaved, "+
		"%d independent chains of additions.", name, k, k)).Line().
		Func().Id(name).Params(jen.List(ws...).Add(row), jen.Id("x").Add(g.RowType())).
		Params(jen.List(ms...).Id(F)).
		Block(jen.Id(strings.TrimSuffix(b.String(), "\n")))
}

// mathRE matches the uses of package math in source text.
var mathRE = regexp.MustCompile(`math\.[A-Za-z0-9]+`)

// src returns Go source text as jen code: the text as it is (gofmt lays it
// out), but for the uses of package math, which jen imports.
func src(text string) *jen.Statement {
	s := jen.Null()
	last := 0
	for _, loc := range mathRE.FindAllStringIndex(text, -1) {
		s = s.Id(text[last:loc[0]]).Qual("math", text[loc[0]+len("math."):loc[1]])
		last = loc[1]
	}
	return s.Id(text[last:])
}
