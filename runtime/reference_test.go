package runtime

import (
	"math"

	"github.com/treegen/treegen/internal/fmath"

	"github.com/treegen/treegen/ir"
)

// reference evaluates a model straight from the definitions of ir/doc.go,
// with no precomputation and no shortcuts: soft trees are evaluated densely
// (every leaf, even those reached with probability 0). The Predictor must
// agree with it bit for bit.
func reference[F Float](m *ir.Model, x []F) (margin, pred []F) {
	p := m.NumFeatures
	xp := make([]F, p)
	copy(xp, x)
	if a := m.Preprocess; a != nil {
		for j := range xp {
			xp[j] = (x[j] - F(a.Shift[j])) * F(a.Scale[j])
		}
	}
	k := m.NumOutputs
	// plus is a + b for margins: in float32 with Float32Sum.
	plus := func(a, b F) F {
		if m.Float32Sum {
			return F(float32(a) + float32(b))
		}
		return a + b
	}
	base := func(o int) F {
		if m.Float32Sum {
			return F(float32(m.Base(o)))
		}
		return F(m.Base(o))
	}
	acc := make([]F, k)
	for o := range acc {
		acc[o] = base(o)
	}
	sums := make([]F, k) // for the mean
	var z []F
	for ti := range m.Trees {
		t := &m.Trees[ti]
		if t.Latent {
			z = append(z, refLatent(m, t, xp)...)
			continue
		}
		tv := refTree(m, t, xp)
		for o := range acc {
			switch {
			case t.Output == ir.AllOutputs:
				acc[o] = plus(acc[o], tv[o])
				sums[o] = plus(sums[o], tv[o])
			case t.Output == o:
				acc[o] = plus(acc[o], tv[0])
				sums[o] = plus(sums[o], tv[0])
			}
		}
	}
	if m.Aggregation == ir.Mean {
		n := m.TreesPerOutput()
		for o := range acc {
			if m.Float32Sum {
				acc[o] = F(float32(base(o)) + float32(sums[o])/float32(n[o]))
			} else {
				acc[o] = base(o) + sums[o]/F(n[o])
			}
		}
	}
	if r := m.Readout; r != nil {
		u := append(append([]F{}, xp...), z...)
		for o := range acc {
			s := F(r.Bias[o])
			for j, v := range u {
				s += F(F(r.Weights[o][j]) * v)
			}
			acc[o] = plus(acc[o], s)
		}
	}
	margin = acc
	pred = append([]F{}, acc...)
	switch m.Link {
	case ir.Sigmoid:
		for o, v := range pred {
			pred[o] = 1 / (1 + refExp(-v))
		}
	case ir.Exp:
		for o, v := range pred {
			pred[o] = refExp(v)
		}
	case ir.Softmax:
		pred = refSoftmax(pred)
	}
	return margin, pred
}

// refTree returns the value of a tree: one number, or one per output.
func refTree[F Float](m *ir.Model, t *ir.Tree, x []F) []F {
	tv := make([]F, m.NumOutputs)
	if t.HasSoft() {
		refSoft(m, t, 0, 1, x, tv)
		return tv
	}
	i := 0
	for t.Nodes[i].IsSplit() {
		if refLeft(m, &t.Nodes[i], x) {
			i = t.Nodes[i].Left
		} else {
			i = t.Nodes[i].Right
		}
	}
	return refLeaf(m, t, &t.Nodes[i], x)
}

func refDot[F Float](idx []int, w []float64, b float64, x []F) F {
	m := F(b)
	for j, f := range idx {
		m += F(F(w[j]) * x[f])
	}
	return m
}

func refLeft[F Float](m *ir.Model, n *ir.Node, x []F) bool {
	var v, t F
	if n.Kind == ir.Categorical {
		v = x[n.Feature]
		if m.Float32Compare {
			v = F(float32(v))
		}
		switch {
		case math.IsNaN(float64(v)):
			return n.DefaultLeft
		case float64(v) <= -1 || float64(v) >= 1<<31:
			return false
		}
		c := int(math.Trunc(float64(v)))
		for _, k := range n.Categories {
			if k == c {
				return true
			}
		}
		return false
	}
	if n.Kind == ir.Axis {
		v, t = x[n.Feature], F(n.Threshold)
		if m.Float32Compare {
			v, t = F(float32(v)), F(float32(n.Threshold))
		}
	} else {
		v = refDot(n.Indices, n.Weights, n.Bias, x)
	}
	switch {
	case math.IsNaN(float64(v)):
		return n.DefaultLeft
	case n.LessEqual:
		return v <= t
	}
	return v < t
}

