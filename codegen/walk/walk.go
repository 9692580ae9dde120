package walk

import (
	"fmt"
	"math"
	"strconv"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/internal/perfect"
	"github.com/treegen/treegen/ir"
)

// Name is the backend's name in codegen.Options.Backend and on the command
// line.
const Name = "walk"

// Limits of a unit: the trees of one scoring function, which shares one
// copy of the row among them.
const (
	maxUnitTrees  = 512
	maxUnitSplits = 1 << 15
)

// chains is the number of trees walked at once: their steps are
// independent, so the processor overlaps them.
const chains = 4

// Check returns nil if the backend can compile the validated model m: every
// tree hard, not latent, with "axis" splits and constant "leaf" leaves only,
// and paddable into a perfect tree (at most 12 deep, and at most 6 deep or
// 2^depth at most four times its leaves). Otherwise the error names the first tree it
// cannot compile.
func Check(m *ir.Model) error {
	for i := range m.Trees {
		t := &m.Trees[i]
		if err := emit.CheckAxisTree(i, t); err != nil {
			return err
		}
		if why := perfect.WhyNotPaddable(t); why != "" {
			return fmt.Errorf("tree %d is not for walk (%s): use the quickscorer backend", i, why)
		}
	}
	return nil
}

// Backend is the walk backend, as package codegen lists it.
type Backend struct{}

// Name returns "walk".
func (Backend) Name() string { return Name }

// Summary says what the backend compiles.
func (Backend) Summary() string {
	return "branch-free walks of trees padded into perfect trees, several trees at once, for ensembles of shallow axis-aligned trees with constant leaves"
}

// Check returns nil if the backend can compile the validated model m (see
// the package function Check).
func (Backend) Check(m *ir.Model) error { return Check(m) }

// Suited reports whether the backend is meant for m: every model it
// compiles.
func (Backend) Suited(m *ir.Model) bool { return Check(m) == nil }

// Vector returns the declarations of the package's vector file, which
// scores blocks of rows with SIMD instructions (see package perfect).
func (Backend) Vector(g *emit.Gen, _ emit.Options) ([]jen.Code, error) { return perfect.Vector(g), nil }

// NewOptions returns the backend's options: it has none.
func (Backend) NewOptions() emit.Options { return emit.NoOptions{} }

// Units returns one unit per block of consecutive trees: the tables of its
// runs, its scoring function and the call of that function.
func (Backend) Units(g *emit.Gen, _ emit.Options) ([]emit.Unit, error) {
	if err := Check(g.Model); err != nil {
		return nil, err
	}
	batch := perfect.Batchable(g)
	var units []emit.Unit
	for _, u := range layUnits(g) {
		units = append(units, genUnit(g, u, batch))
	}
	return units, nil
}

// run is a run of consecutive trees that are walked together: all padded
// into perfect trees of depth d, and all writing every output (vector) or
// one output each.
type run struct {
	from, to int
	d        int
	vector   bool
}

// unitLayout is a block of consecutive trees, laid out before anything is
// emitted: its runs and the regions of its copy of the row.
type unitLayout struct {
	pre      string // the prefix of the unit's names: "wk3" for unit 3
	from, to int
	runs     []run
	nanRight bool // some split sends NaN right: region 1 holds the row with NaN as +Inf
	nanOnly  bool // some split sends only NaN right: region 2 holds +Inf for NaN, else -Inf
}

// depth returns the largest depth of the unit's runs.
func (u *unitLayout) depth() int {
	d := 0
	for _, r := range u.runs {
		d = max(d, r.d)
	}
	return d
}

// regions returns the offsets, in features, of regions 1 and 2 (-1 when
// absent) and the number of regions.
func (u *unitLayout) regions() (r1, r2, n int) {
	r1, r2, n = -1, -1, 1
	if u.nanRight {
		r1, n = n, n+1
	}
	if u.nanOnly {
		r2, n = n, n+1
	}
	return r1, r2, n
}

// layUnits cuts the trees of the model into units of runs.
func layUnits(g *emit.Gen) []*unitLayout {
	m := g.Model
	var units []*unitLayout
	var u *unitLayout
	splits := 0
	for i := range m.Trees {
		t := &m.Trees[i]
		vector := t.Output == ir.AllOutputs
		if u == nil || i-u.from >= maxUnitTrees || splits >= maxUnitSplits {
			u = &unitLayout{pre: "wk" + strconv.Itoa(len(units)), from: i}
			units = append(units, u)
			splits = 0
		}
		u.to = i + 1
		if n := len(u.runs); n > 0 {
			r := &u.runs[n-1]
			d := max(r.d, t.Depth())
			if r.vector == vector && fitsRun(m, r.from, i+1, d) {
				r.to, r.d = i+1, d
				splits += 1 << d
				continue
			}
		}
		u.runs = append(u.runs, run{from: i, to: i + 1, d: t.Depth(), vector: vector})
		splits += 1 << t.Depth()
	}
	for _, u := range units {
		u.scanNaN(g)
	}
	return units
}

