package lightgbm

import (
	"math"

	"github.com/treegen/treegen/ir"
)

// Limits on the IR nodes a model converts into. Splits on "zero as
// missing" features can need copies of subtrees (see doc.go), which can
// multiply a tree's size; sizes and depths are computed before anything is
// built, and a model beyond these limits is refused.
const (
	maxTreeNodes  = 1 << 20 // IR nodes of one tree
	maxExtraNodes = 1 << 20 // IR nodes beyond LightGBM's own, over the whole model
)

// convert checks the shape of one LightGBM tree and returns its IR nodes in
// canonical order, leaf values multiplied by scale. extra counts the IR
// nodes added so far by zero-as-missing splits, over the model.
func (p *parser) convert(t *lgbTree, scale float64, extra *int) ([]ir.Node, error) {
	if err := p.structure(t); err != nil {
		return nil, err
	}
	b := &builder{p: p, t: t, scale: scale}
	if t.numLeaves == 1 {
		if _, err := b.leaf(0); err != nil {
			return nil, err
		}
		return b.nodes, nil
	}
	size, err := p.measure(t)
	if err != nil {
		return nil, err
	}
	*extra += size - (2*t.numLeaves - 1)
	if *extra > maxExtraNodes {
		return nil, p.errorf(t.line, "%sconverting the zero-as-missing splits of the model up to this tree needs more than %d extra nodes", t.w.prefix(), maxExtraNodes)
	}
	b.nodes = make([]ir.Node, 0, size)
	if _, err := b.node(0); err != nil {
		return nil, err
	}
	return b.nodes, nil
}

// measure returns the number of IR nodes tree t converts into, and refuses
// it if that exceeds maxTreeNodes or its depth exceeds ir.MaxDepth. The
// tree's structure has been checked.
func (p *parser) measure(t *lgbTree) (int, error) {
	n := t.numLeaves - 1
	// Pre-order of the internal nodes; reversed, children come first.
	order := make([]int, 0, n)
	stack := []int{0}
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		order = append(order, i)
		for _, c := range [2]int{t.right[i], t.left[i]} {
			if c >= 0 {
				stack = append(stack, c)
			}
		}
	}
	// size and height of each internal node's IR subtree, sizes capped
	// above maxTreeNodes so that they cannot overflow.
	size := make([]int, n)
	height := make([]int, n)
	of := func(c int) (int, int) {
		if c < 0 {
			return 1, 0
		}
		return size[c], height[c]
	}
	for j := len(order) - 1; j >= 0; j-- {
		i := order[j]
		sl, hl := of(t.left[i])
		sr, hr := of(t.right[i])
		if expands(t, i) {
			size[i] = 3 + 2*sl + 2*sr
			height[i] = 3 + max(hl, hr)
		} else {
			size[i] = 1 + sl + sr
			height[i] = 1 + max(hl, hr)
		}
		size[i] = min(size[i], maxTreeNodes+1)
	}
	if height[0] > ir.MaxDepth {
		return 0, p.errorf(t.lineOf["left_child"], "%sthe tree is %d levels deep in the IR, deeper than its limit of %d", t.w.prefix(), height[0], ir.MaxDepth)
	}
	if size[0] > maxTreeNodes {
		return 0, p.errorf(t.line, "%sconverting the tree's zero-as-missing splits needs more than %d nodes", t.w.prefix(), maxTreeNodes)
	}
	return size[0], nil
}

// expands reports whether numerical node i of t becomes three IR nodes: a
// zero-as-missing split whose zero band [-z, z] does not fall on the
// default side of the threshold (see node).
func expands(t *lgbTree, i int) bool {
	dt, thr := t.decisionType[i], t.threshold[i]
	if dt&categoricalMask != 0 || (dt>>2)&3 != missingZero {
		return false
	}
	if dt&defaultLeftMask != 0 {
		return thr < -zeroThreshold
	}
	return thr > zeroThreshold
}

