package gbdt

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// binSet is a set of the bins 0..255 of a feature.
type binSet [4]uint64

func (s *binSet) has(b int) bool { return s[b>>6]>>(b&63)&1 != 0 }
func (s *binSet) add(b int)      { s[b>>6] |= 1 << (b & 63) }
func (s *binSet) remove(b int)   { s[b>>6] &^= 1 << (b & 63) }

// thresholdL1 is XGBoost's ThresholdL1: G shrunk towards 0 by alpha.
func thresholdL1(G, alpha float64) float64 {
	switch {
	case G > alpha:
		return G - alpha
	case G < -alpha:
		return G + alpha
	}
	return 0
}

// weight is the value of a node of sums G, H before shrinkage and bounds:
// -T(G)/(H+λ), capped at ±MaxDeltaStep (XGBoost's CalcWeight).
func (g *grower) weight(G, H float64) float64 {
	w := -thresholdL1(G, g.s.alpha) / (H + g.s.lambda)
	if mds := g.s.maxDeltaStep; mds > 0 && math.Abs(w) > mds {
		w = math.Copysign(mds, w)
	}
	return w
}

// nodeWeight is weight clamped into the bounds [lower, upper] of the
// constraints (XGBoost's TreeEvaluator::CalcWeight).
func (g *grower) nodeWeight(G, H, lower, upper float64) float64 {
	w := g.weight(G, H)
	if g.s.monotone != nil {
		w = min(max(w, lower), upper)
	}
	return w
}

// gainTerm is the term of a node of sums G, H in the gain of a split,
// whose value must lie in [lower, upper]: T(G)²/(H+λ), or with
// MaxDeltaStep or constraints -(2Gw + (H+λ)w²) for the node's value w
// (XGBoost's CalcGainGivenWeight), which is the same unless w is capped or
// bounded.
func (g *grower) gainTerm(G, H, lower, upper float64) float64 {
	if H <= 0 {
		return 0
	}
	if !g.s.weightGain {
		t := thresholdL1(G, g.s.alpha)
		return t * t / (H + g.s.lambda)
	}
	w := g.nodeWeight(G, H, lower, upper)
	return -(2*G*w + (H+g.s.lambda)*w*w)
}

// splitScore is the score sL + sR of a candidate split of st on feature f
// into children of sums (gl, hl) and (gr, hr), with Alpha, MaxDeltaStep
// or constraints; -Inf when the children's values break f's monotone
// constraint (XGBoost's CalcSplitGain).
//
// Children of the same value w (both capped or bounded) score
// -(2Gw + (H+2λ)w²) from the node's sums G, H: the same for every such
// candidate, so that the first of them is kept, as XGBoost's float32
// arithmetic mostly does, rather than the one that rounding favours.
func (g *grower) splitScore(f int, st *nodeState, gl, hl, gr, hr float64) float64 {
	if !g.s.weightGain {
		return g.gainTerm(gl, hl, st.lower, st.upper) + g.gainTerm(gr, hr, st.lower, st.upper)
	}
	wl := g.nodeWeight(gl, hl, st.lower, st.upper)
	wr := g.nodeWeight(gr, hr, st.lower, st.upper)
	if g.s.monotone != nil {
		if c := g.s.monotone[f]; c > 0 && wl > wr || c < 0 && wl < wr {
			return math.Inf(-1)
		}
	}
	if wl == wr {
		return -(2*st.g*wl + (st.h+2*g.s.lambda)*wl*wl)
	}
	return -(2*gl*wl + (hl+g.s.lambda)*wl*wl) - (2*gr*wr + (hr+g.s.lambda)*wr*wr)
}

// bound sets the bounds of the children l and r of p: p's own, split at
// the mean of the children's values when p splits on a constrained
// feature (XGBoost's TreeEvaluator::AddSplit).
func (g *grower) bound(p, l, r *nodeState) {
	l.lower, l.upper = p.lower, p.upper
	r.lower, r.upper = p.lower, p.upper
	if g.s.monotone == nil {
		return
	}
	c := g.s.monotone[p.best.feature]
	if c == 0 {
		return
	}
	wl := g.nodeWeight(l.g, l.h, p.lower, p.upper)
	wr := g.nodeWeight(r.g, r.h, p.lower, p.upper)
	mid := (wl + wr) / 2
	if c > 0 {
		l.upper, r.lower = mid, mid
	} else {
		l.lower, r.upper = mid, mid
	}
}

