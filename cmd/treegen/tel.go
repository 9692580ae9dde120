package main

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/train/tel"
)

func (a *app) trainTELCmd() *cobra.Command {
	var f commonTrainFlags
	o := tel.DefaultOptions("")
	cmd := &cobra.Command{
		Use:   "tel --data FILE [--loss logistic|softmax|squarederror] --trees M --depth D --gamma G -o MODEL.json",
		Short: "Train a tree ensemble layer (soft trees with smooth-step routing)",
		Long: `tel trains a tree ensemble layer (Hazimeh et al., ICML 2020): --trees perfect
binary soft trees of depth --depth whose nodes route left with probability
S(w·x') for the smooth-step S of width --gamma, on features standardised
with the training data, with vector leaves. Forward and backward passes are
conditional: a row visits only the nodes it reaches, and gradients touch only
the nodes whose routing is fractional. Adam on minibatches of --batch rows,
--epochs passes, early stopping on a validation set (--valid FILE or
--valid-fraction) with --early-stopping. Without --loss, a target of two
values gives logistic, of more integer values softmax, and any other target
squarederror. Progress and per-epoch losses go to stderr.

The model holds soft nodes: the interpreter predicts with it, and
"treegen gen" compiles it with the backend for soft trees, which its default
--backend auto picks.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := firstError(f.check(), o.Validate()); err != nil {
				return err
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if o.Loss == "" {
				if o.Loss, err = tel.InferLoss(d); err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "loss %s (from the target values of %s; --loss to choose)\n", o.Loss, f.data)
			}
			d, v, err := f.split(d, o.Loss == tel.SquaredError, o.Seed)
			if err != nil {
				return err
			}
			if o.EarlyStopping > 0 && v == nil {
				return fmt.Errorf("--early-stopping needs validation data: --valid FILE or --valid-fraction")
			}
			o.Name = f.modelName()
			update, done := progress.New(a.stderr, o.Epochs, 1, f.quiet)
			leaves := 1 << min(o.Depth, 62)
			o.OnEpoch = func(e tel.EpochInfo) {
				s := fmt.Sprintf("epoch %d/%d train loss %.5f", e.Epoch, e.Epochs, e.TrainLoss)
				if !math.IsNaN(e.ValidLoss) {
					s += fmt.Sprintf(" valid loss %.5f", e.ValidLoss)
				}
				if !math.IsNaN(e.ValidAUC) {
					s += fmt.Sprintf(" valid auc %.5f", e.ValidAUC)
				}
				s += fmt.Sprintf(" leaves reached %.1f/%d", e.ReachableLeaves, leaves)
				if o.L1 > 0 {
					s += fmt.Sprintf(" zero weights %.1f%%", 100*e.ZeroWeights)
				}
				update(e.Epoch, s+fmt.Sprintf(" (%s)", e.TrainTime.Round(time.Millisecond)))
			}
			start := time.Now()
			m, err := tel.Train(d, v, o)
			done()
			if err != nil {
				return imputeFlag(err)
			}
			if err := f.save(a, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "trained %d soft trees of depth %d on %d rows in %s; wrote %s\n",
				len(m.Trees), o.Depth, d.Rows, time.Since(start).Round(time.Millisecond), f.out)
			return a.reportTraining(m, f, d, v)
		},
	}
	f.register(a, cmd)
	f.registerValidation(cmd, "validation data, for per-epoch metrics and early stopping")
	addTrainerFlags(cmd, o.RegisterFlags)
	return cmd
}

// imputeFlag names the flag --impute where an error of a trainer names
// its option.
func imputeFlag(err error) error {
	return errors.New(strings.ReplaceAll(err.Error(), "set Options.Impute", "use --impute"))
}
