package runtime

import (
	"math"
	"slices"
	"unsafe"

	"github.com/treegen/treegen/internal/fmath"

	"github.com/treegen/treegen/ir"
)

// stackFeatures is the largest row preprocessed in a stack buffer.
const stackFeatures = 128

// PredictMargin writes the raw scores (margins, before the link) of row x
// into out. len(x) must be NumFeatures and len(out) NumOutputs.
func (p *Predictor[F]) PredictMargin(x, out []F) error {
	if len(x) != p.p {
		return ErrFeatureCount
	}
	if len(out) != p.k {
		return ErrOutputSize
	}
	if !p.needScratch {
		p.margin(x, out, nil)
		return nil
	}
	s := p.pool.Get().(*scratch[F])
	p.margin(x, out, s)
	p.pool.Put(s)
	return nil
}

// Predict writes the predictions (margins after the link) of row x into out.
func (p *Predictor[F]) Predict(x, out []F) error {
	if err := p.PredictMargin(x, out); err != nil {
		return err
	}
	p.applyLink(out)
	return nil
}

// PredictClass returns the predicted class of row x: for a binary model 1
// iff the prediction is > 0.5, for a multiclass model the index of the
// largest prediction (the first on ties). For other tasks it returns 0.
func (p *Predictor[F]) PredictClass(x []F) (int, error) {
	var buf [256]F
	out := buf[:0]
	if p.k <= len(buf) {
		out = buf[:p.k]
	} else {
		out = make([]F, p.k)
	}
	if err := p.Predict(x, out); err != nil {
		return 0, err
	}
	return p.class(out), nil
}

// ClassOf returns the class that PredictClass returns for a row whose
// predictions (after the link, as Predict and PredictBatch write them)
// are pred.
func (p *Predictor[F]) ClassOf(pred []F) int { return p.class(pred) }

func (p *Predictor[F]) class(pred []F) int {
	switch p.task {
	case ir.Binary:
		if pred[0] > 0.5 {
			return 1
		}
	case ir.Multiclass:
		best := 0
		for k := 1; k < len(pred); k++ {
			if pred[k] > pred[best] {
				best = k
			}
		}
		return best
	}
	return 0
}

// batchRows is the number of rows PredictBatch scores together. For a
// block of rows, the fast trees are walked tree by tree, so that a tree's
// nodes are read from the cache once for all the block's rows, and four rows
// walk each tree at once. 64 rows of 64 features in float64 take 32 KiB.
const batchRows = 64

// PredictBatch predicts n rows: x holds n*NumFeatures values row by row and
// out receives n*NumOutputs values. With margin set it writes raw scores.
// It gives the same results as Predict row by row, faster for ensembles of
// axis-aligned trees: rows are scored in blocks, tree by tree.
func (p *Predictor[F]) PredictBatch(x, out []F, margin bool) error {
	if len(x)%p.p != 0 {
		return ErrBatchShape
	}
	n := len(x) / p.p
	if len(out) != n*p.k {
		return ErrOutputSize
	}
	var s *scratch[F]
	if p.needScratch {
		s = p.pool.Get().(*scratch[F])
		defer p.pool.Put(s)
	}
	if !p.blocked {
		for i := 0; i < n; i++ {
			o := out[i*p.k : (i+1)*p.k]
			p.margin(x[i*p.p:(i+1)*p.p], o, s)
			if !margin {
				p.applyLink(o)
			}
		}
		return nil
	}
	for r := 0; r < n; r += batchRows {
		b := min(batchRows, n-r)
		o := out[r*p.k : (r+b)*p.k]
		p.marginBlock(x[r*p.p:(r+b)*p.p], o, b, s)
		if !margin {
			for i := 0; i < b; i++ {
				p.applyLink(o[i*p.k : (i+1)*p.k])
			}
		}
	}
	return nil
}

// margin computes the raw scores of one row into out; s is nil when the
// model needs no scratch.
func (p *Predictor[F]) margin(x, a []F, s *scratch[F]) {
	xfast := x
	if s != nil {
		x, xfast = p.prepare(x, s.x, s.x32)
	}
	p.initMargins(a)
	for i := 0; i < len(p.trees); i++ {
		t := &p.trees[i]
		switch t.kind {
		case fastTree:
			n := int(t.run)
			p.fastRun(xfast, a, p.trees[i:i+n])
			i += n - 1
			continue
		case perfTree:
			n := int(t.run)
			p.perfRun(xfast, a, p.trees[i:i+n])
			i += n - 1
			continue
		}
		p.tree(x, a, t, s)
	}
	p.finish(x, a, s)
}

