package gbdt

// This file holds the inner loop of histogram building, the trainer's
// hottest: the portable version, which the assembly one of hist_amd64.s
// must equal bit for bit.

// maxUnitGroups is the largest number of groups of four features whose
// histograms one pass over the rows builds. Many features per row keep many
// independent additions in flight, which matters when most rows fall in
// the same bin (consecutive additions to one slot wait for each other).
const maxUnitGroups = 4

// rowAdder is what one pass over rows adds to: the bins of groups groups
// of four features and the histogram slots of their features.
type rowAdder struct {
	groups int
	words  [maxUnitGroups][]uint32 // the bins of group j: see binned
	slots  [4 * maxUnitGroups][]cell
}

// addRowsGo adds, for every row r = rows[i] in order, the gradient pair
// grad[r] (which is ord[i] when ord is not nil) and a count of 1 (in the float64 n) to one slot of each of the 4·a.groups
// features: for group j, the four bytes b0..b3 of a.words[j][r] are the
// row's bins in the group's four features, so a.slots[4j+k][bk] gets the
// row.
func (a *rowAdder) addRowsGo(rows []int32, grad, ord []gradPair) {
	for i, r := range rows {
		gg, hh := grad[r].g, grad[r].h
		if ord != nil {
			gg, hh = ord[i].g, ord[i].h
		}
		for j := range a.groups {
			w := a.words[j][r]
			for k := range 4 {
				c := &a.slots[4*j+k][w>>(8*k)&0xff]
				c.g += gg
				c.h += hh
				c.n += 1
			}
		}
	}
}

// addCells adds src to dst, cell by cell: the sums of dst's rows and
// src's.
func addCells(dst, src []cell) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i].g += src[i].g
		dst[i].h += src[i].h
		dst[i].n += src[i].n
	}
}

// subCells subtracts src from dst, cell by cell: the sums of dst's rows
// that are not src's.
func subCells(dst, src []cell) {
	src = src[:len(dst)]
	for i := range dst {
		dst[i].g -= src[i].g
		dst[i].h -= src[i].h
		dst[i].n -= src[i].n
	}
}