// fitsRun reports whether trees [from, to) all pad cheaply into perfect
// trees of depth d.
func fitsRun(m *ir.Model, from, to, d int) bool {
	for i := from; i < to; i++ {
		if !perfect.PaddableTo(&m.Trees[i], d) {
			return false
		}
	}
	return true
}

// scanNaN sets the regions of the row that the unit's splits read.
func (u *unitLayout) scanNaN(g *emit.Gen) {
	for _, r := range u.runs {
		for i := r.from; i < r.to; i++ {
			p := perfect.PadTo(&g.Model.Trees[i], r.d, 1, emit.Cmp32(g), true)
			for j, right := range p.NaNRight {
				if !right {
					continue
				}
				if math.IsNaN(p.Thr[j]) {
					u.nanOnly = true
				} else {
					u.nanRight = true
				}
			}
		}
	}
}

// genUnit returns the unit: the tables of its runs, its scoring function
// and its call; with batch, the block walk of perfect.Batch too.
func genUnit(g *emit.Gen, u *unitLayout, batch bool) emit.Unit {
	nf := g.Model.NumFeatures
	_, _, nreg := u.regions()
	span := nreg * nf
	xsize, idx := 256, jen.Uint8()
	if span > 256 {
		xsize = 1
		for xsize < span {
			xsize *= 2
		}
		idx = jen.Uint16()
		if xsize > 1<<16 {
			idx = jen.Uint32()
		}
	}
	var decls, body []jen.Code
	if u.depth() > 0 {
		body = rowCopy(g, u, xsize)
	}
	size := 0
	for k, r := range u.runs {
		rl := layRun(g, u, r, u.pre+"R"+strconv.Itoa(k))
		decls = append(decls, rl.tables(g, idx)...)
		body = append(body, rl.loop(g, xsize))
		size += len(rl.feats) + len(rl.vals)
	}
	fn := u.pre + "Score"
	decls = append(decls, emit.Doc(fmt.Sprintf("%s adds the values of %s to the accumulators a, in tree order: "+
		"it walks the trees, padded into perfect trees, %d at a time down to their leaves.", fn, emit.TreeRange(u.from, u.to-1), chains)).Line().
		Func().Id(fn).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(body...))
	unit := emit.Unit{Decls: decls, Calls: []jen.Code{jen.Id(fn).Call(jen.Id("x"), jen.Id("a"))}, Size: size}
	if batch {
		bd, bs := perfect.Batch(g, u.pre+"B", u.from, u.to)
		unit.Decls = append(unit.Decls, bd...)
		unit.Batch = bs
	}
	return unit
}

// rowCopy returns the statements that copy the row into xx, in the
// comparison type, region by region: region 0 holds the row, region 1 (if
// any) the row with NaN replaced by +Inf, for the splits that send NaN
// right, and region 2 (if any) +Inf for NaN and -Inf for every other value,
// for the splits that send only NaN right.
func rowCopy(g *emit.Gen, u *unitLayout, xsize int) []jen.Code {
	nf := g.Model.NumFeatures
	cmp := g.BatchInput()
	r1, r2, _ := u.regions()
	v, f := jen.Id("v"), jen.Id("f")
	conv := v.Clone()
	if emit.Cmp32(g) && !g.Is32() {
		conv = jen.Float32().Call(v.Clone())
	}
	inf := func(sign int) jen.Code {
		e := jen.Qual("math", "Inf").Call(jen.Lit(sign))
		if emit.Cmp32(g) {
			return jen.Float32().Call(e)
		}
		return e
	}
	at := func(off int) *jen.Statement {
		if off == 0 {
			return jen.Id("xx").Index(f.Clone())
		}
		return jen.Id("xx").Index(jen.Lit(off * nf).Op("+").Add(f.Clone()))
	}
	loop := []jen.Code{jen.Id("c").Op(":=").Add(conv), at(0).Op("=").Id("c")}
	var isNaN, notNaN []jen.Code
	if r1 >= 0 {
		isNaN = append(isNaN, at(r1).Op("=").Add(inf(1)))
		notNaN = append(notNaN, at(r1).Op("=").Id("c"))
	}
	if r2 >= 0 {
		isNaN = append(isNaN, at(r2).Op("=").Add(inf(1)))
		notNaN = append(notNaN, at(r2).Op("=").Add(inf(-1)))
	}
	if len(isNaN) > 0 {
		loop = append(loop, jen.If(jen.Id("c").Op("!=").Id("c")).Block(isNaN...).Else().Block(notNaN...))
	}
	return []jen.Code{
		jen.Var().Id("xx").Index(jen.Lit(xsize)).Add(cmp),
		jen.For(jen.List(f.Clone(), v.Clone()).Op(":=").Range().Id("x")).Block(loop...),
	}
}

