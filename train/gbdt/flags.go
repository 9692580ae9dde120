package gbdt

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/optflag"
)

// flagObjectives are the values of --objective in the order its errors
// list them: the classifiers and squared error first.
var flagObjectives = []Objective{Logistic, Softmax, SquaredError, Poisson, GammaRegression, Tweedie, PseudoHuber, Quantile}

// commandLine holds what the flags of RegisterFlags record beside the
// fields of Options: the flags given, and the values resolved once the
// data is read.
type commandLine struct {
	set                           *optflag.Set
	weight, monotone, categorical string
}

// RegisterFlags defines the flags of "treegen train gbdt" on fs, bound to
// the fields of o (--objective, --trees, --lr, --max-depth, ... --seed,
// --threads), and --weight, --monotone and --categorical, which name
// columns and which [Options.Resolve] resolves against the data. It first
// fills in the defaults of the fields left at zero, so that every flag's
// default is explicit.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	o.fillDefaults()
	cl := &commandLine{set: optflag.New(fs)}
	o.cl = cl
	s := cl.set
	s.Enum((*string)(&o.Objective), "objective", "loss: logistic (binary), softmax (multiclass), squarederror (regression), poisson (counts), gamma (positive values), tweedie (values >= 0), pseudohuber (robust regression) or quantile (--quantile-alpha)", optflag.Strings(Objectives()))
	s.String(&cl.weight, "weight", "weigh the rows by this column of the data files, which is then no feature (\"\": every row weighs 1)")
	s.Float(&o.ScalePosWeight, "scale-pos-weight", "logistic: multiply the weight of the positive rows by this")
	s.Float(&o.TweedieVariancePower, "tweedie-variance-power", "tweedie: the variance power, in (1, 2)")
	s.Float(&o.HuberSlope, "huber-slope", "pseudohuber: the slope δ of the loss")
	s.Float(&o.QuantileAlpha, "quantile-alpha", "quantile: the level α of the quantile, in (0, 1)")
	s.Enum(&o.EvalMetric, "eval-metric", "metric of early stopping and of the progress lines: logloss, mlogloss, auc, error, merror, rmse, mae, mphe, quantile, poisson-nloglik, gamma-nloglik, tweedie-nloglik[@ρ] (\"\": the objective's default)", EvalMetrics())
	s.Int(&o.Rounds, "trees", "boosting rounds (one tree per class and round for softmax)")
	s.Float(&o.LearningRate, "lr", "learning rate (shrinkage)")
	s.Int(&o.MaxDepth, "max-depth", fmt.Sprintf("maximum depth of a tree (1 to %d)", ir.MaxDepth))
	s.Int(&o.MaxLeaves, "max-leaves", "grow trees leaf-wise up to this many leaves (0: depth-wise); without --max-depth their depth is unlimited")
	s.Float(&o.MinChildWeight, "min-child-weight", "minimum hessian sum in a child")
	s.Float(&o.Lambda, "lambda", "L2 regularisation of leaf values")
	s.Float(&o.Gamma, "gamma", "minimum loss reduction of a split")
	s.Float(&o.Alpha, "alpha", "L1 regularisation of leaf values")
	s.Float(&o.MaxDeltaStep, "max-delta-step", "cap on the absolute value of every leaf value before the learning rate (0: none, or 0.7 for poisson)")
	s.Float(&o.Subsample, "subsample", "fraction of rows drawn per round")
	s.Float(&o.ColSample, "colsample", "fraction of features drawn per tree")
	s.Float(&o.ColSampleByLevel, "colsample-bylevel", "fraction of the tree's features drawn per depth")
	s.Float(&o.ColSampleByNode, "colsample-bynode", "fraction of the depth's features drawn per node")
	s.String(&cl.monotone, "monotone", `monotone constraints: "name:+1,name:-1" (the prediction only rises, or only falls, as the feature grows), or XGBoost's "(1,0,-1)" with one entry per feature`)
	s.String(&cl.categorical, "categorical", "categorical features, by name: name,name (values: integers 0 to 2147483647, at most 256 distinct)")
	s.Int(&o.MaxCatToOnehot, "max-cat-to-onehot", "a categorical feature with fewer categories splits one category against the rest, one with more a sorted partition")
	s.Int(&o.MaxBins, "max-bins", "histogram bins per feature (2 to 256)")
	s.Int(&o.EarlyStopping, "early-stopping", "stop after this many rounds without validation improvement (0: off)")
	s.Uint64(&o.Seed, "seed", "seed of the sampling and of --valid-fraction")
	s.Int(&o.Threads, "threads", "goroutines building histograms (0: all cores); never changes the model")
}

