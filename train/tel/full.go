package tel

// fullMaxBytes bounds the buffers of the full passes of one minibatch;
// above it every minibatch takes the conditional passes.
const fullMaxBytes = 256 << 20

// fullDensity is the fraction of the leaves that the rows of a minibatch
// must have reached, on average, for the next minibatch to take the full
// passes instead of the conditional ones. BenchmarkPasses (256 rows, 10
// trees of depth 10, 2 cores) measured the conditional passes at 71 ms
// when every row reaches every leaf, 52 ms at 77% and 15 ms at 17%, and
// the full ones at 38 to 42 ms whatever the density: they break even near
// 60%.
const fullDensity = 0.5

// The full passes compute every node of every tree for every row, without
// branching on the routing, as the conditional passes would if no
// probability were 0; they serve the minibatches in which most nodes route
// fractionally (the first ones of a training run, whose small initial
// weights send every row everywhere), where walking the fractional tree
// node by node and recording it costs more than computing everything.
//
// Their margins are the conditional passes' (and the interpreter's) bit
// for bit: a node's margin is its bias plus the products added left to
// right, each rounded, four nodes at a time in independent chains; the
// path probabilities multiply root to leaf; a leaf reached with
// probability 0 adds nothing. Their gradients are the same sums, but the
// sums of the backward pass are added in another order, so they may
// differ in the last bits. Which passes a minibatch takes depends only on
// the data, the options and the weights, so training stays deterministic.

// fullWork holds the buffers of the full passes over a minibatch: the
// coefficients ∂L/∂z of every row and node, and the probabilities of every
// row and leaf, which the second phase adds up tree by tree.
type fullWork struct {
	coef  []float64 // rows × trees × inner
	prob  []float64 // rows × trees × leaves
	units []*fullUnit
}

// fullUnit is the scratch of a unit of rows of the first phase: the
// routing of one row through every tree.
type fullUnit struct {
	s, ds []float64 // trees × inner: S(z) and S'(z)
	pn    []float64 // trees × (inner + leaves): P(x → node), heap order
	a     []float64 // inner + leaves: the backward sums of one tree
}

// fullBytes is the size of the buffers of the full passes over rows rows.
func fullBytes(e *ensemble, rows int) float64 {
	return 8 * float64(rows) * float64(e.trees) * float64(e.inner+e.leaves)
}

func newFullWork(e *ensemble, rows, units int) *fullWork {
	fw := &fullWork{
		coef:  make([]float64, rows*e.trees*e.inner),
		prob:  make([]float64, rows*e.trees*e.leaves),
		units: make([]*fullUnit, units),
	}
	for u := range fw.units {
		fw.units[u] = &fullUnit{
			s:  make([]float64, e.trees*e.inner),
			ds: make([]float64, e.trees*e.inner),
			pn: make([]float64, e.trees*(e.inner+e.leaves)),
			a:  make([]float64, e.inner+e.leaves),
		}
	}
	return fw
}

// forwardFull computes the margins, routings and path probabilities of
// every node of tree t at the standardised row x into s, ds and pn (the
// tree's slices of a fullUnit), adds the tree's value to tv and returns
// the number of leaves reached with a probability other than 0.
func (e *ensemble) forwardFull(t int, x, tv, s, ds, pn []float64) int {
	p, k, inner := e.p, e.k, e.inner
	wt := e.w[t*inner*p : (t+1)*inner*p]
	bt := e.b[t*inner : (t+1)*inner]
	ot := e.o[t*e.leaves*k : (t+1)*e.leaves*k]
	x = x[:p]
	i := 0
	for ; i+4 <= inner; i += 4 {
		r0 := wt[i*p : i*p+p]
		r1 := wt[(i+1)*p : (i+1)*p+p]
		r2 := wt[(i+2)*p : (i+2)*p+p]
		r3 := wt[(i+3)*p : (i+3)*p+p]
		z0, z1, z2, z3 := bt[i], bt[i+1], bt[i+2], bt[i+3]
		for j, v := range x {
			z0 += float64(r0[j] * v)
			z1 += float64(r1[j] * v)
			z2 += float64(r2[j] * v)
			z3 += float64(r3[j] * v)
		}
		s[i], ds[i] = e.route(z0, false)
		s[i+1], ds[i+1] = e.route(z1, false)
		s[i+2], ds[i+2] = e.route(z2, false)
		s[i+3], ds[i+3] = e.route(z3, false)
	}
	for ; i < inner; i++ {
		r := wt[i*p : i*p+p]
		z := bt[i]
		for j, v := range x {
			z += float64(r[j] * v)
		}
		s[i], ds[i] = e.route(z, false)
	}
	pn[0] = 1
	for i := range inner {
		q := pn[i]
		pn[2*i+1] = q * s[i]
		pn[2*i+2] = q * (1 - s[i])
	}
	reached := 0
	for l, q := range pn[inner:] {
		if q == 0 {
			continue
		}
		reached++
		o := ot[l*k : l*k+k]
		for j := range tv {
			tv[j] += float64(q * o[j])
		}
	}
	return reached
}

