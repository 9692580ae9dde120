package perfect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// simd is the import path of Go's SIMD package.
const simd = "simd/archsimd"

// maxVectorDepth bounds the trees of a model that the vector file scores.
// Unlike the scalar block walk (Batchable), it takes trees that pad into
// many more leaves than they have: its cost grows with the splits of the
// top levels, which padding does not add to, and with the depth below.
const maxVectorDepth = 10

// The vector file has two walks of a padded tree for the 64 rows of a
// block, transposed feature-major (vecLoad: blk[f][r]).
//
// The lane walk (genLane: vecLane<d>_512) is the AVX-512 code of models
// compared in float32 with at most maxLaneFeatures features, for runs of
// trees at least minLaneDepth deep: each of the
// 16 lanes of a vector follows its own row down the tree, a level at a
// time, and splits that no row of the lane reaches cost nothing. At level
// l a lane's path so far indexes the level's 2^l thresholds (heap order in
// vecT), picked with VPERMPS / VPERMI2PS and, past 32, merges on the
// path's masks; the row's value of the split's feature is picked from the
// columns of blk by merges, on the path's masks over the level's splits
// (2^l - 1 merges) while a level has at most NumFeatures + 4 splits, else
// on the bits of the split's feature (vecF, picked as the thresholds are)
// over every feature's column (NumFeatures - 1 merges). One comparison
// gives the level's mask; the leaf value is picked as a threshold is and
// added in registers. No scalar value, broadcast constant or function call
// stands between the vector instructions: the compiler keeps a broadcast
// constant in an xmm register, spilled and reloaded with (non-VEX) MOVUPS
// before each VPBROADCASTD, and the profile puts most of the time at those
// reloads (8,600 to 11,900 ns per row for the depth-8 model below, against
// 1,550 without them), so the constants are vectors in memory (vecBit) and
// the masks become path bits with VPMOVM2D. Trees deeper than 6 walk two
// vectors of rows together (laneGroup). Measured on this project's reference machine with
// bench --simd, float32, 2,048 rows, the best backend: 300 XGBoost trees
// of depth 8 on 20 features from 2,354 ns per row (the word walk below with
// vecTail) to 1,192; depth 6 on 50 features, 100 trees, 330 to 304, 1,000
// trees 2,737 to 2,542; depth 6 with missing values, 30 features, 200
// trees, 731 to 682; 500 trees of depth 4 on 64 features, 10 classes,
// 1,906 to 1,800. The path merges win over the feature merges up to a
// level of 16 splits on 20 features (measured one vector at a time, depth
// 8: path merges up to 16 splits 1,545 ns per row, up to 8 1,590, up to 32
// 1,750).
//
// The word walk (genWalk, vecIndex, vecTail) is the code of AVX2, and of
// AVX-512 in float64, with many features or for shallow trees: every split of the top
// vectorLevels levels is compared with all the rows, giving per level a
// word whose bit r says that row r goes right, and a deeper tree's lower
// levels are walked row by row (vecTail).

// vectorLevels is the number of levels of a tree that the word walk
// evaluates for 64 rows at once, every split of those levels compared with
// all the rows; a deeper tree's lower levels are walked row by row. Every
// split of a level costs the same whether the rows reach it or not, so the
// vector walk pays for 2^k - 1 splits where a row visits k: measured on
// this project's reference machine, six levels (63 splits) for 64 rows
// cost less than six scalar steps per row, eight levels (255 splits) more
// than eight (docs/PERFORMANCE.md).
const vectorLevels = 6

// minVectorTrees is the fewest trees of a model that gets a vector file.
// Below it, copying a block of rows into feature-major order costs about as
// much as walking the trees, and a few trees are fast one row at a time
// (a CART tree with ifelse: a few ns per row); the file would add some 100
// KB of source for nothing.
const minVectorTrees = 8

// Vectorizable reports whether the vector file can score the model of g:
// blocks are enabled (emit.Gen.BatchEnabled), the model has at least
// minVectorTrees trees, and every tree is hard, not latent, made of axis
// splits and constant leaves only, and at most maxVectorDepth deep.
func Vectorizable(g *emit.Gen) bool {
	if !g.BatchEnabled() || len(g.Model.Trees) < minVectorTrees {
		return false
	}
	for i := range g.Model.Trees {
		t := &g.Model.Trees[i]
		if emit.CheckAxisTree(i, t) != nil || t.Depth() > maxVectorDepth {
			return false
		}
	}
	return true
}

// isa is an instruction set that the vector file has code for.
type isa struct {
	name  string // as vectorISA reports it
	check string // the archsimd.X86 method that says the processor has it
	sfx   string // the suffix of the names of its functions
	bits  int    // the width of its vectors
}

// isas are the instruction sets of the vector file, in order of preference.
var isas = []isa{
	{name: "AVX-512", check: "AVX512", sfx: "512", bits: 512},
	{name: "AVX2", check: "AVX2", sfx: "256", bits: 256},
}

// lanes returns the number of values of c (32 or 64 bits) in a vector.
func (s isa) lanes(c int) int { return s.bits / c }

// vecType returns the archsimd type of a vector of values of c bits.
func (s isa) vecType(c int) string {
	return "Float" + strconv.Itoa(c) + "x" + strconv.Itoa(s.lanes(c))
}

// vecGen holds what the vector file's generator needs about the model.
type vecGen struct {
	g      *emit.Gen
	cbits  int // the bits of the compared values: 32 or 64
	runs   []*vecRun
	depths map[int]bool    // the walk depths (min(depth, vectorLevels)) that occur
	tails  map[[2]int]bool // the tails that occur: [the level they start from, depth]
	lane   bool            // the AVX-512 code walks the trees with vecLane (laneWalk)
	lanes  map[laneKey]bool
}

// laneKey names a lane walk: the depth of its trees, and whether it adds
// their leaf values (else it stores the rows' leaf indexes).
type laneKey struct {
	d    int
	regs bool
}

// vecRun is a run of consecutive trees of one depth, all writing every
// output or all writing one, laid out for the vector walk.
type vecRun struct {
	from, to int
	d        int  // their depth
	w        int  // the values of a leaf
	vector   bool // the trees write every output
	sameOut  bool // single-output trees that all write the same output
	outs     []int
	thrs     []jen.Code // per tree tstride thresholds in heap order (2^d - 1 splits, then zeros)
	fns      []jen.Code // the feature and NaN direction of each entry of thrs (see vecF)
	tstride  int        // the entries of thrs and fns per tree
	vals     []jen.Code // per tree 2^d leaves of w values, then zeros up to stride
	stride   int        // the entries of vals per tree
}

