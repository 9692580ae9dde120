// Package quickscorer is the QuickScorer backend of treegen (Lucchese et
// al., "QuickScorer: a Fast Algorithm to Rank Documents with Additive
// Ensembles of Regression Trees", SIGIR 2015), for ensembles of hard
// axis-aligned trees with constant leaves.
//
// The leaves of each tree are numbered left to right from bit 0 of the
// tree's bitvector (one or more uint64 words). Every split node has a mask
// with zeros on the leaves of its left subtree, the leaves a row cannot
// reach when the node sends it right. For each feature, the generated tables
// list the (threshold, word, mask) entries of that feature's nodes by
// ascending threshold. To score a row, every bitvector starts at all ones;
// for each feature the row's value walks the entries while the node's test
// is false (the row goes right), AND-ing the masks in; the first true test
// ends the walk, since the later thresholds are larger. The exit leaf of a
// tree is then the lowest set bit of its bitvector. A "<=" test is folded
// into "<" on the next representable threshold in the comparison precision.
// A NaN value ANDs only the masks of the feature's default-right nodes,
// listed apart. Leaf values are then added to the margins in tree order, as
// ir/doc.go defines.
//
// Trees are grouped into blocks whose bitvectors live in a fixed-size array
// on the stack of the block's function: predictions do not allocate.
//
// PredictBatch scores rows in blocks of 64, as the block-wise variants of
// QuickScorer do (vQS, RapidScorer), when every tree pads cheaply into a
// perfect tree (depth at most 12, at most four times its leaves): the generated
// tables then also hold each tree padded into a perfect tree in heap order,
// and every row of a block walks down each tree one level at a time, without
// branches. A tree's tables stay in the processor's cache for the 64 rows,
// and the rows' steps are independent, so they overlap; on 1,000 trees of
// 64 leaves this is about twice as fast per row as the bitvector scan (see
// docs/PERFORMANCE.md). Blocks that hold a NaN, and the last rows of a
// batch, are scored row by row with the bitvector scan.
package quickscorer

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// Name is the backend's name in codegen.Options.Backend and on the command
// line.
const Name = "quickscorer"

// maxBlockWords bounds the bitvector words of a block (8 KiB of stack).
const maxBlockWords = 1024

// Check returns nil if the backend can compile the validated model m: every
// tree hard, not latent, with "axis" splits and constant "leaf" leaves only.
// Otherwise the error names the first tree it cannot compile.
func Check(m *ir.Model) error {
	for i := range m.Trees {
		t := &m.Trees[i]
		if t.Latent {
			return fmt.Errorf("tree %d is latent: the quickscorer backend compiles only axis-aligned trees with constant leaves", i)
		}
		for j := range t.Nodes {
			switch t.Nodes[j].Kind {
			case ir.Axis, ir.Leaf:
			case ir.Soft:
				return fmt.Errorf("tree %d has soft nodes: use the smoothstep backend", i)
			case ir.Categorical:
				return fmt.Errorf("tree %d has a categorical split: use the ifelse backend", i)
			case ir.Oblique:
				return fmt.Errorf("tree %d has an oblique split: use the ifelse backend", i)
			case ir.SoftmaxLeaf:
				return fmt.Errorf("tree %d has a softmax leaf: use the ifelse backend", i)
			default:
				return fmt.Errorf("tree %d has a node of kind %q: use the ifelse backend", i, t.Nodes[j].Kind)
			}
		}
	}
	return nil
}

// Backend is the quickscorer backend, as package codegen lists it.
type Backend struct{}

// Name returns "quickscorer".
func (Backend) Name() string { return Name }

// Summary says what the backend compiles.
func (Backend) Summary() string {
	return "QuickScorer's per-feature threshold tables and leaf bitvectors, and branch-free blocks of 64 rows in PredictBatch, for ensembles of axis-aligned trees with constant leaves"
}

// Check returns nil if the backend can compile the validated model m: every
// tree hard, not latent, with "axis" splits and constant "leaf" leaves only.
// Otherwise the error names the first tree it cannot compile.
func (Backend) Check(m *ir.Model) error { return Check(m) }

// Suited reports whether the backend is meant for m: every model it
// compiles.
func (Backend) Suited(m *ir.Model) bool { return Check(m) == nil }

// NewOptions returns the backend's options: it has none.
func (Backend) NewOptions() emit.Options { return emit.NoOptions{} }

