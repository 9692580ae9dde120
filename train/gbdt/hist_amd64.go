//go:build amd64 && !purego

package gbdt

// addRows is addRowsGo in assembly: one 128-bit load, add and store for
// the gradient pair of each slot (SSE2, which every amd64 CPU has), where
// the compiled Go loop needs two of each. The additions are the same, in
// the same order, so the sums are the same bits.
//
// The assembly does not check its indices: every byte of a word must be a
// slot of its feature (binned guarantees it), and every row of rows an
// index of the words and of grad (checked here, once).
func (a *rowAdder) addRows(rows []int32, grad []gradPair) {
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
	addRowsAsm(&slots[0], &words[0], a.groups, rows, &grad[0])
}

//go:noescape
func addRowsAsm(slots **cell, words **uint32, groups int, rows []int32, grad *gradPair)
