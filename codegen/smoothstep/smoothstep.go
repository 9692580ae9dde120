package smoothstep

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// Name is the backend's name in codegen.Options.Backend and on the command
// line.
const Name = "smoothstep"

// Check returns nil if the backend can compile the validated model m, else an
// error naming the first tree it cannot compile: a latent tree (which the
// ifelse backend compiles).
func Check(m *ir.Model) error {
	for i := range m.Trees {
		if m.Trees[i].Latent {
			return fmt.Errorf("tree %d is latent: use the ifelse backend (smoothstep does not compile latent trees)", i)
		}
	}
	return nil
}

// Backend is the smoothstep backend, as package codegen lists it.
type Backend struct{}

// Name returns "smoothstep".
func (Backend) Name() string { return Name }

// Summary says what the backend compiles.
func (Backend) Summary() string {
	return "soft trees (the Tree Ensemble Layer's) with conditional computation: unrolled, or level by level across runs of perfect trees, whichever a cost model expects faster; hard trees as ifelse compiles them"
}

// Check returns nil if the backend can compile the validated model m, else an
// error naming the first tree it cannot compile: a latent tree.
func (Backend) Check(m *ir.Model) error { return Check(m) }

// Suited reports whether the backend is meant for m: a model it compiles
// that has soft nodes of width γ > 0 (it would compile any other model as
// the ifelse backend does).
func (Backend) Suited(m *ir.Model) bool {
	if Check(m) != nil {
		return false
	}
	for i := range m.Trees {
		for j := range m.Trees[i].Nodes {
			if n := &m.Trees[i].Nodes[j]; n.Kind == ir.Soft && n.Gamma != 0 {
				return true
			}
		}
	}
	return false
}

// NewOptions returns the backend's options with their defaults: nothing
// pruned, the path of each run of perfect soft trees chosen by the cost
// model (PathAuto).
func (Backend) NewOptions() emit.Options { return &Options{Path: PathAuto} }

// Units returns the units of the trees, in tree order: one for each level
// group (level.go), a run of perfect soft trees evaluated level by level
// (those runs that chooseLevel keeps, given Options.Path);
// one for each other tree with soft nodes, the function genTree writes;
// and one for each hard tree, the ifelse backend's function.
func (Backend) Units(g *emit.Gen, opts emit.Options) ([]emit.Unit, error) {
	units, _, err := compile(g, opts)
	return units, err
}

// compile returns the units of the trees, as Units does, and for each unit
// the layout of its level group, or nil for a unit of one tree.
func compile(g *emit.Gen, opts emit.Options) ([]emit.Unit, []*lvLayout, error) {
	o, ok := opts.(*Options)
	if !ok {
		return nil, nil, fmt.Errorf("options of type %T given to the smoothstep backend", opts)
	}
	m := g.Model
	prune := o.Prune
	var units []emit.Unit
	var layouts []*lvLayout
	var declared helpers
	var groups []lvGroup
	for _, gr := range lvGroups(g, prune) {
		if chooseLevel(&gr, o.path()) {
			groups = append(groups, gr)
		}
	}
	for i := 0; i < len(m.Trees); i++ {
		var u emit.Unit
		var uses helpers
		var l *lvLayout
		switch {
		case len(groups) > 0 && groups[0].first == i:
			u, l, uses = lvUnit(g, groups[0], prune)
			i += groups[0].n - 1
			groups = groups[1:]
		case m.Trees[i].HasSoft():
			u, uses = genTree(g, i, prune)
		default:
			u = emit.HardTree(g, i)
		}
		if uses.maxAbs && !declared.maxAbs {
			u.Decls = append(u.Decls, genMaxAbs(g))
			declared.maxAbs = true
		}
		if uses.dot && !declared.dot {
			u.Decls = append(u.Decls, genDots(g)...)
			declared.dot = true
		}
		if uses.dot4 && !declared.dot4 {
			u.Decls = append(u.Decls, genDot(g, 4), genDot(g, 8))
			declared.dot4 = true
		}
		units = append(units, u)
		layouts = append(layouts, l)
	}
	return units, layouts, nil
}