// Vector returns the declarations of the vector file of the model of g
// (see emit.Vectorizer), or none when Vectorizable says no.
func Vector(g *emit.Gen) []jen.Code {
	if !Vectorizable(g) {
		return nil
	}
	v := &vecGen{g: g, cbits: 64, depths: map[int]bool{}, tails: map[[2]int]bool{}, lanes: map[laneKey]bool{}}
	if emit.Cmp32(g) {
		v.cbits = 32
	}
	m := g.Model
	v.lane = v.cbits == 32 && m.NumFeatures <= maxLaneFeatures
	for _, r := range runs(m, 0, len(m.Trees)) {
		run := v.layRun(r[0], r[1])
		v.runs = append(v.runs, run)
		d := run.d
		v.depths[min(d, vectorLevels)] = true
		if d > vectorLevels {
			v.tails[[2]int{vectorLevels, d}] = true
		}
		if v.laneWalk(isas[0], run) {
			v.lanes[laneKey{d, v.leavesInRegisters(isas[0], run)}] = true
			if d > maxLaneLevels {
				v.tails[[2]int{maxLaneLevels, d}] = true
			}
		}
	}
	decls := v.genInit()
	for i, r := range v.runs {
		decls = append(decls, v.genRunTables(i, r)...)
	}
	decls = append(decls, v.genSpread())
	if len(v.lanes) > 0 {
		decls = append(decls, v.genBits())
	}
	for _, s := range isas {
		decls = append(decls, v.genBlock(s), v.genLoad(s))
		for k := 1; k <= vectorLevels; k++ {
			if v.wordWalks(s, k) {
				decls = append(decls, v.genWalk(s, k, false), v.genWalk(s, k, true))
			}
		}
		if s != isas[0] {
			continue
		}
		for d := 1; d <= maxVectorDepth; d++ {
			for _, regs := range []bool{true, false} {
				if v.lanes[laneKey{d, regs}] {
					decls = append(decls, v.genLane(s, d, false, regs), v.genLane(s, d, true, regs))
				}
			}
		}
	}
	for k := 1; k <= vectorLevels; k++ {
		if v.depths[k] {
			decls = append(decls, v.genIndex(k))
		}
	}
	for _, from := range []int{vectorLevels, maxLaneLevels} {
		for d := from + 1; d <= maxVectorDepth; d++ {
			if v.tails[[2]int{from, d}] {
				decls = append(decls, v.genTail(from, d, false), v.genTail(from, d, true))
			}
		}
	}
	return decls
}

// wordWalks reports whether the code for isa s walks a run of trees with
// the word walk of k levels (genWalk): a run of depth k, or deeper when k
// is vectorLevels, that the lane walk does not take.
func (v *vecGen) wordWalks(s isa, k int) bool {
	for _, r := range v.runs {
		if min(r.d, vectorLevels) == k && !v.laneWalk(s, r) {
			return true
		}
	}
	return false
}

// layRun lays out trees [from, to) of one depth.
func (v *vecGen) layRun(from, to int) *vecRun {
	m := v.g.Model
	r := &vecRun{from: from, to: to, d: m.Trees[from].Depth(), w: 1,
		vector: m.Trees[from].Output == ir.AllOutputs, sameOut: true}
	if r.vector {
		r.w = m.NumOutputs
	}
	size := 1 << r.d
	r.stride = size * r.w
	r.tstride = size
	if v.laneWalk(isas[0], r) {
		r.tstride = max(size, 2*isas[0].lanes(32)) // the lane walk loads 16 entries from split 2^l - 1 of level l
	}
	if v.vectorLeaves(r) {
		r.stride = max(r.stride, isas[0].lanes(v.cbits)) // a whole vector to permute
	}
	for i := from; i < to; i++ {
		t := &m.Trees[i]
		p := Pad(t, r.w, emit.Cmp32(v.g), true)
		for j := 0; j < r.tstride; j++ {
			f, thr := 0, 0.0
			if j < len(p.Feat) {
				f, thr = p.Feat[j], p.Thr[j]
				if p.NaNRight[j] {
					f |= vecNaNRight
				}
			}
			r.thrs = append(r.thrs, emit.ThrLit(v.g, thr))
			r.fns = append(r.fns, jen.Lit(f))
		}
		for _, x := range p.Vals {
			r.vals = append(r.vals, emit.ValLit(v.g, x))
		}
		for j := len(p.Vals); j < r.stride; j++ {
			r.vals = append(r.vals, emit.ValLit(v.g, 0))
		}
		r.outs = append(r.outs, t.Output)
		r.sameOut = r.sameOut && t.Output == m.Trees[from].Output
	}
	return r
}

// cType returns the type of the compared values.
func (v *vecGen) cType() *jen.Statement {
	if v.cbits == 32 {
		return jen.Float32()
	}
	return jen.Float64()
}

// blkType returns the type of the transposed block: *[NumFeatures][batchRows]C.
func (v *vecGen) blkType() *jen.Statement {
	return jen.Op("*").Index(jen.Id("NumFeatures")).Index(jen.Id("batchRows")).Add(v.cType())
}

// genInit declares the init function that picks the code of the best
// instruction set the processor has, and vectorBlock, which runs it.
func (v *vecGen) genInit() []jen.Code {
	var cases []jen.Code
	for _, s := range isas {
		cases = append(cases, jen.Case(jen.Qual(simd, "X86").Dot(s.check).Call()).Block(
			jen.Id("vectorISA").Op("=").Lit(s.name),
		))
	}
	x, a := jen.Id("x"), jen.Id("a")
	return []jen.Code{
		emit.Doc("init sets vectorISA to the widest instructions the processor has that vectorBlock has code for.").Line().
			Func().Id("init").Params().Block(jen.Switch().Block(cases...)),
		v.g.VectorFunc(jen.If(jen.Id("vectorISA").Op("==").Lit(isas[0].name)).Block(
			jen.Id("vectorBlock"+isas[0].sfx).Call(x.Clone(), a.Clone()),
		).Else().Block(
			jen.Id("vectorBlock"+isas[1].sfx).Call(x, a),
		)),
	}
}

// genRunTables declares the tables of run i.
func (v *vecGen) genRunTables(i int, r *vecRun) []jen.Code {
	trees, size := emit.TreeRange(r.from, r.to-1), 1<<r.d
	decls := []jen.Code{
		emit.Table(fmt.Sprintf("vecT%d", i), fmt.Sprintf("holds the thresholds of the splits of %s padded into perfect trees of depth %d, "+
			"%d entries per tree in heap order (the children of split j are 2j+1 and 2j+2; the entries from %d on are unused): "+
			"a row goes right iff its value is >= the threshold, or, for a missing (NaN) value, iff vecF says so.", trees, r.d, r.tstride, size-1),
			v.cType(), r.thrs),
		emit.Table(fmt.Sprintf("vecF%d", i), fmt.Sprintf("holds the feature of each split of vecT%d, plus %d (bit 16) when a missing (NaN) value goes right.",
			i, vecNaNRight), jen.Uint32(), r.fns),
		emit.Table(fmt.Sprintf("vecV%d", i), fmt.Sprintf("holds the leaf values of the padded %s, %d leaves per tree, left to right.", trees, size),
			emit.ValType(v.g), r.vals),
	}
	if !r.vector && !r.sameOut {
		var outs []jen.Code
		for _, o := range r.outs {
			outs = append(outs, jen.Lit(o))
		}
		decls = append(decls, emit.Table(fmt.Sprintf("vecO%d", i), "holds the output that each tree of vecN"+strconv.Itoa(i)+" writes.", jen.Uint16(), outs))
	}
	return decls
}