// structure checks that left_child and right_child make one binary tree:
// node 0 the root, every other internal node 0..num_leaves-2 and every leaf
// (child -1-l for leaf l) the child of exactly one node, no cycles.
func (p *parser) structure(t *lgbTree) error {
	n := t.numLeaves - 1
	if n == 0 {
		return nil
	}
	w := t.w.prefix()
	// parent[i] is 2*node+side of the link to internal node i (-1: none);
	// leafParent likewise for leaves.
	parent := make([]int, n)
	leafParent := make([]int, t.numLeaves)
	for i := range parent {
		parent[i] = -1
	}
	for i := range leafParent {
		leafParent[i] = -1
	}
	sides := [2]string{"left_child", "right_child"}
	for i := 0; i < n; i++ {
		for side, c := range [2]int{t.left[i], t.right[i]} {
			key, line := sides[side], t.lineOf[sides[side]]
			if c >= 0 {
				switch {
				case c >= n:
					return p.errorf(line, "%s%s of node %d is %d: out of range (internal nodes are 0..%d, leaves -1..-%d)", w, key, i, c, n-1, t.numLeaves)
				case c == 0 || c == i:
					return p.errorf(line, "%s%s of node %d is %d: a cycle (node %d is an ancestor of node %d)", w, key, i, c, c, i)
				case parent[c] >= 0:
					return p.errorf(line, "%s%s of node %d is %d, but node %d is already the %s of node %d", w, key, i, c, c, sideName(parent[c]), parent[c]/2)
				}
				parent[c] = 2*i + side
				continue
			}
			l := ^c // leaf l is written -l-1
			switch {
			case l >= t.numLeaves:
				return p.errorf(line, "%s%s of node %d is %d: out of range (internal nodes are 0..%d, leaves -1..-%d)", w, key, i, c, n-1, t.numLeaves)
			case leafParent[l] >= 0:
				return p.errorf(line, "%s%s of node %d is leaf %d (%d), but leaf %d is already the %s of node %d", w, key, i, l, c, l, sideName(leafParent[l]), leafParent[l]/2)
			}
			leafParent[l] = 2*i + side
		}
	}
	// With no node or leaf linked twice, the 2n links reach each of the n-1
	// non-root nodes and n+1 leaves exactly once. What remains possible is
	// a cycle detached from the root: find the nodes the root reaches.
	reached := make([]bool, n)
	reached[0] = true
	stack := []int{0}
	count := 1
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, c := range [2]int{t.left[i], t.right[i]} {
			if c > 0 && !reached[c] {
				reached[c] = true
				count++
				stack = append(stack, c)
			}
		}
	}
	if count < n {
		for i := 1; i < n; i++ {
			if !reached[i] {
				return p.errorf(t.lineOf["left_child"], "%snode %d is never reached from the root: its parent links form a cycle", w, i)
			}
		}
	}
	return nil
}

func sideName(link int) string {
	if link%2 == 0 {
		return "left child"
	}
	return "right child"
}

// builder emits the IR nodes of one tree in canonical (pre-)order: a node,
// then its left subtree, then its right subtree. measure has checked the
// size and depth of the result.
type builder struct {
	p      *parser
	t      *lgbTree
	scale  float64
	nodes  []ir.Node
	copies int // > 0 while a copy of a subtree is emitted
}

// add appends a node and returns its index.
func (b *builder) add(n ir.Node) int {
	b.nodes = append(b.nodes, n)
	return len(b.nodes) - 1
}

// leaf emits leaf l.
func (b *builder) leaf(l int) (int, error) {
	v := b.t.leafValue[l]
	if b.scale != 1 {
		v *= b.scale
		if !finite(v) {
			return 0, b.p.errorf(b.t.lineOf["leaf_value"], "%sleaf_value %d times the sigmoid parameter %v is not a finite number", b.t.w.prefix(), l, b.scale)
		}
	}
	return b.add(ir.Node{Kind: ir.Leaf, Value: []float64{v}}), nil
}

// emitter emits a subtree and returns the index of its root.
type emitter func() (int, error)

// child emits LightGBM child c (an internal node, or leaf ^c if c < 0).
func (b *builder) child(c int) emitter {
	return func() (int, error) {
		if c < 0 {
			return b.leaf(^c)
		}
		return b.node(c)
	}
}

// copy returns an emitter of e's subtree as a second copy of it: its
// splits carry no statistics, as the first copy has them.
func (b *builder) copy(e emitter) emitter {
	return func() (int, error) {
		b.copies++
		defer func() { b.copies-- }()
		return e()
	}
}

// stats returns n with the split statistics of LightGBM node i, if the
// tree has them and the builder is not emitting a copy.
func (b *builder) stats(i int, n ir.Node) ir.Node {
	if b.copies > 0 {
		return n
	}
	if b.t.gain != nil {
		n.Gain = b.t.gain[i]
	}
	if b.t.cover != nil {
		n.Cover = b.t.cover[i]
	}
	return n
}

// split emits a split node n followed by its two subtrees.
func (b *builder) split(n ir.Node, left, right emitter) (int, error) {
	i := b.add(n)
	l, err := left()
	if err != nil {
		return 0, err
	}
	r, err := right()
	if err != nil {
		return 0, err
	}
	b.nodes[i].Left, b.nodes[i].Right = l, r
	return i, nil
}

// axis returns an emitter of the test "x[f] <= thr" ("<" unless le) with
// its subtrees, without split statistics.
func (b *builder) axis(f int, thr float64, le, defaultLeft bool, left, right emitter) emitter {
	return b.axisOf(-1, f, thr, le, defaultLeft, left, right)
}

