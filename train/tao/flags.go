package tao

import (
	"cmp"
	"flag"
	"fmt"
	"math"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/train/internal/optflag"
)

// commandLine holds what the flags of RegisterFlags record beside the
// fields of Options.
type commandLine struct {
	set        *optflag.Set
	lambda, mu float64
}

// RegisterFlags defines the flags of "treegen train tao" on fs, bound to
// the fields of o: --model, --depth, --k, --alpha, --rho, --init,
// --lambda, --mu, --iterations, --expand-iterations, --solver-iterations,
// --max-rounds, --strict, --seed and --threads. It first fills in the
// defaults of the fields left at zero where 0 has no meaning of its own
// on the command line (the kind, α, ρ, λ, μ, and 1 for the seed), so that
// every flag's default is explicit.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	optflag.Default(&o.Kind, DefaultKind)
	optflag.Default(&o.Alpha, DefaultAlpha)
	optflag.Default(&o.Rho, DefaultRho)
	optflag.Default(&o.Seed, 1)
	cl := &commandLine{set: optflag.New(fs), lambda: DefaultLambda, mu: DefaultLambda}
	if o.Lambda != nil {
		cl.lambda = *o.Lambda
	}
	if o.Mu != nil {
		cl.mu = *o.Mu
	}
	o.cl = cl
	s := cl.set
	s.Enum((*string)(&o.Kind), "model", "ast (Adaptive Softmax Tree), st (Softmax Tree of fixed depth) or softmax (flat)", optflag.Strings(Kinds()))
	s.Int(&o.Depth, "depth", fmt.Sprintf("depth of the complete initial tree (0: %d for st, %d for ast)", DefaultSTDepth, DefaultASTDepth))
	s.Int(&o.K, "k", "classes per leaf: k of st, k₀ of ast (0: all for st, ceil(K/2^depth) for ast)")
	s.Float(&o.Alpha, "alpha", "ast: softmax contraction α of an expansion, in (0, 1]")
	s.Float(&o.Rho, "rho", "ast: tolerance ρ >= 1 of an expansion's misclassified rows over the leaf's")
	s.Enum((*string)(&o.Init), "init", "splits of the initial complete tree: kmeans (2-means directions) or median (random directions); both through the rows' median (default: kmeans for st, median for ast)", optflag.Strings(Inits()))
	s.Float(&cl.lambda, "lambda", "L1 weight λ of the decision nodes")
	s.Float(&cl.mu, "mu", "L1 weight μ of the leaf softmaxes")
	s.Int(&o.Iterations, "iterations", fmt.Sprintf("TAO iterations (0: at most %d for st, %d per growth round for ast)", DefaultSTIterations, DefaultASTIterations))
	s.Int(&o.ExpandIterations, "expand-iterations", fmt.Sprintf("ast: TAO iterations fitting an expansion (0: %d)", DefaultExpandIters))
	s.Int(&o.SolverIterations, "solver-iterations", fmt.Sprintf("proximal Newton iterations of every L1 fit (0: %d)", DefaultSolverIters))
	s.Int(&o.MaxRounds, "max-rounds", fmt.Sprintf("ast: most growth rounds (0: %d)", DefaultMaxRounds))
	s.Bool(&o.Strict, "strict", "accept a decision node's update only when it lowers the objective (monotone per node; slower to improve)")
	s.Uint64(&o.Seed, "seed", "seed of the initial splits and --valid-fraction")
	s.Int(&o.Threads, "threads", "goroutines fitting the nodes of a depth (0: all cores); never changes the model")
}

// given reports whether the command line gave the flag.
func (o *Options) given(name string) bool {
	return o.cl != nil && o.cl.set.Given(name)
}

// Validate refuses the option values a command line may not give, naming
// the flag ("--rho must be a finite number >= 1, got 0.5"): it reads every
// field as RegisterFlags defines it, so a zero that Train would read as
// its default is refused where the flag's help gives 0 no meaning. It
// also refuses the flags of a tree for --model softmax and those of an
// AST for the other models.
func (o *Options) Validate() error {
	lambda, mu := 0.0, 0.0
	if o.cl != nil {
		lambda, mu = o.cl.lambda, o.cl.mu
	} else {
		lambda, mu = deref(o.Lambda), deref(o.Mu)
	}
	if err := optflag.First(
		optflag.OneOf("model", o.Kind, AST, ST, Softmax),
		optflag.OneOf("init", cmp.Or(o.Init, KMeans), KMeans, Median),
		optflag.Between("depth", o.Depth, 0, MaxDepth),
		optflag.AtLeast("k", o.K, 0),
		optflag.Fraction("alpha", o.Alpha),
		optflag.NonNegative("lambda", lambda),
		optflag.NonNegative("mu", mu),
		optflag.AtLeast("iterations", o.Iterations, 0),
		optflag.AtLeast("expand-iterations", o.ExpandIterations, 0),
		optflag.AtLeast("solver-iterations", o.SolverIterations, 0),
		optflag.AtLeast("max-rounds", o.MaxRounds, 0),
		optflag.AtLeast("threads", o.Threads, 0),
	); err != nil {
		return err
	}
	switch {
	case !(o.Rho >= 1) || math.IsInf(o.Rho, 0):
		return fmt.Errorf("--rho must be a finite number >= 1, got %v", o.Rho)
	case o.given("k") && o.K < 1:
		return fmt.Errorf("--k must be at least 1, got %d", o.K)
	case o.given("depth") && o.Depth == 0 && o.Kind != Softmax:
		return fmt.Errorf("--depth must be at least 1 for --model %s (a tree of depth 0 is --model softmax), got 0", o.Kind)
	case o.Kind == Softmax && (o.Depth != 0 || o.K != 0):
		return fmt.Errorf("--depth and --k are options of a tree: --model softmax has one leaf over every class")
	case o.Kind == Softmax && o.given("init"):
		return fmt.Errorf("--init is an option of a tree: --model softmax has no splits")
	case o.Kind != AST && (o.given("alpha") || o.given("rho") || o.given("expand-iterations") || o.given("max-rounds")):
		return fmt.Errorf("--alpha, --rho, --expand-iterations and --max-rounds are options of --model ast")
	}
	return nil
}

// deref returns *p, or 0 for nil.
func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// Resolve turns the flags of RegisterFlags into the options Train reads,
// once Validate has accepted them and the training data d is read
// (--lambda and --mu as Lambda and Mu), and refuses a --k above the number
// of classes of d.
func (o *Options) Resolve(d *data.Dataset) error {
	if labels, _, err := data.Classes(d.Y); err == nil && o.K > len(labels) {
		return fmt.Errorf("--k %d: %s has only %d classes", o.K, d.Source, len(labels))
	}
	if o.cl != nil {
		lambda, mu := o.cl.lambda, o.cl.mu
		o.Lambda, o.Mu = &lambda, &mu
	}
	return nil
}

// TotalIterations returns the number of TAO iterations that o asks for: at
// most that many for an ST, and per growth round for an AST.
func (o *Options) TotalIterations() int {
	if o.Iterations != 0 {
		return o.Iterations
	}
	if o.Kind == AST || o.Kind == "" {
		return DefaultASTIterations
	}
	return DefaultSTIterations
}
