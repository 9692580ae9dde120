package gbdt

import (
	"math"
	"slices"

	"github.com/treegen/treegen/data"
)

// binned is the training matrix quantised once, before the first tree.
//
// Feature f has the strictly increasing edges edges[f] (finite or ±Inf, no
// NaN, no -0) and nb[f] = len(edges[f])+1 value bins: a present value v is
// in bin #{e in edges[f] : e <= v}, so bin b holds the values in
// [edges[f][b-1], edges[f][b]). A missing value (NaN) is in bin nb[f], the
// missing bin. The split "bins 0..b left" is therefore exactly the IR test
// x < edges[f][b] for every present value, at training and at prediction
// time.
type binned struct {
	n, p  int
	bins  []uint8     // column-major: bins[f*n+r] is the bin of row r in feature f
	edges [][]float64 // per feature
	nb    []int       // value bins per feature
	off   []int       // per feature, its first histogram slot; it has nb[f]+1 slots (the last for NaN)
	slots int         // histogram slots of all features
	// posInf[f]: some training value of f is +Inf, so that no threshold
	// sends every present value left.
	posInf []bool
}

// newBinned quantises the features of d into at most maxBins bins each
// (255 for a feature with missing values), using up to threads goroutines.
func newBinned(d *data.Dataset, maxBins, threads int) *binned {
	n, p := d.Rows, d.Cols
	b := &binned{
		n: n, p: p,
		bins:   make([]uint8, n*p),
		edges:  make([][]float64, p),
		nb:     make([]int, p),
		off:    make([]int, p),
		posInf: make([]bool, p),
	}
	parallel(p, threads, func(_, lo, hi int) {
		vals := make([]float64, 0, n)
		for f := lo; f < hi; f++ {
			vals = vals[:0]
			for r := range n {
				if v := d.X[r*p+f]; v == v {
					vals = append(vals, v+0) // + 0 turns -0 into +0
				}
			}
			limit := maxBins
			if len(vals) < n && limit > 255 {
				limit = 255 // the missing bin must fit in a byte too
			}
			e := quantileEdges(vals, limit)
			b.edges[f] = e
			b.nb[f] = len(e) + 1
			b.posInf[f] = len(vals) > 0 && math.IsInf(vals[len(vals)-1], 1)
			col := b.bins[f*n : (f+1)*n]
			nan := uint8(len(e) + 1)
			for r := range n {
				v := d.X[r*p+f]
				if v != v {
					col[r] = nan
				} else {
					col[r] = uint8(binOf(e, v))
				}
			}
		}
	})
	for f := range p {
		b.off[f] = b.slots
		b.slots += b.nb[f] + 1
	}
	return b
}

// quantileEdges sorts vals and returns the edges of at most limit bins:
// with at most limit distinct values, every distinct value above the
// smallest (one bin per value); otherwise the distinct values among the
// quantiles vals[⌊k·m/limit⌋], k = 1..limit-1, of the m sorted values,
// again without the smallest value (which would leave bin 0 empty).
func quantileEdges(vals []float64, limit int) []float64 {
	slices.Sort(vals)
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
	for k := 1; k < limit; k++ {
		v := vals[int(int64(k)*int64(m)/int64(limit))]
		if v > vals[0] && (len(edges) == 0 || v > edges[len(edges)-1]) {
			edges = append(edges, v)
		}
	}
	return edges
}

// binOf returns the bin of the present value v: the number of edges <= v.
func binOf(edges []float64, v float64) int {
	lo, hi := 0, len(edges)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if edges[mid] <= v {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}
