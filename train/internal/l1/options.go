package l1

// Options controls a solve.
type Options struct {
	Lambda      float64 // L1 weight on w (or W); the bias is not penalised
	MaxIter     int     // outer (proximal Newton) iterations; 0 means 100
	Tol         float64 // stop when the largest KKT violation ≤ Tol·Σc; 0 means 1e-4
	InnerSweeps int     // the most CD sweeps over each quadratic model; 0 means 50 (DefaultInnerSweeps)
}

// The defaults of the zero fields of Options.
const (
	// DefaultMaxIter bounds the outer iterations. A proximal Newton method
	// converges in a few tens of them on a non-separable problem; on
	// separable data, where the optimum is at infinity as λ → 0, the cap
	// is what ends the solve.
	DefaultMaxIter = 100
	// DefaultTol is relative to Σc: the gradient of the loss is a sum over
	// the rows, so a violation of 1e-4·Σc is a mean violation of 1e-4 per
	// unit of weight, whatever the number of rows.
	DefaultTol = 1e-4
	// DefaultInnerSweeps bounds the coordinate-descent sweeps over a
	// quadratic model; they stop sooner once a sweep gains little (see
	// innerRelTol), after 10 to 30 on the benchmark problems. Few sweeps
	// leave the step far from the model's minimiser where the weighted
	// features are correlated, as they are on nearly separable data, and
	// every extra outer iteration pays the transcendental functions, the
	// gradient and the line search (of every class): on BenchmarkSweeps
	// the softmax took 38 outer iterations with 3 sweeps, 15 with 10 and
	// 12 with 50, in about 2.9, 1.3 and 1 times the time of the last (the
	// binary problem 19, 9 and 7, in 2.8, 1.2 and 1 times). With
	// this bound the sweeps run on the Gram matrix of the active features
	// (cdGram) up to about 200 of them, where a sweep costs m² operations
	// rather than a scan of the rows.
	DefaultInnerSweeps = 50
)

// withDefaults returns o with its zero fields replaced by the defaults.
func (o Options) withDefaults() Options {
	if o.MaxIter <= 0 {
		o.MaxIter = DefaultMaxIter
	}
	if o.Tol <= 0 {
		o.Tol = DefaultTol
	}
	if o.InnerSweeps <= 0 {
		o.InnerSweeps = DefaultInnerSweeps
	}
	if o.Lambda < 0 || o.Lambda != o.Lambda {
		panic("l1: Options.Lambda must be a non-negative number")
	}
	return o
}

// Result reports a solve.
type Result struct {
	Iterations int     // outer iterations done
	Violation  float64 // largest KKT violation at the returned point (absolute, not divided by Σc)
	Objective  float64 // F at the returned point
}

// Workspace holds the buffers of the solvers, kept from one solve to the
// next so that a trainer solving thousands of problems allocates only
// while the problems grow. The zero Workspace is ready to use; it is not
// safe for concurrent use.
type Workspace struct {
	ones []float64 // the weights when the caller gives none

	// Per row, for the block being stepped (see step): u of the binary
	// problem, sgn, σ(u), σ(-u), the derivatives a and h of the loss in the
	// logit, r the step's change of the logit per unit step and em the
	// expm1 of the change of u after a full step.
	u, sgn, sig, sbar, a, h, r, em []float64

	hx     []float64 // h ⊙ X_j for the active features (cdRows: feature j at hx[j*N:]; cdGram: of a chunk of rows)
	g      []float64 // the gradient of the block's weights
	hd     []float64 // the diagonal of the Hessian of the block's weights
	wn     []float64 // the weights of the block after a full step
	active []int     // the features the sweeps visit
	q, qd  []float64 // the Gram matrix of the active features and the bias, and its product with the step

	// Softmax: the rows' logits; per row, the sum of the exponentials of
	// the classes other than the stepped one; the gradient coefficients
	// of every class (class c at acoef[c*N:]); the gradient of every
	// class's weights, k×D; the k weights of a feature, sorted.
	lg    logits
	rest  []float64
	acoef []float64
	gall  []float64
	col   []float64
}

// grow returns s resized to n, reallocated when too small; its contents
// are unspecified.
func grow(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// weights returns c, or ws's all-ones slice of n weights when c is nil,
// and their sum; it panics on a wrong length or a negative or NaN weight.
func (ws *Workspace) weights(c []float64, n int) ([]float64, float64) {
	if c == nil {
		if len(ws.ones) < n {
			ws.ones = make([]float64, n)
			for i := range ws.ones {
				ws.ones[i] = 1
			}
		}
		return ws.ones[:n], float64(n)
	}
	return c, checkWeights(c, n)
}