// Units returns one unit per block of consecutive trees: its tables, its
// scoring function and the call of that function.
func (Backend) Units(g *emit.Gen, _ emit.Options) ([]emit.Unit, error) {
	m := g.Model
	batch := batchable(g)
	var units []emit.Unit
	start, words := 0, 0
	for i := range m.Trees {
		w := numWords(&m.Trees[i])
		if i > start && words+w > maxBlockWords {
			units = append(units, genBlock(g, len(units), start, i, batch))
			start, words = i, 0
		}
		words += w
	}
	if start < len(m.Trees) {
		units = append(units, genBlock(g, len(units), start, len(m.Trees), batch))
	}
	return units, nil
}

// numWords returns the number of uint64 words of tree t's bitvector.
func numWords(t *ir.Tree) int { return (t.NumLeaves() + 63) / 64 }

// Cmp32 reports whether generated code compares in float32: in a float32
// package, or for a model with Float32Compare.
func cmp32(g *emit.Gen) bool { return g.Is32() || g.Model.Float32Compare }

// Fold returns the threshold t' such that, for every non-NaN value v,
// "v < t'" in the comparison precision is the test of an axis node with
// threshold t ("<=" when lessEqual). always is true when the test holds for
// every non-NaN value (v <= +Inf), which no "<" test expresses.
func Fold(t float64, lessEqual, float32Compare bool) (thr float64, always bool) {
	if float32Compare {
		t32 := float32(t)
		if lessEqual {
			if math.IsInf(float64(t32), 1) {
				return 0, true
			}
			t32 = math.Nextafter32(t32, float32(math.Inf(1)))
		}
		return float64(t32), false
	}
	if lessEqual {
		if math.IsInf(t, 1) {
			return 0, true
		}
		t = math.Nextafter(t, math.Inf(1))
	}
	return t, false
}

// entry is one (threshold, word, mask) triple of a feature.
type entry struct {
	thr  float64
	word int
	mask uint64
}

// treeInfo is where a tree lives in its block's tables.
type treeInfo struct {
	word, words int // first word in the block's bitvector, number of words
	val         int // offset of its leaf values
}