// scanCategories considers the splits of st on the categorical feature f
// as XGBoost 1.7 does, and updates best if one scores strictly higher.
//
// With fewer categories than MaxCatToOnehot, one category goes left, the
// others right, for each category in increasing order: first with the
// missing values right, then left. With more, the categories are sorted
// by their value in st (stable, ties in increasing order; XGBoost's
// CalcWeightCat in float32, 0 for a category lighter than MinChildWeight),
// and a prefix of the sorted list goes left: first with the missing values
// right, for the prefixes of 1 to k-1 categories, then with them left, for
// the prefixes of n-1 down to n-k+1 categories (n categories, k =
// min(n, 64)). A categorical split sends its categories left: XGBoost's
// right child, the one for the categories in its split's set.
func (g *grower) scanCategories(f int, st *nodeState, best *split) {
	nb := g.bm.nb[f]
	h := st.hist[g.bm.off[f] : g.bm.off[f]+nb+1]
	miss := h[nb]
	minChild := g.s.minChild
	G, H, N := st.g, st.h, st.n()
	consider := func(set *binSet, nanLeft bool, gl, hl float64, nl int, gr, hr float64) {
		nr := N - nl
		if nl == 0 || nr == 0 || hl < minChild || hr < minChild {
			return
		}
		score := g.splitScore(f, st, gl, hl, gr, hr)
		if score > best.score {
			*best = split{feature: f, cat: true, catLeft: *set, nanLeft: nanLeft, missing: miss.rows(), score: score, gl: gl, hl: hl, nl: nl}
		}
	}
	if nb < g.s.maxCatToOnehot {
		for b := range nb {
			c := h[b]
			var set binSet
			set.add(b)
			consider(&set, false, c.g, c.h, c.rows(), G-c.g, H-c.h)
			gl, hl := c.g+miss.g, c.h+miss.h
			consider(&set, true, gl, hl, c.rows()+miss.rows(), G-gl, H-hl)
		}
		return
	}
	var keys [256]float32
	var orderBuf [256]int
	order := orderBuf[:nb]
	for b := range nb {
		order[b] = b
		c := h[b]
		if c.h >= minChild && c.h > 0 {
			keys[b] = float32(g.weight(c.g, c.h))
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(keys[a], keys[b]) })
	k := min(nb, maxCatThreshold)
	var set binSet
	var gl, hl float64
	nl := 0
	for j := 0; j < k-1; j++ {
		c := h[order[j]]
		set.add(order[j])
		gl += c.g
		hl += c.h
		nl += c.rows()
		consider(&set, false, gl, hl, nl, G-gl, H-hl)
	}
	// The missing values left: the suffixes of the sorted categories go
	// right, the rest and the missing values left.
	set = binSet{}
	for _, b := range order {
		set.add(b)
	}
	var gr, hr float64
	nr := 0
	for j := nb - 1; j > nb-k; j-- {
		c := h[order[j]]
		set.remove(order[j])
		gr += c.g
		hr += c.h
		nr += c.rows()
		consider(&set, true, G-gr, H-hr, N-nr, gr, hr)
	}
}

// resetSampling forgets the feature draws of the previous tree.
func (g *grower) resetSampling() {
	clear(g.levelSets)
	g.nextMask = 0
}

// sampleFeatures draws the features that st may split on, with
// ColSampleByLevel and ColSampleByNode, as XGBoost's ColumnSampler: the
// features of a depth are drawn from the tree's, those of a node from its
// depth's. Each set comes from a random source seeded with the tree's seed
// and the depth or the node's index, so that neither the order in which
// the nodes are evaluated nor the number of goroutines matters.
func (g *grower) sampleFeatures(st *nodeState) {
	s := g.s
	if s.colsampleLevel == 1 && s.colsampleNode == 1 {
		return
	}
	for len(g.levelSets) <= st.depth {
		g.levelSets = append(g.levelSets, nil)
	}
	level := g.levelSets[st.depth]
	if level == nil {
		level = g.features
		if s.colsampleLevel < 1 {
			level = make([]int, 0, len(g.features))
			n := len(g.features)
			rng := rand.New(rand.NewPCG(g.colSeed, uint64(st.depth)<<1))
			choose(rng, n, sampleSize(s.colsampleLevel, n), func(_, i int) { level = append(level, g.features[i]) })
		}
		g.levelSets[st.depth] = level
	}
	mask := g.newMask()
	if s.colsampleNode == 1 {
		for _, f := range level {
			mask[f] = true
		}
	} else {
		n := len(level)
		rng := rand.New(rand.NewPCG(g.colSeed, uint64(st.id)<<1|1))
		choose(rng, n, sampleSize(s.colsampleNode, n), func(_, i int) { mask[level[i]] = true })
	}
	st.allowed = mask
}

// sampleSize is the number of items that a draw of the fraction frac of n
// items takes: frac·n rounded, at least 1 (rows for Subsample, features
// for the three column samplings).
func sampleSize(frac float64, n int) int {
	return max(1, int(math.Round(frac*float64(n))))
}

// newMask returns a cleared slice of one bool per feature that lives until
// the next tree.
func (g *grower) newMask() []bool {
	p := g.bm.p
	if g.nextMask+p > len(g.masks) {
		g.masks = make([]bool, max(2*len(g.masks), 64*p))
		g.nextMask = 0
	}
	m := g.masks[g.nextMask : g.nextMask+p]
	g.nextMask += p
	clear(m)
	return m
}
