package tel

import (
	"math"
	"math/rand/v2"
)

// ensemble holds the parameters of m perfect binary trees of depth d over p
// standardised features with k outputs, and computes their passes.
//
// The nodes of a tree are numbered breadth first (heap order): node i has
// children 2i+1 (left) and 2i+2 (right); nodes 0 .. inner-1 are internal
// and nodes inner .. 2·inner are the leaves, leaf l being node inner+l.
// This is also the node order of the IR trees (children after parents).
type ensemble struct {
	trees, depth, p, k int
	inner, leaves      int // per tree: 2^d - 1 and 2^d

	logistic bool    // LogisticActivation instead of the smooth-step
	gamma    float64 // smooth-step width
	half     float64 // gamma/2
	alpha    float64 // logistic scale
	hasBias  bool

	// theta holds every trainable parameter: W, then B when hasBias, then
	// O. w, b and o are views into it (b is a zero array outside theta
	// when there is no bias).
	theta []float64
	w     []float64 // trees × inner × p: row (t, i) at (t·inner+i)·p
	b     []float64 // trees × inner
	o     []float64 // trees × leaves × k: leaf (t, l) at (t·leaves+l)·k

	// defaultLeft is the direction of a NaN margin per node (trees ×
	// inner), as in the IR; only prediction on raw inputs meets NaN.
	defaultLeft []bool
}

func newEnsemble(trees, depth, p, k int, s settings) *ensemble {
	inner := 1<<depth - 1
	e := &ensemble{
		trees: trees, depth: depth, p: p, k: k,
		inner: inner, leaves: inner + 1,
		logistic: s.act == LogisticActivation,
		gamma:    s.gamma, half: s.gamma / 2, alpha: s.alpha,
		hasBias: s.bias,
	}
	nw, nb, no := trees*inner*p, trees*inner, trees*(inner+1)*k
	if !e.hasBias {
		nb = 0
	}
	e.theta = make([]float64, nw+nb+no)
	e.w = e.theta[:nw:nw]
	if e.hasBias {
		e.b = e.theta[nw : nw+nb : nw+nb]
	} else {
		e.b = make([]float64, trees*inner)
	}
	e.o = e.theta[nw+nb:]
	e.defaultLeft = make([]bool, trees*inner)
	return e
}

// init draws W and O uniformly from (-0.01, 0.01), as the reference
// implementation does, in parameter order; biases start at 0.
func (e *ensemble) init(rng *rand.Rand) {
	for i := range e.w {
		e.w[i] = 0.02*rng.Float64() - 0.01
	}
	for i := range e.o {
		e.o[i] = 0.02*rng.Float64() - 0.01
	}
}

// route returns S(z) and S'(z). A NaN margin (only from NaN inputs at
// prediction time) routes by the node's default direction with S' = 0.
func (e *ensemble) route(z float64, defaultLeft bool) (s, ds float64) {
	if e.logistic {
		s = 1 / (1 + math.Exp(-z/e.alpha))
		return s, s * (1 - s) / e.alpha
	}
	switch {
	case z <= -e.half:
		return 0, 0
	case z >= e.half:
		return 1, 0
	case z != z:
		if defaultLeft {
			return 1, 0
		}
		return 0, 0
	}
	// ir.SmoothStep's order of operations, each rounded (no fused
	// multiply-add): the interpreter computes the same bits.
	u := z / e.gamma
	s = float64(u*float64(1.5-float64(2*u*u))) + 0.5
	ds = (1.5 - 6*u*u) / e.gamma
	return s, ds
}

// slope returns S'(z) given s = S(z).
func (e *ensemble) slope(z, s float64) float64 {
	if e.logistic {
		return s * (1 - s) / e.alpha
	}
	if !(z > -e.half && z < e.half) {
		return 0
	}
	u := z / e.gamma
	return (1.5 - 6*u*u) / e.gamma
}

// leafRec is a leaf reached by the conditional forward pass.
type leafRec struct {
	prob float64 // P(x → l)
	leaf int32   // leaf index in its tree, 0 .. leaves-1
	// up links the leaf to its nearest fractional ancestor: 2·a + side,
	// a being the ancestor's index in the tree's fracRecs and side 1 when
	// the leaf is in its right subtree; -1 when there is none.
	up int32
}

// fracRec is a reached internal node whose routing is fractional (0 < S <
// 1): a node of the paper's fractional tree. The records are small: a
// minibatch's traces are written once and read twice.
type fracRec struct {
	s    float64 // S(z)
	d    float64 // S'(z); after the backward pass, ∂L/∂z
	node int32
	up   int32 // as in leafRec
}

// trace records the conditional forward passes of some (sample, tree)
// pairs, one after the other, for the backward pass.
type trace struct {
	leaves []leafRec
	fracs  []fracRec
}

func (tr *trace) reset() {
	tr.leaves = tr.leaves[:0]
	tr.fracs = tr.fracs[:0]
}

type stackEntry struct {
	prob float64
	node int32
	up   int32 // as in leafRec
}