// marginBlock computes the raw scores of the n rows of x into a, scoring
// each run of fast trees tree by tree over all the rows.
func (p *Predictor[F]) marginBlock(x, a []F, n int, s *scratch[F]) {
	xfast := x
	if s != nil {
		if len(s.xb) < n*p.p { // first use of this scratch for a batch
			s.xb = make([]F, batchRows*p.p)
			s.xb32 = make([]F, batchRows*p.p)
		}
		xp, x32 := s.xb[:n*p.p], s.xb32[:n*p.p]
		for r := 0; r < n; r++ {
			lo, hi := r*p.p, (r+1)*p.p
			p.prepare(x[lo:hi], xp[lo:hi], x32[lo:hi])
		}
		if p.shift != nil {
			x = xp
		}
		xfast = x
		if p.f32cmp && !isFloat32[F]() {
			xfast = x32
		}
	}
	for r := 0; r < n; r++ {
		p.initMargins(a[r*p.k : (r+1)*p.k])
	}
	for i := 0; i < len(p.trees); i++ {
		t := &p.trees[i]
		switch t.kind {
		case fastTree:
			m := int(t.run)
			p.fastBlock(xfast, a, n, p.trees[i:i+m])
			i += m - 1
			continue
		case perfTree:
			m := int(t.run)
			p.perfBlock(xfast, a, n, p.trees[i:i+m])
			i += m - 1
			continue
		}
		for r := 0; r < n; r++ {
			p.tree(x[r*p.p:(r+1)*p.p], a[r*p.k:(r+1)*p.k], t, s)
		}
	}
	for r := 0; r < n; r++ {
		p.finish(x[r*p.p:(r+1)*p.p], a[r*p.k:(r+1)*p.k], s)
	}
}

// prepare returns the row that the trees read, preprocessed into xp if the
// model has preprocessing, and the row that fast trees read: the same, or
// its float32 rounding in x32 for a float64 predictor with Float32Compare.
func (p *Predictor[F]) prepare(x, xp, x32 []F) (xs, xfast []F) {
	if p.shift != nil {
		for j := range xp {
			xp[j] = (x[j] - p.shift[j]) * p.scale[j]
		}
		x = xp
	}
	if p.f32cmp && !isFloat32[F]() {
		x32 = x32[:len(x)]
		for j, v := range x {
			x32[j] = F(float32(v))
		}
		return x, x32
	}
	return x, x
}

// initMargins sets the accumulators to the base score (sum) or 0 (mean).
func (p *Predictor[F]) initMargins(a []F) {
	if p.mean {
		for k := range a {
			a[k] = 0
		}
		return
	}
	copy(a, p.base)
}

// PredictLeaves writes into leaves, for each tree of the model in order, the
// index in ir.Tree.Nodes of the leaf that row x reaches. The trees route the
// row exactly as prediction does (the same code: preprocessing, float32
// comparisons with Float32Compare, NaN to the default side), so the leaf's
// value is what the tree adds to the margin. len(x) must be NumFeatures and
// len(leaves) NumTrees (else ErrFeatureCount, ErrOutputSize). Every tree must
// send a row to a single leaf (HardTrees): a model with a soft node with
// γ > 0 or a latent tree gets an error wrapping ErrNotHard. PredictLeaves
// does not allocate.
//
// The indices are the IR's: an importer that renumbers nodes (both XGBoost's
// and LightGBM's importers put them in canonical pre-order) gives indices
// that differ from the library's own leaf numbers; see their documentation.
func (p *Predictor[F]) PredictLeaves(x []F, leaves []int) error {
	if p.leafErr != nil {
		return p.leafErr
	}
	if len(x) != p.p {
		return ErrFeatureCount
	}
	if len(leaves) != len(p.trees) {
		return ErrOutputSize
	}
	if !p.needScratch {
		p.leaves(x, x, leaves)
		return nil
	}
	s := p.pool.Get().(*scratch[F])
	xs, xfast := p.prepare(x, s.x, s.x32)
	p.leaves(xs, xfast, leaves)
	p.pool.Put(s)
	return nil
}