// genSpread declares vecSpread, which spreads the 8 bits of a byte over the
// 8 bytes of a word.
func (v *vecGen) genSpread() jen.Code {
	items := make([]jen.Code, 256)
	for b := range items {
		var w uint64
		for i := 0; i < 8; i++ {
			if b>>i&1 != 0 {
				w |= 1 << (8 * i)
			}
		}
		items[b] = jen.Id("0x" + strconv.FormatUint(w, 16))
	}
	return emit.Doc("vecSpread holds, for each byte b, the word whose byte i is bit i of b.").Line().
		Var().Id("vecSpread").Op("=").Index(jen.Lit(256)).Uint64().Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, items...)
}

// genBlock declares vectorBlock<isa>: it transposes the block, then walks
// the runs of trees in order.
func (v *vecGen) genBlock(s isa) jen.Code {
	body := []jen.Code{
		jen.Var().Id("blk").Index(jen.Id("NumFeatures")).Index(jen.Id("batchRows")).Add(v.cType()),
		jen.Var().Id("nanb").Index(jen.Id("NumFeatures")).Uint64(),
		jen.Id("nan").Op(":=").Id("vecLoad"+s.sfx).Call(jen.Id("x"), jen.Op("&").Id("blk"), jen.Op("&").Id("nanb")),
	}
	walks, index := false, false
	for _, r := range v.runs {
		walks = walks || r.d > 0
		index = index || !v.leavesInRegisters(s, r)
	}
	if index {
		body = append(body, jen.Var().Id("ix").Index(jen.Id("batchRows")).Uint32())
	}
	for i, r := range v.runs {
		body = append(body, v.runLoop(s, i, r))
	}
	if !walks {
		body = append(body, jen.Id("_").Op("=").Id("nan"))
	}
	return emit.Doc("vectorBlock"+s.sfx+" is vectorBlock with "+s.name+" instructions.").Line().
		Func().Id("vectorBlock"+s.sfx).Params(
		jen.Id("x").Op("*").Index(jen.Id("batchRows").Op("*").Id("NumFeatures")).Add(v.g.VectorInput()),
		jen.Id("a").Op("*").Index(jen.Id("batchRows").Op("*").Id("NumOutputs")).Add(v.g.Float()),
	).Block(body...)
}

// runLoop returns the loop over the trees of run i: each tree walked by
// vecLane (AVX-512, laneWalk), or its top levels by vecWalk and its lower
// ones by vecTail, then its leaf values added.
func (v *vecGen) runLoop(s isa, i int, r *vecRun) jen.Code {
	size, k := 1<<r.d, min(r.d, vectorLevels)
	t := jen.Id("t")
	thr := jen.Id("thr").Op(":=").Add(arrayView(r.tstride, v.cType(), jen.Id(fmt.Sprintf("vecT%d", i)).Index(t.Clone().Op("*").Lit(r.tstride).Op(":"))))
	fn := jen.Id("fn").Op(":=").Add(arrayView(r.tstride, jen.Uint32(), jen.Id(fmt.Sprintf("vecF%d", i)).Index(t.Clone().Op("*").Lit(r.tstride).Op(":"))))
	vals := jen.Id("val").Op(":=").Add(arrayView(r.stride, emit.ValType(v.g), jen.Id(fmt.Sprintf("vecV%d", i)).Index(t.Clone().Op("*").Lit(r.stride).Op(":"))))
	var body []jen.Code
	addLeaves := true // the loop adds the leaf values after the walk
	switch {
	case k == 0:
		body = append(body, jen.Id("ix").Op("=").Index(jen.Id("batchRows")).Uint32().Values())
	case v.laneWalk(s, r):
		regs := v.leavesInRegisters(s, r)
		args := []jen.Code{jen.Op("&").Id("blk"), jen.Id("thr"), jen.Id("fn")}
		if regs {
			// The lane walk adds the leaf values itself.
			args = append(args, jen.Id("val"), jen.Id("a"))
			body = append(body, thr, fn, vals)
			addLeaves = false
		} else {
			args = append(args, jen.Op("&").Id("ix"))
			body = append(body, thr, fn)
		}
		body = append(body, ifNaN(
			jen.Id(laneName(s, r.d, true, regs)).Call(args...),
			jen.Id(laneName(s, r.d, false, regs)).Call(args...),
		))
		if r.d > maxLaneLevels {
			body = append(body, v.tailCall(maxLaneLevels, r))
		}
	default:
		body = append(body, thr, fn)
		var bs []jen.Code
		for l := 0; l < k; l++ {
			bs = append(bs, jen.Id("b"+strconv.Itoa(l)))
		}
		top := []jen.Code{jen.Id("thr"), jen.Id("fn")}
		if k < r.d || r.tstride != size {
			top = []jen.Code{
				arrayView(1<<k, v.cType(), jen.Id("thr").Index(jen.Op(":"))),
				arrayView(1<<k, jen.Uint32(), jen.Id("fn").Index(jen.Op(":"))),
			}
		}
		body = append(body,
			jen.Var().List(bs...).Uint64(),
			ifNaN(
				jen.List(bs...).Op("=").Id(walkName(s, k, true)).Call(append([]jen.Code{jen.Op("&").Id("blk"), jen.Op("&").Id("nanb")}, top...)...),
				jen.List(bs...).Op("=").Id(walkName(s, k, false)).Call(append([]jen.Code{jen.Op("&").Id("blk")}, top...)...),
			),
		)
		if !v.leavesInRegisters(s, r) {
			body = append(body, jen.Id(fmt.Sprintf("vecIndex%d", k)).Call(append([]jen.Code{jen.Op("&").Id("ix")}, bs...)...))
		}
		if r.d > k {
			body = append(body, v.tailCall(k, r))
		}
	}
	if addLeaves {
		body = append(body, vals)
		if v.leavesInRegisters(s, r) {
			body = append(body, v.vectorLeafAdd(s, r)...)
		} else {
			body = append(body, v.leafAdd(i, r)...)
		}
	}
	return jen.Comment(emit.TreeRange(r.from, r.to-1)).Line().
		Add(jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("<").Lit(r.to-r.from), t.Clone().Op("++")).Block(body...))
}

// arrayView returns (*[n]typ)(slice): the first n elements of slice as an
// array pointer, whose constant size spares the walks their bounds checks.
func arrayView(n int, typ, slice *jen.Statement) *jen.Statement {
	return jen.Parens(jen.Op("*").Index(jen.Lit(n)).Add(typ)).Call(slice)
}

