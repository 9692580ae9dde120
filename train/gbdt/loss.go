package gbdt

import (
	"math"
	"slices"
)

// minMean is the floor of the mean target whose logarithm is the base
// score of the objectives with the exp link (a mean of 0 has none).
const minMean = 1e-15

// otherBaseScore returns the initial margins of the objectives other than
// squarederror, logistic and softmax, and of those with weights: the
// constant model of least (weighted) training loss, or near it.
// SquaredError: the weighted mean. Logistic: the log-odds of the weighted
// fraction of positive rows (ScalePosWeight included), clipped to [1e-15,
// 1-1e-15]. Softmax: the logarithms of the weighted class fractions,
// clipped below at 1e-15. Poisson, GammaRegression, Tweedie: the logarithm
// of the weighted mean target (at least 1e-15). PseudoHuber: the weighted
// median of the target. Quantile: its weighted α-quantile (see
// weightedQuantile).
func (t *target) otherBaseScore() []float64 {
	wt := func(r int) float64 {
		if t.w == nil {
			return 1
		}
		return t.w[r]
	}
	sumW := 0.0
	for r := range max(len(t.y), len(t.cls)) {
		sumW += wt(r)
	}
	mean := func() float64 {
		s := 0.0
		for r, v := range t.y {
			s += wt(r) * v
		}
		m := s / sumW
		c := 0.0
		for r, v := range t.y {
			c += wt(r) * (v - m)
		}
		return m + c/sumW
	}
	switch t.obj {
	case SquaredError:
		return []float64{mean()}
	case Poisson, GammaRegression, Tweedie:
		return []float64{math.Log(math.Max(mean(), minMean))}
	case PseudoHuber:
		return []float64{weightedQuantile(slices.Clone(t.y), t.w, 0.5)}
	case Quantile:
		return []float64{weightedQuantile(slices.Clone(t.y), t.w, t.os.alpha)}
	}
	frac := make([]float64, max(t.k, 2))
	for r, c := range t.cls {
		frac[c] += wt(r)
	}
	for c := range frac {
		frac[c] /= sumW
	}
	if t.obj == Logistic {
		p := math.Min(math.Max(frac[1], 1e-15), 1-1e-15)
		return []float64{math.Log(p / (1 - p))}
	}
	b := make([]float64, t.k)
	for k := range b {
		b[k] = math.Log(math.Max(frac[k], 1e-15))
	}
	return b
}

// otherGradients computes the gradient pairs of the rows [lo, hi) for the
// objectives with one margin per row other than squarederror and
// logistic, times the rows' weights (XGBoost's and LightGBM's formulas).
func (t *target) otherGradients(margins []float64, g []gradPair, lo, hi int) {
	os := &t.os
	for r := lo; r < hi; r++ {
		m, y := margins[r], t.y[r]
		var p gradPair
		switch t.obj {
		case Poisson:
			p = gradPair{math.Exp(m) - y, math.Exp(m + os.poissonDelta)}
		case GammaRegression:
			e := y / math.Exp(m)
			p = gradPair{1 - e, e}
		case Tweedie:
			a, b := math.Exp((1-os.rho)*m), math.Exp((2-os.rho)*m)
			p = gradPair{-y*a + b, -y*(1-os.rho)*a + (2-os.rho)*b}
		case PseudoHuber:
			z := (m - y) / os.slope
			s := 1 + z*z
			q := math.Sqrt(s)
			p = gradPair{(m - y) / q, 1 / (s * q)}
		case Quantile:
			p = gradPair{-os.alpha, 1}
			if m-y >= 0 {
				p.g = 1 - os.alpha
			}
		}
		if t.w != nil {
			p.g *= t.w[r]
			p.h *= t.w[r]
		}
		g[r] = p
	}
}

// weigh multiplies the gradient pairs of the rows [lo, hi) by the rows'
// weights; the softmax hessians keep their floor (XGBoost's order: the
// floor of a logistic hessian comes before the weight, that of a softmax
// one after).
func (t *target) weigh(grads [][]gradPair, lo, hi int) {
	for _, g := range grads {
		for r := lo; r < hi; r++ {
			w := t.w[r]
			g[r].g *= w
			g[r].h *= w
			if t.obj == Softmax && g[r].h < minHessian {
				g[r].h = minHessian
			}
		}
	}
}

// refitLeaves gives every leaf of a grown tree the α-quantile of the
// residuals y - m of its rows (weighted; see weightedQuantile) times the
// learning rate eta, as LightGBM's quantile objective renews a tree's
// outputs. rows are the grower's rows (a leaf's are rows[lo:hi]) and mk
// the margins before the tree.
func (t *target) refitLeaves(nodes []tnode, rows []int32, mk []float64, eta float64) {
	var v, w []float64
	for i := range nodes {
		nd := &nodes[i]
		if !nd.leaf {
			continue
		}
		v, w = v[:0], w[:0]
		for _, r := range rows[nd.lo:nd.hi] {
			v = append(v, t.y[r]-mk[r])
			if t.w != nil {
				w = append(w, t.w[r])
			}
		}
		if t.w == nil {
			w = nil
		}
		nd.value = weightedQuantile(v, w, t.os.alpha)*eta + 0 // + 0 turns -0 into +0
	}
}

// weightedQuantile returns the α-quantile of the values v with weights w
// (nil: all 1), reordering v and w. Without weights it is LightGBM's
// percentile: with the n values sorted in decreasing order d_0 >= d_1 >=
// ..., x = (1-α)·n and j = ⌊x⌋, it is d_0 if j < 1, d_{n-1} if j >= n,
// else d_{j-1} - (d_{j-1} - d_j)·(x - j). With weights, a row of weight w
// counts as w rows in that formula (d_i is then the value whose run of
// cumulative weight, in decreasing order, covers i, and n the total
// weight), so that integer weights give the quantile of the data set with
// the rows repeated; rows of weight 0 do not count. It returns 0 when no
// row has a weight > 0.
func weightedQuantile(v, w []float64, alpha float64) float64 {
	n := len(v)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	// Decreasing values; equal values in index order (they are equal, so
	// the order only fixes the order of the weights' additions).
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] > v[b]:
			return -1
		case v[a] < v[b]:
			return 1
		}
		return 0
	})
	vals := make([]float64, 0, n)
	cum := make([]float64, 0, n)
	total := 0.0
	for _, i := range idx {
		wi := 1.0
		if w != nil {
			wi = w[i]
		}
		if wi <= 0 {
			continue
		}
		total += wi
		vals = append(vals, v[i])
		cum = append(cum, total)
	}
	if len(vals) == 0 {
		return 0
	}
	// at returns d_j: the first value whose cumulative weight exceeds j.
	at := func(j float64) float64 {
		k, _ := slices.BinarySearchFunc(cum, j, func(c, j float64) int {
			if c <= j {
				return -1
			}
			return 1
		})
		return vals[min(k, len(vals)-1)]
	}
	x := (1 - alpha) * total
	j := math.Floor(x)
	switch {
	case len(vals) == 1 || j < 1:
		return vals[0]
	case j >= total:
		return vals[len(vals)-1]
	}
	hi, lo := at(j-1), at(j)
	return hi - (hi-lo)*(x-j)
}