// Pruned returns the weights of soft node n that the generated code keeps:
// all of them when prune is 0, else those with |w| > prune, in order.
func Pruned(n *ir.Node, prune float64) (indices []int, weights []float64) {
	if prune <= 0 {
		return n.Indices, n.Weights
	}
	for i, w := range n.Weights {
		if math.Abs(w) > prune {
			indices = append(indices, n.Indices[i])
			weights = append(weights, w)
		}
	}
	return indices, weights
}

// genTree returns the unit of tree i, which has soft nodes, and the helpers
// its code calls.
func genTree(g *emit.Gen, i int, prune float64) (emit.Unit, helpers) {
	t := &g.Model.Trees[i]
	name := emit.TreeFunc(i)
	w := &walker{g: g, t: t, tree: i, prune: prune, vector: t.Output == ir.AllOutputs}
	if w.vector {
		w.written = make([]bool, g.Model.NumOutputs)
	}
	body := w.node(0, "")
	if w.filter {
		body = append([]jen.Code{jen.Id("xm").Op(":=").Id("maxAbs").Call(jen.Id("x"))}, body...)
	}
	var decls []jen.Code
	if len(w.table) > 0 {
		var rows []jen.Code
		for _, r := range w.table {
			vals := make([]jen.Code, len(r))
			for j, v := range r {
				vals[j] = g.Lit(v)
			}
			rows = append(rows, jen.Values(vals...))
		}
		decls = append(decls, emit.Doc(fmt.Sprintf("%s holds the bias and weights of the dense soft nodes of tree %d, one node per row.", w.tableName(), i)).Line().
			Var().Id(w.tableName()).Op("=").Index(jen.Lit(len(w.table))).Index(jen.Id("NumFeatures").Op("+").Lit(1)).Add(g.Float()).
			Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, rows...))
	}
	size := emit.TreeSize(t)
	shape := fmt.Sprintf("soft, depth %d, %d leaves", t.Depth(), t.NumLeaves())
	x := jen.Id("x").Add(g.RowType())
	what := "the sum, over the leaves the row reaches, of the probability of the path to the leaf times its value"
	if !w.vector {
		body = append([]jen.Code{jen.Var().Id("v").Add(g.Float())}, body...)
		body = append(body, jen.Return(jen.Id("v")))
		decl := emit.Doc(fmt.Sprintf("%s returns the value of tree %d (%s) for output %d: %s.", name, i, shape, t.Output, what)).Line().
			Func().Id(name).Params(x).Add(g.Float()).Block(body...)
		call := g.AddValue(t.Output, jen.Id(name).Call(jen.Id("x")))
		return emit.Unit{Decls: append(decls, decl), Calls: []jen.Code{call}, Size: size}, w.helpers()
	}
	var vars []jen.Code
	for k, used := range w.written {
		if used {
			vars = append(vars, vk(k))
		}
		if used || g.NeedsZeroAdd(k) {
			// The interpreter adds the tree value of every output; adding +0
			// changes nothing unless NeedsZeroAdd.
			v := jen.Code(vk(k))
			if !used {
				v = jen.Lit(0)
			}
			body = append(body, g.AddValue(k, v))
		}
	}
	if len(vars) > 0 {
		body = append([]jen.Code{jen.Var().List(vars...).Add(g.Float())}, body...)
	}
	decl := emit.Doc(fmt.Sprintf("%s adds the values of tree %d (%s) to the accumulators a: for each output, %s.", name, i, shape, what)).Line().
		Func().Id(name).Params(x, jen.Id("a").Add(g.OutType())).Block(body...)
	call := jen.Id(name).Call(jen.Id("x"), jen.Id("a"))
	return emit.Unit{Decls: append(decls, decl), Calls: []jen.Code{call}, Size: size}, w.helpers()
}

// helpers returns the package-level helpers that the tree's code calls.
func (w *walker) helpers() helpers { return helpers{maxAbs: w.filter, dot: w.dense} }

// helpers says which package-level helpers the code calls.
type helpers struct{ maxAbs, dot, dot4 bool }

// vk is the variable that accumulates the tree's value for output k.
func vk(k int) *jen.Statement { return jen.Id("v" + strconv.Itoa(k)) }