// ifNaN returns "if nan { withNaN } else { without }": the block holds a
// missing value or not.
func ifNaN(withNaN, without jen.Code) jen.Code {
	return jen.If(jen.Id("nan")).Block(withNaN).Else().Block(without)
}

// tailCall returns the call of the tail of the trees of run r from level
// from, for blocks with a NaN and without.
func (v *vecGen) tailCall(from int, r *vecRun) jen.Code {
	size := 1 << r.d
	tail := tailName(from, r.d)
	tt := []jen.Code{
		arrayView(size, v.cType(), jen.Id("thr").Index(jen.Op(":"))),
		arrayView(size, jen.Uint32(), jen.Id("fn").Index(jen.Op(":"))),
		jen.Op("&").Id("ix"),
	}
	if r.tstride == size {
		tt[0], tt[1] = jen.Id("thr"), jen.Id("fn")
	}
	return ifNaN(
		jen.Id(tail+"NaN").Call(append([]jen.Code{jen.Op("&").Id("blk"), jen.Op("&").Id("nanb")}, tt...)...),
		jen.Id(tail).Call(append([]jen.Code{jen.Op("&").Id("blk")}, tt...)...),
	)
}

// vectorLeaves reports whether the AVX-512 code of run r adds its leaf
// values with vectors: single-output trees of a model of one output, no
// deeper than the vector walk, with values of the type of the
// accumulators (not Float32Sum) and compared in that type.
func (v *vecGen) vectorLeaves(r *vecRun) bool {
	g := v.g
	return !r.vector && v.g.Model.NumOutputs == 1 && r.d >= 1 && (r.d <= vectorLevels || v.lane && r.d <= maxLaneLevels) &&
		!g.Sum32() && (v.cbits == 32) == g.Is32()
}

// leavesInRegisters reports whether the code of run r for isa s adds its
// leaf values with vectors (vectorLeafAdd): the AVX-512 code of runs that
// vectorLeaves allows.
func (v *vecGen) leavesInRegisters(s isa, r *vecRun) bool { return s == isas[0] && v.vectorLeaves(r) }

// vectorLeafAdd returns the statements that add the leaf values of the
// tree of a walk (words b0, b1, ...) to the accumulators of the rows,
// a vector of rows at a time: each lane's leaf index is made from the
// words, and its value picked from the tree's leaves in registers with
// permutes.
func (v *vecGen) vectorLeafAdd(s isa, r *vecRun) []jen.Code {
	lanes, vt := s.lanes(v.cbits), s.vecType(v.cbits)
	it := fmt.Sprintf("Uint%dx%d", v.cbits, lanes) // the index vectors
	mt := fmt.Sprintf("Mask%dx%d", v.cbits, lanes)
	bitsType := jen.Uint16()
	if lanes == 8 {
		bitsType = jen.Uint8()
	}
	size := 1 << r.d
	var stmts []jen.Code
	for q := 0; q < emit.BatchRows/lanes; q++ {
		mask := func(l int) *jen.Statement {
			b := jen.Id("b" + strconv.Itoa(l))
			if q > 0 {
				b = b.Op(">>").Lit(q * lanes)
			}
			return jen.Qual(simd, mt+"FromBits").Call(bitsType.Clone().Call(b))
		}
		// idx: the leaf index of each lane, from the words of the levels.
		idx := jen.Null()
		for l := 0; l < r.d; l++ {
			term := jen.Qual(simd, "Broadcast"+it).Call(jen.Lit(1 << (r.d - 1 - l))).Dot("Masked").Call(mask(l))
			if l == 0 {
				idx = term
				continue
			}
			idx = idx.Dot("Or").Call(term)
		}
		load := func(from int) *jen.Statement {
			return jen.Qual(simd, "Load"+vt).Call(jen.Parens(jen.Op("*").Index(jen.Lit(lanes)).Add(v.cType())).
				Call(jen.Id("val").Index(jen.Lit(from).Op(":").Lit(from + lanes))))
		}
		// chunk c covers leaves [c*2*lanes, (c+1)*2*lanes); the levels above
		// pick the chunk.
		var pick func(from, n, l int) *jen.Statement
		pick = func(from, n, l int) *jen.Statement {
			switch {
			case n <= lanes:
				return load(from).Dot("Permute").Call(jen.Id("idx"))
			case n == 2*lanes:
				return load(from).Dot("ConcatPermute").Call(load(from+lanes), jen.Id("idx"))
			}
			lo, hi := pick(from, n/2, l+1), pick(from+n/2, n/2, l+1)
			return hi.Dot("Merge").Call(lo, mask(l))
		}
		acc := jen.Parens(jen.Op("*").Index(jen.Lit(lanes)).Add(v.g.Float())).Call(jen.Id("a").Index(jen.Lit(q * lanes).Op(":").Lit((q + 1) * lanes)))
		stmts = append(stmts, jen.Block(
			jen.Id("idx").Op(":=").Add(idx),
			jen.Id("p").Op(":=").Add(acc),
			jen.Qual(simd, "Load"+vt).Call(jen.Id("p")).Dot("Add").Call(pick(0, size, 0)).Dot("Store").Call(jen.Id("p")),
		))
	}
	return stmts
}

// leafAdd returns the statements that add the value of the leaf ix[r] of
// the tree to the accumulators of every row r.
func (v *vecGen) leafAdd(i int, r *vecRun) []jen.Code {
	row, size := jen.Id("r"), 1<<r.d
	leaf := jen.Id("l").Op(":=").Int().Call(jen.Id("ix").Index(row.Clone()).Op("&").Lit(size - 1))
	var body []jen.Code
	switch {
	case r.vector:
		k := jen.Id("k")
		body = []jen.Code{leaf, jen.For(k.Clone().Op(":=").Lit(0), k.Clone().Op("<").Id("NumOutputs"), k.Clone().Op("++")).Block(
			runAddValue(v.g, row.Clone().Op("*").Id("NumOutputs").Op("+").Id("k"), jen.Id("val").Index(jen.Id("l").Op("*").Id("NumOutputs").Op("+").Id("k"))),
		)}
	case r.sameOut:
		idx := row.Clone().Op("*").Id("NumOutputs")
		if o := r.outs[0]; o != 0 {
			idx = idx.Op("+").Lit(o)
		}
		body = []jen.Code{leaf, runAddValue(v.g, idx, jen.Id("val").Index(jen.Id("l")))}
	default:
		out := jen.Int().Call(jen.Id(fmt.Sprintf("vecO%d", i)).Index(jen.Id("t")))
		body = []jen.Code{leaf, runAddValue(v.g, row.Clone().Op("*").Id("NumOutputs").Op("+").Add(out), jen.Id("val").Index(jen.Id("l")))}
	}
	return []jen.Code{jen.For(row.Clone().Op(":=").Range().Id("ix")).Block(body...)}
}

