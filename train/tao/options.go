package tao

import (
	"cmp"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"
)

// Producer is the Provenance.Producer of the models Train returns.
const Producer = "treegen train tao"

// MaxClasses is the largest number of distinct target values Train
// accepts: a target with more is taken for a regression target.
const MaxClasses = 100000

// MaxDepth is the deepest tree Options.Depth and Options.MaxDepth may ask
// for.
const MaxDepth = 40

// Kind is the model Train fits.
type Kind string

// Kinds of model.
const (
	// ST is the Softmax Tree of Zharmagambetov et al. (2021): a complete
	// tree of depth Options.Depth with k-class softmax leaves, initialised
	// with median splits and trained by TAO until its objective stops
	// decreasing.
	ST Kind = "st"
	// AST is the Adaptive Softmax Tree (§5): a small complete tree grown
	// by expansion steps, each followed by a global TAO pass, until its
	// structure stops changing.
	AST Kind = "ast"
	// Softmax is the flat softmax of Table 1: a multinomial L1 logistic
	// regression over all K classes, a tree of a single softmax leaf.
	Softmax Kind = "softmax"
)

// Init is how the initial complete tree chooses the direction of each of
// its splits. Either way the split's bias puts the median of the node's
// rows on the boundary, so that each child receives about half of them.
type Init string

// Initialisations.
const (
	// Median draws a direction uniformly on the unit sphere: the median
	// split that the AST paper uses for its initial tree and its stumps
	// (Appendix A.2).
	Median Init = "median"
	// KMeans takes the direction c₂ − c₁ between the two centres of a
	// 2-means clustering of the node's rows (k-means++ seeding, then
	// Lloyd's iterations): the k-means initialisation the paper uses for
	// its STs (Appendix A.2, after Zharmagambetov et al. 2021), whose
	// splits follow the clusters of the data instead of a random
	// direction.
	KMeans Init = "kmeans"
)

// Defaults: a zero field of Options means the matching default.
const (
	DefaultKind           = AST
	DefaultSTDepth        = 4
	DefaultASTDepth       = 2 // Δ₀ (§6.1)
	DefaultAlpha          = 0.75
	DefaultRho            = 1.2
	DefaultLambda         = 0.01 // λ = μ on Letter (Appendix A.2)
	DefaultSTIterations   = 100  // "up to 100" TAO iterations (Appendix A.2)
	DefaultASTIterations  = 15   // global TAO iterations per growth round (Appendix A.2)
	DefaultExpandIters    = 10   // TAO iterations fitting an expansion (Appendix A.2)
	DefaultSolverIters    = 100  // LIBLINEAR and SAGA iterations (Appendix A.2)
	DefaultMaxGrowthDepth = 30
	DefaultMaxRounds      = 50
)

// Options control Train. The zero value asks for an AST with the paper's
// Letter settings; every zero field means its documented default.
type Options struct {
	// Kind is ST, AST or Softmax; "" means DefaultKind (AST).
	Kind Kind
	// Depth is Δ, the depth of the complete initial tree: the whole tree
	// of an ST (0 means DefaultSTDepth, 4), the start Δ₀ of an AST (0
	// means DefaultASTDepth, 2). A Softmax has none.
	Depth int
	// K is the number of classes a leaf's softmax may hold: k of an ST, k₀
	// of an AST's initial tree. 0 means every class (K) for an ST and
	// ceil(K / 2^Δ₀), the least with k₀·2^Δ₀ ≥ K, for an AST.
	K int
	// Init is how the initial complete tree is split: "" means KMeans
	// for an ST and Median for an AST (the paper's choices). The stumps
	// of an AST's expansions always start from median splits.
	Init Init
	// Alpha is the AST's softmax contraction α in (0, 1]: the leaves of an
	// expansion of a leaf that may hold k classes may hold α·k rounded to
	// the nearest integer (halves up), at least 1; 0 means DefaultAlpha
	// (0.75).
	Alpha float64
	// Rho is the AST's tolerance ρ ≥ 1: an expansion is accepted when it
	// misclassifies at most ρ times as many of the leaf's rows as the leaf;
	// 0 means DefaultRho (1.2).
	Rho float64
	// Lambda is λ, the L1 weight of the decision nodes' weights, and Mu
	// μ, that of the leaves' weight matrices (Eq. 1); nil means
	// DefaultLambda (0.01). Point them at 0 for no penalty.
	Lambda, Mu *float64
	// Iterations is the number of TAO iterations: at most this many for an
	// ST (it stops earlier when an iteration no longer decreases the
	// objective; 0 means DefaultSTIterations, 100), and the global TAO
	// pass after every growth round of an AST (0 means
	// DefaultASTIterations, 15).
	Iterations int
	// ExpandIterations is the number of TAO iterations that fit the stump
	// of an AST expansion; 0 means DefaultExpandIters (10).
	ExpandIterations int
	// SolverIterations caps the proximal Newton iterations of every L1
	// logistic or softmax fit; 0 means DefaultSolverIters (100).
	SolverIterations int
	// MaxGrowthDepth is the deepest leaf an AST expands; 0 means
	// DefaultMaxGrowthDepth (30).
	MaxGrowthDepth int
	// MaxRounds caps the AST's growth rounds; 0 means DefaultMaxRounds.
	MaxRounds int
	// Strict makes TAO accept a decision node's update only when it lowers
	// the node's reduced problem (Eq. 2), so that no node update raises the
	// objective (Eq. 1). Without it every decision node takes the solution
	// of its surrogate, as the paper does in practice (§4: "in practice we
	// find this unnecessary"), and a TAO iteration that ends with a higher
	// objective than it began with is undone and ends TAO: the objective
	// still never increases from one iteration to the next. Strict TAO
	// stalls early: on Letter it ends at several times the objective and
	// a higher test error (docs/TAO.md). Leaf updates are always accepted
	// only when they lower Eq. 3.
	Strict bool

	// Seed seeds the directions of the median splits.
	Seed uint64
	// Threads is the number of goroutines that fit the nodes of one depth
	// and evaluate the rows; 0 means runtime.GOMAXPROCS(0). It never
	// changes the model.
	Threads int
	// Name is the model's name (ir.Model.Name).
	Name string
	// OnIteration, if not nil, is called after every global TAO iteration
	// and every growth round, from the goroutine that called Train.
	OnIteration func(Progress)

	// cl is what RegisterFlags records, nil without it.
	cl *commandLine
}

