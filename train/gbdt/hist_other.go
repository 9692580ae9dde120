//go:build !amd64 || purego

package gbdt

// addRows is addRowsGo on architectures without an assembly version.
func (a *rowAdder) addRows(rows []int32, grad, ord []gradPair) { a.addRowsGo(rows, grad, ord) }
