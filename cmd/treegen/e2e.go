package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/e2e"
)

func (a *app) trainE2ECmd() *cobra.Command {
	var f commonTrainFlags
	var o e2e.Options
	var valid string
	var validFraction, deltaGamma float64
	var forest, quiet bool
	cmd := &cobra.Command{
		Use:   "e2e --data FILE [--depth D] [--epochs E] [--delta-gamma G] [--forest --trees T --features K] -o MODEL.json",
		Short: "Train an end-to-end learned deterministic oblique tree or forest (E2EDT/E2EDF)",
		Long: `e2e trains a decision tree of oblique splits as Hehn, Kooij and Hamprecht
(2019) do: during training a split sends a row right with probability
σ(γ·f), f = (x'ᵀ, 1)β on standardised features, and the tree is fitted by EM
(responsibilities, closed-form class distributions in the leaves, Adam on the
splits); γ grows by --delta-gamma after every epoch, so that the
probabilistic tree converges to the deterministic one used for prediction,
which evaluates one path per row. The tree is grown greedily, one stump per
node trained on the rows the deterministic tree routes to it (--epochs), and
then finetuned as a whole (--finetune-epochs). --forest trains --trees such
trees on the whole data, every split seeing --features random features, and
averages them (E2EDF). E2E is for classification. The model holds hard
oblique splits: the interpreter predicts with it and "treegen gen" compiles
it with the ifelse backend.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			if !forest && (cmd.Flags().Changed("trees") || cmd.Flags().Changed("features")) {
				return fmt.Errorf("--trees and --features are options of a forest: add --forest")
			}
			if !forest {
				o.Trees = 1
			}
			if err := firstError(
				intBetween("depth", o.MaxDepth, 1, e2e.MaxDepth),
				atLeast("max-leaves", o.MaxLeaves, 0),
				atLeast("epochs", o.Epochs, 1),
				atLeast("finetune-epochs", o.FinetuneEpochs, 0),
				nonNegative("delta-gamma", deltaGamma),
				atLeast("batch", o.BatchSize, 1),
				positive("lr", o.LearningRate),
				atLeast("trees", o.Trees, 1),
				atLeast("features", o.FeaturesPerSplit, 0),
				atLeast("threads", o.Threads, 0),
			); err != nil {
				return err
			}
			if o.MaxLeaves == 1 {
				return fmt.Errorf("--max-leaves must be 0 (2^depth) or at least 2, got 1")
			}
			o.DeltaGamma = &deltaGamma
			if o.FinetuneEpochs == 0 {
				o.FinetuneEpochs = -1 // none
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if o.FeaturesPerSplit > d.Cols {
				return fmt.Errorf("--features %d: %s has only %d features", o.FeaturesPerSplit, f.data, d.Cols)
			}
			if d.Labels == nil {
				if labels, _, err := data.Classes(d.Y); err == nil && !integers(labels) {
					return fmt.Errorf("%s: the target %q holds non-integer numbers (%v, ...): E2E trees are for classification", f.data, f.target, labels[0])
				}
			}
			d, v, err := splitValidation(d, f, valid, validFraction, false, o.Seed)
			if err != nil {
				return err
			}
			o.Name = f.name
			if o.Name == "" {
				o.Name = baseName(f.data)
			}
			total := o.Trees * o.FinetuneEpochs
			if o.FinetuneEpochs < 0 {
				total = 0
			}
			update, done := progress.New(a.stderr, max(total, 1), 10, quiet)
			step := 0
			o.OnEpoch = func(e e2e.EpochInfo) {
				if e.Phase != e2e.Finetune {
					return
				}
				step++
				s := fmt.Sprintf("tree %d/%d finetune epoch %d/%d γ %.2f log-likelihood %.5f train acc %.4f",
					e.Tree+1, o.Trees, e.Epoch, e.Epochs, e.Gamma, e.LogLikelihood, e.TrainAccuracy)
				if !math.IsNaN(e.ValidAccuracy) {
					s += fmt.Sprintf(" valid acc %.4f", e.ValidAccuracy)
				}
				update(step, s+fmt.Sprintf(" (%s)", e.Elapsed.Round(time.Millisecond)))
			}
			start := time.Now()
			m, err := e2e.Train(d, v, o)
			done()
			if err != nil {
				// The package speaks of its options; name the flag.
				return errors.New(strings.ReplaceAll(err.Error(), "set Options.Impute", "use --impute"))
			}
			if err := f.save(a, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "trained %s on %d rows in %s: %s split evaluations per row; wrote %s\n",
				plural(len(m.Trees), "oblique tree"), d.Rows, time.Since(start).Round(time.Millisecond),
				splitEvaluations(m), f.out)
			return a.reportTraining(m, f, d, v)
		},
	}
	f.register(a, cmd)
	fl := cmd.Flags()
	fl.StringVar(&valid, "valid", "", "validation data, for per-epoch accuracy")
	fl.Float64Var(&validFraction, "valid-fraction", 0, "hold out this fraction of the training rows as validation data")
	fl.IntVar(&o.MaxDepth, "depth", e2e.DefaultMaxDepth, fmt.Sprintf("maximum depth of a tree (1 to %d)", e2e.MaxDepth))
	fl.IntVar(&o.MaxLeaves, "max-leaves", 0, "maximum leaves of a tree (0: 2^depth)")
	fl.IntVar(&o.Epochs, "epochs", e2e.DefaultEpochs, "EM epochs of every greedy stump")
	fl.IntVar(&o.FinetuneEpochs, "finetune-epochs", e2e.DefaultFinetuneFactor*e2e.DefaultEpochs, "EM epochs of the whole tree after greedy growth (0: none)")
	fl.Float64Var(&deltaGamma, "delta-gamma", e2e.DefaultDeltaGamma, "Δγ added to the steepness γ after every epoch (0: constant γ = 1)")
	fl.IntVar(&o.BatchSize, "batch", e2e.DefaultBatchSize, "rows per Adam minibatch")
	fl.Float64Var(&o.LearningRate, "lr", e2e.DefaultLearningRate, "Adam learning rate")
	fl.BoolVar(&forest, "forest", false, "train a forest (E2EDF) of --trees trees")
	fl.IntVar(&o.Trees, "trees", 10, "trees of the forest (with --forest)")
	fl.IntVar(&o.FeaturesPerSplit, "features", 0, "features each split sees, drawn at random (0: all for a tree, ceil(√p) for a forest)")
	fl.BoolVar(&o.KeepBest, "keep-best", false, "with validation data, keep the finetuning epoch of best validation accuracy")
	fl.BoolVar(&o.Impute, "impute", false, "replace missing values by the training mean (else they are an error)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the split directions, feature subsets, row order and --valid-fraction")
	fl.IntVar(&o.Threads, "threads", 0, "goroutines computing E-steps and gradients (0: all cores); never changes the model")
	fl.BoolVar(&quiet, "quiet", false, "no progress output")
	return cmd
}

// integers reports whether every value is an integer.
func integers(v []float64) bool {
	for _, x := range v {
		if x != math.Trunc(x) {
			return false
		}
	}
	return true
}

// splitEvaluations returns the provenance's mean number of split
// evaluations per training row, or "?".
func splitEvaluations(m *ir.Model) string {
	if m.Provenance != nil {
		if s, ok := m.Provenance.Params["split_evaluations_per_row"]; ok {
			if v, err := strconv.ParseFloat(s, 64); err == nil {
				return strconv.FormatFloat(v, 'f', 1, 64)
			}
			return s
		}
	}
	return "?"
}
