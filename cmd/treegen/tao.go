package main

import (
	"cmp"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/train/tao"
)

func (a *app) trainTAOCmd() *cobra.Command {
	var f commonTrainFlags
	var o tao.Options
	var valid, kind, init string
	var validFraction, lambda, mu float64
	var quiet bool
	cmd := &cobra.Command{
		Use:   "tao --data FILE [--model ast|st|softmax] [--depth D] [--k K] [--alpha A] [--rho R] [--init kmeans|median] -o MODEL.json",
		Short: "Train a Softmax Tree or an Adaptive Softmax Tree by Tree Alternating Optimisation",
		Long: `tao trains a softmax tree as Kairgeldin, Gabidolla and Carreira-Perpiñán
(2024) do: a hard tree of sparse oblique splits (right iff w·x' + b >= 0 on
standardised features) whose leaves are small softmax classifiers, each over
its own subset of classes (probability exactly 0 for the others). Tree
Alternating Optimisation fits it: the nodes of one depth at a time, deepest
first, a leaf by an L1 softmax over the most frequent classes of the rows
that reach it, a decision node by an L1 logistic regression on the better
child of each row (--strict: kept only when it lowers the objective), for
the objective cross-entropy + --lambda·Σ‖w‖₁ + --mu·Σ‖W‖₁.

--model st: a complete tree of depth --depth (default 4) with --k classes
per leaf (default all), initialised with 2-means splits (--init kmeans:
each node's rows clustered in two, the split across the two centres
through the rows' median), TAO for at most --iterations (default 100)
iterations.
--model ast (the default): an Adaptive Softmax Tree. From a complete tree of
depth --depth (default 2, --init median: random directions through the
rows' median) with k₀ = ceil(K/2^depth) classes per leaf, every
leaf that misclassifies some of its rows is offered an expansion into a
stump whose leaves hold round(--alpha·k) classes, kept when it
misclassifies at most --rho times as many rows as the leaf; a global TAO
pass (--iterations, default 15) follows every round, until the structure
stops changing.
--model softmax: a flat multinomial L1 logistic regression over every class.

Softmax trees are for classification. "treegen gen" compiles the model with
the ifelse backend: one sparse dot product per visited node and one small
softmax per row.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			changed := cmd.Flags().Changed
			if err := firstError(
				oneOf("model", kind, string(tao.AST), string(tao.ST), string(tao.Softmax)),
				oneOf("init", cmp.Or(init, string(tao.KMeans)), string(tao.KMeans), string(tao.Median)),
				intBetween("depth", o.Depth, 0, tao.MaxDepth),
				atLeast("k", o.K, 0),
				fraction("alpha", o.Alpha),
				nonNegative("lambda", lambda),
				nonNegative("mu", mu),
				atLeast("iterations", o.Iterations, 0),
				atLeast("expand-iterations", o.ExpandIterations, 0),
				atLeast("solver-iterations", o.SolverIterations, 0),
				atLeast("max-rounds", o.MaxRounds, 0),
				atLeast("threads", o.Threads, 0),
			); err != nil {
				return err
			}
			o.Kind = tao.Kind(kind)
			switch {
			case !(o.Rho >= 1) || math.IsInf(o.Rho, 0):
				return fmt.Errorf("--rho must be a finite number >= 1, got %v", o.Rho)
			case changed("k") && o.K < 1:
				return fmt.Errorf("--k must be at least 1, got %d", o.K)
			case changed("depth") && o.Depth == 0 && o.Kind != tao.Softmax:
				return fmt.Errorf("--depth must be at least 1 for --model %s (a tree of depth 0 is --model softmax), got 0", kind)
			case o.Kind == tao.Softmax && (o.Depth != 0 || o.K != 0):
				return fmt.Errorf("--depth and --k are options of a tree: --model softmax has one leaf over every class")
			case o.Kind == tao.Softmax && changed("init"):
				return fmt.Errorf("--init is an option of a tree: --model softmax has no splits")
			case o.Kind != tao.AST && (changed("alpha") || changed("rho") || changed("expand-iterations") || changed("max-rounds")):
				return fmt.Errorf("--alpha, --rho, --expand-iterations and --max-rounds are options of --model ast")
			}
			o.Lambda, o.Mu, o.Init = &lambda, &mu, tao.Init(init)
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if d.Labels == nil {
				if labels, _, err := data.Classes(d.Y); err == nil && !integers(labels) {
					return fmt.Errorf("%s: the target %q holds non-integer numbers (%v, ...): softmax trees are for classification", f.data, f.target, labels[0])
				}
			}
			if labels, _, err := data.Classes(d.Y); err == nil && o.K > len(labels) {
				return fmt.Errorf("--k %d: %s has only %d classes", o.K, f.data, len(labels))
			}
			d, v, err := splitValidation(d, f, valid, validFraction, false, o.Seed)
			if err != nil {
				return err
			}
			o.Name = f.name
			if o.Name == "" {
				o.Name = baseName(f.data)
			}
			total := o.Iterations
			if total == 0 {
				total = tao.DefaultSTIterations
				if o.Kind == tao.AST {
					total = tao.DefaultASTIterations
				}
			}
			update, done := progress.New(a.stderr, total, 10, quiet)
			o.OnIteration = func(p tao.Progress) {
				s := fmt.Sprintf("iteration %d", p.Iteration)
				if o.Kind == tao.AST && p.Round > 0 {
					s = fmt.Sprintf("round %d (%d expanded) ", p.Round, p.Expanded) + s
				}
				s += fmt.Sprintf(" objective %.5f train err %.4f", p.Objective, p.TrainError)
				if !math.IsNaN(p.ValidError) {
					s += fmt.Sprintf(" valid err %.4f", p.ValidError)
				}
				s += fmt.Sprintf(" depth %d leaves %d mean k %.2f (%s)", p.Depth, p.Leaves, p.MeanK, p.Elapsed.Round(time.Millisecond))
				update(p.Iteration, s)
			}
			start := time.Now()
			m, err := tao.Train(d, v, o)
			done()
			if err != nil {
				return err
			}
			if err := f.save(a, m); err != nil {
				return err
			}
			p := m.Provenance.Params
			meanK, _ := strconv.ParseFloat(p["mean_k"], 64)
			flops, _ := strconv.ParseFloat(p["flops_per_row"], 64)
			fmt.Fprintf(a.stderr, "trained a softmax tree on %d rows in %s: depth %s, %s leaves, mean k %.2f, %.1f multiply-adds per row; wrote %s\n",
				d.Rows, time.Since(start).Round(time.Millisecond), p["final_depth"], p["leaves"], meanK, flops, f.out)
			return a.reportTraining(m, f, d, v)
		},
	}
	f.register(a, cmd)
	fl := cmd.Flags()
	fl.StringVar(&valid, "valid", "", "validation data, for per-iteration error")
	fl.Float64Var(&validFraction, "valid-fraction", 0, "hold out this fraction of the training rows as validation data")
	fl.StringVar(&kind, "model", string(tao.AST), "ast (Adaptive Softmax Tree), st (Softmax Tree of fixed depth) or softmax (flat)")
	fl.IntVar(&o.Depth, "depth", 0, fmt.Sprintf("depth of the complete initial tree (0: %d for st, %d for ast)", tao.DefaultSTDepth, tao.DefaultASTDepth))
	fl.IntVar(&o.K, "k", 0, "classes per leaf: k of st, k₀ of ast (0: all for st, ceil(K/2^depth) for ast)")
	fl.Float64Var(&o.Alpha, "alpha", tao.DefaultAlpha, "ast: softmax contraction α of an expansion, in (0, 1]")
	fl.Float64Var(&o.Rho, "rho", tao.DefaultRho, "ast: tolerance ρ >= 1 of an expansion's misclassified rows over the leaf's")
	fl.StringVar(&init, "init", "", "splits of the initial complete tree: kmeans (2-means directions) or median (random directions); both through the rows' median (default: kmeans for st, median for ast)")
	fl.Float64Var(&lambda, "lambda", tao.DefaultLambda, "L1 weight λ of the decision nodes")
	fl.Float64Var(&mu, "mu", tao.DefaultLambda, "L1 weight μ of the leaf softmaxes")
	fl.IntVar(&o.Iterations, "iterations", 0, fmt.Sprintf("TAO iterations (0: at most %d for st, %d per growth round for ast)", tao.DefaultSTIterations, tao.DefaultASTIterations))
	fl.IntVar(&o.ExpandIterations, "expand-iterations", 0, fmt.Sprintf("ast: TAO iterations fitting an expansion (0: %d)", tao.DefaultExpandIters))
	fl.IntVar(&o.SolverIterations, "solver-iterations", 0, fmt.Sprintf("proximal Newton iterations of every L1 fit (0: %d)", tao.DefaultSolverIters))
	fl.IntVar(&o.MaxRounds, "max-rounds", 0, fmt.Sprintf("ast: most growth rounds (0: %d)", tao.DefaultMaxRounds))
	fl.BoolVar(&o.Strict, "strict", false, "accept a decision node's update only when it lowers the objective (monotone per node; slower to improve)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the initial splits and --valid-fraction")
	fl.IntVar(&o.Threads, "threads", 0, "goroutines fitting the nodes of a depth (0: all cores); never changes the model")
	fl.BoolVar(&quiet, "quiet", false, "no progress output")
	return cmd
}