// walker emits the code of one soft tree: depth first, left before right,
// each subtree under a test that its path probability is not 0, as the
// interpreter visits it (ir/doc.go).
type walker struct {
	g       *emit.Gen
	t       *ir.Tree
	tree    int         // the tree's index
	prune   float64     // the prune threshold (Options.Prune)
	table   [][]float64 // the bias and weights of its dense soft nodes
	dense   bool        // some node calls dotFast and dotExact
	filter  bool        // some node uses the margin filter (and xm)
	vector  bool        // the tree has a value per output, accumulated in v0, v1, ...; else in v
	written []bool      // vector trees: which outputs some leaf adds to
}

// node returns the statements of the subtree at node i, reached with the
// path probability held in the variable prob, or with probability 1 when
// prob is "" (at the root, and below hard splits only).
func (w *walker) node(i int, prob string) []jen.Code {
	g := w.g
	n := &w.t.Nodes[i]
	switch n.Kind {
	case ir.Leaf:
		return w.leaf(n, prob)
	case ir.SoftmaxLeaf:
		return w.softmax(n, prob)
	case ir.Soft:
		if !g.SoftIsHard(n) {
			return w.soft(i, n, prob)
		}
		c := *n
		c.Indices, c.Weights = Pruned(n, w.prune)
		n = &c
	}
	// A hard split: the child it picks inherits the path probability, since
	// P·1 = P and P·0 = 0 is skipped.
	init, cond := g.SplitTest(n)
	var conds []jen.Code
	if init != nil {
		conds = append(conds, init)
	}
	conds = append(conds, cond)
	return []jen.Code{jen.If(conds...).Block(w.node(n.Left, prob)...).Else().Block(w.node(n.Right, prob)...)}
}

// soft returns the statements of soft node i (n), of width γ > 0 in F:
//
//	var s3 F // P(left) = S_γ(m3)
//	m3 := bias + F(w0*x[i0]) + ...
//	if m3 >= γ/2 {
//		s3 = 1
//	} else if m3 > -γ/2 {
//		u := m3 / γ
//		s3 = F(u*F(1.5-F(2*u*u))) + 0.5
//	} else if m3 != m3 { // NaN margin, DefaultLeft only
//		s3 = 1
//	}
//	if p7 := p3 * s3; p7 != 0 { left subtree }
//	if p8 := p3 * (1 - s3); p8 != 0 { right subtree }
//
// A dense node (one that weighs every feature, in a model of
// filterMinWeights features or more) keeps its bias and weights in a row of
// the tree's table, and its sums are calls of the package's dotFast and
// dotExact, so that the code of a big tree stays small; it gets the margin
// filter (filter.go): the margin and the smooth-step are computed only when
// the filter cannot tell that s3 is 0 or 1. Other nodes have their weights
// inlined and no filter: on their few weights the filter's work costs more
// than it saves (TestDensity measured sparse TEL trees 1.3 to 1.9 times
// slower with it).
func (w *walker) soft(i int, n *ir.Node, prob string) []jen.Code {
	g := w.g
	F := g.Float
	m := jen.Id("m" + strconv.Itoa(i))
	s := jen.Id("s" + strconv.Itoa(i))
	idx, wts := Pruned(n, w.prune)
	dense := isDense(idx, g.Model.NumFeatures)

	var exact, fast *jen.Statement
	if dense {
		row := jen.Op("&").Id(w.tableName()).Index(jen.Lit(len(w.table)))
		w.table = append(w.table, append([]float64{n.Bias}, wts...))
		w.dense = true
		exact = jen.Id("dotExact").Call(row, jen.Id("x"))
		fast = jen.Id("dotFast").Call(row.Clone(), jen.Id("x"))
	} else {
		exact = g.Dot(n.Bias, idx, wts)
	}

	h := g.SoftHalf(n)
	var u jen.Code = m.Clone() // m/1 == m
	if g.Round(n.Gamma) != 1 {
		u = m.Clone().Op("/").Add(g.Lit(n.Gamma))
	}
	cubic := F().Call(jen.Id("u").Op("*").Add(F().Call(jen.Lit(1.5).Op("-").Add(F().Call(jen.Lit(2).Op("*").Id("u").Op("*").Id("u")))))).Op("+").Lit(0.5)
	step := jen.If(m.Clone().Op(">=").Add(g.Lit(h))).Block(
		s.Clone().Op("=").Lit(1),
	).Else().If(m.Clone().Op(">").Add(g.Lit(-h))).Block(
		jen.Id("u").Op(":=").Add(u),
		s.Clone().Op("=").Add(cubic),
	)
	if n.DefaultLeft {
		step = step.Else().If(m.Clone().Op("!=").Add(m.Clone())).Block(s.Clone().Op("=").Lit(1))
	}
	stmts := []jen.Code{jen.Var().Add(s.Clone()).Add(F())}
	if k, d, ok := Filter(n.Bias, wts, n.Gamma, g.Prec); ok && dense {
		w.filter = true
		e := F().Call(g.Lit(k).Op("*").Id("xm")).Op("+").Add(g.Lit(d))
		stmts = append(stmts, jen.If(
			jen.List(jen.Id("mf"), jen.Id("e")).Op(":=").List(fast, e),
			jen.Id("mf").Op(">").Id("e"),
		).Block(
			s.Clone().Op("=").Lit(1),
		).Else().If(jen.Op("!").Parens(jen.Id("mf").Op("<").Op("-").Id("e"))).Block(
			m.Clone().Op(":=").Add(exact),
			step,
		))
	} else {
		stmts = append(stmts, m.Clone().Op(":=").Add(exact), step)
	}
	// The left child's path probability is prob·s, the right child's
	// prob·(1-s); at probability 1 they are s and 1-s, exactly.
	left := "p" + strconv.Itoa(n.Left)
	right := "p" + strconv.Itoa(n.Right)
	var pl, pr *jen.Statement
	if prob == "" {
		pl, pr = s.Clone(), jen.Lit(1).Op("-").Add(s.Clone())
	} else {
		pl = jen.Id(prob).Op("*").Add(s.Clone())
		pr = jen.Id(prob).Op("*").Parens(jen.Lit(1).Op("-").Add(s.Clone()))
	}
	stmts = append(stmts,
		jen.If(jen.Id(left).Op(":=").Add(pl), jen.Id(left).Op("!=").Lit(0)).Block(w.node(n.Left, left)...),
		jen.If(jen.Id(right).Op(":=").Add(pr), jen.Id(right).Op("!=").Lit(0)).Block(w.node(n.Right, right)...),
	)
	return stmts
}

