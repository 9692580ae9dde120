package main

import (
	"errors"
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/gbdt"
)

func (a *app) trainGBDTCmd() *cobra.Command {
	f := commonTrainFlags{compact: true}
	var o gbdt.Options
	var objective, valid, weight, monotone, categorical string
	var validFraction float64
	var quiet bool
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
			if err := f.check(); err != nil {
				return err
			}
			leanGC()
			if objective == "" {
				return fmt.Errorf("--objective is required: logistic (binary), softmax (multiclass) or squarederror (regression); for other regressions poisson, gamma, tweedie, pseudohuber or quantile")
			}
			o.Objective = gbdt.Objective(objective)
			if err := checkGBDTFlags(cmd, &o, objective); err != nil {
				return err
			}
			if o.MaxLeaves > 0 && !cmd.Flags().Changed("max-depth") {
				o.MaxDepth = 0 // leaf-wise growth is limited by --max-leaves alone
			}
			if weight != "" && weight == f.target {
				return fmt.Errorf("--weight names the target column %q", weight)
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if weight != "" {
				// Checked on the whole file, so that errors name its rows.
				if _, _, err := takeWeights(d, weight); err != nil {
					return err
				}
			}
			d, v, err := splitValidation(d, f, valid, validFraction, o.Objective != gbdt.Logistic && o.Objective != gbdt.Softmax, o.Seed)
			if err != nil {
				return err
			}
			if weight != "" {
				if o.Weights, d, err = takeWeights(d, weight); err != nil {
					return err
				}
				if v != nil {
					if o.ValidWeights, v, err = takeWeights(v, weight); err != nil {
						return err
					}
				}
			}
			if o.MonotoneConstraints, err = gbdt.ParseMonotone("--monotone", monotone, d.Features); err != nil {
				return err
			}
			if o.Categorical, err = gbdt.FeatureIndices("--categorical", categorical, d.Features); err != nil {
				return err
			}
			o.Name = f.name
			if o.Name == "" {
				o.Name = baseName(f.data)
			}
			rounds := o.Rounds
			if rounds == 0 {
				rounds = gbdt.DefaultRounds
			}
			var done func()
			o.OnRound, done = a.roundReporter(rounds, quiet, o.EvalMetric != "")
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
		if weight == "" || f.test == "" || f.model == nil {
			return post(cmd, args)
		}
		// The test file has the weight column too: the model does not.
		d, err := f.read(f.test)
		if err != nil {
			return err
		}
		if _, d, err = takeWeights(d, weight); err != nil {
			return err
		}
		return a.reportScores(f.model, f.test, f.target, "test", d)
	}
	cmd.Flags().StringVar(&objective, "objective", "", "loss: logistic (binary), softmax (multiclass), squarederror (regression), poisson (counts), gamma (positive values), tweedie (values >= 0), pseudohuber (robust regression) or quantile (--quantile-alpha)")
	cmd.Flags().StringVar(&weight, "weight", "", "weigh the rows by this column of the data files, which is then no feature (\"\": every row weighs 1)")
	cmd.Flags().BoolVar(&f.compact, "compact", true, "keep the features in 4 bytes a value when every value of the data files is a short decimal or a float32 (docs/DATA.md); the model is the same")
	cmd.Flags().Float64Var(&o.ScalePosWeight, "scale-pos-weight", 1, "logistic: multiply the weight of the positive rows by this")
	cmd.Flags().Float64Var(&o.TweedieVariancePower, "tweedie-variance-power", gbdt.DefaultTweedieVariancePower, "tweedie: the variance power, in (1, 2)")
	cmd.Flags().Float64Var(&o.HuberSlope, "huber-slope", gbdt.DefaultHuberSlope, "pseudohuber: the slope δ of the loss")
	cmd.Flags().Float64Var(&o.QuantileAlpha, "quantile-alpha", gbdt.DefaultQuantileAlpha, "quantile: the level α of the quantile, in (0, 1)")
	cmd.Flags().StringVar(&o.EvalMetric, "eval-metric", "", "metric of early stopping and of the progress lines: logloss, mlogloss, auc, error, merror, rmse, mae, mphe, quantile, poisson-nloglik, gamma-nloglik, tweedie-nloglik[@ρ] (\"\": the objective's default)")
	cmd.Flags().StringVar(&valid, "valid", "", "validation data, for per-round metrics and early stopping")
	cmd.Flags().Float64Var(&validFraction, "valid-fraction", 0, "hold out this fraction of the training rows as validation data")
	cmd.Flags().IntVar(&o.Rounds, "trees", gbdt.DefaultRounds, "boosting rounds (one tree per class and round for softmax)")
	cmd.Flags().Float64Var(&o.LearningRate, "lr", gbdt.DefaultLearningRate, "learning rate (shrinkage)")
	cmd.Flags().IntVar(&o.MaxDepth, "max-depth", gbdt.DefaultMaxDepth, fmt.Sprintf("maximum depth of a tree (1 to %d)", ir.MaxDepth))
	cmd.Flags().IntVar(&o.MaxLeaves, "max-leaves", 0, "grow trees leaf-wise up to this many leaves (0: depth-wise); without --max-depth their depth is unlimited")
	cmd.Flags().Float64Var(&o.MinChildWeight, "min-child-weight", 1, "minimum hessian sum in a child")
	cmd.Flags().Float64Var(&o.Lambda, "lambda", 1, "L2 regularisation of leaf values")
	cmd.Flags().Float64Var(&o.Gamma, "gamma", 0, "minimum loss reduction of a split")
	cmd.Flags().Float64Var(&o.Alpha, "alpha", 0, "L1 regularisation of leaf values")
	cmd.Flags().Float64Var(&o.MaxDeltaStep, "max-delta-step", 0, "cap on the absolute value of every leaf value before the learning rate (0: none, or 0.7 for poisson)")
	cmd.Flags().Float64Var(&o.Subsample, "subsample", 1, "fraction of rows drawn per round")
	cmd.Flags().Float64Var(&o.ColSample, "colsample", 1, "fraction of features drawn per tree")
	cmd.Flags().Float64Var(&o.ColSampleByLevel, "colsample-bylevel", 1, "fraction of the tree's features drawn per depth")
	cmd.Flags().Float64Var(&o.ColSampleByNode, "colsample-bynode", 1, "fraction of the depth's features drawn per node")
	cmd.Flags().StringVar(&monotone, "monotone", "", `monotone constraints: "name:+1,name:-1" (the prediction only rises, or only falls, as the feature grows), or XGBoost's "(1,0,-1)" with one entry per feature`)
	cmd.Flags().StringVar(&categorical, "categorical", "", "categorical features, by name: name,name (values: integers 0 to 2147483647, at most 256 distinct)")
	cmd.Flags().IntVar(&o.MaxCatToOnehot, "max-cat-to-onehot", gbdt.DefaultMaxCatToOnehot, "a categorical feature with fewer categories splits one category against the rest, one with more a sorted partition")
	cmd.Flags().IntVar(&o.MaxBins, "max-bins", gbdt.DefaultMaxBins, "histogram bins per feature (2 to 256)")
	cmd.Flags().IntVar(&o.EarlyStopping, "early-stopping", 0, "stop after this many rounds without validation improvement (0: off)")
	cmd.Flags().Uint64Var(&o.Seed, "seed", 1, "seed of the sampling and of --valid-fraction")
	cmd.Flags().IntVar(&o.Threads, "threads", 0, "goroutines building histograms (0: all cores); never changes the model")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "no progress output")
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

