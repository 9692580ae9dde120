package cart

import (
	"fmt"
	"math"
)

// The scan functions search the candidate splits of one feature f of the
// node [lo, hi) and offer each to sp.consider with a score to maximise: minus
// the children's impurities weighted by their row counts, up to a constant
// of the node. A candidate at position pos of f's sorted present values
// sends those pos rows left and the others right; the rows missing f go to
// the left or right child (both are tried). Only positions between two
// distinct values are candidates, and only those leaving MinSamplesLeaf rows
// on each side. When some rows miss f, "f present" against "f missing" is a
// candidate too.

// segment returns the rows and values of feature f in the node [lo, hi), and
// how many of them are present (not NaN): those come first.
func (b *builder) segment(f, lo, hi int) (rows []int32, vals []float64, present int) {
	rows, vals = b.idx[f][lo:hi], b.val[f][lo:hi]
	present = len(vals)
	for present > 0 && math.IsNaN(vals[present-1]) {
		present--
	}
	return rows, vals, present
}

// considerMissing offers the split that sends the rows where f is present
// one way and the rows missing it the other, when a finite threshold can
// express it: "x <= max" with missing values right, else "x < min" with
// missing values left (neither can when the present values include both
// -Inf and +Inf).
func considerMissing(sp *split, f int, vals []float64, present, nmiss int, score float64) {
	switch {
	case !math.IsInf(vals[present-1], 1):
		sp.consider(f, present, false, nmiss, score)
	case !math.IsInf(vals[0], -1):
		sp.consider(f, 0, true, nmiss, score)
	}
}

// scanGini scores a candidate by Σ_k c_k²/n over both children (c_k the
// class counts of a child of n rows), which is n_node minus the weighted Gini
// impurity of the children. The sums of squares are updated exactly in
// integers as rows move from right to left.
func (b *builder) scanGini(f, lo, hi int, sp *split) {
	rows, vals, present := b.segment(f, lo, hi)
	nmiss := len(rows) - present
	if present == 0 || nmiss == 0 && vals[0] == vals[present-1] {
		return
	}
	cls, L, R, M := b.cls, b.lc, b.rc, b.miss
	clear(M)
	for _, r := range rows[present:] {
		M[cls[r]]++
	}
	clear(L)
	// sqX = Σ X_k², dotXM = Σ X_k·M_k.
	var sqL, sqR, sqM, dotLM, dotRM int64
	for k := range R {
		R[k] = b.cnt[k] - M[k]
		sqR += R[k] * R[k]
		sqM += M[k] * M[k]
		dotRM += R[k] * M[k]
	}
	msl := b.s.minSamplesLeaf
	for i := 0; i < present-1; i++ {
		k := cls[rows[i]]
		sqL += 2*L[k] + 1
		L[k]++
		sqR -= 2*R[k] - 1
		R[k]--
		dotLM += M[k]
		dotRM -= M[k]
		if !(vals[i] < vals[i+1]) {
			continue
		}
		nl, nr := i+1, present-i-1
		if nl >= msl && nr+nmiss >= msl {
			score := float64(sqL)/float64(nl) + float64(sqR+2*dotRM+sqM)/float64(nr+nmiss)
			sp.consider(f, nl, false, nmiss, score)
		}
		if nmiss > 0 && nl+nmiss >= msl && nr >= msl {
			score := float64(sqL+2*dotLM+sqM)/float64(nl+nmiss) + float64(sqR)/float64(nr)
			sp.consider(f, nl, true, nmiss, score)
		}
	}
	if nmiss > 0 && present >= msl && nmiss >= msl {
		k := cls[rows[present-1]]
		sqL += 2*L[k] + 1 // now Σ over every present row
		score := float64(sqL)/float64(present) + float64(sqM)/float64(nmiss)
		considerMissing(sp, f, vals, present, nmiss, score)
	}
}