// PredictLatent writes z, the traversals of row x through the model's
// latent trees (ir/doc.go), into z: for every latent tree in order, z_t of
// each of its nodes in index order, as the read-out sees them. A row
// follows the nodes whose z_t > 0, a path from the root: the latent tree
// as a hierarchy of clusters. len(z) must be the model's LatentSize; a
// model without a latent tree has none (len(z) = 0).
func (p *Predictor[F]) PredictLatent(x, z []F) error {
	if len(x) != p.p {
		return ErrFeatureCount
	}
	if len(z) != p.zLen {
		return ErrOutputSize
	}
	if p.zLen == 0 {
		return nil
	}
	s := p.pool.Get().(*scratch[F])
	xs, _ := p.prepare(x, s.x, s.x32)
	for i := range p.trees {
		if t := &p.trees[i]; t.kind == latentTree {
			p.latent(xs, t, s)
		}
	}
	copy(z, s.z)
	p.pool.Put(s)
	return nil
}

// leaves walks every tree, all of them hard, to its leaf: x is the
// (preprocessed) row the general layout reads, xfast the row fast and
// perfect trees read, as in margin.
func (p *Predictor[F]) leaves(x, xfast []F, leaves []int) {
	for i := range p.trees {
		t := &p.trees[i]
		switch t.kind {
		case fastTree:
			leaves[i] = int(p.fastWalk(xfast, t.root) - t.root)
		case perfTree:
			width := 1
			if t.out < 0 {
				width = p.k
			}
			l := p.perfWalk(xfast, t) - (1<<t.depth - 1)
			leaves[i] = int(p.perfNodeOf[int(t.leaf)+l*width])
		case hardTree:
			leaves[i] = int(p.hardLeaf(x, t.root) - t.root)
		case softTree:
			// Soft nodes have γ = 0 here: leftProb is 0 or 1, and soft
			// goes down the one side with probability 1.
			j := t.root
			for n := &p.gen[j]; n.kind.isSplit(); n = &p.gen[j] {
				if p.leftProb(x, n) == 1 {
					j = n.left
				} else {
					j = n.right
				}
			}
			leaves[i] = int(j - t.root)
		}
	}
}

// tree adds the value of tree t, of any kind but fast, to the margins a.
func (p *Predictor[F]) tree(x, a []F, t *treeRef, s *scratch[F]) {
	switch t.kind {
	case hardTree:
		leaf := p.hardLeaf(x, t.root)
		p.addLeaf(x, leaf, F(1), t.out, a, s, false)
	case softTree:
		tv := s.t
		if t.out >= 0 {
			tv = tv[:1]
		}
		for k := range tv {
			tv[k] = 0
		}
		p.soft(x, t.root, 1, t.out, tv, s)
		if t.out >= 0 {
			p.add(a, int(t.out), tv[0])
		} else {
			for k := range a {
				p.add(a, k, tv[k])
			}
		}
	case latentTree:
		p.latent(x, t, s)
	}
}

// finish completes the margins a of row x once every tree is added: the
// mean aggregation and the read-out of latent trees.
func (p *Predictor[F]) finish(x, a []F, s *scratch[F]) {
	if p.mean {
		for k := range a {
			if p.sum32 {
				a[k] = F(float32(p.base[k]) + float32(a[k])/float32(p.count[k]))
			} else {
				a[k] = p.base[k] + a[k]/p.count[k]
			}
		}
	}
	if p.readW != nil {
		p.readout(x, a, s.z)
	}
}

// add adds the tree value v to the margin a[k]: in float32 with Float32Sum
// (ir/doc.go), else in F.
func (p *Predictor[F]) add(a []F, k int, v F) {
	if p.sum32 {
		a[k] = F(float32(a[k]) + float32(v))
		return
	}
	a[k] += v
}

func isFloat32[F Float]() bool {
	var f F
	_, ok := any(f).(float32)
	return ok
}

