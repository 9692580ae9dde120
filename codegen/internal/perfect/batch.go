// Package perfect lays out hard axis-aligned trees padded into perfect
// trees (every leaf at the tree's depth, splits in heap order) and generates
// the code that walks them: the branch-free walk of a block of rows, one
// level at a time, that backends give PredictBatch, and the vectorised
// walks of the build-tagged vector file (vector.go: the lane walk of
// AVX-512 in float32, the word walk otherwise).
package perfect

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// Limits of the batch layout: PredictBatch scores blocks of rows only if
// every tree is at most maxPerfectDepth deep and padding it into a perfect
// tree at most quadruples its number of leaves (see Pad), or makes a tree
// of at most minPadded leaves: a lopsided tree of depth 6 costs the walk
// the same six steps as a full one, and its perfect tree takes 63 splits
// and 64 leaves.
const (
	maxPerfectDepth = 12
	maxPadding      = 4
	minPadded       = 64
)

// Batchable reports whether PredictBatch of the model of g scores blocks of rows:
// batches are enabled and every tree pads cheaply into a perfect tree.
func Batchable(g *emit.Gen) bool {
	if !g.BatchEnabled() {
		return false
	}
	for i := range g.Model.Trees {
		if !Paddable(&g.Model.Trees[i]) {
			return false
		}
	}
	return true
}

// Tree is a tree padded into a perfect tree of depth D: split j
// (0 <= j < 2^D-1, heap order: its children are 2j+1 and 2j+2) sends a row
// right iff x[Feat[j]] >= Thr[j] in the comparison precision, and leaf l
// (0 <= l < 2^D, left to right) has the values Vals[l*w:(l+1)*w].
type Tree struct {
	D        int
	Feat     []int
	Thr      []float64
	NaNRight []bool // the splits that send a NaN right (their default direction)
	Vals     []float64
}

// Pad pads tree t into a perfect tree of its depth, w values per leaf.
// A leaf above the last level becomes a split whose two subtrees repeat the
// leaf, so that either direction reaches its value. A split that every
// non-NaN value passes to the left (x <= +Inf) is replaced by its left
// subtree, unless nan is set: then it stays, with the threshold NaN (no
// value is >= NaN). Without nan, the padded tree computes the same function
// as t for rows without NaN, the only rows that blocks hold; with nan, it
// does for every row when a NaN goes right at the splits of NaNRight.
func Pad(t *ir.Tree, w int, cmp32, nan bool) Tree { return PadTo(t, t.Depth(), w, cmp32, nan) }

// Paddable reports whether tree t pads cheaply into a perfect tree of its
// depth: the depth is at most 12, and padding at most quadruples its number
// of leaves or the tree is at most 6 deep.
func Paddable(t *ir.Tree) bool { return PaddableTo(t, t.Depth()) }

// WhyNotPaddable returns why tree t does not pad cheaply into a perfect
// tree ("14 deep, more than 12", "7 leaves, too few for its depth 6: a
// perfect tree of that depth has 64, more than 4 times as many"), or ""
// when it does.
func WhyNotPaddable(t *ir.Tree) string {
	d, leaves := t.Depth(), t.NumLeaves()
	switch {
	case d > maxPerfectDepth:
		return fmt.Sprintf("%d deep, more than %d", d, maxPerfectDepth)
	case 1<<d > max(maxPadding*leaves, minPadded):
		return fmt.Sprintf("%d leaves, too few for its depth %d: a perfect tree of that depth has %d, more than %d times as many", leaves, d, 1<<d, maxPadding)
	}
	return ""
}

// PaddableTo reports whether tree t pads cheaply into a perfect tree of
// depth d, at least its own: d is at most 12, and 2^d at most 64 or four
// times its number of leaves.
func PaddableTo(t *ir.Tree, d int) bool {
	return d >= t.Depth() && d <= maxPerfectDepth && 1<<d <= max(maxPadding*t.NumLeaves(), minPadded)
}

