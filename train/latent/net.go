package latent

import (
	"math"

	"github.com/treegen/treegen/train/latent/isotonic"
)

// net is the parameters of a latent tree and its read-out, in one vector
// for the optimiser, and the shapes that index them. Nodes are in heap
// order: node t's children are 2t+1 and 2t+2; nodes 0..B-1 branch and the
// 2^D after them are the leaves.
type net struct {
	p, k, depth int // inputs, outputs, depth D
	B, T        int // branching nodes 2^D - 1, all nodes 2^(D+1) - 1
	elu         bool
	tree        isotonic.Tree

	theta []float64 // all parameters: the slices below share it
	w     []float64 // B×p split weights
	b     []float64 // B split biases
	eta   []float64 // T pruning preferences η
	r     []float64 // k×(p+T) read-out weights over [x', z]
	c     []float64 // k read-out biases
}

// newNet returns the parameters of a tree of depth d over p inputs with k
// outputs, all zero.
func newNet(p, k, depth int, elu bool) *net {
	B := 1<<depth - 1
	T := 2*B + 1
	nt := &net{p: p, k: k, depth: depth, B: B, T: T, elu: elu, tree: isotonic.Heap(depth)}
	nt.theta = make([]float64, B*p+B+T+k*(p+T)+k)
	nt.split(nt.theta)
	return nt
}

// split points the named slices of nt at the vector v, laid out as theta.
func (nt *net) split(v []float64) {
	nt.w, nt.b, nt.eta, nt.r, nt.c = nt.parts(v)
}

// parts returns the parts of a vector laid out as theta: split weights,
// split biases, η, read-out weights, read-out biases.
func (nt *net) parts(v []float64) (w, b, eta, r, c []float64) {
	B, T, p, k := nt.B, nt.T, nt.p, nt.k
	w, v = v[:B*p], v[B*p:]
	b, v = v[:B], v[B:]
	eta, v = v[:T], v[T:]
	r, c = v[:k*(p+T)], v[k*(p+T):]
	return w, b, eta, r, c
}

// margins computes, for the standardised row x, the split margins s
// (len B, before the activation) and the rewards q (len T, Eq. 1): q_0 =
// +Inf, and a child's q is the least of its parent's and of the signed
// margin of its edge, -s̃ to the left and s̃ to the right, s̃ = elu(s) for
// LinearElu.
//
// Only the nodes the row reaches (q > 0) have their margin computed: below
// a node with q ≤ 0 every q is ≤ 0 whatever the margins, and a q ≤ 0 has
// z = 0 and no part in the tree program's solution or its derivatives
// (package isotonic), so its exact value does not matter. Such a node's
// children get its q and its margin is left 0. A row thus costs D dot
// products, not 2^D - 1.
//
// It writes the nodes with q > 0, a path from the root (a margin of 0
// sends the row to neither child), into path (len D+1) and returns their
// number.
func (nt *net) margins(x, s, q []float64, path []int32) int {
	p := nt.p
	q[0] = math.Inf(1)
	path[0] = 0
	n := 1
	for t := range nt.B {
		if !(q[t] > 0) {
			s[t], q[2*t+1], q[2*t+2] = 0, q[t], q[t]
			continue
		}
		w := nt.w[t*p : (t+1)*p]
		m := nt.b[t]
		for j, v := range x {
			m += w[j] * v
		}
		s[t] = m
		e := nt.act(m)
		q[2*t+1] = min(q[t], -e)
		q[2*t+2] = min(q[t], e)
		switch {
		case q[2*t+1] > 0:
			path[n] = int32(2*t + 1)
			n++
		case q[2*t+2] > 0:
			path[n] = int32(2*t + 2)
			n++
		}
	}
	return n
}

// act is the split activation: elu(m) for LinearElu, m otherwise.
func (nt *net) act(m float64) float64 {
	if nt.elu && !(m > 0) {
		return math.Exp(m) - 1
	}
	return m
}

// actGrad is the derivative of act at m.
func (nt *net) actGrad(m float64) float64 {
	if nt.elu && !(m > 0) {
		return math.Exp(m)
	}
	return 1
}

// readout writes the margins c + R·[x, z] of one row into out; z is 0
// off the row's path.
func (nt *net) readout(x, z []float64, path []int32, out []float64) {
	p, T := nt.p, nt.T
	for o := range nt.k {
		r := nt.r[o*(p+T) : (o+1)*(p+T)]
		m := nt.c[o]
		for j, v := range x {
			m += r[j] * v
		}
		for _, t := range path {
			m += r[p+int(t)] * z[t]
		}
		out[o] = m
	}
}

// backRow adds one row's gradients to g (laid out as theta) given the
// gradient dout of its margins and gQ of its rewards, which are 0 off the
// row's path. The path back from q to the margins follows the minima of
// margins: a child's q is its edge's signed margin when that is smaller
// than its parent's q, else its parent's q (ties go to the parent).
func (nt *net) backRow(x, s, q, z []float64, path []int32, dout, gQ []float64, g *net) {
	p, T := nt.p, nt.T
	for o, d := range dout {
		if d == 0 {
			continue
		}
		gr := g.r[o*(p+T) : (o+1)*(p+T)]
		g.c[o] += d
		for j, v := range x {
			gr[j] += d * v
		}
		for _, t := range path {
			gr[p+int(t)] += d * z[t]
		}
	}
	for i := len(path) - 1; i > 0; i-- {
		c := int(path[i])
		gc := gQ[c]
		if gc == 0 {
			continue
		}
		t := (c - 1) / 2
		e := nt.act(s[t])
		if c == 2*t+1 {
			e = -e
		}
		if !(e < q[t]) {
			gQ[t] += gc // q_c is the parent's q
			continue
		}
		gs := gc * nt.actGrad(s[t])
		if c == 2*t+1 {
			gs = -gs
		}
		g.b[t] += gs
		gw := g.w[t*p : (t+1)*p]
		for j, v := range x {
			gw[j] += gs * v
		}
	}
}

// zGrad writes into gz the gradient of the loss with respect to a row's z
// for the gradient dout of its margins, on the row's path (q > 0); the
// tree program's backward pass reads no other node.
func (nt *net) zGrad(path []int32, dout, gz []float64) {
	p, T := nt.p, nt.T
	clear(gz)
	for _, t := range path {
		g := 0.0
		for o, d := range dout {
			g += d * nt.r[o*(p+T)+p+int(t)]
		}
		gz[t] = g
	}
}

// penalty returns λ‖η‖∞ and adds its subgradient to geta: λ·sign(η_t) at
// the first t of largest |η_t|.
func (nt *net) penalty(lambda float64, geta []float64) float64 {
	if lambda == 0 {
		return 0
	}
	best, at := -1.0, 0
	for t, v := range nt.eta {
		if a := math.Abs(v); a > best {
			best, at = a, t
		}
	}
	if geta != nil && best > 0 {
		geta[at] += lambda * math.Copysign(1, nt.eta[at])
	}
	return lambda * best
}
