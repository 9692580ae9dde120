package l1

import (
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// The reference of the tests: the problems computed row by row from a
// row-major copy of the data, independently of the solvers' code.

// problem is a test problem: rows (row-major) of features, binary sides or
// class labels, and row weights.
type problem struct {
	rows  [][]float64
	sides []bool // binary problems
	label []int  // multinomial problems
	k     int
	c     []float64
}

// design returns the problem's Design.
func (p *problem) design() *Design {
	d := 0
	if len(p.rows) > 0 {
		d = len(p.rows[0])
	}
	flat := make([]float64, 0, len(p.rows)*d)
	for _, r := range p.rows {
		flat = append(flat, r...)
	}
	return Gather(flat, d, nil)
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// randomWeight returns a row weight: 0 with probability 0.15, else in [0.5, 2).
func randomWeight(rng *rand.Rand) float64 {
	if rng.Float64() < 0.15 {
		return 0
	}
	return 0.5 + 1.5*rng.Float64()
}

// anchors returns the vertices of a simplex around the origin in d
// dimensions, e_1, …, e_d and -(1, …, 1). A problem whose every class
// holds them, with positive weights, is not separable, so its
// unregularised optimum is finite.
func anchors(d int) [][]float64 {
	var vs [][]float64
	for j := range d {
		v := make([]float64, d)
		v[j] = 1
		vs = append(vs, v)
	}
	v := make([]float64, d)
	for j := range v {
		v[j] = -1
	}
	return append(vs, v)
}

// binaryProblem returns n rows of d standard normal features whose sides
// follow a noisy linear model, random weights (some 0), and, with anchored,
// the anchors with each side.
func binaryProblem(seed uint64, n, d int, anchored bool) *problem {
	rng := newRand(seed)
	w := make([]float64, d)
	for j := range w {
		w[j] = 2 * rng.NormFloat64()
	}
	b := 0.5 * rng.NormFloat64()
	p := &problem{}
	for range n {
		x := make([]float64, d)
		z := b + 1.5*rng.NormFloat64()
		for j := range x {
			x[j] = rng.NormFloat64()
			z += w[j] * x[j]
		}
		p.rows = append(p.rows, x)
		p.sides = append(p.sides, z > 0)
		p.c = append(p.c, randomWeight(rng))
	}
	if anchored {
		for _, side := range []bool{false, true} {
			for _, v := range anchors(d) {
				p.rows = append(p.rows, v)
				p.sides = append(p.sides, side)
				p.c = append(p.c, 1)
			}
		}
	}
	return p
}

// softmaxProblem returns n rows of d standard normal features whose labels
// in [0, k) are drawn from a softmax of a random linear model, random
// weights (some 0), and, with anchored, the anchors with each label.
func softmaxProblem(seed uint64, n, d, k int, anchored bool) *problem {
	rng := newRand(seed)
	W := make([]float64, k*d)
	for i := range W {
		W[i] = 1.5 * rng.NormFloat64()
	}
	p := &problem{k: k}
	z := make([]float64, k)
	for range n {
		x := make([]float64, d)
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		for cl := range k {
			z[cl] = 0
			for j := range x {
				z[cl] += W[cl*d+j] * x[j]
			}
			z[cl] -= math.Log(-math.Log(rng.Float64())) // Gumbel noise: a softmax draw
		}
		p.rows = append(p.rows, x)
		p.label = append(p.label, argmax(z))
		p.c = append(p.c, randomWeight(rng))
	}
	if anchored {
		for cl := range k {
			for _, v := range anchors(d) {
				p.rows = append(p.rows, v)
				p.label = append(p.label, cl)
				p.c = append(p.c, 1)
			}
		}
	}
	return p
}

func argmax(z []float64) int {
	best := 0
	for i, v := range z {
		if v > z[best] {
			best = i
		}
	}
	return best
}

// refLogistic returns the binary loss (without the penalty) and its
// gradient in w and b.
func refLogistic(p *problem, w []float64, b float64) (loss float64, g []float64, gb float64) {
	g = make([]float64, len(w))
	for n, x := range p.rows {
		z := b
		for j, v := range x {
			z += w[j] * v
		}
		t := -1.0
		if p.sides[n] {
			t = 1
		}
		m := -t * z // loss log(1 + e^m), derivative in z -t·e^m/(1 + e^m)
		var l, s float64
		if m > 0 {
			l = m + math.Log1p(math.Exp(-m))
			s = 1 / (1 + math.Exp(-m))
		} else {
			l = math.Log1p(math.Exp(m))
			s = math.Exp(m) / (1 + math.Exp(m))
		}
		cn := p.weight(n)
		loss += cn * l
		for j, v := range x {
			g[j] += cn * -t * s * v
		}
		gb += cn * -t * s
	}
	return loss, g, gb
}

// refSoftmax returns the multinomial loss (without the penalty) and its
// gradient in W (k×d) and b.
func refSoftmax(p *problem, W, b []float64) (loss float64, G, gb []float64) {
	k := p.k
	d := len(W) / k
	G, gb = make([]float64, k*d), make([]float64, k)
	z := make([]float64, k)
	for n, x := range p.rows {
		for cl := range k {
			z[cl] = b[cl]
			for j, v := range x {
				z[cl] += W[cl*d+j] * v
			}
		}
		m := slices.Max(z)
		var s float64
		for _, v := range z {
			s += math.Exp(v - m)
		}
		lse := m + math.Log(s)
		cn := p.weight(n)
		loss += cn * (lse - z[p.label[n]])
		for cl := range k {
			a := math.Exp(z[cl] - lse)
			if cl == p.label[n] {
				a--
			}
			a *= cn
			for j, v := range x {
				G[cl*d+j] += a * v
			}
			gb[cl] += a
		}
	}
	return loss, G, gb
}

func (p *problem) weight(n int) float64 {
	if p.c == nil {
		return 1
	}
	return p.c[n]
}

// refViolation returns the largest KKT violation of the weights w with
// loss gradient g and the biases with gradient gb.
func refViolation(g, gb, w []float64, lambda float64) float64 {
	var v float64
	for _, x := range gb {
		v = max(v, math.Abs(x))
	}
	for j, x := range g {
		switch {
		case w[j] != 0:
			v = max(v, math.Abs(x+math.Copysign(lambda, w[j])))
		default:
			v = max(v, math.Abs(x)-lambda)
		}
	}
	return v
}

func allFinite(vs ...[]float64) bool {
	for _, s := range vs {
		for _, v := range s {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return false
			}
		}
	}
	return true
}

// centred returns v minus its mean (the biases of a softmax are defined up
// to a common shift).
func centred(v []float64) []float64 {
	var m float64
	for _, x := range v {
		m += x
	}
	m /= float64(len(v))
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = x - m
	}
	return out
}

// maxAbsDiff returns max_j |a_j - b_j|.
func maxAbsDiff(a, b []float64) float64 { return floats.Distance(a, b, math.Inf(1)) }
