package fuzzmodel

import (
	"math"

	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// maxTargets bounds the candidate values of one feature.
const maxTargets = 128

// rowSpecials are values every row may take: NaN, ±Inf, signed zeros,
// the numbers of special and of randmodel.Pool.
var rowSpecials = append(append([]float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1)}, special...), randmodel.Pool()...)

// rows returns the rows of m: fixed rows (all NaN, all ±Inf, all ±0, the
// extremes, one NaN at a time), rows decoded from the stream whose values
// are mostly the model's own numbers seen from the input side (thresholds,
// categories and their halves, the zeros of single-feature margins and the
// edges of soft nodes' fractional regions, mapped back through the
// preprocessing) with their float64 and float32 neighbours, and rows of
// randmodel.Inputs over the same numbers.
func (d *decoder) rows(m *ir.Model) [][]float64 {
	p := m.NumFeatures
	cands := targets(m)
	var rows [][]float64
	fill := func(v float64) []float64 {
		r := make([]float64, p)
		for j := range r {
			r[j] = v
		}
		return r
	}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1),
		math.SmallestNonzeroFloat64, -math.MaxFloat64, 1e39, -1e-45} {
		rows = append(rows, fill(v))
	}
	for j := 0; j < p; j++ {
		r := fill(0)
		r[j] = math.NaN()
		rows = append(rows, r)
	}
	s := d.s
	nodes := marginNodes(m)
	for range streamRows {
		r := make([]float64, p)
		if s.chance(64) {
			// Zeros but for one or two features: exact margins of
			// single-feature splits.
			for range 1 + s.intn(2) {
				j := s.intn(p)
				r[j] = d.value(cands[j])
			}
		} else {
			for j := range r {
				r[j] = d.value(cands[j])
			}
			if len(nodes) > 0 && s.chance(96) {
				d.aim(m, r, nodes[s.intn(256)*len(nodes)/256])
			}
		}
		rows = append(rows, r)
	}
	var all []float64
	for _, c := range cands {
		all = append(all, c...)
	}
	return append(rows, randmodel.Inputs(s.uint64(), randomRows, p, all)...)
}

// marginNodes returns the oblique and soft nodes of m that weigh some
// feature by a weight other than 0.
func marginNodes(m *ir.Model) []*ir.Node {
	var nodes []*ir.Node
	for i := range m.Trees {
		for k := range m.Trees[i].Nodes {
			n := &m.Trees[i].Nodes[k]
			if n.Kind != ir.Oblique && n.Kind != ir.Soft {
				continue
			}
			for _, w := range n.Weights {
				if w != 0 {
					nodes = append(nodes, n)
					break
				}
			}
		}
	}
	return nodes
}

// aim changes one feature of row r so that the margin of node n, with the
// other features as they are, comes within a few roundings of 0 or, for a
// soft node, of ±γ/2, the other features being sometimes made large: where
// the order of the additions of the margin, and the bounds that a backend
// puts on their rounding errors, decide the side. The value, solved in float64 (through the preprocessing), may be
// moved by an ulp or to float32.
func (d *decoder) aim(m *ir.Model, r []float64, n *ir.Node) {
	s := d.s
	k := s.intn(len(n.Indices))
	for n.Weights[k] == 0 {
		k = (k + 1) % len(n.Indices)
	}
	target := 0.0
	if n.Kind == ir.Soft {
		target = []float64{0, n.Gamma / 2, -n.Gamma / 2}[s.intn(3)]
	}
	if s.chance(96) {
		// Large terms that cancel: the roundings of the margin are then
		// large next to the target, and orders of addition disagree.
		for i, j := range n.Indices {
			if i != k {
				r[j] = float64(int8(s.byte())) * math.Pow(10, float64(4+s.intn(9)))
			}
		}
	}
	x := func(j int) float64 { // x'[j]
		if pp := m.Preprocess; pp != nil {
			return (r[j] - pp.Shift[j]) * pp.Scale[j]
		}
		return r[j]
	}
	rest := n.Bias
	for i, j := range n.Indices {
		if i != k {
			rest += n.Weights[i] * x(j)
		}
	}
	j := n.Indices[k]
	v := (target - rest) / n.Weights[k]
	if pp := m.Preprocess; pp != nil && pp.Scale[j] != 0 {
		v = v/pp.Scale[j] + pp.Shift[j]
	}
	switch s.intn(4) {
	case 1:
		v = math.Nextafter(v, math.Inf(1))
	case 2:
		v = math.Nextafter(v, math.Inf(-1))
	case 3:
		v = float64(float32(v))
	}
	if !math.IsNaN(v) {
		r[j] = v
	}
}

// value decodes one input value, mostly one of the candidates of its
// feature.
func (d *decoder) value(cands []float64) float64 {
	s := d.s
	switch b := s.byte() % 16; {
	case b < 7:
		if len(cands) > 0 {
			return cands[s.intn(256)*len(cands)/256]
		}
		fallthrough
	case b < 10:
		return rowSpecials[s.intn(len(rowSpecials))]
	case b == 10:
		return math.NaN()
	case b == 11:
		return []float64{0, math.Copysign(0, -1)}[s.intn(2)]
	case b == 12:
		return float64(int(s.byte())-128) / 8
	case b == 13:
		return float64(int16(uint16(s.byte())|uint16(s.byte())<<8)) / 64
	case b == 14:
		return float64(math.Float32frombits(uint32(s.uint64())))
	default:
		return math.Float64frombits(s.uint64())
	}
}

// targets returns, for each feature, input values at which a test of m
// changes its outcome or that a category test names, and their neighbours.
func targets(m *ir.Model) [][]float64 {
	p := m.NumFeatures
	x := make([][]float64, p) // in the preprocessed space
	add := func(j int, vs ...float64) {
		for _, v := range vs {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				x[j] = append(x[j], v)
			}
		}
	}
	for i := range m.Trees {
		for _, n := range m.Trees[i].Nodes {
			switch n.Kind {
			case ir.Axis:
				add(n.Feature, n.Threshold)
			case ir.Categorical:
				for _, c := range n.Categories {
					v := float64(c)
					add(n.Feature, v, v+0.5, v-0.5, v+1)
				}
			case ir.Oblique, ir.Soft:
				for k, j := range n.Indices {
					w := n.Weights[k]
					if w == 0 {
						continue
					}
					add(j, -n.Bias/w)
					if n.Kind == ir.Soft && n.Gamma > 0 {
						add(j, (n.Gamma/2-n.Bias)/w, (-n.Gamma/2-n.Bias)/w)
					}
				}
			}
		}
	}
	out := make([][]float64, p)
	for j, ts := range x {
		for _, t := range ts {
			v := t
			if pp := m.Preprocess; pp != nil && pp.Scale[j] != 0 {
				v = t/pp.Scale[j] + pp.Shift[j]
			}
			out[j] = append(out[j], v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, math.Inf(-1)))
			if f := float32(v); !math.IsInf(float64(f), 0) {
				out[j] = append(out[j], float64(f),
					float64(math.Nextafter32(f, float32(math.Inf(1)))), float64(math.Nextafter32(f, float32(math.Inf(-1)))))
			}
			if len(out[j]) >= maxTargets {
				break
			}
		}
	}
	return out
}