// fastRun adds the values of consecutive fast trees to a, in tree order.
// It walks four trees at a time, each for as many steps as the deepest of
// the four (leaves loop on themselves), with no data-dependent branch: the
// four independent chains of loads overlap in the processor, and
// unpredictable splits cost no mispredictions.
func (p *Predictor[F]) fastRun(x, a []F, trees []treeRef) {
	nodes := p.fast
	for len(trees) >= 4 {
		t := trees[:4:4]
		i0, i1, i2, i3 := t[0].root, t[1].root, t[2].root, t[3].root
		for d := max(t[0].depth, t[1].depth, t[2].depth, t[3].depth); d > 0; d-- {
			n0, n1, n2, n3 := &nodes[i0], &nodes[i1], &nodes[i2], &nodes[i3]
			i0 = n0.child[right(x[n0.feat&^nanRightBit], n0.thr, n0.feat)]
			i1 = n1.child[right(x[n1.feat&^nanRightBit], n1.thr, n1.feat)]
			i2 = n2.child[right(x[n2.feat&^nanRightBit], n2.thr, n2.feat)]
			i3 = n3.child[right(x[n3.feat&^nanRightBit], n3.thr, n3.feat)]
		}
		p.addFastLeaf(a, &t[0], i0)
		p.addFastLeaf(a, &t[1], i1)
		p.addFastLeaf(a, &t[2], i2)
		p.addFastLeaf(a, &t[3], i3)
		trees = trees[4:]
	}
	// The last trees one by one, branching like generated code and stopping
	// at the leaf: a lone deep tree (CART) should not pay for its depth on
	// every path.
	for k := range trees {
		t := &trees[k]
		p.addFastLeaf(a, t, p.fastWalk(x, t.root))
	}
}

// fastWalk walks the fast tree rooted at i to the leaf row x reaches and
// returns the leaf's index in p.fast.
func (p *Predictor[F]) fastWalk(x []F, i int32) int32 {
	nodes := p.fast
	for {
		n := &nodes[i]
		v := x[n.feat&^nanRightBit]
		j := n.child[1]
		if v < n.thr || (v != v && n.feat&nanRightBit == 0) {
			j = n.child[0]
		}
		if j == i {
			return i
		}
		i = j
	}
}

// addFastLeaf adds the value of leaf node i of fast tree t to a.
func (p *Predictor[F]) addFastLeaf(a []F, t *treeRef, i int32) {
	off := p.fast[i].val
	if t.out >= 0 {
		p.add(a, int(t.out), p.fastLeaf[off])
		return
	}
	v := p.fastLeaf[off : int(off)+len(a)]
	for k := range a {
		p.add(a, k, v[k])
	}
}

// right returns 1 if a fast node sends v right, else 0.
func right[F Float](v, thr F, feat uint32) int {
	r := 0
	if v >= thr {
		r = 1
	}
	nan := 0
	if v != v {
		nan = int(feat >> 31)
	}
	return r | nan
}

// dot returns bias + w·x over the sparse weights [w0, w1), accumulated left
// to right, each product rounded (no fused multiply-add).
func (p *Predictor[F]) dot(x []F, bias F, w0, w1 int32) F {
	m := bias
	idx := p.idx[w0:w1]
	wts := p.wts[w0:w1]
	for j, f := range idx {
		m += F(wts[j] * x[f])
	}
	return m
}

// goLeft evaluates a hard split; for NaN it follows the default direction.
func (p *Predictor[F]) goLeft(x []F, n *genNode[F]) bool {
	var v, t F
	if n.kind == categoricalNode {
		v = x[n.feat]
		if p.f32cmp {
			v = F(float32(v))
		}
		if v != v {
			return n.defaultLeft
		}
		if !(v > -1 && v < 1<<31) {
			return false
		}
		_, found := slices.BinarySearch(p.cats[n.w0:n.w1], int32(v))
		return found
	}
	if n.kind == axisNode {
		v, t = x[n.feat], n.thr
		if p.f32cmp {
			v = F(float32(v))
		}
	} else {
		v = p.dot(x, n.bias, n.w0, n.w1)
	}
	if v != v {
		return n.defaultLeft
	}
	if n.lessEqual {
		return v <= t
	}
	return v < t
}

// hardLeaf walks a hard tree on the general layout to its leaf.
func (p *Predictor[F]) hardLeaf(x []F, i int32) int32 {
	for {
		n := &p.gen[i]
		if !n.kind.isSplit() {
			return i
		}
		if p.goLeft(x, n) {
			i = n.left
		} else {
			i = n.right
		}
	}
}

