package l1

import "fmt"

// Design is a column-major matrix: Cols[j][n] is feature j of row n. The
// solvers scan one feature at a time, so each column is contiguous.
type Design struct {
	N, D int
	Cols [][]float64

	back []float64 // the storage of the columns Load made
}

// Gather returns the Design of the rows idx of the row-major matrix x of d
// columns (x[r*d+j]); idx nil means all rows (none when d = 0). Its
// columns share one allocation.
func Gather(x []float64, d int, idx []int) *Design {
	X := new(Design)
	X.Load(x, d, idx)
	return X
}

// Load makes X the Design of the rows idx of the row-major matrix x of d
// columns, as Gather, reusing X's storage where it is large enough.
func (X *Design) Load(x []float64, d int, idx []int) {
	if d < 0 || (d == 0 && len(x) != 0) || (d > 0 && len(x)%d != 0) {
		panic(fmt.Sprintf("l1: %d values are not a whole number of rows of %d columns", len(x), d))
	}
	n := len(idx)
	if idx == nil {
		n = 0
		if d > 0 {
			n = len(x) / d
		}
	}
	if cap(X.back) < n*d {
		X.back = make([]float64, n*d)
	}
	back := X.back[:n*d]
	if cap(X.Cols) < d {
		X.Cols = make([][]float64, d)
	}
	X.Cols = X.Cols[:d]
	X.N, X.D = n, d
	for j := range d {
		col := back[j*n : (j+1)*n : (j+1)*n]
		if idx == nil {
			for r := range col {
				col[r] = x[r*d+j]
			}
		} else {
			for r, i := range idx {
				col[r] = x[i*d+j]
			}
		}
		X.Cols[j] = col
	}
}

// check panics unless X is well formed.
func (X *Design) check() {
	if X == nil {
		panic("l1: nil Design")
	}
	if X.N < 0 || X.D < 0 || len(X.Cols) != X.D {
		panic(fmt.Sprintf("l1: Design of %d rows and %d features has %d columns", X.N, X.D, len(X.Cols)))
	}
	for j, col := range X.Cols {
		if len(col) != X.N {
			panic(fmt.Sprintf("l1: column %d of the Design has %d rows, want %d", j, len(col), X.N))
		}
	}
}
