package tel

import (
	"fmt"
	"math"

	"github.com/treegen/treegen/internal/parallel"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// denseMaxBytes bounds the buffers of the dense passes of one minibatch.
const denseMaxBytes = 4 << 30

// denseRows is the number of rows of a unit of work of the element-wise
// parts of the dense passes.
const denseRows = 16

// denseWork holds the buffers of the dense passes over a minibatch of up
// to rows rows. Matrices are row-major; "nodes" are the trees' internal
// nodes, tree after tree (trees·inner of them), and "leaves" their leaves
// (trees·leaves). The products are oriented so that gonum's kernels run
// long inner loops (for k = 1, P·O is a product with an inner dimension of
// 1 in one orientation and a long dot product in the other).
type denseWork struct {
	rows  int
	z     []float64 // rows × nodes: margins; after the backward pass ∂L/∂z
	s     []float64 // rows × nodes: S(z)
	pin   []float64 // rows × nodes: P(x → i) of the internal nodes
	pleaf []float64 // rows × leaves: P(x → l)
	dleaf []float64 // rows × leaves: ∂L/∂P(x → l)
	wt    []float64 // p × nodes: Wᵀ
	ot    []float64 // k × leaves: Oᵀ
	gwt   []float64 // p × nodes: (∂L/∂W)ᵀ
	got   []float64 // k × leaves: (∂L/∂O)ᵀ
	outt  []float64 // k × rows: the tree sums, transposed
	dp    [][]float64
}

// denseBytes is the size of the buffers of newDenseWork.
func denseBytes(e *ensemble, rows int) float64 {
	nodes, leaves := float64(e.trees*e.inner), float64(e.trees*e.leaves)
	return 8 * (float64(rows)*(3*nodes+2*leaves) + float64(e.p)*2*nodes + float64(e.k)*2*leaves)
}

func newDenseWork(e *ensemble, rows int) (*denseWork, error) {
	if b := denseBytes(e, rows); b > denseMaxBytes {
		return nil, fmt.Errorf("tel: the dense passes over %d trees of depth %d with minibatches of %d rows need %.1f GiB of buffers (more than %d GiB); use the conditional mode", e.trees, e.depth, rows, b/(1<<30), denseMaxBytes>>30)
	}
	nodes, leaves := e.trees*e.inner, e.trees*e.leaves
	w := &denseWork{
		rows:  rows,
		z:     make([]float64, rows*nodes),
		s:     make([]float64, rows*nodes),
		pin:   make([]float64, rows*nodes),
		pleaf: make([]float64, rows*leaves),
		dleaf: make([]float64, rows*leaves),
		wt:    make([]float64, e.p*nodes),
		ot:    make([]float64, e.k*leaves),
		gwt:   make([]float64, e.p*nodes),
		got:   make([]float64, e.k*leaves),
		outt:  make([]float64, e.k*rows),
		dp:    make([][]float64, (rows+denseRows-1)/denseRows),
	}
	for u := range w.dp {
		w.dp[u] = make([]float64, e.inner+e.leaves)
	}
	return w, nil
}

func general(rows, cols int, data []float64) blas64.General {
	return blas64.General{Rows: rows, Cols: cols, Stride: cols, Data: data[:rows*cols]}
}

// transpose writes the transpose of the rows × cols matrix a into t.
func transpose(t, a []float64, rows, cols int) {
	for i := range rows {
		for j, v := range a[i*cols : (i+1)*cols] {
			t[j*rows+i] = v
		}
	}
}

// denseForward computes, for the n standardised rows of x (n × p), every
// node's margin and routing probability and every leaf's probability, and
// adds the tree outputs to out (n × k, holding the base scores on entry).
// It returns the number of (sample, tree, leaf) triples with P > 0.
func (e *ensemble) denseForward(w *denseWork, x []float64, n int, out []float64, threads int) int {
	nodes, leaves, inner := e.trees*e.inner, e.trees*e.leaves, e.inner
	// Z = X·Wᵀ
	transpose(w.wt, e.w, nodes, e.p)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(n, e.p, x), general(e.p, nodes, w.wt), 0, general(n, nodes, w.z))
	units := (n + denseRows - 1) / denseRows
	reached := make([]int, units)
	invGamma, invAlpha := 1/e.gamma, 1/e.alpha
	parallel.For(units, threads, func(u int) {
		for r := u * denseRows; r < min(n, (u+1)*denseRows); r++ {
			z := w.z[r*nodes : (r+1)*nodes]
			s := w.s[r*nodes : (r+1)*nodes]
			pin := w.pin[r*nodes : (r+1)*nodes]
			pl := w.pleaf[r*leaves : (r+1)*leaves]
			if e.hasBias {
				for i, b := range e.b {
					z[i] += b
				}
			}
			if e.logistic {
				for i, v := range z {
					s[i] = 1 / (1 + math.Exp(-v*invAlpha))
				}
			} else {
				for i, v := range z {
					u := v * invGamma
					switch {
					case u <= -0.5:
						s[i] = 0
					case u >= 0.5:
						s[i] = 1
					default:
						s[i] = u*(1.5-2*u*u) + 0.5
					}
				}
			}
			for t := range e.trees {
				st := s[t*inner : (t+1)*inner]
				pt := pin[t*inner : (t+1)*inner]
				lt := pl[t*e.leaves : (t+1)*e.leaves]
				pt[0] = 1
				half := inner / 2 // nodes 0 .. half-1 have internal children
				for i := range half {
					pi, si := pt[i], st[i]
					pt[2*i+1], pt[2*i+2] = pi*si, pi*(1-si)
				}
				for i := half; i < inner; i++ {
					pi, si := pt[i], st[i]
					l := 2*i + 1 - inner
					lt[l], lt[l+1] = pi*si, pi*(1-si)
				}
				for _, v := range lt {
					if v > 0 {
						reached[u]++
					}
				}
			}
		}
	})
	// Tᵀ = Oᵀ·Pᵀ: k·n dot products over all the leaves.
	transpose(w.ot, e.o, leaves, e.k)
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, general(e.k, leaves, w.ot), general(n, leaves, w.pleaf), 0, general(e.k, n, w.outt))
	for r := range n {
		for j := range e.k {
			out[r*e.k+j] += w.outt[j*n+r]
		}
	}
	total := 0
	for _, c := range reached {
		total += c
	}
	return total
}