// Progress reports on training after a TAO iteration or a growth round.
type Progress struct {
	// Round is the AST growth round (0 for the initial tree and for an
	// ST), Iteration the 1-based TAO iteration within the round's global
	// pass (0 right after the round's expansions).
	Round, Iteration int
	// Expanded is the number of leaves the round expanded (Iteration 0).
	Expanded int
	// Objective is Eq. 1 divided by the number of training rows: the mean
	// cross-entropy plus the penalties over N.
	Objective float64
	// TrainError and ValidError are the error rates of the hard tree on
	// the training and validation sets (NaN without one).
	TrainError, ValidError float64
	// Depth, Leaves and MeanK describe the tree: its depth, its leaves and
	// the mean number of classes of its leaves.
	Depth, Leaves int
	MeanK         float64
	// Elapsed is the time since training started.
	Elapsed time.Duration
}

// settings are Options checked, with defaults resolved.
type settings struct {
	kind                Kind
	init                Init
	depth, k            int
	alpha, rho          float64
	lambda, mu          float64
	iterations, expand  int
	solverIters         int
	growthDepth, rounds int
	nodeChecks          bool
	seed                uint64
	threads             int
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// settings checks o and resolves its defaults for d features and k
// classes.
func (o Options) settings(d, k int) (settings, error) {
	s := settings{
		kind:        o.Kind,
		alpha:       o.Alpha,
		rho:         o.Rho,
		lambda:      DefaultLambda,
		mu:          DefaultLambda,
		expand:      cmp.Or(o.ExpandIterations, DefaultExpandIters),
		solverIters: cmp.Or(o.SolverIterations, DefaultSolverIters),
		growthDepth: cmp.Or(o.MaxGrowthDepth, DefaultMaxGrowthDepth),
		rounds:      cmp.Or(o.MaxRounds, DefaultMaxRounds),
		nodeChecks:  o.Strict,
		seed:        o.Seed,
		threads:     o.Threads,
	}
	if s.kind == "" {
		s.kind = DefaultKind
	}
	if o.Lambda != nil {
		s.lambda = *o.Lambda
	}
	if o.Mu != nil {
		s.mu = *o.Mu
	}
	if s.alpha == 0 {
		s.alpha = DefaultAlpha
	}
	if s.rho == 0 {
		s.rho = DefaultRho
	}
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	switch s.kind {
	case ST:
		s.depth = cmp.Or(o.Depth, DefaultSTDepth)
		s.iterations = cmp.Or(o.Iterations, DefaultSTIterations)
		s.init = cmp.Or(o.Init, KMeans)
	case AST:
		s.depth = cmp.Or(o.Depth, DefaultASTDepth)
		s.iterations = cmp.Or(o.Iterations, DefaultASTIterations)
		s.init = cmp.Or(o.Init, Median)
	case Softmax:
		s.iterations = 1
	default:
		return s, fmt.Errorf("tao: unknown Kind %q (want %q, %q or %q)", o.Kind, ST, AST, Softmax)
	}
	switch {
	case s.kind == Softmax && o.Depth != 0:
		return s, fmt.Errorf("tao: a flat softmax has no depth (got Depth %d)", o.Depth)
	case s.kind == Softmax && o.Init != "":
		return s, fmt.Errorf("tao: a flat softmax has no splits to initialise (got Init %q)", o.Init)
	case s.init != "" && s.init != Median && s.init != KMeans:
		return s, fmt.Errorf("tao: unknown Init %q (want %q or %q)", o.Init, Median, KMeans)
	case s.kind == Softmax && o.K != 0 && o.K != k:
		return s, fmt.Errorf("tao: a flat softmax holds all %d classes (got K %d)", k, o.K)
	case o.Depth < 0 || o.Depth > MaxDepth:
		return s, fmt.Errorf("tao: Depth must be between 1 and %d (0 for the default), got %d", MaxDepth, o.Depth)
	case o.K < 0:
		return s, fmt.Errorf("tao: K must be at least 1 (0 for the default), got %d", o.K)
	case o.K > k:
		return s, fmt.Errorf("tao: K is %d but the training set has only %d classes", o.K, k)
	case s.kind == AST && o.K != 0 && o.K<<s.depth < k:
		return s, fmt.Errorf("tao: an AST's first tree must be able to predict every class: K·2^Depth = %d·%d < %d classes", o.K, 1<<s.depth, k)
	case !(s.alpha > 0 && s.alpha <= 1):
		return s, fmt.Errorf("tao: Alpha must be in (0, 1], got %v", o.Alpha)
	case !(s.rho >= 1 && finite(s.rho)):
		return s, fmt.Errorf("tao: Rho must be a finite number >= 1, got %v", o.Rho)
	case !(s.lambda >= 0 && finite(s.lambda)):
		return s, fmt.Errorf("tao: Lambda must be a finite number >= 0, got %v", s.lambda)
	case !(s.mu >= 0 && finite(s.mu)):
		return s, fmt.Errorf("tao: Mu must be a finite number >= 0, got %v", s.mu)
	case o.Iterations < 0:
		return s, fmt.Errorf("tao: Iterations is negative (%d)", o.Iterations)
	case o.ExpandIterations < 0:
		return s, fmt.Errorf("tao: ExpandIterations is negative (%d)", o.ExpandIterations)
	case o.SolverIterations < 0:
		return s, fmt.Errorf("tao: SolverIterations is negative (%d)", o.SolverIterations)
	case o.MaxGrowthDepth < 0 || o.MaxGrowthDepth > MaxDepth:
		return s, fmt.Errorf("tao: MaxGrowthDepth must be between 1 and %d (0 for the default), got %d", MaxDepth, o.MaxGrowthDepth)
	case o.MaxRounds < 0:
		return s, fmt.Errorf("tao: MaxRounds is negative (%d)", o.MaxRounds)
	case o.Threads < 0:
		return s, fmt.Errorf("tao: Threads is negative (%d)", o.Threads)
	case d < 1:
		return s, fmt.Errorf("tao: the training set has no features")
	}
	s.k = o.K
	if s.k == 0 {
		s.k = k
		if s.kind == AST {
			s.k = (k + 1<<s.depth - 1) >> s.depth
		}
	}
	s.growthDepth = max(s.growthDepth, s.depth)
	return s, nil
}

// params records the settings for the model's provenance. Threads is left
// out: it does not change the model.
func (s settings) params() map[string]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	p := map[string]string{
		"model":             string(s.kind),
		"depth":             strconv.Itoa(s.depth),
		"k":                 strconv.Itoa(s.k),
		"lambda":            f(s.lambda),
		"mu":                f(s.mu),
		"iterations":        strconv.Itoa(s.iterations),
		"solver_iterations": strconv.Itoa(s.solverIters),
		"seed":              strconv.FormatUint(s.seed, 10),
		"strict":            strconv.FormatBool(s.nodeChecks),
		"max_row_loss":      f(maxRowLoss),
	}
	if s.init != "" {
		p["init"] = string(s.init)
	}
	if s.kind == AST {
		p["alpha"] = f(s.alpha)
		p["rho"] = f(s.rho)
		p["expand_iterations"] = strconv.Itoa(s.expand)
		p["max_growth_depth"] = strconv.Itoa(s.growthDepth)
		p["max_rounds"] = strconv.Itoa(s.rounds)
	}
	return p
}