// checkGBDTFlags refuses the flag values of "train gbdt" that the trainer
// cannot honour, naming the flag: the trainer reads a zero option as its
// default, which on the command line would be a silent surprise.
func checkGBDTFlags(cmd *cobra.Command, o *gbdt.Options, objective string) error {
	depth := intBetween("max-depth", o.MaxDepth, 1, ir.MaxDepth)
	if depth != nil && o.MaxLeaves > 0 {
		depth = fmt.Errorf("%v (with --max-leaves, leave --max-depth out for trees of unlimited depth)", depth)
	}
	if o.MaxLeaves > 0 && !cmd.Flags().Changed("max-depth") {
		depth = nil
	}
	leaves := error(nil)
	if o.MaxLeaves != 0 {
		leaves = atLeast("max-leaves", o.MaxLeaves, 2)
	}
	objectives := []string{string(gbdt.Logistic), string(gbdt.Softmax), string(gbdt.SquaredError), string(gbdt.Poisson),
		string(gbdt.GammaRegression), string(gbdt.Tweedie), string(gbdt.PseudoHuber), string(gbdt.Quantile)}
	return firstError(
		oneOf("objective", objective, objectives...),
		atLeast("trees", o.Rounds, 1),
		positive("lr", o.LearningRate),
		depth,
		leaves,
		offHint(positive("min-child-weight", o.MinChildWeight)),
		offHint(positive("lambda", o.Lambda)),
		nonNegative("gamma", o.Gamma),
		nonNegative("alpha", o.Alpha),
		nonNegative("max-delta-step", o.MaxDeltaStep),
		fraction("subsample", o.Subsample),
		fraction("colsample", o.ColSample),
		fraction("colsample-bylevel", o.ColSampleByLevel),
		fraction("colsample-bynode", o.ColSampleByNode),
		monotoneSyntax(cmd),
		atLeast("max-cat-to-onehot", o.MaxCatToOnehot, 1),
		intBetween("max-bins", o.MaxBins, 2, 256),
		atLeast("early-stopping", o.EarlyStopping, 0),
		atLeast("threads", o.Threads, 0),
		checkObjectiveFlags(cmd, o, objective),
	)
}