// isDense reports whether the indices are every feature of a model of p
// features, p >= filterMinWeights.
func isDense(idx []int, p int) bool {
	if p < filterMinWeights || len(idx) != p {
		return false
	}
	for j, f := range idx {
		if f != j {
			return false
		}
	}
	return true
}

// tableName is the name of the tree's table of dense soft nodes.
func (w *walker) tableName() string { return "dense" + strconv.Itoa(w.tree) }

// add returns the statement that adds prob·value to the tree's value for
// output k (vector trees) or to its single value.
func (w *walker) add(k int, prob string, value jen.Code) *jen.Statement {
	v := jen.Id("v")
	if w.vector {
		v = vk(k)
		w.written[k] = true
	}
	if prob == "" {
		return v.Op("+=").Add(value) // 1·value == value
	}
	return v.Op("+=").Add(w.g.Float().Call(jen.Id(prob).Op("*").Add(value)))
}

// leaf returns the statements of a constant leaf. A value that is ±0 in F
// adds nothing: prob·(±0) is ±0 (prob is finite), and the tree's value,
// which starts at +0, is never -0, so that adding ±0 leaves it as it is.
func (w *walker) leaf(n *ir.Node, prob string) []jen.Code {
	var stmts []jen.Code
	for k, v := range n.Value {
		if w.g.Round(v) == 0 {
			continue
		}
		stmts = append(stmts, w.add(k, prob, w.g.Lit(v)))
	}
	return stmts
}

// softmax returns the statements of a softmax leaf (in a vector tree).
func (w *walker) softmax(n *ir.Node, prob string) []jen.Code {
	sp := n.Softmax
	stmts, value := w.g.SoftmaxLeaf(sp)
	for j, c := range sp.Classes {
		v := value(j)
		if prob != "" {
			v = jen.Parens(v)
		}
		stmts = append(stmts, w.add(c, prob, v))
	}
	// The statements declare variables; a leaf always has a block of its
	// own, the body of the if statement that leads to it.
	return stmts
}