// denseBackward computes, after denseForward on the same rows, the
// gradient of Σ_r <dT_r, T(x_r)> into g (overwriting it), dT being n × k;
// with dx not nil (n × p) also ∂/∂x.
func (e *ensemble) denseBackward(w *denseWork, x []float64, n int, dT []float64, g *gradient, dx []float64, threads int) {
	nodes, leaves, inner := e.trees*e.inner, e.trees*e.leaves, e.inner
	// (∂L/∂O)ᵀ = dTᵀ·P,  ∂L/∂P = dT·Oᵀ
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, general(n, e.k, dT), general(n, leaves, w.pleaf), 0, general(e.k, leaves, w.got))
	transpose(g.o, w.got, e.k, leaves)
	blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(n, e.k, dT), general(e.k, leaves, w.ot), 0, general(n, leaves, w.dleaf))
	units := (n + denseRows - 1) / denseRows
	invGamma, invAlpha := 1/e.gamma, 1/e.alpha
	parallel.For(units, threads, func(u int) {
		dp := w.dp[u]
		for r := u * denseRows; r < min(n, (u+1)*denseRows); r++ {
			z := w.z[r*nodes : (r+1)*nodes]
			s := w.s[r*nodes : (r+1)*nodes]
			pin := w.pin[r*nodes : (r+1)*nodes]
			dl := w.dleaf[r*leaves : (r+1)*leaves]
			for t := range e.trees {
				zt := z[t*inner : (t+1)*inner]
				st := s[t*inner : (t+1)*inner]
				pt := pin[t*inner : (t+1)*inner]
				copy(dp[inner:], dl[t*e.leaves:(t+1)*e.leaves])
				// P(left child) = P_i·S_i, P(right child) = P_i·(1-S_i):
				// ∂L/∂P_i = ∂L/∂P_l·S_i + ∂L/∂P_r·(1-S_i) and
				// ∂L/∂z_i = P_i·(∂L/∂P_l - ∂L/∂P_r)·S'(z_i).
				for i := inner - 1; i >= 0; i-- {
					dpl, dpr := dp[2*i+1], dp[2*i+2]
					si := st[i]
					dp[i] = dpl*si + dpr*(1-si)
					var ds float64
					if e.logistic {
						ds = si * (1 - si) * invAlpha
					} else if u := zt[i] * invGamma; u > -0.5 && u < 0.5 {
						ds = (1.5 - 6*u*u) * invGamma
					}
					zt[i] = pt[i] * (dpl - dpr) * ds
				}
			}
		}
	})
	// (∂L/∂W)ᵀ = Xᵀ·∂L/∂Z,  (∂L/∂X)ᵀ = Wᵀ·(∂L/∂Z)ᵀ
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, general(n, e.p, x), general(n, nodes, w.z), 0, general(e.p, nodes, w.gwt))
	transpose(g.w, w.gwt, e.p, nodes)
	if g.b != nil {
		clear(g.b)
		for r := range n {
			for i, v := range w.z[r*nodes : (r+1)*nodes] {
				g.b[i] += v
			}
		}
	}
	if dx != nil {
		dxt := make([]float64, e.p*n)
		blas64.Gemm(blas.NoTrans, blas.Trans, 1, general(e.p, nodes, w.wt), general(n, nodes, w.z), 0, general(e.p, n, dxt))
		transpose(dx, dxt, e.p, n)
	}
}
