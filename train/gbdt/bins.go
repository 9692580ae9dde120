package gbdt

import (
	"math"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/parallel"
)

// binned is the training matrix quantised once, before the first tree.
//
// The bins are stored column-major in groups of four features: the bin of
// row r in feature f is byte f%4 of packed[(f/4)*n+r]. One load then gives
// a row's bins in four features, which the histogram builder adds up
// together.
//
// Feature f has the strictly increasing edges edges[f] (finite or ±Inf, no
// NaN, no -0) and nb[f] = len(edges[f])+1 value bins: a present value v is
// in bin #{e in edges[f] : e <= v}, so bin b holds the values in
// [edges[f][b-1], edges[f][b]). A missing value (NaN) is in bin nb[f], the
// missing bin. The split "bins 0..b left" is therefore exactly the IR test
// x < edges[f][b] for every present value, at training and at prediction
// time.
type binned struct {
	n, p   int
	packed []uint32    // groups of four byte columns; see bin
	edges  [][]float64 // per feature
	nb     []int       // value bins per feature
	off    []int       // per feature, its first histogram slot; it has nb[f]+1 slots (the last for NaN)
	slots  int         // histogram slots of all features
	// posInf[f] (negInf[f]): some training value of f is +Inf (-Inf), so
	// that no threshold sends every present value left (right).
	posInf, negInf []bool
	min            []float64 // the smallest present training value of f
	// cats[f], for a categorical feature f, holds its categories in
	// increasing order, one per bin: bin b is category cats[f][b]. nil for
	// the other features.
	cats [][]int
	// chunkRows is the least number of rows of a chunk of a histogram:
	// see minHistChunk.
	chunkRows int
}

// threshold returns the IR test of the split "present bins 0..bin of
// feature f left": x < threshold, or x <= threshold when lessEqual. Every
// present training value takes the same branch by the test as by its bin.
//
//   - 0 <= bin < nb-1: x < edges[bin], or x <= MaxFloat64 if that edge is
//     +Inf;
//   - bin == nb-1 (every present value left; f has no +Inf): x <= MaxFloat64;
//   - bin == -1 (every present value right; f has no -Inf): x < min, the
//     smallest value, or x < MaxFloat64 if that is +Inf.
func (b *binned) threshold(f, bin int) (threshold float64, lessEqual bool) {
	e := b.edges[f]
	switch {
	case bin == -1:
		if math.IsInf(b.min[f], 1) {
			return math.MaxFloat64, false
		}
		return b.min[f], false
	case bin < len(e) && !math.IsInf(e[bin], 1):
		return e[bin], false
	default:
		return math.MaxFloat64, true
	}
}

// newBinned quantises the features of d into at most maxBins bins each
// (255 for a feature with missing values), using up to threads goroutines.
func newBinned(d *data.Dataset, maxBins, threads int) *binned {
	return newBinnedCat(d, maxBins, threads, nil)
}

// newBinnedCat is newBinned with the categorical features cat (nil for
// none): a categorical feature has one bin per category, in increasing
// order (its values must have passed checkCategories). Its edges are the
// categories but the smallest, so that binOf finds a category's bin.
func newBinnedCat(d *data.Dataset, maxBins, threads int, cat []bool) *binned {
	n, p := d.Rows, d.Cols
	groups := (p + 3) / 4
	b := &binned{
		n: n, p: p,
		packed: make([]uint32, n*groups),
		edges:  make([][]float64, p),
		nb:     make([]int, p),
		off:    make([]int, p),
		posInf: make([]bool, p),
		negInf: make([]bool, p),
		min:    make([]float64, p),
		cats:   make([][]int, p),
	}
	parallel.For(groups, threads, func(group int) {
		vals := make([]float64, 0, n)
		var col []float64
		var scratch []uint64
		for f := 4 * group; f < min(4*group+4, p); f++ {
			col = d.Column(f, col)
			vals = vals[:0]
			for _, v := range col {
				if v == v {
					vals = append(vals, v+0) // + 0 turns -0 into +0
				}
			}
			limit := maxBins
			if len(vals) < n && limit > 255 {
				limit = 255 // the missing bin must fit in a byte too
			}
			isCat := cat != nil && cat[f]
			if isCat {
				limit = maxCategories // checkCategories has counted them
			}
			var e []float64
			e, scratch = quantileEdges(vals, limit, scratch)
			if isCat {
				c := make([]int, 0, len(e)+1)
				if len(vals) > 0 {
					c = append(c, int(vals[0]))
				}
				for _, v := range e {
					c = append(c, int(v))
				}
				b.cats[f] = c
			}
			b.edges[f] = e
			b.nb[f] = len(e) + 1
			if len(vals) > 0 {
				b.posInf[f] = math.IsInf(vals[len(vals)-1], 1)
				b.negInf[f] = math.IsInf(vals[0], -1)
				b.min[f] = vals[0]
			}
			words := b.packed[(f/4)*n : (f/4+1)*n]
			shift := 8 * uint(f%4)
			nan := uint32(len(e) + 1)
			for r, v := range col {
				bin := nan
				if v == v {
					bin = uint32(binOf(e, v))
				}
				words[r] |= bin << shift
			}
		}
	})
	for f := range p {
		b.off[f] = b.slots
		b.slots += b.nb[f] + 1
	}
	b.chunkRows = minHistChunk
	for grp := range groups {
		lo, hi := b.groupSlots(grp)
		b.chunkRows = max(b.chunkRows, histChunkPerSlot*(hi-lo))
	}
	return b
}