// addLeaf adds prob·value of leaf i to acc (acc has one entry when out >= 0,
// else one per output). With weighted false, prob is 1 and the value is
// added as is (hard trees).
func (p *Predictor[F]) addLeaf(x []F, i int32, prob F, out int32, acc []F, s *scratch[F], weighted bool) {
	n := &p.gen[i]
	if n.kind == leafNode {
		v := p.genVal[n.v0:n.v1]
		switch {
		case out >= 0 && !weighted:
			p.add(acc, int(out), v[0])
		case out >= 0:
			acc[0] += F(prob * v[0])
		case weighted:
			for k := range acc {
				acc[k] += F(prob * v[k])
			}
		default:
			for k := range acc {
				p.add(acc, k, v[k])
			}
		}
		return
	}
	// Softmax leaf: z_j, max, exp, sum, divide (ir/doc.go).
	rows := p.smRows[n.v0:n.v1]
	e := s.e[:len(rows)]
	for j := range rows {
		r := &rows[j]
		e[j] = p.dot(x, r.bias, r.w0, r.w1)
	}
	softmaxInPlace(e)
	if !weighted {
		// The leaf's value is 0 for the classes outside its subset, and a
		// hard tree adds its whole value (ir/doc.go): a -0 margin becomes +0.
		for k := range acc {
			p.add(acc, k, 0)
		}
	}
	for j := range rows {
		if weighted {
			acc[rows[j].class] += F(prob * e[j])
		} else {
			p.add(acc, int(rows[j].class), e[j])
		}
	}
}

// soft accumulates the value of the subtree at i, reached with probability
// prob, into tv: depth first, left before right, skipping children reached
// with probability exactly 0.
func (p *Predictor[F]) soft(x []F, i int32, prob F, out int32, tv []F, s *scratch[F]) {
	for {
		n := &p.gen[i]
		if !n.kind.isSplit() {
			p.addLeaf(x, i, prob, out, tv, s, true)
			return
		}
		pl := p.leftProb(x, n)
		pr := 1 - pl
		left, right := prob*pl, prob*pr
		switch {
		case left == 0 && right == 0:
			return
		case right == 0:
			i, prob = n.left, left
		case left == 0:
			i, prob = n.right, right
		default:
			p.soft(x, n.left, left, out, tv, s)
			i, prob = n.right, right
		}
	}
}

// leftProb returns the probability that split n sends row x left: for a
// soft node S_γ of its margin (for NaN, 1 or 0 by the default direction);
// for a hard split 1 or 0.
func (p *Predictor[F]) leftProb(x []F, n *genNode[F]) F {
	if n.kind == softNode {
		m := p.dot(x, n.bias, n.w0, n.w1)
		if m != m {
			if n.defaultLeft {
				return 1
			}
			return 0
		}
		return smoothStep(m, n.gamma, n.half)
	}
	if p.goLeft(x, n) {
		return 1
	}
	return 0
}

// smoothStep is ir.SmoothStep in precision F; half is gamma/2.
func smoothStep[F Float](t, gamma, half F) F {
	switch {
	case t <= -half:
		return 0
	case t >= half:
		return 1
	}
	u := t / gamma
	return F(u*F(1.5-F(2*u*u))) + 0.5
}

// latent computes z for one latent tree into s.z.
func (p *Predictor[F]) latent(x []F, t *treeRef, s *scratch[F]) {
	inf := F(math.Inf(1))
	q := s.q[:t.nodes]
	z := s.z[t.zStart : t.zStart+t.nodes]
	q[0] = inf
	for i := int32(0); i < t.nodes; i++ {
		n := &p.gen[t.root+i]
		z[i] = min(max(q[i], 0), n.activity)
		if !n.kind.isSplit() {
			continue
		}
		var sm F // split margin: left iff sm < 0 (or <= 0)
		if n.kind == axisNode {
			v := x[n.feat]
			th := n.thr
			if p.f32cmp {
				v = F(float32(v))
			}
			sm = v - th
		} else {
			sm = p.dot(x, n.bias, n.w0, n.w1)
		}
		if t.elu && !(sm > 0) {
			sm = exp(sm) - 1 // NaN stays NaN
		}
		l, r := -sm, sm
		if sm != sm {
			if n.defaultLeft {
				l, r = inf, -inf
			} else {
				l, r = -inf, inf
			}
		}
		q[n.left-t.root] = min(q[i], l)
		q[n.right-t.root] = min(q[i], r)
	}
}