// fillDefaults sets the fields whose zero value means a default to that
// default (the seed's is 1).
func (o *Options) fillDefaults() {
	setInt := func(p *int, v int) {
		if *p == 0 {
			*p = v
		}
	}
	setFloat := func(p *float64, v float64) {
		if *p == 0 {
			*p = v
		}
	}
	setInt(&o.Rounds, DefaultRounds)
	setInt(&o.MaxDepth, DefaultMaxDepth)
	setInt(&o.MaxCatToOnehot, DefaultMaxCatToOnehot)
	setInt(&o.MaxBins, DefaultMaxBins)
	setFloat(&o.LearningRate, DefaultLearningRate)
	setFloat(&o.ScalePosWeight, 1)
	setFloat(&o.TweedieVariancePower, DefaultTweedieVariancePower)
	setFloat(&o.HuberSlope, DefaultHuberSlope)
	setFloat(&o.QuantileAlpha, DefaultQuantileAlpha)
	setFloat(&o.MinChildWeight, 1)
	setFloat(&o.Lambda, 1)
	setFloat(&o.Subsample, 1)
	setFloat(&o.ColSample, 1)
	setFloat(&o.ColSampleByLevel, 1)
	setFloat(&o.ColSampleByNode, 1)
	if o.Seed == 0 {
		o.Seed = 1
	}
}

// given reports whether the command line gave the flag.
func (o *Options) given(name string) bool {
	return o.cl != nil && o.cl.set.Given(name)
}

// Validate refuses the option values a command line may not give, naming
// the flag ("--lambda must be a finite number > 0, got 0 (a tiny value
// such as 1e-300 turns it off)"): it reads every field as RegisterFlags
// defines it, so a zero that Train would read as its default is refused
// where the flag's help gives 0 no meaning. It also refuses an objective's
// flag given with another objective, and a malformed --monotone.
func (o *Options) Validate() error {
	if o.Objective == "" {
		return fmt.Errorf("--objective is required: logistic (binary), softmax (multiclass) or squarederror (regression); for other regressions poisson, gamma, tweedie, pseudohuber or quantile")
	}
	depth := optflag.Between("max-depth", o.MaxDepth, 1, ir.MaxDepth)
	if depth != nil && o.MaxLeaves > 0 {
		depth = fmt.Errorf("%v (with --max-leaves, leave --max-depth out for trees of unlimited depth)", depth)
	}
	if o.MaxLeaves > 0 && !o.given("max-depth") {
		depth = nil
	}
	leaves := error(nil)
	if o.MaxLeaves != 0 {
		leaves = optflag.AtLeast("max-leaves", o.MaxLeaves, 2)
	}
	var monotone error
	if o.cl != nil {
		_, monotone = ParseMonotone("--monotone", o.cl.monotone, nil)
	}
	return optflag.First(
		optflag.OneOf("objective", o.Objective, flagObjectives...),
		optflag.AtLeast("trees", o.Rounds, 1),
		optflag.Positive("lr", o.LearningRate),
		depth,
		leaves,
		offHint(optflag.Positive("min-child-weight", o.MinChildWeight)),
		offHint(optflag.Positive("lambda", o.Lambda)),
		optflag.NonNegative("gamma", o.Gamma),
		optflag.NonNegative("alpha", o.Alpha),
		optflag.NonNegative("max-delta-step", o.MaxDeltaStep),
		optflag.Fraction("subsample", o.Subsample),
		optflag.Fraction("colsample", o.ColSample),
		optflag.Fraction("colsample-bylevel", o.ColSampleByLevel),
		optflag.Fraction("colsample-bynode", o.ColSampleByNode),
		monotone,
		optflag.AtLeast("max-cat-to-onehot", o.MaxCatToOnehot, 1),
		optflag.Between("max-bins", o.MaxBins, 2, 256),
		optflag.AtLeast("early-stopping", o.EarlyStopping, 0),
		optflag.AtLeast("threads", o.Threads, 0),
		o.validateObjectiveFlags(),
	)
}

