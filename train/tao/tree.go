package tao

import (
	"math"
	"slices"

	"github.com/treegen/treegen/internal/fmath"
)

// maxRowLoss caps the cross-entropy of one row: −log p is replaced by
// min(−log p, maxRowLoss), so that a row whose class a leaf cannot predict
// (p exactly 0, the class outside the leaf's subset) costs maxRowLoss
// = −log 1e-8 instead of +∞. The cap is part of the objective everywhere:
// in Eq. 1, in the pseudo-labels and weights of Eq. 2 and in Eq. 3.
var maxRowLoss = -math.Log(1e-8)

// node is a node of a softmax tree.
type node struct {
	leaf bool

	// A decision node sends x right iff w·x + b >= 0 (w dense, of the
	// standardised features); left and right are its children.
	w           []float64
	b           float64
	left, right *node

	// A leaf holds a softmax over classes (strictly increasing class
	// indices): z_c = W[c-th row]·x + wb[c]. kmax is the most classes a
	// fit of the leaf may keep (k of the ST, α-contracted k of an AST).
	classes []int
	W, wb   []float64
	kmax    int
}

// newLeaf returns a leaf that may hold kmax classes, predicting class c
// with certainty until it is fitted.
func newLeaf(kmax, c, d int) *node {
	return &node{leaf: true, kmax: kmax, classes: []int{c}, W: make([]float64, d), wb: []float64{0}}
}

// margin returns w·x + b summed as the runtime sums an oblique margin:
// the bias first, then the non-zero weights in feature order.
func margin(w []float64, b float64, x []float64) float64 {
	m := b
	for j, v := range w {
		if v != 0 {
			m += v * x[j]
		}
	}
	return m
}

// goRight reports whether decision node n sends x right.
func (n *node) goRight(x []float64) bool { return margin(n.w, n.b, x) >= 0 }

// route returns the leaf of the subtree at n that x reaches.
func (n *node) route(x []float64) *node {
	for !n.leaf {
		if n.goRight(x) {
			n = n.right
		} else {
			n = n.left
		}
	}
	return n
}

// loss returns the capped cross-entropy of class y at leaf n for the
// standardised row x.
func (n *node) loss(x []float64, y int) float64 {
	at, ok := slices.BinarySearch(n.classes, y)
	if !ok {
		return maxRowLoss
	}
	if len(n.classes) == 1 {
		return 0
	}
	d := len(x)
	mx, zy := math.Inf(-1), 0.0
	var zbuf [64]float64
	z := zbuf[:0]
	for c := range n.classes {
		v := margin(n.W[c*d:(c+1)*d], n.wb[c], x)
		z = append(z, v)
		mx = max(mx, v)
		if c == at {
			zy = v
		}
	}
	s := 0.0
	for _, v := range z {
		s += math.Exp(v - mx)
	}
	return min(mx+math.Log(s)-zy, maxRowLoss)
}

// predict returns the class leaf n predicts for x: the class of largest
// probability, computed as the runtime computes a softmax leaf, so that
// rounding ties break the same way (to the smaller class).
func (n *node) predict(x []float64) int {
	if len(n.classes) == 1 {
		return n.classes[0]
	}
	d := len(x)
	var zbuf [64]float64
	z := zbuf[:0]
	mx := math.Inf(-1)
	for c := range n.classes {
		v := margin(n.W[c*d:(c+1)*d], n.wb[c], x)
		z = append(z, v)
		if c == 0 || v > mx {
			mx = v
		}
	}
	// The runtime's softmax (exp, sum, divide) and its first largest
	// output in class order; the classes are increasing.
	sum := 0.0
	for c, v := range z {
		z[c] = fmath.Exp(v - mx)
		if c == 0 {
			sum = z[c]
		} else {
			sum += z[c]
		}
	}
	best := 0
	for c := range z {
		z[c] /= sum
		if z[c] > z[best] {
			best = c
		}
	}
	return n.classes[best]
}

// norm1 returns the L1 norm of v.
func norm1(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += math.Abs(x)
	}
	return s
}

// penalty returns the node's term of Eq. 1: λ‖w‖₁ or μ‖W‖₁.
func (n *node) penalty(lambda, mu float64) float64 {
	if n.leaf {
		return mu * norm1(n.W)
	}
	return lambda * norm1(n.w)
}

// walk calls fn for every node of the subtree at n with its depth,
// parents before children, left before right.
func (n *node) walk(depth int, fn func(n *node, depth int)) {
	fn(n, depth)
	if !n.leaf {
		n.left.walk(depth+1, fn)
		n.right.walk(depth+1, fn)
	}
}

// shape returns the depth, the number of leaves and the mean number of
// classes per leaf of the subtree at n.
func (n *node) shape() (depth, leaves int, meanK float64) {
	k := 0
	n.walk(0, func(m *node, d int) {
		depth = max(depth, d)
		if m.leaf {
			leaves++
			k += len(m.classes)
		}
	})
	return depth, leaves, float64(k) / float64(leaves)
}

// levels returns the nodes of the subtree at n by depth.
func (n *node) levels() [][]*node {
	var out [][]*node
	n.walk(0, func(m *node, d int) {
		for len(out) <= d {
			out = append(out, nil)
		}
		out[d] = append(out[d], m)
	})
	return out
}

// flops returns the multiply-adds of a row's path through the subtree at
// n: the non-zero weights of every decision node it visits and of every
// row of its leaf's softmax.
func (n *node) flops(x []float64) int {
	f := 0
	for !n.leaf {
		f += nonZero(n.w)
		if n.goRight(x) {
			n = n.right
		} else {
			n = n.left
		}
	}
	if len(n.classes) > 1 {
		f += nonZero(n.W)
	}
	return f
}

func nonZero(v []float64) int {
	c := 0
	for _, x := range v {
		if x != 0 {
			c++
		}
	}
	return c
}
