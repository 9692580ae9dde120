package tel

import "github.com/treegen/treegen/internal/parallel"

// passes runs the forward and backward passes of an ensemble over
// minibatches of up to rows rows: the conditional passes (Algorithms 1 and
// 2), or the full ones when the last minibatch reached at least
// fullDensity of the leaves (full.go). Both the trainer and Layer use it.
//
// The rows of a minibatch are split into fixed units of condRows rows,
// whose forward and backward passes run in parallel; then the gradient of
// every tree is summed, one goroutine per tree, over the rows in minibatch
// order. Nothing depends on the number of goroutines.
type passes struct {
	e       *ensemble
	threads int
	units   []*condUnit
	fw      *fullWork // nil: the full passes are off (their buffers would be too large)
	density float64   // the fraction of the leaves the last minibatch reached

	// The minibatch of the last forward pass.
	n    int
	row  func(b int) []float64 // the b-th row of the minibatch
	full bool                  // it took the full passes
}

// condUnit is the scratch and the traces of a unit of work of the
// passes over a minibatch.
type condUnit struct {
	tr      trace
	leafEnd []int32 // per (row, tree) of the unit: end of its leafRecs
	fracEnd []int32 // and of its fracRecs
	sums    []float64
	tv      []float64
	reached int
}

func newPasses(e *ensemble, rows, threads int) *passes {
	ps := &passes{e: e, threads: threads, density: 1} // small initial weights route every row everywhere
	ps.units = make([]*condUnit, (rows+condRows-1)/condRows)
	for u := range ps.units {
		ps.units[u] = &condUnit{
			leafEnd: make([]int32, condRows*e.trees),
			fracEnd: make([]int32, condRows*e.trees),
			tv:      make([]float64, e.k),
		}
	}
	if fullBytes(e, rows) <= fullMaxBytes {
		ps.fw = newFullWork(e, rows, len(ps.units))
	}
	return ps
}

// forward adds the tree sums T_1(x) + ... + T_m(x) of the n rows of the
// minibatch to out (n × k) and returns the number of (row, tree, leaf)
// triples reached. With loss not nil, it calls loss(b, out_b, dT_b) after
// row b's forward pass, which must write ∂L/∂T of the row into dT_b
// (dT is n × k), and runs the backward pass of the row at once, so that
// only gradient must follow (and with dx not nil, n × p, it writes every
// row's ∂L/∂x there); else backward must, with the ∂L/∂T of every row,
// before the next forward.
func (ps *passes) forward(n int, row func(b int) []float64, out []float64, loss func(b int, out, dT []float64), dT, dx []float64) int {
	e := ps.e
	p, k, m, inner, leaves := e.p, e.k, e.trees, e.inner, e.leaves
	ps.n, ps.row = n, row
	ps.full = ps.fw != nil && ps.density >= fullDensity
	units := (n + condRows - 1) / condRows
	parallel.For(units, ps.threads, func(u int) {
		cu := ps.units[u]
		cu.reached = 0
		cu.tr.reset()
		for b := u * condRows; b < min(n, (u+1)*condRows); b++ {
			q := b - u*condRows
			x := row(b)
			o := out[b*k : (b+1)*k]
			for t := range m {
				clear(cu.tv)
				if ps.full {
					fu := ps.fw.units[u]
					cu.reached += e.forwardFull(t, x, cu.tv,
						fu.s[t*inner:(t+1)*inner], fu.ds[t*inner:(t+1)*inner],
						fu.pn[t*(inner+leaves):(t+1)*(inner+leaves)])
				} else {
					cu.reached += e.forwardTree(t, x, cu.tv, &cu.tr)
					cu.leafEnd[q*m+t] = int32(len(cu.tr.leaves))
					cu.fracEnd[q*m+t] = int32(len(cu.tr.fracs))
				}
				for j, v := range cu.tv {
					o[j] += v
				}
			}
			if loss != nil {
				db := dT[b*k : (b+1)*k]
				loss(b, o, db)
				var dxb []float64
				if dx != nil {
					dxb = dx[b*p : (b+1)*p]
					clear(dxb)
				}
				ps.backwardRow(u, b, db, dxb, false)
			}
		}
	})
	reached := 0
	for u := range units {
		reached += ps.units[u].reached
	}
	ps.density = float64(reached) / float64(n*m*leaves)
	return reached
}

