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
			if err := checkTELFlags(&o, loss); err != nil {
				return err
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			o.Loss = tel.Loss(loss)
			if loss == "" {
				if o.Loss, err = tel.InferLoss(d); err != nil {
					return err
				}
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
			update, done := progress.New(a.stderr, o.Epochs, 1, quiet)
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
				s += fmt.Sprintf(" (%s)", e.TrainTime.Round(time.Millisecond))
				update(e.Epoch, s)
			}
			start := time.Now()
			m, err := tel.Train(d, v, o)
			done()
			if err != nil {
				// The package speaks of its options; name the flag.
				return errors.New(strings.ReplaceAll(err.Error(), "set Options.Impute", "use --impute"))
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
	fl.IntVar(&o.Project, "project", 0, "train a linear projection to this many features jointly with the trees (folded into the exported nodes; 0: none)")
	fl.Float64Var(&o.L1, "l1", 0, "L1 penalty on the node weights, by proximal steps: exact zeros, sparse hyperplanes, faster generated code")
	fl.BoolVar(&o.Bias, "bias", false, "give every node a trainable bias")
	fl.IntVar(&o.EarlyStopping, "early-stopping", 0, "stop after this many epochs without a lower validation loss, keeping the best (0: off)")
	fl.BoolVar(&o.Impute, "impute", false, "replace missing feature values by their training mean (else they are an error)")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the initial weights, the row order and --valid-fraction")
	fl.IntVar(&o.Threads, "threads", 0, "goroutines computing gradients (0: all cores); never changes the model")
	fl.BoolVar(&quiet, "quiet", false, "no progress output")
	return cmd
}

// checkTELFlags refuses the flag values of "train tel" that the trainer
// cannot honour, naming the flag.
func checkTELFlags(o *tel.Options, loss string) error {
	var lossErr error
	if loss != "" {
		lossErr = oneOf("loss", loss, string(tel.Logistic), string(tel.Softmax), string(tel.SquaredError))
	}
	return firstError(
		lossErr,
		atLeast("trees", o.Trees, 1),
		intBetween("depth", o.Depth, 1, tel.MaxDepth),
		gammaHint(positive("gamma", o.Gamma), o.Gamma),
		atLeast("epochs", o.Epochs, 1),
		atLeast("batch", o.BatchSize, 1),
		positive("lr", o.LearningRate),
		nonNegative("l2", o.L2),
		nonNegative("l1", o.L1),
		atLeast("project", o.Project, 0),
		atLeast("early-stopping", o.EarlyStopping, 0),
		atLeast("threads", o.Threads, 0),
	)
}

// gammaHint explains why --gamma 0 is refused.
func gammaHint(err error, gamma float64) error {
	if err != nil && gamma == 0 {
		return fmt.Errorf("%v (the smooth-step of width 0 is a hard step, whose gradient is 0 wherever it exists, so the nodes could not learn; 1 is a good start)", err)
	}
	return err
}
