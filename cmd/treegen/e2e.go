package main

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/train/e2e"
)

func (a *app) trainE2ECmd() *cobra.Command {
	var f commonTrainFlags
	var o e2e.Options
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
			if err := firstError(f.check(), o.Validate()); err != nil {
				return err
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if err := firstError(o.Resolve(d), f.requireClasses(d, "E2E trees")); err != nil {
				return err
			}
			d, v, err := f.split(d, false, o.Seed)
			if err != nil {
				return err
			}
			o.Name = f.modelName()
			update, done := progress.New(a.stderr, max(o.Trees*max(o.FinetuneEpochs, 0), 1), 10, f.quiet)
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
				return imputeFlag(err)
			}
			if err := f.save(a, m); err != nil {
				return err
			}
			splits := "?"
			if n, ok := e2e.SplitEvaluations(m); ok {
				splits = strconv.FormatFloat(n, 'f', 1, 64)
			}
			fmt.Fprintf(a.stderr, "trained %s on %d rows in %s: %s split evaluations per row; wrote %s\n",
				plural(len(m.Trees), "oblique tree"), d.Rows, time.Since(start).Round(time.Millisecond), splits, f.out)
			return a.reportTraining(m, f, d, v)
		},
	}
	f.register(a, cmd)
	f.registerValidation(cmd, "validation data, for per-epoch accuracy")
	addTrainerFlags(cmd, o.RegisterFlags)
	return cmd
}
