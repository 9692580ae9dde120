package emit

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// The latent-tree emitter. A latent tree (ir/doc.go) has no value of its
// own: it adds the terms W[k][P+j]·z_j of its nodes j to the read-out sums
// r_k. Its function follows the one path whose signed margins are positive
// (left for a margin s < 0, right for s > 0; NaN goes the default way, which
// gets +Inf, and 0 either way, since every z below is then 0) and computes
// the running minimum q and z_j = min(max(q, 0), a_j) on that path only, in
// index order, which is path order.
//
// Every node off the path has q <= 0, so z_j = min(+0, a_j): +0, or -0 for
// an activity of -0. Its term is then a signed zero known at generation
// time, and so is the term of a path node whose weight or activity is 0. A
// term of -0 changes no sum; a term of +0 turns a sum of -0 into +0 and
// changes no other. Adding +0 commutes with every addition, (r+0)+d =
// (r+d)+0 for all r and d (the two differ only if r+d is 0, and then both
// are +0), so the +0 terms of a path may all be added at its end, and
// adding +0 twice is adding it once: at each leaf, for each output whose
// constant terms on that path (off the path or not) include a +0, the code
// ends with "if r[k] == 0 { r[k] = 0 }". The terms computed at run time
// come in the interpreter's order. (A weight that is ±Inf in F times a zero
// z is NaN, and makes the sum NaN wherever it comes: the first such term of
// a path is written out at its leaf.)

// latentTree returns the unit of latent tree i: a function that adds the
// read-out terms of the tree's nodes to the sums r, and its call in the
// read-out function ([Unit].Readout).
func latentTree(g *Gen, i int) Unit {
	m := g.Model
	t := &m.Trees[i]
	name := TreeFunc(i)
	z0 := 0
	for j := 0; j < i; j++ {
		if m.Trees[j].Latent {
			z0 += len(m.Trees[j].Nodes)
		}
	}
	w := &latentWalker{g: g, t: t, col: m.NumFeatures + z0}
	w.scan()
	var body []jen.Code
	F := g.Float()
	switch {
	case w.split && w.anyDyn:
		body = append(body, jen.Var().List(jen.Id("s"), jen.Id("z")).Add(F.Clone()))
	case w.split:
		body = append(body, jen.Var().Id("s").Add(F.Clone()))
	case w.anyDyn:
		body = append(body, jen.Var().Id("z").Add(F.Clone()))
	}
	if w.needQ {
		body = append(body, jen.Id("q").Op(":=").Add(g.Lit(math.Inf(1))))
	}
	body = append(body, w.node(0, nil, true)...)
	shape := fmt.Sprintf("depth %d, %d nodes", t.Depth(), len(t.Nodes))
	if len(t.Nodes) == 1 {
		shape = "a single node"
	}
	act := ""
	if t.Activation == ir.Elu {
		act = ", elu splits"
	}
	decl := Doc(fmt.Sprintf("%s adds the read-out terms of latent tree %d (%s%s), those of z[%d:%d], to the read-out sums r.",
		name, i, shape, act, z0, z0+len(t.Nodes))).Line().
		Func().Id(name).Params(jen.Id("x").Add(g.RowType()), jen.Id("r").Add(g.OutType())).Block(body...)
	return Unit{
		Decls:   []jen.Code{decl},
		Readout: []jen.Code{jen.Id(name).Call(jen.Id("x"), jen.Id("r"))},
		Size:    TreeSize(t) + m.NumOutputs*len(t.Nodes),
	}
}

// latentWalker emits the function of one latent tree.
type latentWalker struct {
	g   *Gen
	t   *ir.Tree
	col int // the read-out column of the tree's node 0: P + its offset in z
	// dyn[j]: some term of node j depends on the row when j is on the path;
	// below[j]: so does some term of a node of j's subtree.
	dyn, below []bool
	// split: the root is a split (the function computes margins s);
	// anyDyn: some term depends on the row (the function computes z);
	// needQ: a node below the root has such a term (q is kept).
	split, anyDyn, needQ bool
}

// scan computes dyn, below and the flags.
func (w *latentWalker) scan() {
	n := len(w.t.Nodes)
	w.dyn, w.below = make([]bool, n), make([]bool, n)
	for j := n - 1; j >= 0; j-- { // children first: they have higher indices
		for k := 0; k < w.g.Model.NumOutputs; k++ {
			if _, ok := w.term(k, j, true); !ok {
				w.dyn[j] = true
			}
		}
		nd := &w.t.Nodes[j]
		w.below[j] = w.dyn[j] || (nd.IsSplit() && (w.below[nd.Left] || w.below[nd.Right]))
		w.anyDyn = w.anyDyn || w.dyn[j]
		w.needQ = w.needQ || (j > 0 && w.dyn[j])
	}
	w.split = w.t.Nodes[0].IsSplit()
}

// weight returns the read-out weight of node j for output k, in F.
func (w *latentWalker) weight(k, j int) float64 {
	return w.g.Round(w.g.Model.Readout.Weights[k][w.col+j])
}

// activity returns the activity of node j, in F.
func (w *latentWalker) activity(j int) float64 { return w.g.Round(*w.t.Nodes[j].Activity) }

// offZ returns z of node j when the node is off the path (q <= 0), or when
// its activity is 0: min(+0, a), that is +0, or -0 for an activity of -0.
func (w *latentWalker) offZ(j int) float64 {
	if a := w.activity(j); a == 0 {
		return a
	}
	return 0
}