// validateObjectiveFlags refuses the values of the flags of the
// objectives, weights and metrics that Train cannot honour, and those
// flags with an objective that has no use for them.
func (o *Options) validateObjectiveFlags() error {
	only := func(flag string, obj Objective) error {
		if o.given(flag) && o.Objective != obj {
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
		if _, err := CheckEvalMetric(o.EvalMetric, o.Objective); err != nil {
			metric = errors.New(strings.Replace(err.Error(), "gbdt: EvalMetric", "--eval-metric", 1))
		}
	}
	return optflag.First(
		optflag.Positive("scale-pos-weight", o.ScalePosWeight),
		only("scale-pos-weight", Logistic),
		open("tweedie-variance-power", o.TweedieVariancePower, 1, 2),
		only("tweedie-variance-power", Tweedie),
		optflag.Positive("huber-slope", o.HuberSlope),
		only("huber-slope", PseudoHuber),
		open("quantile-alpha", o.QuantileAlpha, 0, 1),
		only("quantile-alpha", Quantile),
		metric,
	)
}

// offHint tells how to turn off a regulariser that must be > 0.
func offHint(err error) error {
	if err != nil {
		return fmt.Errorf("%v (a tiny value such as 1e-300 turns it off)", err)
	}
	return nil
}

// WeightColumn returns the column that --weight names ("": none).
func (o *Options) WeightColumn() string {
	if o.cl == nil {
		return ""
	}
	return o.cl.weight
}

// Weigh returns d without the column that --weight names, and that
// column's values as row weights (TakeWeights); d and nil without
// --weight. It names d's file and the flag when d has no such column.
func (o *Options) Weigh(d *data.Dataset) (*data.Dataset, []float64, error) {
	name := o.WeightColumn()
	if name == "" {
		return d, nil, nil
	}
	if !slices.Contains(d.Features, name) {
		return nil, nil, fmt.Errorf("%s has no column %q for --weight", d.Source, name)
	}
	w, out, err := TakeWeights(d, name)
	return out, w, err
}

// Resolve readies the options for Train once the data is read: train and
// valid (nil: none) lose the --weight column, which becomes Weights and
// ValidWeights; --monotone and --categorical become MonotoneConstraints
// and Categorical by the names of train's features; and with --max-leaves
// but no --max-depth, the depth of the trees is unlimited. It returns the
// data sets to train on.
func (o *Options) Resolve(train, valid *data.Dataset) (*data.Dataset, *data.Dataset, error) {
	if o.MaxLeaves > 0 && !o.given("max-depth") {
		o.MaxDepth = 0 // leaf-wise growth is limited by --max-leaves alone
	}
	var err error
	if train, o.Weights, err = o.Weigh(train); err != nil {
		return nil, nil, err
	}
	if valid != nil {
		if valid, o.ValidWeights, err = o.Weigh(valid); err != nil {
			return nil, nil, err
		}
	}
	if o.cl != nil {
		if o.MonotoneConstraints, err = ParseMonotone("--monotone", o.cl.monotone, train.Features); err != nil {
			return nil, nil, err
		}
		if o.Categorical, err = FeatureIndices("--categorical", o.cl.categorical, train.Features); err != nil {
			return nil, nil, err
		}
	}
	return train, valid, nil
}