// scanEntropy scores a candidate by Σ_k c_k·ln c_k − n·ln n over both
// children, which is minus the children's entropies (in nats) weighted by
// their row counts. Each score is computed from the counts, so equal counts
// give equal scores.
func (b *builder) scanEntropy(f, lo, hi int, sp *split) {
	rows, vals, present := b.segment(f, lo, hi)
	nmiss := len(rows) - present
	if present == 0 || nmiss == 0 && vals[0] == vals[present-1] {
		return
	}
	cls, L, R, M := b.cls, b.lc, b.rc, b.miss
	clear(M)
	for _, r := range rows[present:] {
		M[cls[r]]++
	}
	clear(L)
	for k := range R {
		R[k] = b.cnt[k] - M[k]
	}
	msl := b.s.minSamplesLeaf
	for i := 0; i < present-1; i++ {
		k := cls[rows[i]]
		L[k]++
		R[k]--
		if !(vals[i] < vals[i+1]) {
			continue
		}
		nl, nr := i+1, present-i-1
		if nl >= msl && nr+nmiss >= msl {
			sp.consider(f, nl, false, nmiss, b.negEntropy(L, nil, nl)+b.negEntropy(R, M, nr+nmiss))
		}
		if nmiss > 0 && nl+nmiss >= msl && nr >= msl {
			sp.consider(f, nl, true, nmiss, b.negEntropy(L, M, nl+nmiss)+b.negEntropy(R, nil, nr))
		}
	}
	if nmiss > 0 && present >= msl && nmiss >= msl {
		L[cls[rows[present-1]]]++ // now the counts of every present row
		considerMissing(sp, f, vals, present, nmiss, b.negEntropy(L, nil, present)+b.negEntropy(M, nil, nmiss))
	}
}

// negEntropy returns Σ_k x_k·ln x_k − n·ln n for x = c + m (m may be nil),
// the class counts of n rows.
func (b *builder) negEntropy(c, m []int64, n int) float64 {
	t := b.xlogx
	s := -t[n]
	if m == nil {
		for _, x := range c {
			s += t[x]
		}
		return s
	}
	for k, x := range c {
		s += t[x+m[k]]
	}
	return s
}

// scanMSE scores a candidate by s_L²/n_L + s_R²/n_R, with s the sum of the
// target over a child: the children's weighted variance is Σy² minus that.
// As in scikit-learn, s_R is the node's sum minus s_L.
func (b *builder) scanMSE(f, lo, hi int, sp *split) {
	rows, vals, present := b.segment(f, lo, hi)
	nmiss := len(rows) - present
	if present == 0 || nmiss == 0 && vals[0] == vals[present-1] {
		return
	}
	y := b.y
	sumP, sumM := 0.0, 0.0
	for _, r := range rows[:present] {
		sumP += y[r]
	}
	for _, r := range rows[present:] {
		sumM += y[r]
	}
	msl := b.s.minSamplesLeaf
	sL := 0.0
	for i := 0; i < present-1; i++ {
		sL += y[rows[i]]
		if !(vals[i] < vals[i+1]) {
			continue
		}
		nl, nr := i+1, present-i-1
		sR := sumP - sL
		if nl >= msl && nr+nmiss >= msl {
			sRM := sR + sumM
			sp.consider(f, nl, false, nmiss, sL*sL/float64(nl)+sRM*sRM/float64(nr+nmiss))
		}
		if nmiss > 0 && nl+nmiss >= msl && nr >= msl {
			sLM := sL + sumM
			sp.consider(f, nl, true, nmiss, sLM*sLM/float64(nl+nmiss)+sR*sR/float64(nr))
		}
	}
	if nmiss > 0 && present >= msl && nmiss >= msl {
		considerMissing(sp, f, vals, present, nmiss, sumP*sumP/float64(present)+sumM*sumM/float64(nmiss))
	}
}