// term returns the term W[k][col+j]·z_j that the interpreter adds to r_k
// for node j, on the path or off it, when it does not depend on the row:
// ±0, or NaN for a weight of ±Inf (in F) and a zero z. ok is false when it
// depends on the row: node j on the path, its weight and activity not 0.
func (w *latentWalker) term(k, j int, onPath bool) (v float64, ok bool) {
	wt := w.weight(k, j)
	switch {
	case !onPath || w.activity(j) == 0:
		return wt * w.offZ(j), true // exact: a product with ±0
	case wt == 0:
		return wt, true // z >= +0: the product is a zero of wt's sign
	}
	return 0, false
}

// constants returns the statements that stand for the terms of output k
// that do not depend on the row when the row takes path (node indices,
// increasing, from the root to a leaf): the terms of the nodes off the path
// and the constant terms of those on it. They are none when the terms are
// all -0, a normalisation of r[k] when some is +0, and the first NaN term
// when some is NaN (r[k] is then NaN, whatever the other terms).
func (w *latentWalker) constants(k int, path []int) []jen.Code {
	pos := false
	var nans []jen.Code
	for j := range w.t.Nodes {
		onPath := len(path) > 0 && path[0] == j
		if onPath {
			path = path[1:]
		}
		switch v, ok := w.term(k, j, onPath); {
		case !ok:
		case v != v && nans == nil: // one NaN is enough: NaN + v is NaN
			wt := w.g.Model.Readout.Weights[k][w.col+j]
			nans = append(nans, w.r(k).Op("+=").Add(w.g.Product(wt, w.g.Lit(w.offZ(j)))))
		case v != v:
		case !math.Signbit(v):
			pos = true
		}
	}
	switch {
	case nans != nil:
		return nans
	case pos:
		// -0 + +0 = +0; r + +0 = r for every other r (NaN stays NaN).
		return []jen.Code{jen.If(w.r(k).Op("==").Lit(0)).Block(w.r(k).Op("=").Lit(0))}
	}
	return nil
}

// r returns r[k].
func (w *latentWalker) r(k int) *jen.Statement { return jen.Id("r").Index(jen.Lit(k)) }

// node returns the statements of node j, reached from the root along path
// (the nodes before j) with q, the minimum of the signed margins, up to
// date. tail says that the statements end the function.
func (w *latentWalker) node(j int, path []int, tail bool) []jen.Code {
	g := w.g
	K := g.Model.NumOutputs
	path = append(path[:len(path):len(path)], j)
	var stmts []jen.Code
	if w.dyn[j] {
		a := g.Lit(w.activity(j))
		if j == 0 {
			stmts = append(stmts, jen.Id("z").Op("=").Add(a)) // q = +Inf at the root
		} else {
			stmts = append(stmts, jen.Id("z").Op("=").Id("min").Call(jen.Id("max").Call(jen.Id("q"), jen.Lit(0)), a))
		}
		for k := 0; k < K; k++ {
			if _, ok := w.term(k, j, true); !ok {
				stmts = append(stmts, w.r(k).Op("+=").Add(g.Product(g.Model.Readout.Weights[k][w.col+j], jen.Id("z"))))
			}
		}
	}
	n := &w.t.Nodes[j]
	if !n.IsSplit() {
		for k := 0; k < K; k++ {
			stmts = append(stmts, w.constants(k, path)...)
		}
		if !tail {
			stmts = append(stmts, jen.Return())
		}
		return stmts
	}
	s := jen.Id("s")
	stmts = append(stmts, s.Clone().Op("=").Add(w.margin(n)))
	if w.t.Activation == ir.Elu {
		// elu: e - 1 for s <= 0, e = exp(s); NaN stays NaN.
		stmts = append(stmts, jen.If(jen.Op("!").Parens(s.Clone().Op(">").Lit(0))).Block(
			s.Clone().Op("=").Add(g.Exp(s.Clone())).Op("-").Lit(1)))
	}
	// Left iff s < 0, or NaN with DefaultLeft; the signed margin of the
	// child taken is -s or s, and +Inf for NaN, which leaves q as it is.
	cond := s.Clone().Op("<").Lit(0)
	if n.DefaultLeft {
		cond = jen.Op("!").Parens(s.Clone().Op(">=").Lit(0))
	}
	left := append(w.minQ(n.Left, jen.Op("-").Id("s")), w.node(n.Left, path, false)...)
	stmts = append(stmts, jen.If(cond).Block(left...))
	stmts = append(stmts, w.minQ(n.Right, jen.Id("s"))...)
	return append(stmts, w.node(n.Right, path, tail)...)
}

// minQ returns q = min(q, m) for the signed margin m of the way to child c,
// unless no z of c's subtree needs q. A NaN m (the default way) stands for
// +Inf and leaves q as it is; the sign of a zero q does not matter, since
// only max(q, 0) is used.
func (w *latentWalker) minQ(c int, m *jen.Statement) []jen.Code {
	if !w.below[c] {
		return nil
	}
	return []jen.Code{jen.If(m.Clone().Op("<").Id("q")).Block(jen.Id("q").Op("=").Add(m))}
}

// margin returns the split margin of node n in F (ir/doc.go): its dot
// product for an oblique split, x'[f] - threshold for an axis split, both
// sides rounded to float32 first with Float32Compare.
func (w *latentWalker) margin(n *ir.Node) *jen.Statement {
	g := w.g
	if n.Kind == ir.Oblique {
		return g.Dot(n.Bias, n.Indices, n.Weights)
	}
	v, thr := g.X(n.Feature), n.Threshold
	if g.Model.Float32Compare {
		thr = float64(float32(thr))
		if !g.Is32() {
			v = g.Float().Call(jen.Float32().Call(v))
		}
	}
	return v.Op("-").Add(g.Lit(thr))
}