// walkName returns the name of the walk of k levels for isa s.
func walkName(s isa, k int, nan bool) string {
	name := fmt.Sprintf("vecWalk%d_%s", k, s.sfx)
	if nan {
		name += "NaN"
	}
	return name
}

// genLoad declares vecLoad<isa>, which transposes a block of rows into blk,
// feature by feature, sets nanb[f] to the rows whose value of f is NaN
// (bit r for row r), and reports whether there is one.
func (v *vecGen) genLoad(s isa) jen.Code {
	r, f := jen.Id("r"), jen.Id("f")
	colNaN := []jen.Code{jen.Id("col").Op(":=").Op("&").Id("blk").Index(f.Clone())}
	colNaN = append(colNaN, v.maskWord(s, "w", func(load *jen.Statement) *jen.Statement { return load.Dot("IsNaN").Call() })...)
	colNaN = append(colNaN, jen.Id("nanb").Index(f.Clone()).Op("=").Id("w"), jen.Id("all").Op("|=").Id("w"))
	row := jen.Id("row").Op(":=").Parens(jen.Op("*").Index(jen.Id("NumFeatures")).Add(v.g.VectorInput())).
		Call(jen.Id("x").Index(r.Clone().Op("*").Id("NumFeatures").Op(":")))
	return emit.Doc("vecLoad"+s.sfx+" copies the rows of x into blk, feature by feature, sets bit r of nanb[f] "+
		"when the value of feature f of row r is missing (NaN), and reports whether one is.").Line().
		Func().Id("vecLoad"+s.sfx).Params(
		jen.Id("x").Op("*").Index(jen.Id("batchRows").Op("*").Id("NumFeatures")).Add(v.g.VectorInput()),
		jen.Id("blk").Add(v.blkType()),
		jen.Id("nanb").Op("*").Index(jen.Id("NumFeatures")).Uint64(),
	).Bool().Block(
		jen.For(r.Clone().Op(":=").Lit(0), r.Clone().Op("<").Id("batchRows"), r.Clone().Op("++")).Block(
			row,
			jen.For(jen.List(f.Clone(), jen.Id("v")).Op(":=").Range().Id("row")).Block(
				jen.Id("blk").Index(f.Clone()).Index(r.Clone()).Op("=").Id("v"),
			),
		),
		jen.Var().Id("all").Uint64(),
		jen.For(f.Clone().Op(":=").Range().Id("blk")).Block(colNaN...),
		jen.Return(jen.Id("all").Op("!=").Lit(0)),
	)
}

// maskWord returns the statements that set the word name (declaring it)
// to the bits of the mask that test makes of each vector of the column col
// of a block: bit r for row r.
func (v *vecGen) maskWord(s isa, name string, test func(load *jen.Statement) *jen.Statement) []jen.Code {
	lanes, vt := s.lanes(v.cbits), s.vecType(v.cbits)
	var stmts []jen.Code
	for q := 0; q < emit.BatchRows/lanes; q++ {
		load := jen.Qual(simd, "Load"+vt).Call(jen.Parens(jen.Op("*").Index(jen.Lit(lanes)).Add(v.cType())).
			Call(jen.Id("col").Index(jen.Lit(q * lanes).Op(":").Lit((q + 1) * lanes))))
		bits := jen.Uint64().Call(test(load).Dot("ToBits").Call())
		if q == 0 {
			stmts = append(stmts, jen.Id(name).Op(":=").Add(bits))
			continue
		}
		stmts = append(stmts, jen.Id(name).Op("|=").Add(bits).Op("<<").Lit(q*lanes))
	}
	return stmts
}

// genWalk declares the walk of the top k levels of a padded tree for the
// 64 rows of a block: every split of those levels is compared with all the
// rows, and the rows that reach it and go right are added to the level's
// word. It returns, for each level l, the word b_l whose bit r says that
// row r goes right at level l: the rows' paths.
func (v *vecGen) genWalk(s isa, k int, nan bool) jen.Code {
	var bs []jen.Code
	for l := 0; l < k; l++ {
		bs = append(bs, jen.Id("b"+strconv.Itoa(l)))
	}
	params := []jen.Code{jen.Id("blk").Add(v.blkType())}
	if nan {
		params = append(params, jen.Id("nanb").Op("*").Index(jen.Id("NumFeatures")).Uint64())
	}
	params = append(params, jen.Id("thr").Op("*").Index(jen.Lit(1<<k)).Add(v.cType()), jen.Id("fn").Op("*").Index(jen.Lit(1<<k)).Uint32())
	doc := fmt.Sprintf("%s walks the top %d levels of the padded tree thr, fn for the batchRows rows of blk with %s instructions "+
		"and returns, for each level l, bl: bit r is set when row r goes right at level l.", walkName(s, k, nan), k, s.name)
	if nan {
		doc += " Missing (NaN) values, the bits of nanb, go where the splits say."
	} else {
		doc += " blk holds no missing (NaN) value."
	}
	return emit.Doc(doc).Line().Func().Id(walkName(s, k, nan)).Params(params...).Params(jen.List(bs...).Uint64()).
		Block(append(v.walkNode(s, k, nan, 0, 0), jen.Return())...)
}

// walkNode returns the statements of split j at level l of a walk of k
// levels, and those of its subtrees. s_l is the word of the rows that reach
// the split (all rows at level 0).
func (v *vecGen) walkNode(s isa, k int, nan bool, j, l int) []jen.Code {
	vt := s.vecType(v.cbits)
	stmts := []jen.Code{
		jen.Id("col").Op(":=").Op("&").Id("blk").Index(jen.Uint16().Call(jen.Id("fn").Index(jen.Lit(j)))),
		jen.Id("th").Op(":=").Qual(simd, "Broadcast"+vt).Call(jen.Id("thr").Index(jen.Lit(j))),
	}
	stmts = append(stmts, v.maskWord(s, "c", func(load *jen.Statement) *jen.Statement {
		return load.Dot("GreaterEqual").Call(jen.Id("th"))
	})...)
	if nan {
		f := jen.Id("fn").Index(jen.Lit(j))
		stmts = append(stmts, jen.Id("c").Op("|=").Id("nanb").Index(jen.Uint16().Call(f.Clone())).Op("&").Op("-").Uint64().Call(f.Clone().Op(">>").Lit(16)))
	}
	sl, sn := jen.Id("s"+strconv.Itoa(l)), "s"+strconv.Itoa(l+1)
	bl := jen.Id("b" + strconv.Itoa(l))
	if l == 0 {
		stmts = append(stmts, bl.Clone().Op("=").Id("c"))
	} else {
		stmts = append(stmts, jen.Id("r").Op(":=").Add(sl.Clone()).Op("&").Id("c"), bl.Clone().Op("|=").Id("r"))
	}
	if l+1 < k {
		left := jen.Op("^").Id("c")
		right := jen.Id("c")
		if l > 0 {
			left = sl.Clone().Op("&^").Id("c")
			right = jen.Id("r")
		}
		stmts = append(stmts,
			jen.Id(sn).Op(":=").Add(left),
			jen.Block(v.walkNode(s, k, nan, 2*j+1, l+1)...),
			jen.Id(sn).Op("=").Add(right),
			jen.Block(v.walkNode(s, k, nan, 2*j+2, l+1)...),
		)
	}
	return stmts
}

