//go:build amd64 && !purego

package gbdt

import "golang.org/x/sys/cpu"

// hasAVX reports whether the CPU runs addRowsAVX; a variable for tests.
var hasAVX = cpu.X86.HasAVX

// addRows is addRowsGo, in assembly on CPUs with AVX: one 256-bit load-add
// and one store per slot (gradient, hessian, count and padding), where the
// compiled Go loop needs three loads, adds and stores. The additions are
// the same, in the same order, so the sums are the same bits.
//
// The assembly does not check its indices: every byte of a word must be a
// slot of its feature (binned guarantees it), and every row of rows an
// index of the words and of grad (checked here, once).
func (a *rowAdder) addRows(rows []int32, grad, ord []gradPair) {
	if !hasAVX {
		a.addRowsGo(rows, grad, ord)
		return
	}
	if len(rows) == 0 || a.groups == 0 {
		return
	}
	var slots [4 * maxUnitGroups]*cell
	var words [maxUnitGroups]*uint32
	for j := range a.groups {
		if len(a.words[j]) != len(grad) {
			panic("gbdt: internal error: bins and gradients of different lengths")
		}
		words[j] = &a.words[j][0]
		for k := range 4 {
			slots[4*j+k] = &a.slots[4*j+k][0]
		}
	}
	if ord != nil {
		if len(ord) < len(rows) {
			panic("gbdt: internal error: fewer gathered gradients than rows")
		}
		// Rows far apart (a node below the root) miss the cache: their
		// bins are fetched ahead. Rows close together are read faster
		// without (the hardware sees the stream).
		fetch := 0
		if span := int(rows[len(rows)-1]) - int(rows[0]); span > sparseRows*len(rows) {
			fetch = 1
		}
		addRowsAVX(&slots[0], &words[0], a.groups, rows, &ord[0], 1, fetch)
		return
	}
	addRowsAVX(&slots[0], &words[0], a.groups, rows, &grad[0], 0, 0)
}

// sparseRows is the mean distance between rows beyond which addRows
// prefetches their bins.
const sparseRows = 8

// addRowsAVX reads the gradient pair of the i-th row r of rows at
// grad[i] if inOrder is 1, at grad[r] if 0; with fetch 1 it prefetches
// the bins of the rows ahead.
//
//go:noescape
func addRowsAVX(slots **cell, words **uint32, groups int, rows []int32, grad *gradPair, inOrder, fetch int)