// readout adds Bias[k] + W[k]·[x, z] to each margin.
func (p *Predictor[F]) readout(x, a, z []F) {
	for k := range a {
		w := p.readW[k]
		r := p.readB[k]
		for j, v := range x {
			r += F(w[j] * v)
		}
		w = w[len(x):]
		for j, v := range z {
			r += F(w[j] * v)
		}
		p.add(a, k, r)
	}
}

// exp returns e**x in F, as ir/doc.go defines it: fmath.Expf in float32
// (the bits of the C library's expf), fmath.Exp in float64.
func exp[F Float](x F) F {
	if unsafe.Sizeof(x) == 4 {
		return F(fmath.Expf(float32(x)))
	}
	return F(fmath.Exp(float64(x)))
}

// softmaxInPlace replaces v by its softmax (ir/doc.go order): the sum of
// the exponentials is accumulated in float64 whatever F and rounded to F
// before the divisions, as XGBoost does in float32.
func softmaxInPlace[F Float](v []F) {
	mx := v[0]
	for _, e := range v[1:] {
		if e > mx {
			mx = e
		}
	}
	var s float64
	for j, e := range v {
		v[j] = exp(e - mx)
		s += float64(v[j])
	}
	sf := F(s)
	for j := range v {
		v[j] /= sf
	}
}

// applyLink maps margins to predictions in place.
func (p *Predictor[F]) applyLink(a []F) {
	switch p.link {
	case ir.Sigmoid:
		for k, v := range a {
			a[k] = 1 / (1 + exp(-v))
		}
	case ir.Exp:
		for k, v := range a {
			a[k] = exp(v)
		}
	case ir.Softmax:
		softmaxInPlace(a)
	}
}

// fastBlock adds the values of consecutive fast trees to the margins of the
// n rows of x (row by row, NumFeatures values each), in tree order for every
// row. It takes the trees one by one and walks four rows through each at
// once, branch-free as fastRun does: the tree's nodes stay in the cache for
// the whole block.
func (p *Predictor[F]) fastBlock(x, a []F, n int, trees []treeRef) {
	nodes := p.fast
	np, k := p.p, p.k
	for ti := range trees {
		t := &trees[ti]
		r := 0
		for ; r+4 <= n; r += 4 {
			x0 := x[r*np : (r+1)*np]
			x1 := x[(r+1)*np : (r+2)*np]
			x2 := x[(r+2)*np : (r+3)*np]
			x3 := x[(r+3)*np : (r+4)*np]
			i0, i1, i2, i3 := t.root, t.root, t.root, t.root
			for d := t.depth; d > 0; d-- {
				n0, n1, n2, n3 := &nodes[i0], &nodes[i1], &nodes[i2], &nodes[i3]
				i0 = n0.child[right(x0[n0.feat&^nanRightBit], n0.thr, n0.feat)]
				i1 = n1.child[right(x1[n1.feat&^nanRightBit], n1.thr, n1.feat)]
				i2 = n2.child[right(x2[n2.feat&^nanRightBit], n2.thr, n2.feat)]
				i3 = n3.child[right(x3[n3.feat&^nanRightBit], n3.thr, n3.feat)]
			}
			p.addFastLeaf(a[r*k:(r+1)*k], t, i0)
			p.addFastLeaf(a[(r+1)*k:(r+2)*k], t, i1)
			p.addFastLeaf(a[(r+2)*k:(r+3)*k], t, i2)
			p.addFastLeaf(a[(r+3)*k:(r+4)*k], t, i3)
		}
		for ; r < n; r++ {
			xr := x[r*np : (r+1)*np]
			i := t.root
			for d := t.depth; d > 0; d-- {
				nd := &nodes[i]
				i = nd.child[right(xr[nd.feat&^nanRightBit], nd.thr, nd.feat)]
			}
			p.addFastLeaf(a[r*k:(r+1)*k], t, i)
		}
	}
}