// backwardFull is the backward pass of tree t over the routing of
// forwardFull: it writes ∂L/∂z of every internal node into coef (0 where
// the routing is not fractional) and the leaves' probabilities into prob,
// and with dx not nil adds Σ_i coef_i·w_i to it. a is scratch of
// inner+leaves values.
func (e *ensemble) backwardFull(t int, dT, s, ds, pn, a, coef, prob, dx []float64) {
	k, inner := e.k, e.inner
	ot := e.o[t*e.leaves*k : (t+1)*e.leaves*k]
	copy(prob, pn[inner:])
	for l, q := range pn[inner:] {
		g := 0.0
		if q != 0 {
			o := ot[l*k : l*k+k]
			for j, d := range dT {
				g += d * o[j]
			}
			g *= q
		}
		a[inner+l] = g
	}
	for i := inner - 1; i >= 0; i-- {
		al, ar := a[2*i+1], a[2*i+2]
		a[i] = al + ar
		c := 0.0
		if si := s[i]; si > 0 && si < 1 && pn[i] != 0 {
			c = ds[i] * (al/si - ar/(1-si))
		}
		coef[i] = c
		if dx != nil && c != 0 {
			row := e.w[(t*inner+i)*e.p:][:e.p]
			for j, w := range row {
				dx[j] += c * w
			}
		}
	}
}

// fullTreeGradient writes the gradient of tree t, summed over the rows
// of the minibatch whose full backward passes are done, into g (cleared).
func (ps *passes) fullTreeGradient(g *gradient, t int, dT []float64) {
	e, fw := ps.e, ps.fw
	p, k, m, inner, leaves := e.p, e.k, e.trees, e.inner, e.leaves
	gw := g.w[t*inner*p : (t+1)*inner*p]
	var gb []float64
	if g.b != nil {
		gb = g.b[t*inner : (t+1)*inner]
	}
	gl := g.o[t*leaves*k : (t+1)*leaves*k]
	// Four rows at a time: every node's gradient row is read and
	// written once for the four of them.
	b := 0
	for ; b+4 <= ps.n; b += 4 {
		x0 := ps.row(b)
		x1 := ps.row(b + 1)
		x2 := ps.row(b + 2)
		x3 := ps.row(b + 3)
		c0 := fw.coef[(b*m+t)*inner:][:inner]
		c1 := fw.coef[((b+1)*m+t)*inner:][:inner]
		c2 := fw.coef[((b+2)*m+t)*inner:][:inner]
		c3 := fw.coef[((b+3)*m+t)*inner:][:inner]
		for i := range inner {
			a0, a1, a2, a3 := c0[i], c1[i], c2[i], c3[i]
			if a0 == 0 && a1 == 0 && a2 == 0 && a3 == 0 {
				continue
			}
			row := gw[i*p:][:p]
			for j := range row {
				row[j] += (a0*x0[j] + a1*x1[j]) + (a2*x2[j] + a3*x3[j])
			}
			if gb != nil {
				gb[i] += (a0 + a1) + (a2 + a3)
			}
		}
	}
	for ; b < ps.n; b++ {
		x := ps.row(b)
		for i, c := range fw.coef[(b*m+t)*inner : (b*m+t+1)*inner] {
			if c == 0 {
				continue
			}
			row := gw[i*p : i*p+p]
			for j, v := range x {
				row[j] += c * v
			}
			if gb != nil {
				gb[i] += c
			}
		}
	}
	for b := range ps.n {
		dT := dT[b*k : (b+1)*k]
		for l, pr := range fw.prob[(b*m+t)*leaves : (b*m+t+1)*leaves] {
			if pr == 0 {
				continue
			}
			row := gl[l*k : l*k+k]
			for j, d := range dT {
				row[j] += pr * d
			}
		}
	}
}
