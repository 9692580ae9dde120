package e2e

import (
	"math"
	"math/rand/v2"
	"slices"
)

// node is a node of a tree under training. Children always have larger
// indices than their parent.
type node struct {
	split       bool
	left, right int
	depth       int
	// feats are the (increasing) features a split reads; beta holds one
	// weight per feature of feats followed by the bias: f = Σ w·x'[feats] + b,
	// the paper's f_β(x) = (xᵀ, 1)·β restricted to feats.
	feats []int
	beta  []float64
	off   int // offset of beta in the parameter vector of an EM run
	// pi is a leaf's class distribution π_ℓ.
	pi []float64
}

// tree is a probabilistic oblique tree (§2.1, §2.2) over standardised rows
// of p features, with leaves over k classes.
type tree struct {
	p, k  int
	nodes []node
}

// logSigmoid returns log σ(z) = -softplus(-z), finite for every finite z.
func logSigmoid(z float64) float64 {
	u := -z
	return -(math.Max(u, 0) + math.Log1p(math.Exp(-math.Abs(u))))
}

// margin returns f = b + Σ w_j x'[feats_j], accumulated as the IR does.
func (nd *node) margin(x []float64) float64 {
	w := nd.beta
	m := w[len(nd.feats)]
	for j, f := range nd.feats {
		m += w[j] * x[f]
	}
	return m
}

// hardMargin is the margin of the exported oblique node: zero weights are
// dropped, as in the IR, and the sum runs from the bias in feature order.
func (nd *node) hardMargin(x []float64) float64 {
	w := nd.beta
	m := w[len(nd.feats)]
	for j, f := range nd.feats {
		if w[j] != 0 {
			m += float64(w[j] * x[f]) // the conversion forbids a fused multiply-add, as in the IR
		}
	}
	return m
}

// route returns the leaf that row x reaches with deterministic splits
// (γ → ∞, Eq. 16: right iff f > 0, a tie goes left) and the number of
// splits evaluated on the way.
func (t *tree) route(x []float64) (leaf, splits int) {
	i := 0
	for t.nodes[i].split {
		nd := &t.nodes[i]
		if nd.hardMargin(x) <= 0 {
			i = nd.left
		} else {
			i = nd.right
		}
		splits++
	}
	return i, splits
}

// work is the scratch of the probabilistic passes over one row, one value
// per node.
type work struct {
	f  []float64 // split margins f_i
	sr []float64 // splits: σ(γ f_i), the probability of going right (Eqs. 3, 5)
	sl []float64 // splits: σ(-γ f_i) = 1 - σ(γ f_i), without cancellation
	lm []float64 // log μ of the node: the log of the probability to reach it (Eq. 1)
	h  []float64 // leaves: responsibilities h_ℓ (Eq. 10); splits: their subtree sums
	a  []float64 // leaves: log((π_ℓ)_y μ_ℓ)
}

func (t *tree) newWork() *work {
	n := len(t.nodes)
	return &work{f: make([]float64, n), sr: make([]float64, n), sl: make([]float64, n), lm: make([]float64, n), h: make([]float64, n), a: make([]float64, n)}
}

// paths computes the margins f_i of every split and the log path
// probabilities log μ of every node (Eq. 1 with s = σ_γ, Eqs. 3 and 5):
// the right child of split i multiplies by σ(γ f_i), the left one by
// 1 - σ(γ f_i) = σ(-γ f_i). Both logs come from one exponential and one
// logarithm, e = exp(-|z|) and log1p(e): log σ(z) = -(max(-z, 0) +
// log1p(e)) and log σ(-z) = -(max(z, 0) + log1p(e)), finite for saturated
// splits (as logSigmoid); σ(z) and σ(-z), 1/(1+e) and e/(1+e) in some
// order, are kept in w.sr and w.sl for the gradient.
func (t *tree) paths(x []float64, gamma float64, w *work) {
	w.lm[0] = 0
	for i := range t.nodes {
		nd := &t.nodes[i]
		if !nd.split {
			continue
		}
		f := nd.margin(x)
		w.f[i] = f
		z := gamma * f
		e := math.Exp(-math.Abs(z))
		l := math.Log1p(e)
		w.lm[nd.left] = w.lm[i] - (math.Max(z, 0) + l)
		w.lm[nd.right] = w.lm[i] - (math.Max(-z, 0) + l)
		big, small := 1/(1+e), e/(1+e)
		if z >= 0 {
			w.sr[i], w.sl[i] = big, small
		} else {
			w.sr[i], w.sl[i] = small, big
		}
	}
}

