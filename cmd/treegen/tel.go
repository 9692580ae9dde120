package main

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/tel"
)

func (a *app) trainTELCmd() *cobra.Command {
	var f commonTrainFlags
	o := tel.DefaultOptions("")
	var loss, valid string
	var validFraction float64
	var quiet bool
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
			if err := f.check(); err != nil {
				return err
			}
			d, err := readData(f.data, f.target, true)
			if err != nil {
				return err
			}
			o.Loss = tel.Loss(loss)
			if loss == "" {
				o.Loss = inferLoss(d.Y)
				fmt.Fprintf(a.stderr, "loss %s (from the target values of %s; --loss to choose)\n", o.Loss, f.data)
			}
			d, v, err := splitValidation(d, f, valid, validFraction, o.Loss == tel.SquaredError, o.Seed)
			if err != nil {
				return err
			}
			if o.EarlyStopping > 0 && v == nil {
				return fmt.Errorf("--early-stopping needs validation data: --valid FILE or --valid-fraction")
			}
			o.Name = f.name
			if o.Name == "" {
				o.Name = baseName(f.data)
			}
			update, done := a.progress(o.Epochs, 1, quiet)
			leaves := 1 << min(o.Depth, 62)
			o.OnEpoch = func(e tel.EpochInfo) {
				s := fmt.Sprintf("epoch %d/%d train loss %.5f", e.Epoch, e.Epochs, e.TrainLoss)
				if !math.IsNaN(e.ValidLoss) {
					s += fmt.Sprintf(" valid loss %.5f", e.ValidLoss)
				}
				if !math.IsNaN(e.ValidAUC) {
					s += fmt.Sprintf(" valid auc %.5f", e.ValidAUC)
				}
				s += fmt.Sprintf(" leaves reached %.1f/%d (%s)", e.ReachableLeaves, leaves, e.TrainTime.Round(time.Millisecond))
				update(e.Epoch, s)
			}
			start := time.Now()
			m, err := tel.Train(d, v, o)
			done()
			if err != nil {
				// The package speaks of its options; name the flag.
				return errors.New(strings.ReplaceAll(err.Error(), "set Options.Impute", "use --impute"))
			}
			if err := ir.Save(f.out, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "trained %d soft trees of depth %d on %d rows in %s; wrote %s\n",
				len(m.Trees), o.Depth, d.Rows, time.Since(start).Round(time.Millisecond), f.out)
			if err := a.reportScores(m, f.data, f.target, "train", d); err != nil {
				return err
			}
			if v != nil {
				return a.reportScores(m, "validation", f.target, "valid", v)
			}
			return nil
		},
	}
	f.register(a, cmd)
	fl := cmd.Flags()
	fl.StringVar(&loss, "loss", "", "logistic (binary), softmax (multiclass) or squarederror (regression); default from the target")
	fl.StringVar(&valid, "valid", "", "validation data, for per-epoch metrics and early stopping")
	fl.Float64Var(&validFraction, "valid-fraction", 0, "hold out this fraction of the training rows as validation data")
	fl.IntVar(&o.Trees, "trees", tel.DefaultTrees, "number of trees")
	fl.IntVar(&o.Depth, "depth", tel.DefaultDepth, fmt.Sprintf("depth of every tree (1 to %d)", tel.MaxDepth))
	fl.Float64Var(&o.Gamma, "gamma", tel.DefaultGamma, "width γ of the smooth-step (> 0); smaller routes more rows hard")
	fl.IntVar(&o.Epochs, "epochs", tel.DefaultEpochs, "passes over the training data")
	fl.IntVar(&o.BatchSize, "batch", tel.DefaultBatchSize, "rows per minibatch")
	fl.Float64Var(&o.LearningRate, "lr", tel.DefaultLearningRate, "Adam learning rate")
	fl.Float64Var(&o.L2, "l2", 0, "L2 penalty on the node weights")
	fl.BoolVar(&o.Bias, "bias", false, "give every node a trainable bias")
	fl.IntVar(&o.EarlyStopping, "early-stopping", 0, "stop after this many epochs without a lower validation loss, keeping the best (0: off)")
	fl.BoolVar(&o.Impute, "impute", false, "replace missing feature values by their training mean (else they are an error)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the initial weights, the row order and --valid-fraction")
	fl.IntVar(&o.Threads, "threads", 0, "goroutines computing gradients (0: all cores); never changes the model")
	fl.BoolVar(&quiet, "quiet", false, "no progress output")
	return cmd
}

// inferLoss returns the loss that the target values y suggest: logistic for
// two distinct values, softmax for up to 1,000 distinct integers, else
// squared error.
func inferLoss(y []float64) tel.Loss {
	labels, _, err := data.Classes(y)
	if err != nil {
		return tel.SquaredError // NaN targets: Train names the row
	}
	if len(labels) == 2 {
		return tel.Logistic
	}
	if len(labels) > 2 && len(labels) <= 1000 {
		integers := true
		for _, v := range labels {
			integers = integers && v == math.Trunc(v)
		}
		if integers {
			return tel.Softmax
		}
	}
	return tel.SquaredError
}
