package latent

import (
	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/train/latent/isotonic"
)

// unitRows is the number of rows of a unit of work of the passes over a
// minibatch. Units are fixed by the rows, not by the goroutines, and their
// gradients are summed in order, so the result does not depend on the
// number of goroutines.
const unitRows = 32

// pass is the scratch of the forward and backward passes over minibatches.
type pass struct {
	nt      *net
	tgt     *target
	threads int
	sol     isotonic.Solution
	// Per row of the minibatch: split margins (B), rewards (T), margins
	// and their gradient (k), the gradient of z and of q (T).
	s, q, out, dout, gz, gQ []float64
	gEta                    []float64
	path                    []int32   // per row: its path, D+1 slots
	plen                    []int     // per row: its path's length
	loss                    []float64 // per row
	units                   []*net    // per unit: its gradient
	grad                    *net      // the minibatch's gradient
}

func newPass(nt *net, tgt *target, batch, threads int) *pass {
	ps := &pass{
		nt: nt, tgt: tgt, threads: threads,
		s: make([]float64, batch*nt.B), q: make([]float64, batch*nt.T),
		out: make([]float64, batch*nt.k), dout: make([]float64, batch*nt.k),
		gz: make([]float64, batch*nt.T), gQ: make([]float64, batch*nt.T),
		gEta: make([]float64, nt.T), loss: make([]float64, batch),
		path: make([]int32, batch*(nt.depth+1)), plen: make([]int, batch),
		grad: newNet(nt.p, nt.k, nt.depth, nt.elu),
	}
	ps.units = make([]*net, (batch+unitRows-1)/unitRows)
	for u := range ps.units {
		ps.units[u] = newNet(nt.p, nt.k, nt.depth, nt.elu)
	}
	return ps
}

// gradient computes, for the minibatch of rows idx of the standardised
// inputs x with targets y (width values per row), the gradient of the
// mean loss plus λ‖η‖∞ into ps.grad, and returns the sum of the rows'
// losses (without the penalty).
func (ps *pass) gradient(x, y []float64, idx []int, lambda float64) float64 {
	nt, tgt := ps.nt, ps.tgt
	p, B, T, k, wd := nt.p, nt.B, nt.T, nt.k, tgt.width()
	n := len(idx)
	units := (n + unitRows - 1) / unitRows
	each := func(f func(u, i, r int)) {
		parallel.For(units, ps.threads, func(u int) {
			for i := u * unitRows; i < min(n, (u+1)*unitRows); i++ {
				f(u, i, idx[i])
			}
		})
	}
	// Forward: margins and rewards, the tree program (Eq. 3) of the whole
	// minibatch, the read-out and the loss.
	L := nt.depth + 1
	path := func(i int) []int32 { return ps.path[i*L : i*L+ps.plen[i]] }
	each(func(_, i, r int) {
		ps.plen[i] = nt.margins(x[r*p:(r+1)*p], ps.s[i*B:(i+1)*B], ps.q[i*T:(i+1)*T], ps.path[i*L:(i+1)*L])
	})
	ps.sol.Solve(nt.tree, nt.eta, ps.q[:n*T], n)
	z := ps.sol.Z
	scale := 1 / float64(n)
	each(func(_, i, r int) {
		out, dout := ps.out[i*k:(i+1)*k], ps.dout[i*k:(i+1)*k]
		nt.readout(x[r*p:(r+1)*p], z[i*T:(i+1)*T], path(i), out)
		ps.loss[i] = tgt.grad(out, y[r*wd:(r+1)*wd], dout, scale)
		nt.zGrad(path(i), dout, ps.gz[i*T:(i+1)*T])
	})
	// Backward: through the tree program, then every row's margins.
	ps.sol.BackwardInto(ps.gEta, ps.gQ[:n*T], nil, ps.gz[:n*T])
	parallel.For(units, ps.threads, func(u int) {
		g := ps.units[u]
		clear(g.theta)
		for i := u * unitRows; i < min(n, (u+1)*unitRows); i++ {
			r := idx[i]
			nt.backRow(x[r*p:(r+1)*p], ps.s[i*B:(i+1)*B], ps.q[i*T:(i+1)*T], z[i*T:(i+1)*T], path(i),
				ps.dout[i*k:(i+1)*k], ps.gQ[i*T:(i+1)*T], g)
		}
	})
	g := ps.grad.theta
	copy(g, ps.units[0].theta)
	for _, un := range ps.units[1:units] {
		for j, v := range un.theta {
			g[j] += v
		}
	}
	for t, v := range ps.gEta {
		ps.grad.eta[t] += v
	}
	nt.penalty(lambda, ps.grad.eta)
	sum := 0.0
	for _, l := range ps.loss[:n] {
		sum += l
	}
	return sum
}
