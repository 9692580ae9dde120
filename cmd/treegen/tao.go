package main

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/train/tao"
)

func (a *app) trainTAOCmd() *cobra.Command {
	var f commonTrainFlags
	var o tao.Options
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
			if err := firstError(f.check(), o.Validate()); err != nil {
				return err
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if err := firstError(f.requireClasses(d, "softmax trees"), o.Resolve(d)); err != nil {
				return err
			}
			d, v, err := f.split(d, false, o.Seed)
			if err != nil {
				return err
			}
			o.Name = f.modelName()
			update, done := progress.New(a.stderr, o.TotalIterations(), 10, f.quiet)
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
	f.registerValidation(cmd, "validation data, for per-iteration error")
	addTrainerFlags(cmd, o.RegisterFlags)
	return cmd
}