// groupSlots returns the histogram slots [lo, hi) of the features of group
// grp (features 4·grp to 4·grp+3, the last group's that exist).
func (b *binned) groupSlots(grp int) (lo, hi int) {
	last := min(4*grp+3, b.p-1)
	return b.off[4*grp], b.off[last] + b.nb[last] + 1
}

// The rows of a histogram are built in chunks (see chunkSize) of at least
// minHistChunk rows, and at least histChunkPerSlot rows per slot of the
// group of four features with the most slots: a chunk's histogram then
// takes a small share of its time to add into the node's.
const (
	minHistChunk     = 4096
	histChunkPerSlot = 16
)

// quantileEdges sorts vals and returns the edges of at most limit bins.
// With at most limit distinct values, the edges are every distinct value
// above the smallest (one bin per value). Otherwise edge k, for k = 1 ..
// limit-1, is the quantile vals[⌊k·m/limit⌋] of the m sorted values or, when
// that is not above the previous edge (or the smallest value) because of
// ties, the next distinct value; the edges stop when the values run out.
// It sorts with scratch, which it returns, grown, for the next call.
func quantileEdges(vals []float64, limit int, scratch []uint64) ([]float64, []uint64) {
	scratch = sortFloats(vals, scratch)
	return edgesOfSorted(vals, limit), scratch
}

// edgesOfSorted is quantileEdges of values already sorted.
func edgesOfSorted(vals []float64, limit int) []float64 {
	m := len(vals)
	if m == 0 {
		return nil
	}
	distinct := 1
	for i := 1; i < m && distinct <= limit; i++ {
		if vals[i] != vals[i-1] {
			distinct++
		}
	}
	var edges []float64
	if distinct <= limit {
		edges = make([]float64, 0, distinct-1)
		for i := 1; i < m; i++ {
			if vals[i] != vals[i-1] {
				edges = append(edges, vals[i])
			}
		}
		return edges
	}
	edges = make([]float64, 0, limit-1)
	// next is the index of the first value above the last edge (or above
	// the smallest value).
	next := 1
	for next < m && vals[next] == vals[0] {
		next++
	}
	for k := 1; k < limit && next < m; k++ {
		q := max(int(int64(k)*int64(m)/int64(limit)), next)
		v := vals[q]
		edges = append(edges, v)
		for next = q + 1; next < m && vals[next] == v; next++ {
		}
	}
	return edges
}

// bin returns the bin of training row r in feature f.
func (b *binned) bin(f, r int) int {
	return int(b.packed[(f/4)*b.n+r] >> (8 * uint(f%4)) & 0xff)
}

// binOf returns the bin of the present value v: the number of edges <= v.
// The search halves the range without branches (the compiler makes the
// step a conditional move), as the comparisons of random values would be
// mispredicted half the time.
func binOf(edges []float64, v float64) int {
	n := len(edges)
	if n == 0 {
		return 0
	}
	base := 0
	for n > 1 {
		half := n / 2
		if edges[base+half] <= v {
			base += half
		}
		n -= half
	}
	if edges[base] <= v {
		base++
	}
	return base
}