func refSoftmax[F Float](v []F) []F {
	mx := v[0]
	for _, e := range v {
		if e > mx {
			mx = e
		}
	}
	out := make([]F, len(v))
	s := 0.0 // the sum is in float64 whatever F
	for j, e := range v {
		out[j] = refExp(e - mx)
		s += float64(out[j])
	}
	for j := range out {
		out[j] /= F(s)
	}
	return out
}

// refExp is exp in F (ir/doc.go): Expf in float32, Exp in float64.
func refExp[F Float](x F) F {
	switch v := any(x).(type) {
	case float32:
		return F(fmath.Expf(v))
	case float64:
		return F(fmath.Exp(v))
	}
	panic("refExp: not float32 or float64")
}

// refLeaf returns the leaf's value: 1 number, or NumOutputs numbers.
func refLeaf[F Float](m *ir.Model, t *ir.Tree, n *ir.Node, x []F) []F {
	if n.Kind == ir.Leaf {
		out := make([]F, len(n.Value))
		for j, v := range n.Value {
			out[j] = F(v)
		}
		return out
	}
	s := n.Softmax
	zs := make([]F, len(s.Classes))
	for j := range s.Classes {
		zs[j] = refDot(s.Rows[j].Indices, s.Rows[j].Weights, s.Bias[j], x)
	}
	e := refSoftmax(zs)
	out := make([]F, m.NumOutputs)
	for j, c := range s.Classes {
		out[c] = e[j]
	}
	return out
}

// refSoft adds prob·value of every leaf under node i, densely, depth first.
func refSoft[F Float](m *ir.Model, t *ir.Tree, i int, prob F, x []F, tv []F) {
	n := &t.Nodes[i]
	if !n.IsSplit() {
		v := refLeaf(m, t, n, x)
		if t.Output == ir.AllOutputs {
			for o := range v {
				if n.Kind == ir.SoftmaxLeaf && prob == 0 {
					continue // exp terms of unreachable leaves may be NaN
				}
				tv[o] += F(prob * v[o])
			}
		} else {
			tv[0] += F(prob * v[0])
		}
		return
	}
	var pl F
	if n.Kind == ir.Soft {
		mg := refDot(n.Indices, n.Weights, n.Bias, x)
		switch {
		case math.IsNaN(float64(mg)):
			if n.DefaultLeft {
				pl = 1
			}
		default:
			pl = F(smoothStepDirect(float64(mg), float64(F(n.Gamma)), isFloat32[F]()))
		}
	} else if refLeft(m, n, x) {
		pl = 1
	}
	refSoft(m, t, n.Left, prob*pl, x, tv)
	refSoft(m, t, n.Right, prob*(1-pl), x, tv)
}

// smoothStepDirect evaluates the smooth-step from its definition in the
// precision asked for.
func smoothStepDirect(t, gamma float64, f32 bool) float64 {
	if !f32 {
		return ir.SmoothStep(t, gamma)
	}
	t32, g32 := float32(t), float32(gamma)
	h := g32 / 2
	switch {
	case t32 <= -h:
		return 0
	case t32 >= h:
		return 1
	}
	u := t32 / g32
	return float64(float32(u*float32(1.5-float32(2*u*u))) + 0.5)
}

func refLatent[F Float](m *ir.Model, t *ir.Tree, x []F) []F {
	inf := F(math.Inf(1))
	q := make([]F, len(t.Nodes))
	z := make([]F, len(t.Nodes))
	q[0] = inf
	for i := range t.Nodes {
		n := &t.Nodes[i]
		a := F(*n.Activity)
		z[i] = q[i]
		if z[i] < 0 {
			z[i] = 0
		}
		if z[i] > a {
			z[i] = a
		}
		if !n.IsSplit() {
			continue
		}
		var s F
		if n.Kind == ir.Axis {
			v, th := x[n.Feature], F(n.Threshold)
			if m.Float32Compare {
				v, th = F(float32(v)), F(float32(n.Threshold))
			}
			s = v - th
		} else {
			s = refDot(n.Indices, n.Weights, n.Bias, x)
		}
		if t.Activation == ir.Elu && s <= 0 {
			s = refExp(s) - 1
		}
		l, r := -s, s
		if math.IsNaN(float64(s)) {
			l, r = -inf, inf
			if n.DefaultLeft {
				l, r = inf, -inf
			}
		}
		q[n.Left] = q[i]
		if l < q[i] {
			q[n.Left] = l
		}
		q[n.Right] = q[i]
		if r < q[i] {
			q[n.Right] = r
		}
	}
	return z
}