// PadTo is Pad into a perfect tree of depth d, at least the depth of t:
// the leaves above level d repeat down to it.
func PadTo(t *ir.Tree, d, w int, cmp32, nan bool) Tree {
	p := Tree{
		D:        d,
		Feat:     make([]int, 1<<d-1),
		Thr:      make([]float64, 1<<d-1),
		NaNRight: make([]bool, 1<<d-1),
		Vals:     make([]float64, w<<d),
	}
	var fill func(j, h, level int)
	fill = func(j, h, level int) {
		n := &t.Nodes[j]
		if level == d {
			copy(p.Vals[(h-(1<<d-1))*w:], n.Value)
			return
		}
		if !n.IsSplit() {
			fill(j, 2*h+1, level+1)
			fill(j, 2*h+2, level+1)
			return
		}
		thr, always := emit.Fold(n.Threshold, n.LessEqual, cmp32)
		if always && !nan {
			fill(n.Left, h, level)
			return
		}
		if always {
			thr = math.NaN()
		}
		p.Feat[h], p.Thr[h], p.NaNRight[h] = n.Feature, thr, !n.DefaultLeft
		fill(n.Left, 2*h+1, level+1)
		fill(n.Right, 2*h+2, level+1)
	}
	fill(0, 0, 0)
	return p
}

// Batch returns the tables and the Batch statements of trees [from, to)
// of block b: each run of consecutive trees of the same depth and leaf width
// gets tables of padded perfect trees and a loop that walks every row of the
// block down each tree one level at a time, without branches.
func Batch(g *emit.Gen, prefix string, from, to int) (decls, stmts []jen.Code) {
	for run, r := range runs(g.Model, from, to) {
		dd, ss := genRun(g, prefix+"P"+strconv.Itoa(run), r[0], r[1])
		decls = append(decls, dd...)
		stmts = append(stmts, ss)
	}
	return decls, stmts
}

// runs splits trees [from, to) of m into runs of consecutive trees of one
// depth, all writing every output or all writing one: [start, end) each.
func runs(m *ir.Model, from, to int) [][2]int {
	var out [][2]int
	for start := from; start < to; {
		d, all := m.Trees[start].Depth(), m.Trees[start].Output == ir.AllOutputs
		end := start + 1
		for end < to && m.Trees[end].Depth() == d && (m.Trees[end].Output == ir.AllOutputs) == all {
			end++
		}
		out = append(out, [2]int{start, end})
		start = end
	}
	return out
}

// runLayout is a run of trees padded into perfect trees, laid out before
// anything is emitted: the entries of its tables, tree by tree.
type runLayout struct {
	pre      string    // the prefix of the run's names: "qs3P1" for run 1 of block 3
	from, to int       // its trees, [from, to)
	d        int       // their depth
	w        int       // the values of a leaf: NumOutputs for vector trees, else 1
	vector   bool      // the trees write every output; else one each
	sameOut  bool      // single-output trees that all write the same output
	feats    []int     // per tree, 2^d entries in heap order (the last unused)
	thrs     []float64 // the thresholds of feats, in the comparison precision
	vals     []float64 // per tree, 2^d leaves of w values, left to right
	outs     []int     // the output of each tree
}

// layRun lays out the run of trees [from, to), all of one depth and all
// vector trees or all single-output trees.
func layRun(g *emit.Gen, pre string, from, to int) *runLayout {
	m := g.Model
	l := &runLayout{pre: pre, from: from, to: to, d: m.Trees[from].Depth(), w: 1,
		vector: m.Trees[from].Output == ir.AllOutputs, sameOut: true}
	if l.vector {
		l.w = m.NumOutputs
	}
	for i := from; i < to; i++ {
		t := &m.Trees[i]
		p := Pad(t, l.w, emit.Cmp32(g), false)
		for j := 0; j < 1<<l.d; j++ {
			f, thr := 0, 0.0
			if j < len(p.Feat) {
				f, thr = p.Feat[j], p.Thr[j]
			}
			l.feats = append(l.feats, f)
			l.thrs = append(l.thrs, thr)
		}
		l.vals = append(l.vals, p.Vals...)
		l.outs = append(l.outs, t.Output)
		l.sameOut = l.sameOut && t.Output == m.Trees[from].Output
	}
	return l
}

// genRun returns the tables and the loop of the run of trees [from, to),
// all of one depth and all vector trees or all single-output trees.
func genRun(g *emit.Gen, pre string, from, to int) ([]jen.Code, jen.Code) {
	l := layRun(g, pre, from, to)
	return genRunTables(g, l), genRunLoop(g, l)
}

