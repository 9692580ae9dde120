package quickscorer

import (
	"fmt"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// Limits of the batch layout: PredictBatch scores blocks of rows only if
// every tree is at most maxPerfectDepth deep and padding it into a perfect
// tree at most quadruples its number of leaves (see perfect).
const (
	maxPerfectDepth = 12
	maxPadding      = 4
)

// batchable reports whether PredictBatch of model m scores blocks of rows.
func batchable(g *emit.Gen) bool {
	if !g.BatchEnabled() {
		return false
	}
	for i := range g.Model.Trees {
		t := &g.Model.Trees[i]
		if d := t.Depth(); d > maxPerfectDepth || 1<<d > maxPadding*t.NumLeaves() {
			return false
		}
	}
	return true
}

// perfectTree is a tree padded into a perfect tree of depth d: split j
// (0 <= j < 2^d-1, heap order: its children are 2j+1 and 2j+2) sends a row
// right iff x[feat[j]] >= thr[j] in the comparison precision, and leaf l
// (0 <= l < 2^d, left to right) has the values vals[l*w:(l+1)*w].
type perfectTree struct {
	d    int
	feat []int
	thr  []float64
	vals []float64
}

// perfect pads tree t into a perfect tree of its depth, w values per leaf.
// A leaf above the last level becomes a split whose two subtrees repeat the
// leaf, so that either direction reaches its value; a split that every
// non-NaN value passes to the left (x <= +Inf) is replaced by its left
// subtree. The padded tree computes the same function for rows without NaN,
// the only rows that blocks hold.
func perfect(t *ir.Tree, w int, cmp32 bool) perfectTree {
	d := t.Depth()
	p := perfectTree{
		d:    d,
		feat: make([]int, 1<<d-1),
		thr:  make([]float64, 1<<d-1),
		vals: make([]float64, w<<d),
	}
	var fill func(j, h, level int)
	fill = func(j, h, level int) {
		n := &t.Nodes[j]
		if level == d {
			copy(p.vals[(h-(1<<d-1))*w:], n.Value)
			return
		}
		if !n.IsSplit() {
			fill(j, 2*h+1, level+1)
			fill(j, 2*h+2, level+1)
			return
		}
		thr, always := Fold(n.Threshold, n.LessEqual, cmp32)
		if always {
			fill(n.Left, h, level)
			return
		}
		p.feat[h], p.thr[h] = n.Feature, thr
		fill(n.Left, 2*h+1, level+1)
		fill(n.Right, 2*h+2, level+1)
	}
	fill(0, 0, 0)
	return p
}

// genBatch returns the tables and the Batch statements of trees [from, to)
// of block b: each run of consecutive trees of the same depth and leaf width
// gets tables of padded perfect trees and a loop that walks every row of the
// block down each tree one level at a time, without branches.
func genBatch(g *emit.Gen, b, from, to int) (decls, stmts []jen.Code) {
	m := g.Model
	for start, run := from, 0; start < to; run++ {
		vector := m.Trees[start].Output == ir.AllOutputs
		d := m.Trees[start].Depth()
		end := start + 1
		for end < to && m.Trees[end].Depth() == d && (m.Trees[end].Output == ir.AllOutputs) == vector {
			end++
		}
		dd, ss := genRun(g, "qs"+strconv.Itoa(b)+"P"+strconv.Itoa(run), start, end)
		decls = append(decls, dd...)
		stmts = append(stmts, ss)
		start = end
	}
	return decls, stmts
}

// genRun returns the tables and the loop of the run of trees [from, to),
// all of one depth and all vector trees or all single-output trees.
func genRun(g *emit.Gen, pre string, from, to int) ([]jen.Code, jen.Code) {
	m := g.Model
	cmp32 := cmp32(g)
	vector := m.Trees[from].Output == ir.AllOutputs
	w := 1
	if vector {
		w = m.NumOutputs
	}
	d := m.Trees[from].Depth()
	var feats, thrs, vals, outs []jen.Code
	sameOut := true
	for i := from; i < to; i++ {
		t := &m.Trees[i]
		p := perfect(t, w, cmp32)
		for j := 0; j < 1<<d; j++ {
			f, thr := 0, 0.0
			if j < len(p.feat) {
				f, thr = p.feat[j], p.thr[j]
			}
			feats = append(feats, jen.Lit(f))
			if cmp32 {
				thrs = append(thrs, g.Lit32(thr))
			} else {
				thrs = append(thrs, g.Lit(thr))
			}
		}
		for _, v := range p.vals {
			if g.Sum32() {
				vals = append(vals, g.Lit32(v))
			} else {
				vals = append(vals, g.Lit(v))
			}
		}
		outs = append(outs, jen.Lit(t.Output))
		sameOut = sameOut && t.Output == m.Trees[from].Output
	}
	thrType := g.Float()
	if cmp32 {
		thrType = jen.Float32()
	}
	valType := g.Float()
	if g.Sum32() {
		valType = jen.Float32()
	}
	table := func(name, doc string, typ *jen.Statement, items []jen.Code) jen.Code {
		return emit.Doc(pre+name+" "+doc).Line().Var().Id(pre+name).Op("=").
			Index(jen.Lit(len(items))).Add(typ).Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
	}
	trees := fmt.Sprintf("trees %d to %d", from, to-1)
	if from == to-1 {
		trees = fmt.Sprintf("tree %d", from)
	}
	size := 1 << d
	decls := []jen.Code{
		table("Feat", fmt.Sprintf("holds the features of the splits of %s padded into perfect trees of depth %d, "+
			"%d entries per tree in heap order (the children of split j are 2j+1 and 2j+2; the last entry is unused).", trees, d, size),
			jen.Uint8(), feats),
		table("Thr", "holds the thresholds of the splits of "+pre+"Feat: a row goes right iff its value is >= the threshold.",
			thrType, thrs),
		table("Val", fmt.Sprintf("holds the leaf values of the padded %s, %d leaves per tree, left to right.", trees, size),
			valType, vals),
	}
	if !vector && !sameOut {
		decls = append(decls, table("Out", "holds the output that each tree of "+pre+"Feat writes.", jen.Uint16(), outs))
	}
	mask := jen.Lit(size - 1)
	t, r, lv := jen.Id("t"), jen.Id("r"), jen.Id("lv")
	add := func(idx, v jen.Code) jen.Code {
		ai := jen.Id("a").Index(idx)
		if g.Sum32() {
			return ai.Clone().Op("=").Float64().Call(jen.Float32().Call(ai).Op("+").Add(v))
		}
		return ai.Op("+=").Add(v)
	}
	// walk returns the statements that walk n (1 or 2) consecutive trees,
	// from tree t on, and add their values: the trees share the passes over
	// the rows, which halves the loop overhead per step.
	walk := func(n int) []jen.Code {
		var setup, steps, acc []jen.Code
		for q := 0; q < n; q++ {
			sfx := ""
			tq := t.Clone()
			if q > 0 {
				sfx = strconv.Itoa(q + 1)
				tq = jen.Parens(t.Clone().Op("+").Lit(q))
			}
			id := func(name string) *jen.Statement { return jen.Id(name + sfx) }
			setup = append(setup,
				id("feat").Op(":=").Parens(jen.Op("*").Index(jen.Lit(size)).Uint8()).Call(jen.Id(pre+"Feat").Index(tq.Clone().Op("*").Lit(size).Op(":"))),
				id("thr").Op(":=").Parens(jen.Op("*").Index(jen.Lit(size)).Add(thrType)).Call(jen.Id(pre+"Thr").Index(tq.Clone().Op("*").Lit(size).Op(":"))),
				id("val").Op(":=").Parens(jen.Op("*").Index(jen.Lit(w*size)).Add(valType)).Call(jen.Id(pre+"Val").Index(tq.Clone().Op("*").Lit(w*size).Op(":"))),
				id("ix").Op("=").Index(jen.Id("batchRows")).Uint32().Values(),
			)
			steps = append(steps,
				id("i").Op(":=").Add(id("ix")).Index(r.Clone()).Op("&").Add(mask.Clone()),
				id("j").Op(":=").Lit(2).Op("*").Add(id("i")).Op("+").Lit(1),
				jen.If(jen.Id("xr").Index(id("feat").Index(id("i"))).Op(">=").Add(id("thr")).Index(id("i"))).Block(id("j").Op("++")),
				id("ix").Index(r.Clone()).Op("=").Add(id("j")),
			)
			leaf := id("l").Op(":=").Int().Call(jen.Parens(id("ix").Index(r.Clone()).Op("-").Lit(size - 1)).Op("&").Add(mask.Clone()))
			switch {
			case vector:
				acc = append(acc, leaf,
					jen.For(jen.Id("k").Op(":=").Lit(0), jen.Id("k").Op("<").Id("NumOutputs"), jen.Id("k").Op("++")).Block(
						add(r.Clone().Op("*").Id("NumOutputs").Op("+").Id("k"),
							id("val").Index(id("l").Op("*").Id("NumOutputs").Op("+").Id("k"))),
					))
			case sameOut:
				idx := r.Clone().Op("*").Id("NumOutputs")
				if o := m.Trees[from].Output; o != 0 {
					idx = idx.Op("+").Lit(o)
				}
				acc = append(acc, leaf, add(idx, id("val").Index(id("l"))))
			default:
				acc = append(acc, leaf, add(r.Clone().Op("*").Id("NumOutputs").Op("+").Int().Call(jen.Id(pre+"Out").Index(tq.Clone())),
					id("val").Index(id("l"))))
			}
		}
		rowPtr := jen.Id("xr").Op(":=").Parens(jen.Op("*").Index(jen.Id("NumFeatures")).Add(g.BatchInput())).
			Call(jen.Id("x").Index(r.Clone().Op("*").Id("NumFeatures").Op(":")))
		return append(setup,
			jen.For(lv.Clone().Op(":=").Lit(0), lv.Clone().Op("<").Lit(d), lv.Clone().Op("++")).Block(
				jen.For(r.Clone().Op(":=").Range().Id("ix")).Block(append([]jen.Code{rowPtr}, steps...)...),
			),
			jen.For(r.Clone().Op(":=").Range().Id("ix")).Block(acc...),
		)
	}
	n := to - from
	stmts := []jen.Code{jen.Var().Id("ix").Index(jen.Id("batchRows")).Uint32()}
	if n >= 2 {
		stmts = append(stmts, jen.Var().Id("ix2").Index(jen.Id("batchRows")).Uint32())
		stmts = append(stmts, jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("+").Lit(1).Op("<").Lit(n), t.Clone().Op("+=").Lit(2)).Block(walk(2)...))
	}
	if n%2 == 1 {
		stmts = append(stmts, jen.Id("t").Op(":=").Lit(n-1))
		stmts = append(stmts, walk(1)...)
	}
	loop := jen.Block(stmts...)
	return decls, jen.Comment(trees).Line().Add(loop)
}