// genBlock returns the unit of trees [from, to), block number b; with batch,
// it also scores blocks of rows (see genBatch).
func genBlock(g *emit.Gen, b, from, to int, batch bool) emit.Unit {
	m := g.Model
	nf := m.NumFeatures
	is32 := cmp32(g)
	scan := make([][]entry, nf) // per feature
	nan := make([][]entry, nf)  // per feature: default-right nodes
	var vals []float64
	infos := make([]treeInfo, to-from)
	words := 0
	size := 0
	for i := from; i < to; i++ {
		t := &m.Trees[i]
		info := treeInfo{word: words, words: numWords(t), val: len(vals)}
		infos[i-from] = info
		words += info.words
		// Leaves left to right: lo[j], hi[j] is the range of leaf numbers
		// of the subtree at node j.
		lo := make([]int, len(t.Nodes))
		hi := make([]int, len(t.Nodes))
		var walk func(j int)
		walk = func(j int) {
			n := &t.Nodes[j]
			if !n.IsSplit() {
				lo[j] = len(vals) - info.val
				if t.Output == ir.AllOutputs {
					lo[j] /= m.NumOutputs
				}
				hi[j] = lo[j] + 1
				vals = append(vals, n.Value...)
				return
			}
			walk(n.Left)
			walk(n.Right)
			lo[j], hi[j] = lo[n.Left], hi[n.Left]
			hi[j] = hi[n.Right]
		}
		walk(0)
		for j := range t.Nodes {
			n := &t.Nodes[j]
			if !n.IsSplit() {
				continue
			}
			l, h := lo[n.Left], hi[n.Left]
			thr, always := Fold(n.Threshold, n.LessEqual, is32)
			for w := l / 64; w <= (h-1)/64; w++ {
				var bitsOff uint64
				for k := max(l, 64*w); k < min(h, 64*w+64); k++ {
					bitsOff |= 1 << uint(k-64*w)
				}
				e := entry{thr: thr, word: info.word + w, mask: ^bitsOff}
				if !always {
					scan[n.Feature] = append(scan[n.Feature], e)
				}
				if !n.DefaultLeft {
					nan[n.Feature] = append(nan[n.Feature], e)
				}
				size++
			}
		}
	}
	size += len(vals)

	pre := "qs" + strconv.Itoa(b)
	id := func(s string) *jen.Statement { return jen.Id(pre + s) }
	thrType := g.Float()
	if is32 {
		thrType = jen.Float32()
	}
	valType := g.Float()
	if g.Sum32() {
		valType = jen.Float32()
	}
	var thrs, scanWords, scanMasks, offs, nanWords, nanMasks, nanOffs, valLits []jen.Code
	offs = append(offs, jen.Lit(0))
	nanOffs = append(nanOffs, jen.Lit(0))
	for f := 0; f < nf; f++ {
		es := scan[f]
		sort.SliceStable(es, func(i, j int) bool { return es[i].thr < es[j].thr })
		for _, e := range es {
			if is32 {
				thrs = append(thrs, g.Lit32(e.thr))
			} else {
				thrs = append(thrs, g.Lit(e.thr))
			}
			scanWords = append(scanWords, jen.Lit(e.word))
			scanMasks = append(scanMasks, jen.Id(fmt.Sprintf("%#x", e.mask)))
		}
		offs = append(offs, jen.Lit(len(thrs)))
		for _, e := range nan[f] {
			nanWords = append(nanWords, jen.Lit(e.word))
			nanMasks = append(nanMasks, jen.Id(fmt.Sprintf("%#x", e.mask)))
		}
		nanOffs = append(nanOffs, jen.Lit(len(nanWords)))
	}
	for _, v := range vals {
		if g.Sum32() {
			valLits = append(valLits, g.Lit32(v))
		} else {
			valLits = append(valLits, g.Lit(v))
		}
	}
	wordType := jen.Uint16()
	if words > 1<<16 {
		wordType = jen.Int32()
	}
	table := func(name, doc string, typ *jen.Statement, items []jen.Code) jen.Code {
		return emit.Doc(pre+name+" "+doc).Line().Var().Id(pre+name).Op("=").
			Index(jen.Lit(len(items))).Add(typ).Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: len(items) > 0}, items...)
	}
	featOffs := func(name, doc string, items []jen.Code) jen.Code {
		return emit.Doc(pre+name+" "+doc).Line().Var().Id(pre+name).Op("=").
			Index(jen.Id("NumFeatures").Op("+").Lit(1)).Int32().Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
	}
	first, last := from, to-1
	trees := fmt.Sprintf("trees %d to %d", first, last)
	if first == last {
		trees = fmt.Sprintf("tree %d", first)
	}
	decls := []jen.Code{
		table("Thr", "holds the thresholds of the splits of "+trees+", by feature and then ascending "+
			"(\"<=\" tests folded into \"<\"): a row goes right at a split iff its value is >= the threshold.",
			thrType, thrs),
		table("Word", "holds the bitvector word that each threshold of "+pre+"Thr updates.", wordType, scanWords),
		table("Mask", "holds the mask of each threshold of "+pre+"Thr: zeros on the leaves of the split's left subtree.",
			jen.Uint64(), scanMasks),
		featOffs("Off", "holds where the thresholds of each feature start in "+pre+"Thr.", offs),
		table("NaNWord", "holds the bitvector words of the splits that send a missing (NaN) value right, by feature.",
			wordType, nanWords),
		table("NaNMask", "holds the masks of the splits of "+pre+"NaNWord.", jen.Uint64(), nanMasks),
		featOffs("NaNOff", "holds where the splits of each feature start in "+pre+"NaNWord.", nanOffs),
		table("Val", "holds the leaf values of "+trees+", tree by tree, leaves left to right "+
			"(NumOutputs values per leaf for the trees that write every output).", valType, valLits),
	}

	// The scoring function.
	j, f, v := jen.Id("j"), jen.Id("f"), jen.Id("v")
	xf := jen.Id("x").Index(f.Clone())
	if is32 && !g.Is32() {
		xf = jen.Float32().Call(xf)
	}
	// The bitvector array has a power-of-two length, so that masking the
	// word index spares the bounds check.
	pow2 := 1
	for pow2 < words {
		pow2 *= 2
	}
	body := []jen.Code{
		jen.Var().Id("v").Index(jen.Lit(pow2)).Uint64(),
		jen.For(jen.Id("i").Op(":=").Range().Id("v")).Block(v.Clone().Index(jen.Id("i")).Op("=").Op("^").Uint64().Call(jen.Lit(0))),
		jen.For(f.Clone().Op(":=").Lit(0), f.Clone().Op("<").Id("NumFeatures"), f.Clone().Op("++")).Block(
			jen.Id("xf").Op(":=").Add(xf),
			jen.If(jen.Id("xf").Op("!=").Id("xf")).Block(
				jen.For(j.Clone().Op(":=").Add(id("NaNOff").Index(f.Clone())),
					j.Clone().Op("<").Add(id("NaNOff").Index(f.Clone().Op("+").Lit(1))), j.Clone().Op("++")).Block(
					v.Clone().Index(id("NaNWord").Index(j.Clone()).Op("&").Lit(pow2-1)).Op("&=").Add(id("NaNMask").Index(j.Clone())),
				),
				jen.Continue(),
			),
			jen.List(jen.Id("lo"), jen.Id("hi")).Op(":=").List(id("Off").Index(f.Clone()), id("Off").Index(f.Clone().Op("+").Lit(1))),
			jen.Id("thr").Op(":=").Add(id("Thr")).Index(jen.Id("lo").Op(":").Id("hi")),
			jen.Id("word").Op(":=").Add(id("Word")).Index(jen.Id("lo").Op(":").Id("hi")).Index(jen.Op(":").Len(jen.Id("thr"))),
			jen.Id("mask").Op(":=").Add(id("Mask")).Index(jen.Id("lo").Op(":").Id("hi")).Index(jen.Op(":").Len(jen.Id("thr"))),
			jen.For(jen.List(j.Clone(), jen.Id("t")).Op(":=").Range().Id("thr")).Block(
				jen.If(jen.Id("xf").Op("<").Id("t")).Block(jen.Break()),
				v.Clone().Index(jen.Id("word").Index(j.Clone()).Op("&").Lit(pow2-1)).Op("&=").Add(jen.Id("mask").Index(j.Clone())),
			),
		),
	}
	tz := func(w jen.Code) *jen.Statement {
		return jen.Qual("math/bits", "TrailingZeros64").Call(v.Clone().Index(w))
	}
	plus := func(off int, e *jen.Statement) *jen.Statement {
		if off == 0 {
			return e
		}
		return jen.Lit(off).Op("+").Add(e)
	}
	for i := from; i < to; i++ {
		t := &m.Trees[i]
		info := infos[i-from]
		vector := t.Output == ir.AllOutputs
		k := m.NumOutputs
		if !vector {
			k = 1
		}
		// leaf is the exit leaf's number times k plus the value offset.
		var stmts []jen.Code
		var leaf *jen.Statement
		switch {
		case t.NumLeaves() == 1:
			leaf = jen.Lit(info.val)
		case info.words == 1:
			idx := tz(jen.Lit(info.word))
			if k > 1 {
				idx = jen.Lit(k).Op("*").Add(idx)
			}
			leaf = plus(info.val, idx)
		default:
			stmts = append(stmts,
				jen.Id("w").Op(":=").Lit(info.word),
				jen.For(v.Clone().Index(jen.Id("w")).Op("==").Lit(0)).Block(jen.Id("w").Op("++")),
			)
			wOff := jen.Id("w")
			if info.word > 0 {
				wOff = jen.Parens(jen.Id("w").Op("-").Lit(info.word))
			}
			idx := jen.Parens(jen.Lit(64).Op("*").Add(wOff).Op("+").Add(tz(jen.Id("w"))))
			if k > 1 {
				idx = jen.Lit(k).Op("*").Add(idx)
			}
			leaf = plus(info.val, idx)
		}
		if k > 1 && t.NumLeaves() > 1 {
			stmts = append(stmts, jen.Id("l").Op(":=").Add(leaf))
			leaf = jen.Id("l")
		}
		comment := fmt.Sprintf("tree %d", i)
		for c := 0; c < k; c++ {
			out := t.Output
			idx := leaf.Clone()
			if vector {
				out = c
				if c > 0 {
					idx = idx.Op("+").Lit(c)
				}
			}
			stmts = append(stmts, g.AddValue(out, id("Val").Index(idx)))
		}
		if len(stmts) == 1 {
			body = append(body, jen.Comment(comment), stmts[0])
		} else {
			body = append(body, jen.Comment(comment), jen.Block(stmts...))
		}
	}
	fn := pre + "Score"
	decls = append(decls, emit.Doc(fmt.Sprintf("%s adds the values of %s to the accumulators a, in tree order: "+
		"it finds the exit leaf of every tree with the QuickScorer feature scan, then adds its value.", fn, trees)).Line().
		Func().Id(fn).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(body...))
	call := jen.Id(fn).Call(jen.Id("x"), jen.Id("a"))
	u := emit.Unit{Decls: decls, Calls: []jen.Code{call}, Size: size}
	if batch {
		bd, bs := genBatch(g, b, from, to)
		u.Decls = append(u.Decls, bd...)
		u.Batch = bs
	}
	return u
}