// threshold returns the canonical test "x < t" (or "x <= t" when lessEqual)
// that separates the consecutive distinct values a < b: every value up to a
// passes it, every value from b fails it. It is the midpoint a/2 + b/2 with
// "<" when the midpoint lies strictly between a and b, and a with "<="
// otherwise. With infinities: "x < b" for a = -Inf, "x <= a" for b = +Inf,
// "x < 0" for both. t is finite and never -0.
func threshold(a, b float64) (t float64, lessEqual bool) {
	switch {
	case math.IsInf(a, -1) && math.IsInf(b, 1):
		return 0, false
	case math.IsInf(a, -1):
		return below(b)
	case math.IsInf(b, 1):
		return atMost(a)
	}
	if m := a/2 + b/2; a < m && m < b {
		return m + 0, false // + 0 turns -0 into +0
	}
	return atMost(a)
}

// atMost returns a finite test equivalent to "x <= a" for a < +Inf.
func atMost(a float64) (t float64, lessEqual bool) {
	if math.IsInf(a, -1) {
		return -math.MaxFloat64, false
	}
	return a + 0, true
}

// below returns a finite test equivalent to "x < b" for b > -Inf.
func below(b float64) (t float64, lessEqual bool) {
	if math.IsInf(b, 1) {
		return math.MaxFloat64, true
	}
	return b + 0, false
}

// finish fills in the test of the chosen split sp of the node [lo, hi).
func (b *builder) finish(lo, hi int, sp *split) {
	vals := b.val[sp.feature][lo:hi]
	present := len(vals) - sp.nmiss
	switch sp.pos {
	case present: // every present value goes left (see considerMissing)
		sp.threshold, sp.lessEqual = atMost(vals[present-1])
	case 0: // every present value goes right
		sp.threshold, sp.lessEqual = below(vals[0])
	default:
		sp.threshold, sp.lessEqual = threshold(vals[sp.pos-1], vals[sp.pos])
	}
	if sp.nmiss > 0 {
		sp.defaultLeft = sp.nanLeft
	} else {
		// No training row tells: missing values follow the majority.
		sp.defaultLeft = 2*sp.pos >= len(vals)
	}
}

// route applies the test of sp to the node [lo, hi), recording in b.left
// where each row goes, and returns the number of rows sent left and the
// impurities of both children. It fails if the test disagrees with the split
// search, which would be a bug.
func (b *builder) route(lo, hi int, sp *split) (nl int, impL, impR float64, err error) {
	rows, vals := b.idx[sp.feature][lo:hi], b.val[sp.feature][lo:hi]
	t := sp.threshold
	for i, r := range rows {
		var left bool
		switch v := vals[i]; {
		case v != v:
			left = sp.defaultLeft
		case sp.lessEqual:
			left = v <= t
		default:
			left = v < t
		}
		b.left[r] = left
		if left {
			nl++
		}
	}
	want := sp.pos
	if sp.nanLeft {
		want += sp.nmiss
	}
	if nl != want {
		op := "<"
		if sp.lessEqual {
			op = "<="
		}
		return 0, 0, 0, fmt.Errorf("cart: internal error: the test x[%d] %s %v sends %d of %d rows left, the split search %d", sp.feature, op, t, nl, len(rows), want)
	}
	if b.y != nil {
		return nl, variance(b.y, rows, b.left, true), variance(b.y, rows, b.left, false), nil
	}
	clear(b.lc)
	clear(b.rc)
	for _, r := range rows {
		if b.left[r] {
			b.lc[b.cls[r]]++
		} else {
			b.rc[b.cls[r]]++
		}
	}
	return nl, b.impurity(b.lc, nl), b.impurity(b.rc, len(rows)-nl), nil
}

// partition reorders the range [lo, hi) of every feature's lists stably: the
// rows that go left (b.left) first, then the others.
func (b *builder) partition(lo, hi int) {
	for f := range b.p {
		idx, val := b.idx[f], b.val[f]
		w, k := lo, 0
		for i := lo; i < hi; i++ {
			r := idx[i]
			if b.left[r] {
				idx[w], val[w] = r, val[i]
				w++
			} else {
				b.tmpIdx[k], b.tmpVal[k] = r, val[i]
				k++
			}
		}
		copy(idx[w:hi], b.tmpIdx[:k])
		copy(val[w:hi], b.tmpVal[:k])
	}
}
