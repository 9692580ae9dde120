package main

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/train/gbdt"
)

func (a *app) trainGBDTCmd() *cobra.Command {
	f := commonTrainFlags{compact: true}
	var o gbdt.Options
	cmd := &cobra.Command{
		Use:   "gbdt --data FILE --objective logistic|softmax|squarederror|poisson|gamma|tweedie|pseudohuber|quantile -o MODEL.json",
		Short: "Train a gradient-boosted ensemble (second-order, histogram splits)",
		Long: `gbdt trains gradient-boosted trees with Newton leaf values, L2 regularisation,
shrinkage, quantile histograms of at most 256 bins per feature, learned
default directions for missing values, row and column subsampling, and early
stopping on a validation set (--valid FILE, or --valid-fraction of the
training rows) on the loss or on --eval-metric. --weight COLUMN weighs the
rows by a column of the data files (removed from the features). Progress and
per-round losses go to stderr.
--alpha, --max-delta-step, --colsample-bylevel, --colsample-bynode,
--monotone and --categorical behave as XGBoost's alpha, max_delta_step,
colsample_bylevel, colsample_bynode, monotone_constraints and categorical
features (enable_categorical): see docs/GBDT.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := firstError(f.check(), o.Validate()); err != nil {
				return err
			}
			leanGC()
			if w := o.WeightColumn(); w != "" && w == f.target {
				return fmt.Errorf("--weight names the target column %q", w)
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			// Checked on the whole file, so that errors name its rows.
			if _, _, err := o.Weigh(d); err != nil {
				return err
			}
			d, v, err := f.split(d, o.Objective != gbdt.Logistic && o.Objective != gbdt.Softmax, o.Seed)
			if err != nil {
				return err
			}
			if d, v, err = o.Resolve(d, v); err != nil {
				return err
			}
			o.Name = f.modelName()
			var done func()
			o.OnRound, done = a.roundReporter(o.Rounds, f.quiet, o.EvalMetric != "")
			var timing gbdt.Timing
			o.Timing = &timing
			start := time.Now()
			m, err := gbdt.Train(d, v, o)
			done()
			if err != nil {
				return err
			}
			if err := f.save(a, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "trained %d trees on %d rows in %s (prepare %s, boost %s); wrote %s\n",
				len(m.Trees), d.Rows, time.Since(start).Round(time.Millisecond),
				progress.Duration(timing.Prepare), progress.Duration(timing.Boost), f.out)
			return a.reportTraining(m, f, d, v)
		},
	}
	f.register(a, cmd)
	post := cmd.PostRunE
	cmd.PostRunE = func(cmd *cobra.Command, args []string) error {
		if o.WeightColumn() == "" || f.test == "" || f.model == nil {
			return post(cmd, args)
		}
		// The test file has the weight column too: the model does not.
		d, err := f.read(f.test)
		if err != nil {
			return err
		}
		if d, _, err = o.Weigh(d); err != nil {
			return err
		}
		return a.reportScores(f.model, f.test, f.target, "test", d)
	}
	f.registerValidation(cmd, "validation data, for per-round metrics and early stopping")
	cmd.Flags().BoolVar(&f.compact, "compact", true, "keep the features in 4 bytes a value when every value of the data files is a short decimal or a float32 (docs/DATA.md); the model is the same")
	addTrainerFlags(cmd, o.RegisterFlags)
	return cmd
}

// roundReporter returns the OnRound callback of the CLI and the function to
// call when training ends (see progress.New); with metric, the lines end with
// the evaluation metric (on the validation rows, or else the training
// rows).
func (a *app) roundReporter(rounds int, quiet, metric bool) (func(gbdt.RoundInfo), func()) {
	update, done := progress.New(a.stderr, rounds, 10, quiet)
	return func(r gbdt.RoundInfo) {
		s := fmt.Sprintf("round %d/%d train loss %.5f", r.Round, r.Rounds, r.TrainLoss)
		if !math.IsNaN(r.ValidLoss) {
			s += fmt.Sprintf(" valid loss %.5f", r.ValidLoss)
		}
		if !math.IsNaN(r.ValidAUC) {
			s += fmt.Sprintf(" valid auc %.5f", r.ValidAUC)
		}
		if metric && !math.IsNaN(r.ValidMetric) {
			s += fmt.Sprintf(" valid %s %.5f", r.Metric, r.ValidMetric)
		} else if metric {
			s += fmt.Sprintf(" train %s %.5f", r.Metric, r.TrainMetric)
		}
		update(r.Round, s)
	}, done
}

// leanGC makes the garbage collector run when the heap has grown by a
// quarter rather than doubled, unless GOGC says otherwise. A training set
// lives through training and is mostly arrays of numbers, which the
// collector does not scan, so collecting more often costs little, and the
// peak memory of a million rows of 50 features drops from about 2 to about
// 1.2 times the live data (729 to 625 MB; the same time).
func leanGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
}