// runLayout is a run laid out: its padded trees' splits, as indices into
// the copy of the row, their thresholds and their leaf values.
type runLayout struct {
	run
	pre     string
	w       int       // values per leaf
	feats   []int     // per tree 2^d entries in heap order, the last unused
	thrs    []float64 // their thresholds, in the comparison precision
	vals    []float64 // per tree 2^d leaves of w values
	outs    []int     // the output of each tree
	sameOut bool      // single-output trees that all write the same output
}

// layRun lays out run r of unit u.
func layRun(g *emit.Gen, u *unitLayout, r run, pre string) *runLayout {
	m, nf := g.Model, g.Model.NumFeatures
	r1, r2, _ := u.regions()
	l := &runLayout{run: r, pre: pre, w: 1, sameOut: true}
	if r.vector {
		l.w = m.NumOutputs
	}
	for i := r.from; i < r.to; i++ {
		t := &m.Trees[i]
		p := perfect.PadTo(t, r.d, l.w, emit.Cmp32(g), true)
		for j := 0; j < 1<<r.d; j++ {
			f, thr := 0, 0.0
			if j < len(p.Feat) {
				f, thr = p.Feat[j], p.Thr[j]
				switch {
				case p.NaNRight[j] && math.IsNaN(thr):
					f, thr = r2*nf+f, math.Inf(1)
				case p.NaNRight[j]:
					f += r1 * nf
				}
			}
			l.feats = append(l.feats, f)
			l.thrs = append(l.thrs, thr)
		}
		l.vals = append(l.vals, p.Vals...)
		l.outs = append(l.outs, t.Output)
		l.sameOut = l.sameOut && t.Output == m.Trees[r.from].Output
	}
	return l
}

// tables declares the run's tables: the index in the copy of the row and
// the threshold of every split, the leaf values, and the output of each
// tree when the trees write different outputs.
func (l *runLayout) tables(g *emit.Gen, idx *jen.Statement) []jen.Code {
	var feats, thrs, vals, outs []jen.Code
	for i, f := range l.feats {
		feats = append(feats, jen.Lit(f))
		thrs = append(thrs, thrLit(g, l.thrs[i]))
	}
	for _, v := range l.vals {
		vals = append(vals, emit.ValLit(g, v))
	}
	for _, o := range l.outs {
		outs = append(outs, jen.Lit(o))
	}
	trees, size := emit.TreeRange(l.from, l.to-1), 1<<l.d
	decls := []jen.Code{
		emit.Table(l.pre+"Feat", fmt.Sprintf("holds where the splits of %s, padded into perfect trees of depth %d, "+
			"read the copy of the row, %d entries per tree in heap order (the children of split j are 2j+1 and 2j+2; "+
			"the last entry is unused).", trees, l.d, size), idx, feats),
		emit.Table(l.pre+"Thr", "holds the thresholds of the splits of "+l.pre+"Feat: a row goes right iff its value is >= the threshold.",
			emit.ThrType(g), thrs),
		emit.Table(l.pre+"Val", fmt.Sprintf("holds the leaf values of the padded %s, %d leaves per tree, left to right.", trees, size),
			emit.ValType(g), vals),
	}
	if !l.vector && !l.sameOut {
		decls = append(decls, emit.Table(l.pre+"Out", "holds the output that each tree of "+l.pre+"Feat writes.", jen.Uint16(), outs))
	}
	return decls
}

// thrLit returns the literal of threshold v: +Inf and NaN included.
func thrLit(g *emit.Gen, v float64) jen.Code {
	if math.IsNaN(v) {
		nan := jen.Qual("math", "NaN").Call()
		if emit.Cmp32(g) {
			return jen.Float32().Call(nan)
		}
		return nan
	}
	return emit.ThrLit(g, v)
}

// loop returns the statements of the run: its trees walked chains at a
// time, then the last ones together.
func (l *runLayout) loop(g *emit.Gen, xsize int) jen.Code {
	n := l.to - l.from
	full := n / chains * chains
	var stmts []jen.Code
	t := jen.Id("t")
	if full > 0 {
		stmts = append(stmts, jen.For(t.Clone().Op(":=").Lit(0), t.Clone().Op("<").Lit(full), t.Clone().Op("+=").Lit(chains)).
			Block(l.walk(g, chains, t, -1, xsize)...))
	}
	if n > full {
		stmts = append(stmts, jen.Block(l.walk(g, n-full, jen.Lit(full), full, xsize)...))
	}
	return jen.Comment(emit.TreeRange(l.from, l.to-1)).Line().Add(jen.Block(stmts...))
}