// posterior runs paths and the E-step of row x of class y: it writes the
// responsibilities h_ℓ (Eq. 10) of the leaves into w.h and returns
// log p(y|x) (Eq. 2). When every leaf gives class y probability 0 the
// responsibilities fall back to the path probabilities μ_ℓ (and log p is
// -Inf).
func (t *tree) posterior(x []float64, y int, gamma float64, w *work) float64 {
	t.paths(x, gamma, w)
	mx := math.Inf(-1)
	for i := range t.nodes {
		if nd := &t.nodes[i]; !nd.split {
			w.a[i] = math.Log(nd.pi[y]) + w.lm[i]
			mx = math.Max(mx, w.a[i])
		}
	}
	a := w.a
	logp := math.Inf(-1)
	fallback := math.IsInf(mx, -1)
	if fallback {
		a = w.lm
		mx = math.Inf(-1)
		for i := range t.nodes {
			if !t.nodes[i].split {
				mx = math.Max(mx, a[i])
			}
		}
	}
	s := 0.0
	for i := range t.nodes {
		if !t.nodes[i].split {
			w.h[i] = math.Exp(a[i] - mx)
			s += w.h[i]
		}
	}
	for i := range t.nodes {
		if !t.nodes[i].split {
			w.h[i] /= s
		}
	}
	if !fallback {
		logp = mx + math.Log(s)
	}
	return logp
}

// pathObjective returns Σ_ℓ h_ℓ log μ_ℓ(x) (the term of row x in Eq. 14)
// for the responsibilities h (indexed by node; only leaves are read).
func (t *tree) pathObjective(x []float64, gamma float64, h []float64, w *work) float64 {
	t.paths(x, gamma, w)
	q := 0.0
	for i := range t.nodes {
		if !t.nodes[i].split && h[i] != 0 {
			q += h[i] * w.lm[i]
		}
	}
	return q
}

// addGradient adds scale times the gradient of Σ_ℓ h_ℓ log μ_ℓ(x) (Eq. 14)
// with respect to the split parameters into g (laid out by node.off), for
// the margins and leaf responsibilities in w (posterior or paths must have
// run on x). With H_L and H_R the responsibilities of the leaves under the
// left and right child of split i and z = γ f_i,
//
//	∂/∂f_i = γ (H_R σ(-z) - H_L σ(z)),  ∂f_i/∂β_i = (x'[feats], 1).
//
// It overwrites the split entries of w.h with subtree sums.
func (t *tree) addGradient(x []float64, gamma, scale float64, w *work, g []float64) {
	for i := len(t.nodes) - 1; i >= 0; i-- {
		nd := &t.nodes[i]
		if !nd.split {
			continue
		}
		hl, hr := w.h[nd.left], w.h[nd.right]
		w.h[i] = hl + hr
		d := gamma * (hr*w.sl[i] - hl*w.sr[i]) * scale
		if d == 0 {
			continue
		}
		gi := g[nd.off : nd.off+len(nd.beta)]
		for j, f := range nd.feats {
			gi[j] += d * x[f]
		}
		gi[len(nd.feats)] += d
	}
}

// flatten copies the split parameters of t into one new vector and makes
// every split's beta a view of it, for an optimiser to update in place.
func (t *tree) flatten() []float64 {
	n := 0
	for i := range t.nodes {
		if t.nodes[i].split {
			n += len(t.nodes[i].beta)
		}
	}
	theta := make([]float64, 0, n)
	for i := range t.nodes {
		nd := &t.nodes[i]
		if !nd.split {
			continue
		}
		nd.off = len(theta)
		theta = append(theta, nd.beta...)
		nd.beta = theta[nd.off:len(theta):len(theta)]
	}
	return theta
}

// uniform returns the uniform distribution over k classes.
func uniform(k int) []float64 {
	pi := make([]float64, k)
	for c := range pi {
		pi[c] = 1 / float64(k)
	}
	return pi
}

// newSplit returns a split node over feats (all p features when nfeat is
// p, else a uniform random subset of nfeat) whose weight direction is
// drawn uniformly on the unit sphere, with bias 0 (§3.1).
func newSplit(rng *rand.Rand, p, nfeat int) node {
	var feats []int
	if nfeat >= p {
		feats = make([]int, p)
		for j := range feats {
			feats[j] = j
		}
	} else {
		feats = rng.Perm(p)[:nfeat]
		slices.Sort(feats)
	}
	beta := make([]float64, len(feats)+1)
	for {
		ss := 0.0
		for j := range feats {
			beta[j] = rng.NormFloat64()
			ss += beta[j] * beta[j]
		}
		if ss > 0 {
			norm := math.Sqrt(ss)
			for j := range feats {
				beta[j] /= norm
			}
			break
		}
	}
	return node{split: true, feats: feats, beta: beta}
}

// adam is Adam (Kingma and Ba) with the paper's parameters: β1 = 0.9,
// β2 = 0.999, ε = adamEpsilon, bias-corrected moments.
type adam struct {
	lr         float64
	m, v       []float64
	pow1, pow2 float64
}

func newAdam(n int, lr float64) *adam {
	return &adam{lr: lr, m: make([]float64, n), v: make([]float64, n), pow1: 1, pow2: 1}
}

// step moves theta against the gradient g of the quantity minimised.
func (a *adam) step(theta, g []float64) {
	const b1, b2 = 0.9, 0.999
	a.pow1 *= b1
	a.pow2 *= b2
	for i, gi := range g {
		a.m[i] = b1*a.m[i] + (1-b1)*gi
		a.v[i] = b2*a.v[i] + (1-b2)*gi*gi
		mh := a.m[i] / (1 - a.pow1)
		vh := a.v[i] / (1 - a.pow2)
		theta[i] -= a.lr * mh / (math.Sqrt(vh) + adamEpsilon)
	}
}
