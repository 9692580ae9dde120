package l1

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

const (
	// The bounds of a row's Σ_c exp(s_nc) outside which its logits are
	// shifted again, so that no exponential overflows or loses its
	// precision.
	minRowTotal = 1e-100
	maxRowTotal = 1e100
	// exactRatio bounds the cancellation of the running sums: a sum
	// updated by a difference keeps a relative error of a few ulps times
	// the ratio of the largest term to the result, and is taken anew,
	// term by term, where that ratio would exceed exactRatio.
	exactRatio = 1e3
)

// logits holds the logits of the N rows of a multinomial problem, each
// row shifted by a constant (so that its largest is 0 when set), class by
// class: class c's at s[c*N:(c+1)*N], so that a step on one class scans
// contiguous memory. e holds their exponentials; per row, ey the
// exponential of the label's logit and oy the sum of the others', from
// which the loss and the probabilities follow without cancellation.
type logits struct {
	N, k   int
	s, e   []float64
	ey, oy []float64
}

// set sizes l for the rows of X and k classes and computes the logits of
// (W, b), shifted, their exponentials and sums.
func (l *logits) set(X *Design, y []int, k int, W, b []float64) {
	N, D := X.N, X.D
	l.N, l.k = N, k
	l.s = grow(l.s, N*k)
	l.e = grow(l.e, N*k)
	l.ey = grow(l.ey, N)
	l.oy = grow(l.oy, N)
	m := l.ey // the rows' largest logits, until sums
	for n := range m {
		m[n] = math.Inf(-1)
	}
	for cl := range k {
		z := l.s[cl*N : (cl+1)*N]
		for n := range z {
			z[n] = b[cl]
		}
		for j, col := range X.Cols {
			if v := W[cl*D+j]; v != 0 {
				floats.AddScaled(z, v, col)
			}
		}
		for n, v := range z {
			m[n] = max(m[n], v)
		}
	}
	for cl := range k {
		z, e := l.s[cl*N:(cl+1)*N], l.e[cl*N:(cl+1)*N]
		for n, v := range z {
			z[n] = v - m[n]
			e[n] = math.Exp(z[n])
		}
	}
	l.sums(y)
}

// sums sets ey and oy from e.
func (l *logits) sums(y []int) {
	N := l.N
	clear(l.oy)
	for cl := range l.k {
		e := l.e[cl*N : (cl+1)*N]
		for n, v := range e {
			if y[n] != cl {
				l.oy[n] += v
			}
		}
	}
	for n, yn := range y {
		l.ey[n] = l.e[yn*N+n]
	}
}

// others returns Σ e_nc over the classes c other than y and skip.
func (l *logits) others(n, y, skip int) float64 {
	var t float64
	for cl := range l.k {
		if cl != y && cl != skip {
			t += l.e[cl*l.N+n]
		}
	}
	return t
}

// normalise shifts the logits of row n of label y so that the largest is
// 0 and recomputes its exponentials and sums.
func (l *logits) normalise(n, y int) {
	N := l.N
	m := math.Inf(-1)
	for cl := range l.k {
		m = max(m, l.s[cl*N+n])
	}
	for cl := range l.k {
		i := cl*N + n
		l.s[i] -= m
		l.e[i] = math.Exp(l.s[i])
	}
	l.ey[n] = l.e[y*N+n]
	l.oy[n] = l.others(n, y, -1)
}

// loss returns -log p_y of row n of label y: log(oy + ey) - s_y, computed
// as log1p(oy/ey) when the label's class dominates, so that a small loss
// keeps its precision.
func (l *logits) loss(n, y int) float64 {
	oy, ey := l.oy[n], l.ey[n]
	if oy <= ey && ey > 0 {
		return math.Log1p(oy / ey)
	}
	return math.Log(oy+ey) - l.s[y*l.N+n]
}

// coefficients fills a (class c at a[c*N:]) with the derivatives
// c_n(p_nc - [y_n = c]) of the rows' losses in their logits, for the
// weights c (nil: all 1), using f (len N) for scratch; 1 - p_y is
// oy/(oy + ey), a ratio of sums.
func (l *logits) coefficients(a, f []float64, y []int, c []float64) {
	N := l.N
	for n := range f[:N] {
		f[n] = 0
		if cn := weight(c, n); cn != 0 {
			f[n] = cn / (l.oy[n] + l.ey[n])
		}
	}
	for cl := range l.k {
		floats.MulTo(a[cl*N:(cl+1)*N], f[:N], l.e[cl*N:(cl+1)*N])
	}
	for n, yn := range y {
		a[yn*N+n] = -f[n] * l.oy[n]
	}
}