// genIndex declares vecIndex<k>, which sets ix[r] to the index, left to
// right, of the split (or leaf) that row r reaches below the top k levels,
// from the words of a walk.
func (v *vecGen) genIndex(k int) jen.Code {
	var bs, params []jen.Code
	for l := 0; l < k; l++ {
		bs = append(bs, jen.Id("b"+strconv.Itoa(l)))
	}
	params = append(params, jen.Id("ix").Op("*").Index(jen.Id("batchRows")).Uint32())
	params = append(params, jen.List(bs...).Uint64())
	g := jen.Id("g")
	word := jen.Null()
	for l := 0; l < k; l++ {
		term := jen.Id("vecSpread").Index(jen.Id("b" + strconv.Itoa(l)).Op(">>").Parens(jen.Lit(8).Op("*").Add(g.Clone())).Op("&").Lit(255))
		if sh := k - 1 - l; sh > 0 {
			term = term.Op("<<").Lit(sh)
		}
		if l > 0 {
			word = word.Op("|")
		}
		word = word.Add(term)
	}
	var stores []jen.Code
	for i := 0; i < 8; i++ {
		b := jen.Id("w")
		if i > 0 {
			b = jen.Id("w").Op(">>").Lit(8 * i)
		}
		stores = append(stores, jen.Id("ix").Index(jen.Lit(8).Op("*").Add(g.Clone()).Op("+").Lit(i)).Op("=").Uint32().Call(jen.Uint8().Call(b)))
	}
	return emit.Doc(fmt.Sprintf("vecIndex%d sets ix[r] to the index, left to right, of the node that row r reaches "+
		"below the top %d levels of a padded tree, from the words bl of a walk (bit r of bl: row r goes right at level l).", k, k)).Line().
		Func().Id(fmt.Sprintf("vecIndex%d", k)).Params(params...).Block(
		jen.For(g.Clone().Op(":=").Lit(0), g.Clone().Op("<").Id("batchRows").Op("/").Lit(8), g.Clone().Op("++")).Block(
			append([]jen.Code{jen.Id("w").Op(":=").Add(word)}, stores...)...,
		),
	)
}

// genTail declares vecTail<d> (or vecTail<d>NaN, for blocks with a NaN),
// which walks the rows from level from (vectorLevels; for vecTail<d>_<from>
// another) down to level d of a padded tree of depth d, a level at a time:
// at each level, every row moves one step without a branch, and the rows'
// steps are independent, so that the processor overlaps them. ix[r] goes
// from the index, left to right, of the split that row r reaches at level
// from to that of its leaf.
func (v *vecGen) genTail(from, d int, nan bool) jen.Code {
	name, r := tailName(from, d), jen.Id("r")
	params := []jen.Code{jen.Id("blk").Add(v.blkType())}
	if nan {
		name += "NaN"
		params = append(params, jen.Id("nanb").Op("*").Index(jen.Id("NumFeatures")).Uint64())
	}
	size := 1 << d
	params = append(params, jen.Id("thr").Op("*").Index(jen.Lit(size)).Add(v.cType()), jen.Id("fn").Op("*").Index(jen.Lit(size)).Uint32(),
		jen.Id("ix").Op("*").Index(jen.Id("batchRows")).Uint32())
	step := []jen.Code{
		jen.Id("i").Op(":=").Id("ix").Index(r.Clone()).Op("&").Lit(size - 1),
		jen.Id("f").Op(":=").Id("fn").Index(jen.Id("i")),
		jen.Id("j").Op(":=").Lit(2).Op("*").Id("ix").Index(r.Clone()).Op("+").Lit(1),
		jen.If(jen.Id("blk").Index(jen.Uint16().Call(jen.Id("f"))).Index(r.Clone()).Op(">=").Id("thr").Index(jen.Id("i"))).Block(jen.Id("j").Op("++")),
	}
	if nan {
		step = append(step, jen.Id("j").Op("+=").Uint32().Call(jen.Id("nanb").Index(jen.Uint16().Call(jen.Id("f"))).Op(">>").Id("r").Op("&").Lit(1)).
			Op("&").Parens(jen.Id("f").Op(">>").Lit(16)))
	}
	step = append(step, jen.Id("ix").Index(r.Clone()).Op("=").Id("j"))
	doc := name + fmt.Sprintf(" walks the rows of blk from level %d of the padded tree thr, fn, of depth %d, to its leaves, "+
		"a level at a time: ix[r] goes from the index, left to right, of the split that row r reaches at level %d "+
		"to the index of its leaf.", from, d, from)
	if nan {
		doc += " Missing (NaN) values, the bits of nanb, go where the splits say."
	}
	return emit.Doc(doc).Line().Func().Id(name).Params(params...).Block(
		jen.For(r.Clone().Op(":=").Range().Id("ix")).Block(jen.Id("ix").Index(r.Clone()).Op("+=").Lit(1<<from-1)),
		jen.For(jen.Id("l").Op(":=").Lit(from), jen.Id("l").Op("<").Lit(d), jen.Id("l").Op("++")).Block(
			jen.For(r.Clone().Op(":=").Range().Id("ix")).Block(step...),
		),
		jen.For(r.Clone().Op(":=").Range().Id("ix")).Block(jen.Id("ix").Index(r.Clone()).Op("-=").Lit(size-1)),
	)
}

// tailName returns the name of the tail of trees of depth d from level from.
func tailName(from, d int) string {
	if from == vectorLevels {
		return fmt.Sprintf("vecTail%d", d)
	}
	return fmt.Sprintf("vecTail%d_%d", d, from)
}

// maxLaneLevels is the number of levels of a tree that the lane walk
// takes; a deeper tree's lower levels are walked row by row (vecTail).
// Below it, the thresholds of a level (512 at level 9) cost 16 permutes
// and 15 merges per vector, and as many for the features: measured on 200
// XGBoost trees on 20 features (bench --simd, float32, quickscorer), the
// lane walk of every level against the word walk with vecTail: depth 7
// 723 to 750 ns per row against 1,328 to 1,331; depth 9 1,839 to 1,862
// against 1,877 to 1,891; depth 10 3,364 to 3,417 against 2,293 to 2,310.
// With the lane walk of 8 levels and vecTail below: depth 9 1,936 to 1,938
// against 1,902 to 1,914, depth 10 2,341 to 2,428 against 2,304 to 2,376
// (7 levels: 2,250), so trees of depth 9 and 10 are about as fast as with
// the word walk.
const maxLaneLevels = 8

