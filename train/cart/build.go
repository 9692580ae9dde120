package cart

import (
	"math"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// epsilon is the float64 machine epsilon, scikit-learn's EPSILON: a split is
// made unless its impurity decrease plus epsilon is below
// MinImpurityDecrease.
const epsilon = 0x1p-52

// builder grows one tree.
//
// For every feature f, idx[f] holds row indices and val[f] the matching
// values of f. The rows of the node being grown occupy the same range
// [lo, hi) in every feature's lists: first the rows where f is present,
// sorted by value (ties by row index), then the rows where f is missing
// (NaN), in row order. Splitting a node partitions each range stably into
// its left rows then its right rows, which keeps that invariant for both
// children.
type builder struct {
	s    settings
	n, p int       // rows and features of the training set
	x    []float64 // the training set, row-major

	// Classification.
	cls    []int32   // class of each row
	nclass int       // number of classes
	xlogx  []float64 // entropy: xlogx[c] = c·ln(c), xlogx[0] = 0

	// Regression.
	y []float64

	idx [][]int32
	val [][]float64

	left   []bool    // per row: the split being applied sends it left
	tmpIdx []int32   // partition buffer
	tmpVal []float64 // partition buffer

	// Class counts: of the current node (cnt), of its rows missing the
	// feature being scanned (miss), and of the two sides of a candidate (lc, rc).
	cnt, miss, lc, rc []int64

	nodes []ir.Node
}

func newBuilder(d *data.Dataset, s settings) *builder {
	return &builder{s: s, n: d.Rows, p: d.Cols, x: d.X}
}

// setClasses makes b a classification builder: index[r] is the class of
// row r, among nclass classes.
func (b *builder) setClasses(index []int, nclass int) {
	b.cls = make([]int32, len(index))
	for r, c := range index {
		b.cls[r] = int32(c)
	}
	b.nclass = nclass
	b.cnt = make([]int64, nclass)
	b.miss = make([]int64, nclass)
	b.lc = make([]int64, nclass)
	b.rc = make([]int64, nclass)
	if b.s.criterion == Entropy {
		b.xlogx = make([]float64, b.n+1)
		for c := 1; c <= b.n; c++ {
			b.xlogx[c] = float64(c) * math.Log(float64(c))
		}
	}
}

// build grows the tree and returns its nodes in pre-order.
func (b *builder) build() ([]ir.Node, error) {
	b.presort()
	b.left = make([]bool, b.n)
	b.tmpIdx = make([]int32, b.n)
	b.tmpVal = make([]float64, b.n)
	if _, err := b.grow(0, b.n, 0); err != nil {
		return nil, err
	}
	return b.nodes, nil
}

// presort fills idx and val for the root, which holds every row.
func (b *builder) presort() {
	n, p := b.n, b.p
	allIdx := make([]int32, n*p)
	allVal := make([]float64, n*p)
	b.idx = make([][]int32, p)
	b.val = make([][]float64, p)
	var r radix
	for f := range p {
		idx := allIdx[f*n : (f+1)*n : (f+1)*n]
		val := allVal[f*n : (f+1)*n : (f+1)*n]
		keys := r.keys[:0]
		for row := range n {
			if v := b.x[row*p+f]; v == v {
				idx[len(keys)] = int32(row)
				keys = append(keys, sortKey(v))
			}
		}
		present := len(keys)
		r.keys = keys
		r.sort(idx[:present])
		for k, key := range r.keys {
			val[k] = fromSortKey(key)
		}
		// The missing rows go to the end, in row order.
		m := present
		for row := range n {
			if v := b.x[row*p+f]; v != v {
				idx[m], val[m] = int32(row), v
				m++
			}
		}
		b.idx[f], b.val[f] = idx, val
	}
}

// sortKey maps a non-NaN float64 to a uint64 with the same order (-0 and +0
// to the same key).
func sortKey(v float64) uint64 {
	u := math.Float64bits(v + 0) // + 0 turns -0 into +0
	if u>>63 != 0 {
		return ^u
	}
	return u | 1<<63
}

// fromSortKey inverts sortKey.
func fromSortKey(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// radix sorts row indices by 64-bit keys with a stable least-significant
// digit radix sort, one byte per pass, skipping the bytes that all keys
// share (most of them for data with few distinct values). Stability keeps
// equal values in row order.
type radix struct {
	keys, tmpKeys []uint64
	tmpIdx        []int32
}

// sort sorts idx and r.keys (of the same length) by key.
func (r *radix) sort(idx []int32) {
	n := len(idx)
	if n < 2 {
		return
	}
	var count [8][256]int
	for _, k := range r.keys {
		for d := range 8 {
			count[d][byte(k>>(8*d))]++
		}
	}
	if cap(r.tmpKeys) < n {
		r.tmpKeys = make([]uint64, n)
		r.tmpIdx = make([]int32, n)
	}
	keys, tmpKeys, tmpIdx := r.keys, r.tmpKeys[:n], r.tmpIdx[:n]
	for d := range 8 {
		c := &count[d]
		if c[byte(keys[0]>>(8*d))] == n {
			continue // every key has the same byte d
		}
		pos := 0
		for i, k := range c {
			c[i] = pos
			pos += k
		}
		for i, k := range keys {
			j := c[byte(k>>(8*d))]
			c[byte(k>>(8*d))]++
			tmpKeys[j], tmpIdx[j] = k, idx[i]
		}
		keys, tmpKeys = tmpKeys, keys
		copy(idx, tmpIdx)
	}
	r.keys, r.tmpKeys = keys, tmpKeys
}

// split is a candidate split of a node.
type split struct {
	feature int
	pos     int     // rows of the feature's sorted present values that go left
	nanLeft bool    // rows missing the feature go left
	nmiss   int     // rows of the node missing the feature
	score   float64 // to maximise; see the scan functions

	// Filled by finish.
	threshold   float64
	lessEqual   bool
	defaultLeft bool
}

// consider makes (f, pos, nanLeft) the best split if its score is strictly
// greater: the first of equally good candidates wins.
func (s *split) consider(f, pos int, nanLeft bool, nmiss int, score float64) {
	if score > s.score {
		*s = split{feature: f, pos: pos, nanLeft: nanLeft, nmiss: nmiss, score: score}
	}
}

// grow grows the subtree of the rows in [lo, hi) at depth, appends its
// nodes in pre-order and returns the index of its root.
func (b *builder) grow(lo, hi, depth int) (int, error) {
	id := len(b.nodes)
	b.nodes = append(b.nodes, ir.Node{})
	n := hi - lo
	impurity, pure := b.stats(lo, hi)
	if depth >= b.s.maxDepth || n < b.s.minSamplesSplit || n < 2*b.s.minSamplesLeaf || pure {
		b.nodes[id] = b.leaf(lo, hi)
		return id, nil
	}
	sp := split{feature: -1, score: math.Inf(-1)}
	for f := range b.p {
		switch b.s.criterion {
		case Gini:
			b.scanGini(f, lo, hi, &sp)
		case Entropy:
			b.scanEntropy(f, lo, hi, &sp)
		case MSE:
			b.scanMSE(f, lo, hi, &sp)
		}
	}
	if sp.feature < 0 {
		b.nodes[id] = b.leaf(lo, hi)
		return id, nil
	}
	b.finish(lo, hi, &sp)
	nl, impL, impR, err := b.route(lo, hi, &sp)
	if err != nil {
		return 0, err
	}
	nt, nr := float64(n), float64(n-nl)
	decrease := nt / float64(b.n) * (impurity - nr/nt*impR - float64(nl)/nt*impL)
	if decrease+epsilon < b.s.minDecrease {
		b.nodes[id] = b.leaf(lo, hi)
		return id, nil
	}
	b.partition(lo, hi)
	left, err := b.grow(lo, lo+nl, depth+1)
	if err != nil {
		return 0, err
	}
	right, err := b.grow(lo+nl, hi, depth+1)
	if err != nil {
		return 0, err
	}
	b.nodes[id] = ir.Node{
		Kind:        ir.Axis,
		Left:        left,
		Right:       right,
		DefaultLeft: sp.defaultLeft,
		LessEqual:   sp.lessEqual,
		Feature:     sp.feature,
		Threshold:   sp.threshold,
	}
	return id, nil
}

// stats computes the statistics of the node [lo, hi) (class counts in
// b.cnt for classification) and returns its impurity and whether it is
// pure: a single class, or a single target value.
func (b *builder) stats(lo, hi int) (impurity float64, pure bool) {
	rows := b.idx[0][lo:hi]
	if b.y != nil {
		first := b.y[rows[0]]
		pure = true
		for _, r := range rows {
			if b.y[r] != first {
				pure = false
				break
			}
		}
		return variance(b.y, rows, nil, false), pure
	}
	clear(b.cnt)
	for _, r := range rows {
		b.cnt[b.cls[r]]++
	}
	classes := 0
	for _, c := range b.cnt {
		if c > 0 {
			classes++
		}
	}
	return b.impurity(b.cnt, len(rows)), classes == 1
}

// impurity is the Gini or entropy impurity of class counts cnt summing to n.
func (b *builder) impurity(cnt []int64, n int) float64 {
	if n == 0 {
		return 0
	}
	nf := float64(n)
	if b.s.criterion == Entropy {
		h := 0.0
		for _, c := range cnt {
			if c > 0 {
				p := float64(c) / nf
				h -= p * math.Log2(p)
			}
		}
		return h
	}
	sq := 0.0
	for _, c := range cnt {
		sq += float64(c) * float64(c)
	}
	return 1 - sq/(nf*nf)
}

// variance returns the population variance of y over rows, computed in two
// passes; with sel it only takes the rows r with sel[r] == want.
func variance(y []float64, rows []int32, sel []bool, want bool) float64 {
	sum, n := 0.0, 0
	for _, r := range rows {
		if sel == nil || sel[r] == want {
			sum += y[r]
			n++
		}
	}
	if n == 0 {
		return 0
	}
	mean := sum / float64(n)
	ss := 0.0
	for _, r := range rows {
		if sel == nil || sel[r] == want {
			d := y[r] - mean
			ss += d * d
		}
	}
	return ss / float64(n)
}

// leaf returns the leaf of the node [lo, hi): the mean target in
// regression; in classification the class fractions, from the counts that
// stats has just computed.
func (b *builder) leaf(lo, hi int) ir.Node {
	nf := float64(hi - lo)
	if b.y != nil {
		sum := 0.0
		for _, r := range b.idx[0][lo:hi] {
			sum += b.y[r]
		}
		return ir.Node{Kind: ir.Leaf, Value: []float64{sum / nf}}
	}
	if b.nclass == 2 {
		return ir.Node{Kind: ir.Leaf, Value: []float64{float64(b.cnt[1]) / nf}}
	}
	v := make([]float64, b.nclass)
	for k, c := range b.cnt {
		v[k] = float64(c) / nf
	}
	return ir.Node{Kind: ir.Leaf, Value: v}
}