// genRunTables declares the tables of the run: the features and thresholds
// of its padded trees, their leaf values, and the output of each tree
// when the trees write different outputs.
func genRunTables(g *emit.Gen, l *runLayout) []jen.Code {
	var feats, thrs, vals, outs []jen.Code
	for i, f := range l.feats {
		feats = append(feats, jen.Lit(f))
		thrs = append(thrs, emit.ThrLit(g, l.thrs[i]))
	}
	for _, v := range l.vals {
		vals = append(vals, emit.ValLit(g, v))
	}
	for _, o := range l.outs {
		outs = append(outs, jen.Lit(o))
	}
	pre, trees, size := l.pre, emit.TreeRange(l.from, l.to-1), 1<<l.d
	decls := []jen.Code{
		emit.Table(pre+"Feat", fmt.Sprintf("holds the features of the splits of %s padded into perfect trees of depth %d, "+
			"%d entries per tree in heap order (the children of split j are 2j+1 and 2j+2; the last entry is unused).", trees, l.d, size),
			jen.Uint8(), feats),
		emit.Table(pre+"Thr", "holds the thresholds of the splits of "+pre+"Feat: a row goes right iff its value is >= the threshold.",
			emit.ThrType(g), thrs),
		emit.Table(pre+"Val", fmt.Sprintf("holds the leaf values of the padded %s, %d leaves per tree, left to right.", trees, size),
			emit.ValType(g), vals),
	}
	if !l.vector && !l.sameOut {
		decls = append(decls, emit.Table(pre+"Out", "holds the output that each tree of "+pre+"Feat writes.", jen.Uint16(), outs))
	}
	return decls
}

// genRunLoop returns the Batch statement of the run: its trees walked two
// at a time, then the last one when their number is odd.
func genRunLoop(g *emit.Gen, l *runLayout) jen.Code {
	n, t := l.to-l.from, jen.Id("t")
	stmts := []jen.Code{jen.Var().Id("ix").Index(jen.Id("batchRows")).Uint32()}
	if n >= 2 {
		stmts = append(stmts, jen.Var().Id("ix2").Index(jen.Id("batchRows")).Uint32())
		stmts = append(stmts, jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("+").Lit(1).Op("<").Lit(n), t.Clone().Op("+=").Lit(2)).
			Block(runWalk(g, l, 2)...))
	}
	if n%2 == 1 {
		stmts = append(stmts, t.Clone().Op(":=").Lit(n-1))
		stmts = append(stmts, runWalk(g, l, 1)...)
	}
	return jen.Comment(emit.TreeRange(l.from, l.to-1)).Line().Add(jen.Block(stmts...))
}

// runWalk returns the statements that walk n (1 or 2) consecutive trees,
// from tree t on, and add their values: the trees share the passes over
// the rows, which halves the loop overhead per step.
func runWalk(g *emit.Gen, l *runLayout, n int) []jen.Code {
	var setup, steps, acc []jen.Code
	for q := 0; q < n; q++ {
		v := runVars(q)
		setup = append(setup, runSetup(g, l, v)...)
		steps = append(steps, runStep(l, v)...)
		acc = append(acc, runAdd(g, l, v)...)
	}
	r := jen.Id("r")
	rowPtr := jen.Id("xr").Op(":=").Parens(jen.Op("*").Index(jen.Id("NumFeatures")).Add(g.BatchInput())).
		Call(jen.Id("x").Index(r.Clone().Op("*").Id("NumFeatures").Op(":")))
	lv := jen.Id("lv")
	return append(setup,
		jen.For(lv.Clone().Op(":=").Lit(0), lv.Clone().Op("<").Lit(l.d), lv.Clone().Op("++")).Block(
			jen.For(r.Clone().Op(":=").Range().Id("ix")).Block(append([]jen.Code{rowPtr}, steps...)...),
		),
		jen.For(r.Clone().Op(":=").Range().Id("ix")).Block(acc...),
	)
}