// backwardRow runs the backward pass of row b of unit u with ∂L/∂T dT,
// adding ∂L/∂x to dx when it is not nil. In the full passes, again
// recomputes the row's routing first (forward kept only one row's).
func (ps *passes) backwardRow(u, b int, dT, dx []float64, again bool) {
	e := ps.e
	m, inner, leaves := e.trees, e.inner, e.leaves
	cu := ps.units[u]
	if ps.full {
		fu := ps.fw.units[u]
		x := ps.row(b)
		for t := range m {
			s, ds := fu.s[t*inner:(t+1)*inner], fu.ds[t*inner:(t+1)*inner]
			pn := fu.pn[t*(inner+leaves) : (t+1)*(inner+leaves)]
			if again {
				clear(cu.tv)
				e.forwardFull(t, x, cu.tv, s, ds, pn)
			}
			e.backwardFull(t, dT, s, ds, pn, fu.a,
				ps.fw.coef[(b*m+t)*inner:(b*m+t+1)*inner], ps.fw.prob[(b*m+t)*leaves:(b*m+t+1)*leaves], dx)
		}
		return
	}
	q := b - u*condRows
	leaf0, frac0 := cu.start(q, m)
	for t := range m {
		leaf1, frac1 := cu.leafEnd[q*m+t], cu.fracEnd[q*m+t]
		if nf := 2 * int(frac1-frac0); cap(cu.sums) < nf {
			cu.sums = make([]float64, nf)
		}
		e.backwardTree(t, dT, cu.tr.leaves[leaf0:leaf1], cu.tr.fracs[frac0:frac1], cu.sums, dx)
		leaf0, frac0 = leaf1, frac1
	}
}

// start returns where the records of row q of the unit begin.
func (cu *condUnit) start(q, m int) (leaf, frac int32) {
	if q == 0 {
		return 0, 0
	}
	return cu.leafEnd[q*m-1], cu.fracEnd[q*m-1]
}

// backward runs the backward pass of every row of the last forward's
// minibatch, whose ∂L/∂T are dT (n × k), writing ∂L/∂x into dx (n × p)
// when it is not nil.
func (ps *passes) backward(dT, dx []float64) {
	e := ps.e
	k, p := e.k, e.p
	units := (ps.n + condRows - 1) / condRows
	parallel.For(units, ps.threads, func(u int) {
		for b := u * condRows; b < min(ps.n, (u+1)*condRows); b++ {
			var dxb []float64
			if dx != nil {
				dxb = dx[b*p : (b+1)*p]
				clear(dxb)
			}
			ps.backwardRow(u, b, dT[b*k:(b+1)*k], dxb, true)
		}
	})
}

// gradient writes the gradient of the minibatch, whose backward passes
// are done, into g (which it overwrites): for every tree, in parallel, the
// sum over the rows in minibatch order. With after not nil, it calls
// after(t) once tree t's gradient is complete, on the goroutine that
// summed it (the trainer updates the tree's parameters there, while they
// are in cache).
func (ps *passes) gradient(g *gradient, dT []float64, after func(t int)) {
	e := ps.e
	p, k, m, inner, leaves := e.p, e.k, e.trees, e.inner, e.leaves
	parallel.For(m, ps.threads, func(t int) {
		clear(g.w[t*inner*p : (t+1)*inner*p])
		if g.b != nil {
			clear(g.b[t*inner : (t+1)*inner])
		}
		clear(g.o[t*leaves*k : (t+1)*leaves*k])
		if after != nil {
			defer after(t)
		}
		if ps.full {
			ps.fullTreeGradient(g, t, dT)
			return
		}
		for b := range ps.n {
			u, q := b/condRows, b%condRows
			cu := ps.units[u]
			leaf0, frac0 := cu.start(q, m)
			if t > 0 {
				leaf0, frac0 = cu.leafEnd[q*m+t-1], cu.fracEnd[q*m+t-1]
			}
			leaf1, frac1 := cu.leafEnd[q*m+t], cu.fracEnd[q*m+t]
			e.accumulate(g, t, ps.row(b), dT[b*k:(b+1)*k], cu.tr.leaves[leaf0:leaf1], cu.tr.fracs[frac0:frac1])
		}
	})
}