// vecNaNRight is the bit of an entry of vecF that sends a missing (NaN)
// value right; the bits below it hold the feature.
const vecNaNRight = 1 << 16

// maxLaneFeatures bounds the features of a model whose AVX-512 code walks
// with vecLane: a level that holds more splits than the model has features
// picks each row's value from every feature's column, NumFeatures - 1
// merges per 16 rows, where a row-by-row step (vecTail) costs some 19
// scalar instructions per row whatever the features; 64 is the widest
// model measured (500 trees of depth 4, 10 classes: 2,032 to 1,839 ns per
// row).
const maxLaneFeatures = 64

// minLaneDepth is the shallowest run that the lane walk takes. Its tables
// hold at least 32 entries per tree (a level's 16-entry load may start at
// split 15), 16 times what a stump needs: 100,000 stumps made a vector
// file of 29 MB, which gen took 2 GB to format. Runs of shallower trees
// keep the word walk, whose six levels cover them in one pass.
const minLaneDepth = 4

// laneWalk reports whether the code of run r for isa s walks its trees
// with vecLane: the AVX-512 code of a model compared in float32 with at
// most maxLaneFeatures features, for trees at least minLaneDepth deep.
func (v *vecGen) laneWalk(s isa, r *vecRun) bool {
	return s == isas[0] && v.lane && r.d >= minLaneDepth
}

// laneName returns the name of the lane walk of trees of depth d.
func laneName(s isa, d int, nan, regs bool) string {
	name := fmt.Sprintf("vecLane%d_%s", d, s.sfx)
	if nan {
		name += "NaN"
	}
	if !regs {
		name += "Ix"
	}
	return name
}

// featureBits returns the bits of the largest feature index.
func (v *vecGen) featureBits() int {
	b := 0
	for 1<<b < v.g.Model.NumFeatures {
		b++
	}
	return b
}

// genBits declares vecBit, the vectors of the single bits that the lane
// walk tests in the entries of vecF: those of the features, then the NaN
// direction.
func (v *vecGen) genBits() jen.Code {
	lanes := isas[0].lanes(32)
	var rows []jen.Code
	for b := 0; b <= v.featureBits(); b++ {
		bit := 1 << b
		if b == v.featureBits() {
			bit = vecNaNRight
		}
		var items []jen.Code
		for i := 0; i < lanes; i++ {
			items = append(items, jen.Lit(bit))
		}
		rows = append(rows, jen.Values(items...))
	}
	return emit.Doc(fmt.Sprintf("vecBit holds, for b < %d, the vector of bit b of a feature in every lane, "+
		"then that of the bit of vecF that sends a missing (NaN) value right: the lane walk tests them in memory, "+
		"as broadcast constants would be kept in scalar registers across the vector code.", v.featureBits())).Line().
		Var().Id("vecBit").Op("=").Index(jen.Lit(len(rows))).Index(jen.Lit(lanes)).Uint32().
		Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}, rows...)
}

// genLane declares the lane walk of a padded tree of depth d for the
// batchRows rows of blk, 16 rows (the lanes of a vector) at a time: each
// lane follows its own row down the tree, a level at a time. At level l
// the lane's index idx (the path so far: bit l-1-k says right at level k)
// picks the threshold of the split the row reaches from the level's 2^l
// thresholds with permutes (ConcatPermute for 32, merges by the path's
// masks above that), and the row's value of its feature by merges: of the
// columns of the level's splits, on the masks of the path, for a level of
// no more splits than the model has features (plus 4), else of every
// feature's column, on the bits of the feature of the split, which is
// picked as the threshold is. The comparison is the level's mask c_l. The
// leaf value is picked as a threshold is and added to the rows'
// accumulators (regs), or the leaf index stored in ix.
func (v *vecGen) genLane(s isa, d int, nan, regs bool) jen.Code {
	lanes := s.lanes(32)
	size := 1 << d
	tstride := max(size, 2*lanes)
	params := []jen.Code{jen.Id("blk").Add(v.blkType()),
		jen.Id("thr").Op("*").Index(jen.Lit(tstride)).Float32(),
		jen.Id("fn").Op("*").Index(jen.Lit(tstride)).Uint32()}
	if regs {
		params = append(params, jen.Id("val").Op("*").Index(jen.Lit(max(size, lanes))).Float32(),
			jen.Id("a").Op("*").Index(jen.Id("batchRows").Op("*").Id("NumOutputs")).Add(v.g.Float()))
	} else {
		params = append(params, jen.Id("ix").Op("*").Index(jen.Id("batchRows")).Uint32())
	}
	var body []jen.Code
	groups := emit.BatchRows / lanes
	group, levels := laneGroup(d), min(d, maxLaneLevels)
	for g0 := 0; g0 < groups; g0 += group {
		var stmts, cs []jen.Code
		for q := g0; q < g0+group; q++ {
			for l := 0; l < levels; l++ {
				cs = append(cs, jen.Id(laneMask(l, q)))
			}
		}
		stmts = append(stmts, jen.Var().List(cs...).Qual(simd, "Mask32x16"))
		for q := g0; q < g0+group; q++ {
			stmts = append(stmts, jen.Id(laneIdx(q)).Op(":=").Qual(simd, "Uint32x16").Values())
		}
		for l := 0; l < levels; l++ {
			for q := g0; q < g0+group; q++ {
				stmts = append(stmts, v.laneLevel(q, l, nan)...)
			}
		}
		for q := g0; q < g0+group; q++ {
			idx := jen.Id(laneIdx(q))
			if regs {
				acc := jen.Parens(jen.Op("*").Index(jen.Lit(lanes)).Float32()).Call(jen.Id("a").Index(jen.Lit(q * lanes).Op(":").Lit((q + 1) * lanes)))
				stmts = append(stmts, jen.Block(
					jen.Id("p").Op(":=").Add(acc),
					jen.Qual(simd, "LoadFloat32x16").Call(jen.Id("p")).Dot("Add").Call(lanePick("Float32", "val", 0, size, 0, lanes, q)).Dot("Store").Call(jen.Id("p"))))
			} else {
				stmts = append(stmts, idx.Dot("Store").Call(jen.Parens(jen.Op("*").Index(jen.Lit(lanes)).Uint32()).
					Call(jen.Id("ix").Index(jen.Lit(q*lanes).Op(":").Lit((q+1)*lanes)))))
			}
		}
		body = append(body, jen.Block(stmts...))
	}
	doc := fmt.Sprintf("%s walks the padded tree thr, fn, of depth %d, for the batchRows rows of blk, %d rows at a time "+
		"with %s instructions, each lane down its own row's path, and ", laneName(s, d, nan, regs), d, lanes, s.name)
	if regs {
		doc += "adds the value of each row's leaf, of val, to its accumulator in a."
	} else {
		if levels < d {
			doc = fmt.Sprintf("%s walks the top %d levels of the padded tree thr, fn, of depth %d, for the batchRows rows of blk, %d rows at a time "+
				"with %s instructions, each lane down its own row's path, and sets ix[r] to the index, left to right, "+
				"of the split that row r reaches at level %d.", laneName(s, d, nan, regs), levels, d, lanes, s.name, levels)
		} else {
			doc += "sets ix[r] to the index of the leaf of row r."
		}
	}
	if nan {
		doc += " Missing (NaN) values go where vecF says."
	} else {
		doc += " blk holds no missing (NaN) value."
	}
	return emit.Doc(doc).Line().Func().Id(laneName(s, d, nan, regs)).Params(params...).Block(body...)
}