// forwardTree is Algorithm 1 for tree t at the standardised row x: it adds
// the tree's value Σ P(x→l)·o_l over the reachable leaves to tv and
// returns the number of reachable leaves. With tr not nil it appends the
// reachable leaves and the fractional nodes to tr, parents indexed from the
// tree's first fracRec.
//
// The traversal is the interpreter's: depth first, left before right, the
// path probability multiplied in root-to-leaf order, a child skipped when
// its probability is exactly 0, the margin accumulated from the bias in
// feature order. The tree's value is thus the interpreter's, bit for bit.
func (e *ensemble) forwardTree(t int, x, tv []float64, tr *trace) int {
	p, k, inner := e.p, e.k, e.inner
	wt := e.w[t*inner*p : (t+1)*inner*p]
	bt := e.b[t*inner : (t+1)*inner]
	ot := e.o[t*e.leaves*k : (t+1)*e.leaves*k]
	dl := e.defaultLeft[t*inner : (t+1)*inner]
	base := 0
	if tr != nil {
		base = len(tr.fracs)
	}
	var stack [MaxDepth + 2]stackEntry
	stack[0] = stackEntry{prob: 1, up: -1}
	sp := 1
	reached := 0
	var v0 float64 // the tree's value when k = 1
	if k == 1 {
		v0 = tv[0]
	}
	for sp > 0 {
		sp--
		en := stack[sp]
		i := int(en.node)
		if i >= inner {
			l := i - inner
			if k == 1 {
				v0 += float64(en.prob * ot[l])
			} else {
				o := ot[l*k : l*k+k]
				for j := range tv {
					tv[j] += float64(en.prob * o[j])
				}
			}
			if tr != nil {
				tr.leaves = append(tr.leaves, leafRec{prob: en.prob, leaf: int32(l), up: en.up})
			}
			reached++
			continue
		}
		row := wt[i*p : i*p+p]
		z := bt[i]
		for j, w := range row {
			z += float64(w * x[j])
		}
		s, ds := e.route(z, dl[i])
		lup, rup := en.up, en.up
		if tr != nil && s > 0 && s < 1 {
			a := int32(len(tr.fracs) - base)
			lup, rup = 2*a, 2*a+1
			tr.fracs = append(tr.fracs, fracRec{s: s, d: ds, node: int32(i), up: en.up})
		}
		left, right := en.prob*s, en.prob*(1-s)
		c := int32(2*i + 1)
		if right != 0 {
			stack[sp] = stackEntry{prob: right, node: c + 1, up: rup}
			sp++
		}
		if left != 0 {
			stack[sp] = stackEntry{prob: left, node: c, up: lup}
			sp++
		}
	}
	if k == 1 {
		tv[0] = v0
	}
	return reached
}

// forward computes the margins of the standardised row x into out, which
// must hold the base scores on entry: out += T_1(x), then T_2(x), ... in
// tree order, as the interpreter does. tv is scratch of length k. It
// returns the number of reachable leaves summed over the trees.
func (e *ensemble) forward(x, out, tv []float64) int {
	reached := 0
	for t := range e.trees {
		clear(tv)
		reached += e.forwardTree(t, x, tv, nil)
		for j := range out {
			out[j] += tv[j]
		}
	}
	return reached
}

// backwardTree is Algorithm 2 for tree t: given ∂L/∂T (dT) and the trace
// of the tree's forward pass (leaves, fracs), it sets d of every
// fractional node to ∂L/∂z_i, z_i = <w_i, x> + b_i, traversing the
// fractional tree from the leaves up (fracs are in pre-order, so backwards
// is children before parents). sums is scratch of length 2·len(fracs).
// With dx not nil it adds ∂L/∂x = Σ_i coef_i·w_i to it.
//
// By Theorem 1, ∂L/∂w_i = coef_i·x, ∂L/∂b_i = coef_i, and ∂L/∂o_l =
// P(x→l)·dT for every reached leaf; every other gradient is 0.
func (e *ensemble) backwardTree(t int, dT []float64, leaves []leafRec, fracs []fracRec, sums, dx []float64) {
	k := e.k
	ot := e.o[t*e.leaves*k : (t+1)*e.leaves*k]
	sums = sums[:2*len(fracs)]
	clear(sums)
	for _, lr := range leaves {
		if lr.up < 0 {
			continue // the only reachable leaf: no fractional node above it
		}
		o := ot[int(lr.leaf)*k : int(lr.leaf)*k+k]
		g := 0.0
		for j, d := range dT {
			g += d * o[j]
		}
		sums[lr.up] += lr.prob * g
	}
	for i := len(fracs) - 1; i >= 0; i-- {
		f := &fracs[i]
		sl, sr := sums[2*i], sums[2*i+1]
		f.d *= sl/f.s - sr/(1-f.s)
		if f.up >= 0 {
			sums[f.up] += sl + sr
		}
		if dx != nil {
			row := e.w[(t*e.inner+int(f.node))*e.p:][:e.p]
			for j, w := range row {
				dx[j] += f.d * w
			}
		}
	}
}

// gradient holds ∂L/∂θ in the layout of ensemble.theta.
type gradient struct {
	all     []float64
	w, b, o []float64 // b is nil without biases
}

func (e *ensemble) newGradient() *gradient {
	g := &gradient{all: make([]float64, len(e.theta))}
	nw, no := len(e.w), len(e.o)
	g.w = g.all[:nw:nw]
	if e.hasBias {
		g.b = g.all[nw : len(g.all)-no]
	}
	g.o = g.all[len(g.all)-no:]
	return g
}

// accumulate adds the gradient of one (sample, tree) pair, whose backward
// pass is done, to g: coef·x to the rows of the fractional nodes, P·dT to
// the reached leaves.
func (e *ensemble) accumulate(g *gradient, t int, x, dT []float64, leaves []leafRec, fracs []fracRec) {
	p, k := e.p, e.k
	for i := range fracs {
		f := &fracs[i]
		r := t*e.inner + int(f.node)
		row := g.w[r*p : r*p+p]
		row = row[:len(x)]
		c := f.d
		for j, v := range x {
			row[j] += c * v
		}
		if g.b != nil {
			g.b[r] += c
		}
	}
	for _, lr := range leaves {
		r := t*e.leaves + int(lr.leaf)
		row := g.o[r*k : r*k+k]
		for j, d := range dT {
			row[j] += lr.prob * d
		}
	}
}