// checkObjectiveFlags refuses the values of the flags of the objectives,
// weights and metrics that the trainer cannot honour, and those flags
// with an objective that has no use for them.
func checkObjectiveFlags(cmd *cobra.Command, o *gbdt.Options, objective string) error {
	only := func(flag string, obj gbdt.Objective) error {
		if cmd.Flags().Changed(flag) && objective != string(obj) {
			return fmt.Errorf("--%s is for --objective %s", flag, obj)
		}
		return nil
	}
	open := func(flag string, v, lo, hi float64) error {
		if !(v > lo && v < hi) {
			return fmt.Errorf("--%s must be in (%v, %v), got %v", flag, lo, hi, v)
		}
		return nil
	}
	metric := error(nil)
	if o.EvalMetric != "" {
		if _, err := gbdt.CheckEvalMetric(o.EvalMetric, gbdt.Objective(objective)); err != nil {
			metric = errors.New(strings.Replace(err.Error(), "gbdt: EvalMetric", "--eval-metric", 1))
		}
	}
	return firstError(
		positive("scale-pos-weight", o.ScalePosWeight),
		only("scale-pos-weight", gbdt.Logistic),
		open("tweedie-variance-power", o.TweedieVariancePower, 1, 2),
		only("tweedie-variance-power", gbdt.Tweedie),
		positive("huber-slope", o.HuberSlope),
		only("huber-slope", gbdt.PseudoHuber),
		open("quantile-alpha", o.QuantileAlpha, 0, 1),
		only("quantile-alpha", gbdt.Quantile),
		metric,
	)
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

// offHint tells how to turn off a regulariser that must be > 0.
func offHint(err error) error {
	if err != nil {
		return fmt.Errorf("%v (a tiny value such as 1e-300 turns it off)", err)
	}
	return nil
}

// monotoneSyntax checks the form of --monotone, before the data gives the
// feature names.
func monotoneSyntax(cmd *cobra.Command) error {
	spec, _ := cmd.Flags().GetString("monotone")
	_, err := gbdt.ParseMonotone("--monotone", spec, nil)
	return err
}

// takeWeights returns the column --weight names of d as row weights, and d
// without it (gbdt.TakeWeights).
func takeWeights(d *data.Dataset, name string) ([]float64, *data.Dataset, error) {
	if !slices.Contains(d.Features, name) {
		return nil, nil, fmt.Errorf("%s has no column %q for --weight", d.Source, name)
	}
	return gbdt.TakeWeights(d, name)
}
