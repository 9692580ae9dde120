package tel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"

	"github.com/treegen/treegen/train/internal/optim"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// LayerConfig describes a Layer.
type LayerConfig struct {
	// Inputs is the number of input features, Outputs the number of
	// outputs (the length of the leaf vectors); both at least 1.
	Inputs, Outputs int
	// Trees and Depth are as in Options: Trees perfect binary trees of
	// depth Depth (1 to MaxDepth).
	Trees, Depth int
	// Gamma is the width of the smooth-step (> 0).
	Gamma float64
	// Bias gives every internal node a trainable bias.
	Bias bool
	// Seed seeds the initial weights.
	Seed uint64
	// Threads is the number of goroutines of the passes; 0 means
	// runtime.GOMAXPROCS(0). It never changes the results.
	Threads int
}

// Layer is a tree ensemble layer as a building block of a larger model:
// Forward maps a minibatch of rows to the sums of the trees' values, and
// Backward takes ∂L/∂output, returns ∂L/∂input and adds the gradient of
// the parameters to Grads, so that the layer can follow other layers (a
// Projection, say) and be followed by any loss. The passes are those of
// Fit: conditional (Algorithms 1 and 2 of the paper), or full for
// minibatches whose rows reach most leaves. Initial weights are as in Fit:
// W and O uniform in (-0.01, 0.01), biases 0.
//
// A Layer is not safe for concurrent use; its passes use Threads
// goroutines of their own.
type Layer struct {
	e       *ensemble
	ps      *passes
	g       *gradient // the gradient of the last Backward
	grads   *gradient // the accumulated gradient
	threads int
	x       []float64 // the rows of the last Forward
	n       int
	ready   bool // a Forward awaits its Backward
}

// NewLayer returns a layer with the initial weights of cfg.Seed.
func NewLayer(cfg LayerConfig) (*Layer, error) {
	switch {
	case cfg.Inputs < 1 || cfg.Outputs < 1:
		return nil, fmt.Errorf("tel: a layer needs at least 1 input and 1 output, got %d and %d", cfg.Inputs, cfg.Outputs)
	case cfg.Trees < 1:
		return nil, fmt.Errorf("tel: Trees must be at least 1, got %d", cfg.Trees)
	case cfg.Depth < 1 || cfg.Depth > MaxDepth:
		return nil, fmt.Errorf("tel: Depth must be between 1 and %d, got %d", MaxDepth, cfg.Depth)
	case !(cfg.Gamma > 0 && finite(cfg.Gamma)):
		return nil, fmt.Errorf("tel: Gamma must be a finite number > 0, got %v", cfg.Gamma)
	case cfg.Threads < 0:
		return nil, fmt.Errorf("tel: Threads is negative (%d)", cfg.Threads)
	}
	threads := cfg.Threads
	if threads == 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	e := newEnsemble(cfg.Trees, cfg.Depth, cfg.Inputs, cfg.Outputs, settings{act: SmoothStep, gamma: cfg.Gamma, bias: cfg.Bias})
	e.init(rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)))
	return &Layer{e: e, g: e.newGradient(), grads: e.newGradient(), threads: threads}, nil
}

// Params returns the layer's parameters, which an optimiser may change
// between a Backward and the next Forward: the node weights (tree by
// tree, node by node in breadth-first order, Inputs each), then with Bias
// the biases, then the leaf vectors (Outputs each).
func (l *Layer) Params() []float64 { return l.e.theta }

// Grads returns the gradient that Backward has accumulated since the last
// ZeroGrads, in the layout of Params.
func (l *Layer) Grads() []float64 { return l.grads.all }

// ZeroGrads sets the accumulated gradient to 0.
func (l *Layer) ZeroGrads() { clear(l.grads.all) }

