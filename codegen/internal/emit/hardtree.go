package emit

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// The hard-tree emitter: nested if statements, one function per tree, for
// every tree without soft nodes of width γ > 0, latent trees included (see
// latent.go). The ifelse backend compiles every tree with it; smoothstep
// compiles its hard trees with it.

// CheckHardTree returns nil if [HardTree] compiles tree i of the validated
// model m, else an error that says why not: a tree with soft nodes of width
// γ > 0.
func CheckHardTree(m *ir.Model, i int) error {
	t := &m.Trees[i]
	for j := range t.Nodes {
		if n := &t.Nodes[j]; n.Kind == ir.Soft && n.Gamma != 0 {
			return fmt.Errorf("tree %d has soft nodes: use the smoothstep backend", i)
		}
	}
	return nil
}

// TreeSize measures the code of tree t for the split across files: one per
// node, plus its weights, its values beyond the first, and the rows of a
// softmax leaf.
func TreeSize(t *ir.Tree) int {
	size := 0
	for j := range t.Nodes {
		n := &t.Nodes[j]
		size += 1 + len(n.Weights)
		if len(n.Value) > 1 {
			size += len(n.Value) // vector leaves
		}
		if n.Softmax != nil {
			for _, r := range n.Softmax.Rows {
				size += 1 + len(r.Weights)
			}
		}
	}
	return size
}

// HardTree returns the unit of tree i, which CheckHardTree accepts: a
// function of nested if statements and the statement that adds its value to
// the margins. A tree that writes one output becomes a function that returns
// its value; a tree that writes every output, a function that adds its
// values to the accumulators. A latent tree becomes a function that follows
// the path of positive margins and adds the read-out terms of its nodes to
// the read-out sums, called from the read-out function ([Unit].Readout;
// latent.go says how).
func HardTree(g *Gen, i int) Unit {
	t := &g.Model.Trees[i]
	if t.Latent {
		return latentTree(g, i)
	}
	name := TreeFunc(i)
	w := walker{g: g, t: t, vector: t.Output == ir.AllOutputs, soft: t.HasSoft()}
	shape := fmt.Sprintf("depth %d, %d leaves", t.Depth(), t.NumLeaves())
	if t.NumLeaves() == 1 {
		shape = "a single leaf"
	}
	x := jen.Id("x").Add(g.RowType())
	var decl, call jen.Code
	if w.vector {
		decl = Doc(fmt.Sprintf("%s adds the values of tree %d (%s) to the accumulators a.", name, i, shape)).Line().
			Func().Id(name).Params(x, jen.Id("a").Add(g.OutType())).Block(w.node(0, true)...)
		call = jen.Id(name).Call(jen.Id("x"), jen.Id("a"))
	} else {
		decl = Doc(fmt.Sprintf("%s returns the value of tree %d (%s) for output %d.", name, i, shape, t.Output)).Line().
			Func().Id(name).Params(x).Add(g.Float()).Block(w.node(0, true)...)
		call = g.AddValue(t.Output, jen.Id(name).Call(jen.Id("x")))
	}
	return Unit{Decls: []jen.Code{decl}, Calls: []jen.Code{call}, Size: TreeSize(t)}
}

// walker emits the nested ifs of one tree.
type walker struct {
	g      *Gen
	t      *ir.Tree
	vector bool // the tree adds a value per output to a; else it returns one value
	// soft says that the tree has (hard, γ = 0) soft nodes: its value is then
	// 0 + v for the leaf value v (ir/doc.go), which turns a -0 into +0.
	soft bool
}

// value returns the leaf value v as the tree adds it: +0 for a value that is
// -0 in F, in a soft tree.
func (w *walker) value(v float64) float64 {
	if w.soft && w.g.Round(v) == 0 {
		return 0
	}
	return v
}

// node returns the statements of the subtree at node i. tail says that the
// statements end the function, so that a void function needs no return.
func (w *walker) node(i int, tail bool) []jen.Code {
	n := &w.t.Nodes[i]
	switch n.Kind {
	case ir.Leaf:
		return w.leaf(n, tail)
	case ir.SoftmaxLeaf:
		return w.softmax(n, tail)
	}
	init, cond := w.g.SplitTest(n)
	var conds []jen.Code
	if init != nil {
		conds = append(conds, init)
	}
	conds = append(conds, cond)
	stmts := []jen.Code{jen.If(conds...).Block(w.node(n.Left, false)...)}
	return append(stmts, w.node(n.Right, tail)...)
}

// leaf returns the statements of a constant leaf.
func (w *walker) leaf(n *ir.Node, tail bool) []jen.Code {
	if !w.vector {
		return []jen.Code{jen.Return(w.g.Lit(w.value(n.Value[0])))}
	}
	var stmts []jen.Code
	for k, v := range n.Value {
		v = w.value(v)
		if r := w.g.Round(v); r == 0 && !math.Signbit(r) && !w.g.NeedsZeroAdd(k) {
			continue // adding +0 changes nothing (see Gen.NeedsZeroAdd)
		}
		stmts = append(stmts, w.g.AddLit(k, v))
	}
	return w.end(stmts, tail)
}

// softmax returns the statements of a softmax leaf (in a vector tree).
func (w *walker) softmax(n *ir.Node, tail bool) []jen.Code {
	sp := n.Softmax
	stmts, value := w.g.SoftmaxLeaf(sp)
	j := 0
	for k := 0; k < w.g.Model.NumOutputs; k++ {
		if j < len(sp.Classes) && sp.Classes[j] == k {
			stmts = append(stmts, w.g.AddValue(k, value(j)))
			j++
		} else if w.g.NeedsZeroAdd(k) {
			stmts = append(stmts, w.g.AddValue(k, jen.Lit(0)))
		}
	}
	return w.end(stmts, tail)
}

// end appends the return that leaves a void function, unless the statements
// end it anyway.
func (w *walker) end(stmts []jen.Code, tail bool) []jen.Code {
	if tail {
		return stmts
	}
	return append(stmts, jen.Return())
}
