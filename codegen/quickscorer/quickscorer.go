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
	"sort"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/internal/perfect"
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
			return fmt.Errorf("tree %d is latent: use the ifelse backend", i)
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

// Vector returns the declarations of the package's vector file, which
// scores blocks of rows with SIMD instructions when the model's trees are
// axis-aligned and pad cheaply into perfect trees (see package perfect).
func (Backend) Vector(g *emit.Gen, _ emit.Options) ([]jen.Code, error) { return perfect.Vector(g), nil }

// NewOptions returns the backend's options: it has none.
func (Backend) NewOptions() emit.Options { return emit.NoOptions{} }

// Units returns one unit per block of consecutive trees: its tables, its
// scoring function and the call of that function.
func (Backend) Units(g *emit.Gen, _ emit.Options) ([]emit.Unit, error) {
	m := g.Model
	batch := perfect.Batchable(g)
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

// blockLayout is a block of trees laid out before anything is emitted: the
// entries of its splits feature by feature, its leaf values, and where each
// tree lives in its bitvector and its table of values.
type blockLayout struct {
	pre      string     // the prefix of the block's names: "qs3" for block 3
	from, to int        // its trees, [from, to)
	scan     [][]entry  // per feature: the entries of its splits, by ascending threshold
	nan      [][]entry  // per feature: the entries of its splits that send a NaN right
	vals     []float64  // the leaf values, tree by tree, leaves left to right
	infos    []treeInfo // per tree
	words    int        // the number of words of the block's bitvector
	pow2     int        // the length of the bitvector array: words rounded up to a power of two
	size     int        // the unit's size: entries and leaf values
}

// layBlock lays out trees [from, to), block number b.
func layBlock(g *emit.Gen, b, from, to int) *blockLayout {
	nf := g.Model.NumFeatures
	l := &blockLayout{pre: "qs" + strconv.Itoa(b), from: from, to: to, scan: make([][]entry, nf), nan: make([][]entry, nf)}
	for i := from; i < to; i++ {
		l.layTree(g, &g.Model.Trees[i])
	}
	for _, es := range l.scan {
		sort.SliceStable(es, func(i, j int) bool { return es[i].thr < es[j].thr })
	}
	l.size += len(l.vals)
	// The bitvector array has a power-of-two length, so that masking the
	// word index spares the bounds check.
	l.pow2 = 1
	for l.pow2 < l.words {
		l.pow2 *= 2
	}
	return l
}

// layTree adds tree t to the block: its words, its leaf values and the
// entries of its splits, one per word that the leaves of the split's left
// subtree touch.
func (l *blockLayout) layTree(g *emit.Gen, t *ir.Tree) {
	info := treeInfo{word: l.words, words: numWords(t), val: len(l.vals)}
	l.infos = append(l.infos, info)
	l.words += info.words
	lo, hi := l.layLeaves(g, t, info)
	for j := range t.Nodes {
		n := &t.Nodes[j]
		if !n.IsSplit() {
			continue
		}
		thr, always := emit.Fold(n.Threshold, n.LessEqual, emit.Cmp32(g))
		first, end := lo[n.Left], hi[n.Left]
		for w := first / 64; w <= (end-1)/64; w++ {
			var bitsOff uint64
			for k := max(first, 64*w); k < min(end, 64*w+64); k++ {
				bitsOff |= 1 << uint(k-64*w)
			}
			e := entry{thr: thr, word: info.word + w, mask: ^bitsOff}
			if !always {
				l.scan[n.Feature] = append(l.scan[n.Feature], e)
			}
			if !n.DefaultLeft {
				l.nan[n.Feature] = append(l.nan[n.Feature], e)
			}
			l.size++
		}
	}
}

// layLeaves appends the leaf values of tree t to the block's, leaves left
// to right, and returns the range [lo[j], hi[j]) of the numbers of the
// leaves of the subtree at each node j.
func (l *blockLayout) layLeaves(g *emit.Gen, t *ir.Tree, info treeInfo) (lo, hi []int) {
	lo = make([]int, len(t.Nodes))
	hi = make([]int, len(t.Nodes))
	var walk func(j int)
	walk = func(j int) {
		n := &t.Nodes[j]
		if !n.IsSplit() {
			lo[j] = len(l.vals) - info.val
			if t.Output == ir.AllOutputs {
				lo[j] /= g.Model.NumOutputs
			}
			hi[j] = lo[j] + 1
			l.vals = append(l.vals, n.Value...)
			return
		}
		walk(n.Left)
		walk(n.Right)
		lo[j], hi[j] = lo[n.Left], hi[n.Right]
	}
	walk(0)
	return lo, hi
}

// genBlock returns the unit of trees [from, to), block number b; with batch,
// it also scores blocks of rows (see perfect.Batch).
func genBlock(g *emit.Gen, b, from, to int, batch bool) emit.Unit {
	l := layBlock(g, b, from, to)
	decls := append(genBlockTables(g, l), genScore(g, l))
	call := jen.Id(l.pre+"Score").Call(jen.Id("x"), jen.Id("a"))
	u := emit.Unit{Decls: decls, Calls: []jen.Code{call}, Size: l.size}
	if batch {
		bd, bs := perfect.Batch(g, "qs"+strconv.Itoa(b), from, to)
		u.Decls = append(u.Decls, bd...)
		u.Batch = bs
	}
	return u
}

// genBlockTables declares the tables of the block: the thresholds, words and
// masks of its splits by feature and where the entries of each feature
// start, the same for the splits that send a NaN right, and the leaf values.
func genBlockTables(g *emit.Gen, l *blockLayout) []jen.Code {
	var thrs, scanWords, scanMasks, nanWords, nanMasks []jen.Code
	offs := []jen.Code{jen.Lit(0)}
	nanOffs := []jen.Code{jen.Lit(0)}
	for f := range l.scan {
		for _, e := range l.scan[f] {
			thrs = append(thrs, emit.ThrLit(g, e.thr))
			scanWords = append(scanWords, jen.Lit(e.word))
			scanMasks = append(scanMasks, maskLit(e.mask))
		}
		offs = append(offs, jen.Lit(len(thrs)))
		for _, e := range l.nan[f] {
			nanWords = append(nanWords, jen.Lit(e.word))
			nanMasks = append(nanMasks, maskLit(e.mask))
		}
		nanOffs = append(nanOffs, jen.Lit(len(nanWords)))
	}
	vals := make([]jen.Code, len(l.vals))
	for i, v := range l.vals {
		vals[i] = emit.ValLit(g, v)
	}
	wordType := jen.Uint16()
	if l.words > 1<<16 {
		wordType = jen.Int32()
	}
	pre, trees := l.pre, emit.TreeRange(l.from, l.to-1)
	return []jen.Code{
		emit.Table(pre+"Thr", "holds the thresholds of the splits of "+trees+", by feature and then ascending "+
			"(\"<=\" tests folded into \"<\"): a row goes right at a split iff its value is >= the threshold.",
			emit.ThrType(g), thrs),
		emit.Table(pre+"Word", "holds the bitvector word that each threshold of "+pre+"Thr updates.", wordType, scanWords),
		emit.Table(pre+"Mask", "holds the mask of each threshold of "+pre+"Thr: zeros on the leaves of the split's left subtree.",
			jen.Uint64(), scanMasks),
		genFeatureOffsets(pre+"Off", "holds where the thresholds of each feature start in "+pre+"Thr.", offs),
		emit.Table(pre+"NaNWord", "holds the bitvector words of the splits that send a missing (NaN) value right, by feature.",
			wordType, nanWords),
		emit.Table(pre+"NaNMask", "holds the masks of the splits of "+pre+"NaNWord.", jen.Uint64(), nanMasks),
		genFeatureOffsets(pre+"NaNOff", "holds where the splits of each feature start in "+pre+"NaNWord.", nanOffs),
		emit.Table(pre+"Val", "holds the leaf values of "+trees+", tree by tree, leaves left to right "+
			"(NumOutputs values per leaf for the trees that write every output).", emit.ValType(g), vals),
	}
}

// genFeatureOffsets declares the table name of NumFeatures+1 offsets, one
// per line: feature f's entries are those from offset f to offset f+1.
func genFeatureOffsets(name, doc string, items []jen.Code) jen.Code {
	return emit.Doc(name+" "+doc).Line().Var().Id(name).Op("=").
		Index(jen.Id("NumFeatures").Op("+").Lit(1)).Int32().Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

// maskLit returns the untyped hexadecimal literal of mask m: 0x....
func maskLit(m uint64) *jen.Statement { return jen.Id("0x" + strconv.FormatUint(m, 16)) }

// genScore declares the scoring function of the block: the feature scan,
// then the exit leaf of every tree and its value.
func genScore(g *emit.Gen, l *blockLayout) jen.Code {
	body := scanStmts(g, l)
	for i := l.from; i < l.to; i++ {
		body = append(body, jen.Comment(fmt.Sprintf("tree %d", i)), exitLeafStmt(g, l, i))
	}
	fn := l.pre + "Score"
	return emit.Doc(fmt.Sprintf("%s adds the values of %s to the accumulators a, in tree order: "+
		"it finds the exit leaf of every tree with the QuickScorer feature scan, then adds its value.", fn, emit.TreeRange(l.from, l.to-1))).Line().
		Func().Id(fn).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(body...)
}

// scanStmts returns the feature scan: the bitvector v starts at all ones,
// and for each feature the masks of the splits that send the row right are
// ANDed in (those that send a NaN right, for a NaN).
func scanStmts(g *emit.Gen, l *blockLayout) []jen.Code {
	id := func(s string) *jen.Statement { return jen.Id(l.pre + s) }
	j, f, v := jen.Id("j"), jen.Id("f"), jen.Id("v")
	xf := jen.Id("x").Index(f.Clone())
	if emit.Cmp32(g) && !g.Is32() {
		xf = jen.Float32().Call(xf)
	}
	word := func(w jen.Code) *jen.Statement { return v.Clone().Index(jen.Add(w).Op("&").Lit(l.pow2 - 1)) }
	// part declares name, the entries of the feature in the block's table,
	// as long as thr.
	part := func(name, table string) *jen.Statement {
		return jen.Id(name).Op(":=").Add(id(table)).Index(jen.Id("lo").Op(":").Id("hi")).Index(jen.Op(":").Len(jen.Id("thr")))
	}
	return []jen.Code{
		jen.Var().Id("v").Index(jen.Lit(l.pow2)).Uint64(),
		jen.For(jen.Id("i").Op(":=").Range().Id("v")).Block(v.Clone().Index(jen.Id("i")).Op("=").Op("^").Uint64().Call(jen.Lit(0))),
		jen.For(f.Clone().Op(":=").Lit(0), f.Clone().Op("<").Id("NumFeatures"), f.Clone().Op("++")).Block(
			jen.Id("xf").Op(":=").Add(xf),
			jen.If(jen.Id("xf").Op("!=").Id("xf")).Block(
				jen.For(j.Clone().Op(":=").Add(id("NaNOff").Index(f.Clone())),
					j.Clone().Op("<").Add(id("NaNOff").Index(f.Clone().Op("+").Lit(1))), j.Clone().Op("++")).Block(
					word(id("NaNWord").Index(j.Clone())).Op("&=").Add(id("NaNMask").Index(j.Clone())),
				),
				jen.Continue(),
			),
			jen.List(jen.Id("lo"), jen.Id("hi")).Op(":=").List(id("Off").Index(f.Clone()), id("Off").Index(f.Clone().Op("+").Lit(1))),
			jen.Id("thr").Op(":=").Add(id("Thr")).Index(jen.Id("lo").Op(":").Id("hi")),
			part("word", "Word"),
			part("mask", "Mask"),
			jen.For(jen.List(j.Clone(), jen.Id("t")).Op(":=").Range().Id("thr")).Block(
				jen.If(jen.Id("xf").Op("<").Id("t")).Block(jen.Break()),
				word(jen.Id("word").Index(j.Clone())).Op("&=").Add(jen.Id("mask").Index(j.Clone())),
			),
		),
	}
}

// exitLeafStmt returns the statement that adds the values of the exit leaf
// of tree i to the accumulators: one statement, or a block that first finds
// the leaf.
func exitLeafStmt(g *emit.Gen, l *blockLayout, i int) jen.Code {
	t := &g.Model.Trees[i]
	vector := t.Output == ir.AllOutputs
	k := 1
	if vector {
		k = g.Model.NumOutputs
	}
	stmts, leaf := exitLeaf(l.infos[i-l.from], t.NumLeaves(), k)
	if k > 1 && t.NumLeaves() > 1 {
		stmts = append(stmts, jen.Id("l").Op(":=").Add(leaf))
		leaf = jen.Id("l")
	}
	for c := 0; c < k; c++ {
		out := t.Output
		idx := leaf.Clone()
		if vector {
			out = c
			if c > 0 {
				idx = idx.Op("+").Lit(c)
			}
		}
		stmts = append(stmts, g.AddValue(out, jen.Id(l.pre+"Val").Index(idx)))
	}
	if len(stmts) == 1 {
		return stmts[0]
	}
	return jen.Block(stmts...)
}

// exitLeaf returns the statements that find the exit leaf of a tree that
// lives at info in the block and has the given number of leaves, k values
// each, and the expression of the offset of its values in the block's
// table: the number of the lowest set bit of its bitvector times k, plus
// the tree's offset.
func exitLeaf(info treeInfo, leaves, k int) (stmts []jen.Code, leaf *jen.Statement) {
	tz := func(w jen.Code) *jen.Statement {
		return jen.Qual("math/bits", "TrailingZeros64").Call(jen.Id("v").Index(w))
	}
	var idx *jen.Statement
	switch {
	case leaves == 1:
		return nil, jen.Lit(info.val)
	case info.words == 1:
		idx = tz(jen.Lit(info.word))
	default:
		stmts = []jen.Code{
			jen.Id("w").Op(":=").Lit(info.word),
			jen.For(jen.Id("v").Index(jen.Id("w")).Op("==").Lit(0)).Block(jen.Id("w").Op("++")),
		}
		wOff := jen.Id("w")
		if info.word > 0 {
			wOff = jen.Parens(jen.Id("w").Op("-").Lit(info.word))
		}
		idx = jen.Parens(jen.Lit(64).Op("*").Add(wOff).Op("+").Add(tz(jen.Id("w"))))
	}
	if k > 1 {
		idx = jen.Lit(k).Op("*").Add(idx)
	}
	if info.val == 0 {
		return stmts, idx
	}
	return stmts, jen.Lit(info.val).Op("+").Add(idx)
}