// Forward writes the layer's outputs T_1(x) + ... + T_m(x) of the n rows of
// x (n × Inputs, row-major) into out (n × Outputs). x is kept, unchanged,
// for the Backward that must follow before the next Forward.
func (l *Layer) Forward(x []float64, n int, out []float64) error {
	e := l.e
	if n < 1 || len(x) != n*e.p || len(out) != n*e.k {
		return fmt.Errorf("tel: Forward of %d rows needs %d inputs and room for %d outputs, got %d and %d", n, n*e.p, n*e.k, len(x), len(out))
	}
	if l.ps == nil || len(l.ps.units)*condRows < n {
		density := 1.0
		if l.ps != nil {
			density = l.ps.density
		}
		l.ps = newPasses(e, n, l.threads)
		l.ps.density = density
	}
	clear(out)
	l.x, l.n = x, n
	p := e.p
	l.ps.forward(n, func(b int) []float64 { return x[b*p : (b+1)*p] }, out, nil, nil, nil)
	l.ready = true
	return nil
}

// Backward takes ∂L/∂out of the last Forward's rows (n × Outputs), writes
// ∂L/∂x into dx (n × Inputs) unless dx is nil, and adds the gradient of the
// parameters to Grads.
func (l *Layer) Backward(dOut, dx []float64) error {
	e := l.e
	if !l.ready {
		return errors.New("tel: Backward without a Forward before it")
	}
	if len(dOut) != l.n*e.k || (dx != nil && len(dx) != l.n*e.p) {
		return fmt.Errorf("tel: Backward of %d rows needs %d output gradients and room for %d input gradients, got %d and %d", l.n, l.n*e.k, l.n*e.p, len(dOut), len(dx))
	}
	l.ps.backward(dOut, dx)
	l.ps.gradient(l.g, dOut, nil)
	for i, v := range l.g.all {
		l.grads.all[i] += v
	}
	l.ready = false
	return nil
}

// Projection is a trainable linear map x ↦ Ax + c from In to Out
// features, a building block to put before a Layer: the trees then split
// on learned combinations of the inputs. Since a Layer's nodes are
// linear in their inputs, w·(Ax + c) + b = (Aᵀw)·x + (w·c + b), a
// projection followed by a layer is again a layer, whose node weights are
// Aᵀw and biases w·c + b (Fit with Options.Project exports it so).
type Projection struct {
	in, out int
	theta   []float64 // A (out × in, row-major), then c
	grads   []float64
	x       []float64 // the rows of the last Forward
	n       int
}

// NewProjection returns a projection from in to out features with A drawn
// uniformly from (-√(3/in), √(3/in)) (unit variance of each output for
// inputs of unit variance) with the generator of seed, and c = 0.
func NewProjection(in, out int, seed uint64) (*Projection, error) {
	if in < 1 || out < 1 {
		return nil, fmt.Errorf("tel: a projection needs at least 1 input and 1 output, got %d and %d", in, out)
	}
	pr := &Projection{in: in, out: out, theta: make([]float64, out*in+out), grads: make([]float64, out*in+out)}
	rng := rand.New(rand.NewPCG(seed, seed^0x2545f4914f6cdd1d))
	a := math.Sqrt(3 / float64(in))
	for i := range out * in {
		pr.theta[i] = a * (2*rng.Float64() - 1)
	}
	return pr, nil
}

// A returns the matrix A (Out × In, row-major), a view of Params.
func (pr *Projection) A() []float64 { return pr.theta[:pr.out*pr.in] }

// C returns the offset c, a view of Params.
func (pr *Projection) C() []float64 { return pr.theta[pr.out*pr.in:] }

// Params returns A (row-major) then c.
func (pr *Projection) Params() []float64 { return pr.theta }

// Grads returns the gradient accumulated since the last ZeroGrads.
func (pr *Projection) Grads() []float64 { return pr.grads }

// ZeroGrads sets the accumulated gradient to 0.
func (pr *Projection) ZeroGrads() { clear(pr.grads) }

// Forward writes Ax + c of the n rows of x (n × In) into out (n × Out),
// and keeps x, unchanged, for Backward.
func (pr *Projection) Forward(x []float64, n int, out []float64) error {
	if n < 1 || len(x) != n*pr.in || len(out) != n*pr.out {
		return fmt.Errorf("tel: Forward of %d rows needs %d inputs and room for %d outputs, got %d and %d", n, n*pr.in, n*pr.out, len(x), len(out))
	}
	pr.project(x, n, out)
	pr.x, pr.n = x, n
	return nil
}