// perfRun adds the values of consecutive perfect trees to a, in tree order,
// walking four trees at once as fastRun does. A perfect tree needs no child
// pointers: the children of split j are 2j+1 and 2j+2, and every path has
// the tree's depth.
func (p *Predictor[F]) perfRun(x, a []F, trees []treeRef) {
	nodes := p.perf
	for len(trees) >= 4 {
		t := trees[:4:4]
		n0, n1, n2, n3 := nodes[t[0].root:], nodes[t[1].root:], nodes[t[2].root:], nodes[t[3].root:]
		var i0, i1, i2, i3 int
		for d := max(t[0].depth, t[1].depth, t[2].depth, t[3].depth); d > 0; d-- {
			if d <= t[0].depth {
				i0 = perfStep(x, n0, i0)
			}
			if d <= t[1].depth {
				i1 = perfStep(x, n1, i1)
			}
			if d <= t[2].depth {
				i2 = perfStep(x, n2, i2)
			}
			if d <= t[3].depth {
				i3 = perfStep(x, n3, i3)
			}
		}
		p.addPerfLeaf(a, &t[0], i0)
		p.addPerfLeaf(a, &t[1], i1)
		p.addPerfLeaf(a, &t[2], i2)
		p.addPerfLeaf(a, &t[3], i3)
		trees = trees[4:]
	}
	for k := range trees {
		t := &trees[k]
		p.addPerfLeaf(a, t, p.perfWalk(x, t))
	}
}

// perfWalk walks the perfect tree t down its depth for row x and returns the
// heap index of the leaf slot it reaches.
func (p *Predictor[F]) perfWalk(x []F, t *treeRef) int {
	nd := p.perf[t.root:]
	i := 0
	for d := t.depth; d > 0; d-- {
		i = perfStep(x, nd, i)
	}
	return i
}

// perfStep moves from split i of a perfect tree to its child for row x.
func perfStep[F Float](x []F, nodes []perfNode[F], i int) int {
	n := &nodes[i]
	return 2*i + 1 + right(x[n.feat&^nanRightBit], n.thr, n.feat)
}

// addPerfLeaf adds the value of the leaf reached at heap index i of perfect
// tree t to a.
func (p *Predictor[F]) addPerfLeaf(a []F, t *treeRef, i int) {
	l := i - (1<<t.depth - 1)
	if t.out >= 0 {
		p.add(a, int(t.out), p.perfLeaf[int(t.leaf)+l])
		return
	}
	v := p.perfLeaf[int(t.leaf)+l*len(a) : int(t.leaf)+(l+1)*len(a)]
	for k := range a {
		p.add(a, k, v[k])
	}
}

// perfBlock is fastBlock for perfect trees. It moves all the rows of the
// block down one level of a tree before the next level: the rows' steps are
// independent, so the processor overlaps them. Without a NaN in the block,
// a step is a load of the split, a load of the value, a comparison and an
// addition.
func (p *Predictor[F]) perfBlock(x, a []F, n int, trees []treeRef) {
	np, k := p.p, p.k
	hasNaN := false
	for _, v := range x[:n*np] {
		if v != v {
			hasNaN = true
			break
		}
	}
	var idx [batchRows]int32
	for ti := range trees {
		t := &trees[ti]
		nd := p.perf[t.root : int(t.root)+1<<t.depth-1]
		ix := idx[:n]
		for r := range ix {
			ix[r] = 0
		}
		for d := t.depth; d > 0; d-- {
			if hasNaN {
				for r, i := range ix {
					ix[r] = int32(perfStep(x[r*np:(r+1)*np], nd, int(i)))
				}
				continue
			}
			perfLevel(ix, x, nd, np)
		}
		for r, i := range ix {
			p.addPerfLeaf(a[r*k:(r+1)*k], t, int(i))
		}
	}
}

// perfLevel moves every row of a block one level down a perfect tree: ix[r]
// is the split where row r (x[r*np:]) stands. No value may be NaN.
func perfLevel[F Float](ix []int32, x []F, nd []perfNode[F], np int) {
	off := 0
	for r, i := range ix {
		s := &nd[i]
		j := 2*i + 1
		if x[off+int(s.feat&^nanRightBit)] >= s.thr {
			j++
		}
		ix[r] = j
		off += np
	}
}