// walk returns the statements that walk k trees from tree t of the run
// (first, when it is not -1) down to their leaves, level by level, and add
// their values in tree order.
func (l *runLayout) walk(g *emit.Gen, k int, t *jen.Statement, first, xsize int) []jen.Code {
	size := 1 << l.d
	part := func(name, table string, n int, typ jen.Code) jen.Code {
		from := t.Clone().Op("*").Lit(n / k)
		if first >= 0 {
			from = jen.Lit(first * n / k)
		}
		return jen.Id(name).Op(":=").Parens(jen.Op("*").Index(jen.Lit(n)).Add(typ)).
			Call(jen.Id(l.pre + table).Index(from.Op(":")))
	}
	idxType := jen.Uint8()
	if xsize > 256 {
		idxType = jen.Uint16()
		if xsize > 1<<16 {
			idxType = jen.Uint32()
		}
	}
	var stmts []jen.Code
	if l.d > 0 {
		stmts = append(stmts, part("feat", "Feat", k*size, idxType), part("thr", "Thr", k*size, emit.ThrType(g)))
	}
	stmts = append(stmts, part("val", "Val", k*size*l.w, emit.ValType(g)))
	iv := func(q int) *jen.Statement { return jen.Id("i" + strconv.Itoa(q)) }
	if l.d > 0 {
		for q := 0; q < k; q++ {
			stmts = append(stmts, iv(q).Op(":=").Lit(0))
		}
	}
	for lv := 0; lv < l.d; lv++ {
		var level []jen.Code
		for q := 0; q < k; q++ {
			// node: q*size + i (i < size-1, masked for the bounds check).
			node := jen.Lit(q * size)
			if lv > 0 {
				m := iv(q).Clone().Op("&").Lit(size - 1)
				if q == 0 {
					node = m
				} else {
					node = node.Op("+").Add(m)
				}
			}
			xi := jen.Id("feat").Index(node.Clone())
			if xsize > 256 {
				xi = jen.Parens(xi).Op("&").Lit(xsize - 1)
			}
			r := jen.Id("r" + strconv.Itoa(q))
			level = append(level,
				r.Clone().Op(":=").Lit(0),
				jen.If(jen.Id("xx").Index(xi).Op(">=").Id("thr").Index(node)).Block(r.Clone().Op("=").Lit(1)),
				iv(q).Op("=").Lit(2).Op("*").Add(iv(q)).Op("+").Lit(1).Op("+").Add(r),
			)
		}
		stmts = append(stmts, jen.Block(level...))
	}
	for q := 0; q < k; q++ {
		leaf := jen.Lit(q * size)
		if l.d > 0 {
			m := jen.Parens(iv(q).Op("+").Lit(1)).Op("&").Lit(size - 1)
			if q == 0 {
				leaf = m
			} else {
				leaf = leaf.Op("+").Add(m)
			}
		}
		stmts = append(stmts, l.add(g, q, t, leaf))
	}
	return stmts
}

// add returns the statement that adds the values of leaf (its number among
// the walk's leaves) of the q-th tree of the walk from tree t to the
// accumulators.
func (l *runLayout) add(g *emit.Gen, q int, t, leaf *jen.Statement) jen.Code {
	if l.vector {
		vs := jen.Parens(jen.Op("*").Index(jen.Id("NumOutputs")).Add(emit.ValType(g))).
			Call(jen.Id("val").Index(jen.Parens(leaf).Op("*").Id("NumOutputs").Op(":")))
		return jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Add(vs)).Block(addValue(g, jen.Id("k"), jen.Id("v")))
	}
	out := jen.Lit(l.outs[0])
	if !l.sameOut {
		tq := t.Clone()
		if q > 0 {
			tq = tq.Op("+").Lit(q)
		}
		out = jen.Id(l.pre + "Out").Index(tq)
	}
	return addValue(g, out, jen.Id("val").Index(leaf))
}

// addValue returns the statement that adds the leaf value v (of type
// ValType) to a[k]: in float32 with Float32Sum in a float64 package, else
// in F.
func addValue(g *emit.Gen, k, v jen.Code) jen.Code {
	ak := jen.Id("a").Index(k)
	if g.Sum32() {
		return ak.Clone().Op("=").Float64().Call(jen.Float32().Call(ak).Op("+").Add(v))
	}
	return ak.Op("+=").Add(v)
}