// project writes Ax + c of the n rows of x into out.
func (pr *Projection) project(x []float64, n int, out []float64) {
	c := pr.C()
	for r := range n {
		copy(out[r*pr.out:(r+1)*pr.out], c)
	}
	blas64.Gemm(blas.NoTrans, blas.Trans, 1, general(n, pr.in, x), general(pr.out, pr.in, pr.A()), 1, general(n, pr.out, out))
}

// Backward takes ∂L/∂out of the last Forward's rows (n × Out), adds the
// gradient of A and c to Grads and writes ∂L/∂x into dx (n × In) unless
// dx is nil.
func (pr *Projection) Backward(dOut, dx []float64) error {
	if pr.x == nil {
		return errors.New("tel: Backward without a Forward before it")
	}
	n := pr.n
	if len(dOut) != n*pr.out || (dx != nil && len(dx) != n*pr.in) {
		return fmt.Errorf("tel: Backward of %d rows needs %d output gradients and room for %d input gradients, got %d and %d", n, n*pr.out, n*pr.in, len(dOut), len(dx))
	}
	blas64.Gemm(blas.Trans, blas.NoTrans, 1, general(n, pr.out, dOut), general(n, pr.in, pr.x), 1, general(pr.out, pr.in, pr.grads[:pr.out*pr.in]))
	gc := pr.grads[pr.out*pr.in:]
	for r := range n {
		for j, d := range dOut[r*pr.out : (r+1)*pr.out] {
			gc[j] += d
		}
	}
	if dx != nil {
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, general(n, pr.out, dOut), general(pr.out, pr.in, pr.A()), 0, general(n, pr.in, dx))
	}
	return nil
}

// Block is a set of trainable parameters with their gradient: a Layer or
// a Projection.
type Block interface {
	Params() []float64
	Grads() []float64
	ZeroGrads()
}

// Adam is the optimiser of Fit (Keras's defaults: β1 = 0.9, β2 = 0.999,
// ε = 1e-7) over blocks of parameters.
type Adam struct {
	blocks []Block
	opts   []*optim.Adam
}

// NewAdam returns Adam with learning rate lr over the blocks.
func NewAdam(lr float64, blocks ...Block) *Adam {
	a := &Adam{blocks: blocks}
	for _, b := range blocks {
		a.opts = append(a.opts, optim.NewAdam(len(b.Params()), lr))
	}
	return a
}

// Step moves every block's parameters against its accumulated gradient,
// then sets the gradients to 0.
func (a *Adam) Step() {
	for i, b := range a.blocks {
		a.opts[i].Step(b.Params(), b.Grads(), 1)
		b.ZeroGrads()
	}
}

// apply returns the projections of the n rows of x (n × In), or x itself
// when pr is nil.
func (pr *Projection) apply(x []float64, n int) []float64 {
	if pr == nil {
		return x
	}
	out := make([]float64, n*pr.out)
	pr.project(x, n, out)
	return out
}

// fold returns the node weights (trees × inner × In) and biases of the
// layer e that follows pr, as one layer over pr's inputs:
// w' = Aᵀw and b' = w·c + b for every node.
func (pr *Projection) fold(e *ensemble) (w, b []float64) {
	nodes := e.trees * e.inner
	w = make([]float64, nodes*pr.in)
	b = make([]float64, nodes)
	a, c := pr.A(), pr.C()
	for r := range nodes {
		wr := e.w[r*e.p : (r+1)*e.p]
		out := w[r*pr.in : (r+1)*pr.in]
		bias := e.b[r]
		for q, wq := range wr {
			if wq == 0 {
				continue
			}
			for j, v := range a[q*pr.in : (q+1)*pr.in] {
				out[j] += wq * v
			}
			bias += wq * c[q]
		}
		b[r] = bias
	}
	return w, b
}