// axisOf is axis for the IR node that stands for LightGBM node i: it
// carries i's split statistics (none for i < 0).
func (b *builder) axisOf(i, f int, thr float64, le, defaultLeft bool, left, right emitter) emitter {
	return func() (int, error) {
		n := ir.Node{Kind: ir.Axis, Feature: f, Threshold: thr, LessEqual: le, DefaultLeft: defaultLeft}
		if i >= 0 {
			n = b.stats(i, n)
		}
		return b.split(n, left, right)
	}
}

// node emits internal node i of the LightGBM tree, with its subtrees.
func (b *builder) node(i int) (int, error) {
	t := b.t
	f, thr, dt := t.splitFeature[i], t.threshold[i], t.decisionType[i]
	left, right := b.child(t.left[i]), b.child(t.right[i])
	if dt&categoricalMask != 0 {
		cats, err := b.categories(i)
		if err != nil {
			return 0, err
		}
		// NaN goes right whatever the missing type (CategoricalDecision).
		return b.split(b.stats(i, ir.Node{Kind: ir.Categorical, Feature: f, Categories: cats}), left, right)
	}
	if !finite(thr) {
		return 0, b.p.errorf(t.lineOf["threshold"], "%sthreshold of node %d is %v, not a finite number", t.w.prefix(), i, thr)
	}
	defaultLeft := dt&defaultLeftMask != 0
	z := zeroThreshold
	// The IR node that stands for the split (the outer one, where it takes
	// three) carries its statistics; the subtrees' second copies carry
	// none.
	switch (dt >> 2) & 3 {
	case missingNone:
		// NaN is replaced by 0 and compared like any value.
		return b.axisOf(i, f, thr, true, 0 <= thr, left, right)()
	case missingNaN:
		return b.axisOf(i, f, thr, true, defaultLeft, left, right)()
	}
	// Zero as missing: NaN and every x with -z <= x <= z go to the
	// default side, other values left iff x <= thr. The cases where one
	// node is not enough are those of expands.
	switch {
	case defaultLeft && thr >= z:
		// The zero band lies below the threshold anyway.
		return b.axisOf(i, f, thr, true, true, left, right)()
	case defaultLeft && thr >= -z:
		// Left iff x <= thr or -z <= x <= z, that is x <= z.
		return b.axisOf(i, f, z, true, true, left, right)()
	case defaultLeft:
		// thr < -z: left on (-inf, thr], right on (thr, -z), left on
		// [-z, z], right on (z, +inf): each subtree is needed twice.
		return b.axisOf(i, f, thr, true, true, left,
			b.axis(f, -z, false, false, right,
				b.axis(f, z, true, false, b.copy(left), b.copy(right))))()
	case thr < -z:
		// The zero band lies above the threshold anyway.
		return b.axisOf(i, f, thr, true, false, left, right)()
	case thr <= z:
		// Left iff x <= thr and not -z <= x <= z, that is x < -z.
		return b.axisOf(i, f, -z, false, false, left, right)()
	default:
		// thr > z: left on (-inf, -z), right on [-z, z], left on (z, thr],
		// right on (thr, +inf).
		return b.axisOf(i, f, thr, true, false,
			b.axis(f, -z, false, false, left,
				b.axis(f, z, true, false, b.copy(right), b.copy(left))),
			right)()
	}
}

// categories returns the category set of categorical node i: the bitset
// cat_threshold[cat_boundaries[k]:cat_boundaries[k+1]] with k the node's
// threshold, bit c%32 of word c/32 standing for category c.
func (b *builder) categories(i int) ([]int, error) {
	t := b.t
	w := t.w.prefix()
	if t.numCat == 0 {
		return nil, b.p.errorf(t.lineOf["decision_type"], "%snode %d is categorical (decision_type %d) but the tree has num_cat=0", w, i, t.decisionType[i])
	}
	k := t.threshold[i]
	if k != math.Trunc(k) || k < 0 || k >= float64(t.numCat) {
		return nil, b.p.errorf(t.lineOf["threshold"], "%sthreshold of categorical node %d is %v: want the index of a category set, 0..%d", w, i, k, t.numCat-1)
	}
	words := t.catThreshold[t.catBoundaries[int(k)]:t.catBoundaries[int(k)+1]]
	if len(words) > (ir.MaxCategory+1)/32 {
		return nil, b.p.errorf(t.lineOf["cat_threshold"], "%sthe category set of node %d has %d words: categories beyond %d are not supported", w, i, len(words), ir.MaxCategory)
	}
	var cats []int
	for j, word := range words {
		for bit := 0; bit < 32; bit++ {
			if word>>bit&1 != 0 {
				cats = append(cats, 32*j+bit)
			}
		}
	}
	return cats, nil
}