// laneGroup returns the number of vectors of rows (of the 4 of a block)
// that the lane walk takes through a tree of depth d together, level by
// level: each level waits for the comparison of the level above (some 20
// cycles from the permutes to the mask), and two independent vectors fill
// that wait for the processor. Measured (bench --simd, float32): 300 trees
// of depth 8, one vector at a time 1,547 to 1,618 ns per row, two 1,180 to
// 1,238, four 1,637 to 1,666 (their masks and paths no longer fit in
// registers); trees of depth 6 lose 3 to 8% with two (100 trees on 50
// features 296 to 305 ns per row against 310 to 316), so they take one.
func laneGroup(d int) int {
	if d > 6 {
		return 2
	}
	return 1
}

// laneMask and laneIdx name the mask of level l and the path of the rows
// of vector q of a block in the lane walk.
func laneMask(l, q int) string { return fmt.Sprintf("c%d_%d", l, q) }
func laneIdx(q int) string     { return "idx" + strconv.Itoa(q) }

// laneLevel returns the statements of level l of the lane walk for the
// rows of vector q of the block.
func (v *vecGen) laneLevel(q, l int, nan bool) []jen.Code {
	lanes := isas[0].lanes(32)
	nf := v.g.Model.NumFeatures
	col := func(f jen.Code) *jen.Statement {
		return jen.Qual(simd, "LoadFloat32x16").Call(jen.Parens(jen.Op("*").Index(jen.Lit(lanes)).Float32()).
			Call(jen.Id("blk").Index(f).Index(jen.Lit(q * lanes).Op(":").Lit((q + 1) * lanes))))
	}
	base, n := 1<<l-1, 1<<l
	var lv []jen.Code
	lv = append(lv, jen.Id("th").Op(":=").Add(lanePick("Float32", "thr", base, n, 0, lanes, q)))
	path := n <= nf+4
	if (!path && v.featureBits() > 0) || nan {
		lv = append(lv, jen.Id("f").Op(":=").Add(lanePick("Uint32", "fn", base, n, 0, lanes, q)))
	}
	var x jen.Code
	if path {
		var cols []jen.Code
		var masks []string
		for j := 0; j < n; j++ {
			cols = append(cols, col(jen.Uint16().Call(jen.Id("fn").Index(jen.Lit(base+j)))))
		}
		for k := 0; k < l; k++ {
			masks = append(masks, laneMask(l-1-k, q))
		}
		x = mergeTree(&lv, cols, masks, "p")
	} else {
		var cols []jen.Code
		var masks []string
		for f := 0; f < nf; f++ {
			cols = append(cols, col(jen.Lit(f)))
		}
		for b := 0; b < v.featureBits(); b++ {
			lv = append(lv, jen.Id("s"+strconv.Itoa(b)).Op(":=").Add(laneBit(b)))
			masks = append(masks, "s"+strconv.Itoa(b))
		}
		x = mergeTree(&lv, cols, masks, "y")
	}
	c, idx := jen.Id(laneMask(l, q)), jen.Id(laneIdx(q))
	lv = append(lv, jen.Id("x").Op(":=").Add(x), c.Clone().Op("=").Id("x").Dot("GreaterEqual").Call(jen.Id("th")))
	if nan {
		lv = append(lv, c.Clone().Op("=").Add(c.Clone()).Dot("Or").Call(jen.Id("x").Dot("IsNaN").Call().Dot("And").Call(laneBit(v.featureBits()))))
	}
	return []jen.Code{jen.Block(lv...),
		idx.Clone().Op("=").Add(idx.Clone()).Dot("ShiftAllLeft").Call(jen.Lit(1)).Dot("Sub").Call(c.Clone().Dot("ToInt32x16").Call().Dot("AsUint32x16").Call())}
}

// laneBit returns the mask of the lanes of f whose bit b (of vecBit) is set.
func laneBit(b int) *jen.Statement {
	return jen.Id("f").Dot("And").Call(jen.Qual(simd, "LoadUint32x16").Call(jen.Op("&").Id("vecBit").Index(jen.Lit(b)))).
		Dot("AsInt32x16").Call().Dot("ToMask").Call()
}

// lanePick returns the vector of the entries of table tab (of archsimd
// element type typ) from base on, n of them, that the paths of the lanes
// of vector q of the block index: bit k from the top is the mask of level
// lv+k.
func lanePick(typ, tab string, base, n, lv, lanes, q int) *jen.Statement {
	load := func(from int) *jen.Statement {
		return jen.Qual(simd, "Load"+typ+"x"+strconv.Itoa(lanes)).Call(jen.Parens(jen.Op("*").Index(jen.Lit(lanes)).Id(strings.ToLower(typ))).
			Call(jen.Id(tab).Index(jen.Lit(from).Op(":").Lit(from + lanes))))
	}
	switch {
	case n <= lanes:
		return load(base).Dot("Permute").Call(jen.Id(laneIdx(q)))
	case n == 2*lanes:
		return load(base).Dot("ConcatPermute").Call(load(base+lanes), jen.Id(laneIdx(q)))
	}
	return lanePick(typ, tab, base+n/2, n/2, lv+1, lanes, q).Dot("Merge").Call(lanePick(typ, tab, base, n/2, lv+1, lanes, q), jen.Id(laneMask(lv, q)))
}

// mergeTree appends to stmts the merges that pick, in each lane, the item
// of items whose index has bit k set where mask masks[k] is: pairs on
// masks[0] first. An index past the items has no lane.
func mergeTree(stmts *[]jen.Code, items []jen.Code, masks []string, pre string) jen.Code {
	for k := 0; len(items) > 1; k++ {
		var next []jen.Code
		for j := 0; j < len(items); j += 2 {
			if j+1 == len(items) {
				next = append(next, items[j])
				continue
			}
			name := fmt.Sprintf("%s%d_%d", pre, k, j/2)
			*stmts = append(*stmts, jen.Id(name).Op(":=").Add(items[j+1]).Dot("Merge").Call(items[j], jen.Id(masks[k])))
			next = append(next, jen.Id(name))
		}
		items = next
	}
	return items[0]
}