// runVar names the variables of the q-th of the trees that a walk shares
// (q = 0, 1), and says which tree that is.
type runVar struct {
	sfx  string         // the suffix of its variables: "" or "2"
	tree *jen.Statement // its index: t or (t + 1)
}

// runVars returns the variables of the q-th tree of a walk.
func runVars(q int) runVar {
	if q == 0 {
		return runVar{tree: jen.Id("t")}
	}
	return runVar{sfx: strconv.Itoa(q + 1), tree: jen.Parens(jen.Id("t").Op("+").Lit(q))}
}

// id returns the variable name of the tree.
func (v runVar) id(name string) *jen.Statement { return jen.Id(name + v.sfx) }

// runSetup returns the statements that point feat, thr and val at the
// tree's entries in the run's tables and start the index ix of every row
// at the root.
func runSetup(g *emit.Gen, l *runLayout, v runVar) []jen.Code {
	size := 1 << l.d
	part := func(name, table string, n int, typ jen.Code) jen.Code {
		return v.id(name).Op(":=").Parens(jen.Op("*").Index(jen.Lit(n)).Add(typ)).
			Call(jen.Id(l.pre + table).Index(v.tree.Clone().Op("*").Lit(n).Op(":")))
	}
	return []jen.Code{
		part("feat", "Feat", size, jen.Uint8()),
		part("thr", "Thr", size, emit.ThrType(g)),
		part("val", "Val", l.w*size, emit.ValType(g)),
		v.id("ix").Op("=").Index(jen.Id("batchRows")).Uint32().Values(),
	}
}

// runStep returns the statements that move row r one level down the tree:
// from split i to its child 2i+1, or 2i+2 when the row goes right.
func runStep(l *runLayout, v runVar) []jen.Code {
	r := jen.Id("r")
	return []jen.Code{
		v.id("i").Op(":=").Add(v.id("ix")).Index(r.Clone()).Op("&").Lit(1<<l.d - 1),
		v.id("j").Op(":=").Lit(2).Op("*").Add(v.id("i")).Op("+").Lit(1),
		jen.If(jen.Id("xr").Index(v.id("feat").Index(v.id("i"))).Op(">=").Add(v.id("thr")).Index(v.id("i"))).Block(v.id("j").Op("++")),
		v.id("ix").Index(r.Clone()).Op("=").Add(v.id("j")),
	}
}

// runAdd returns the statements that add the values of the leaf that row r
// reached in the tree to the row's accumulators.
func runAdd(g *emit.Gen, l *runLayout, v runVar) []jen.Code {
	r, size := jen.Id("r"), 1<<l.d
	leaf := v.id("l").Op(":=").Int().Call(jen.Parens(v.id("ix").Index(r.Clone()).Op("-").Lit(size - 1)).Op("&").Lit(size - 1))
	switch {
	case l.vector:
		k := jen.Id("k")
		return []jen.Code{leaf, jen.For(k.Clone().Op(":=").Lit(0), k.Clone().Op("<").Id("NumOutputs"), k.Clone().Op("++")).Block(
			runAddValue(g, r.Clone().Op("*").Id("NumOutputs").Op("+").Id("k"),
				v.id("val").Index(v.id("l").Op("*").Id("NumOutputs").Op("+").Id("k"))),
		)}
	case l.sameOut:
		idx := r.Clone().Op("*").Id("NumOutputs")
		if o := l.outs[0]; o != 0 {
			idx = idx.Op("+").Lit(o)
		}
		return []jen.Code{leaf, runAddValue(g, idx, v.id("val").Index(v.id("l")))}
	}
	out := jen.Int().Call(jen.Id(l.pre + "Out").Index(v.tree.Clone()))
	return []jen.Code{leaf, runAddValue(g, r.Clone().Op("*").Id("NumOutputs").Op("+").Add(out), v.id("val").Index(v.id("l")))}
}

// runAddValue returns the statement that adds the leaf value v to a[idx]: in
// float32 with Float32Sum in a float64 package, else in F.
func runAddValue(g *emit.Gen, idx, v jen.Code) jen.Code {
	ai := jen.Id("a").Index(idx)
	if g.Sum32() {
		return ai.Clone().Op("=").Float64().Call(jen.Float32().Call(ai).Op("+").Add(v))
	}
	return ai.Op("+=").Add(v)
}
