package gbdt

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/trainset"
)

// Objective is the loss the ensemble minimises; it also fixes the task and
// the link of the model.
type Objective string

// Objectives.
const (
	// SquaredError is regression: loss (m-y)²/2, identity link.
	SquaredError Objective = "squarederror"
	// Logistic is binary classification: log-loss, sigmoid link.
	Logistic Objective = "logistic"
	// Softmax is multiclass classification: multinomial log-loss, one tree
	// per class and round, softmax link.
	Softmax Objective = "softmax"
	// Poisson is regression of counts (XGBoost's count:poisson): the
	// Poisson negative log-likelihood of the mean exp(m), exp link. The
	// targets must be >= 0.
	Poisson Objective = "poisson"
	// GammaRegression is regression of positive values (XGBoost's
	// reg:gamma): the gamma negative log-likelihood of the mean exp(m), exp
	// link. The targets must be > 0.
	GammaRegression Objective = "gamma"
	// Tweedie is regression of values >= 0 with a mass at 0 (XGBoost's
	// reg:tweedie): the Tweedie negative log-likelihood of the mean exp(m)
	// with variance power Options.TweedieVariancePower, exp link.
	Tweedie Objective = "tweedie"
	// PseudoHuber is robust regression (XGBoost's reg:pseudohubererror):
	// loss δ²(√(1+((m-y)/δ)²) - 1) with δ = Options.HuberSlope, identity
	// link.
	PseudoHuber Objective = "pseudohuber"
	// Quantile is quantile regression (LightGBM's quantile): the pinball
	// loss of level Options.QuantileAlpha, identity link; after each tree
	// is grown its leaves are refitted to the quantile of their rows'
	// residuals.
	Quantile Objective = "quantile"
)

// Producer is the Provenance.Producer of the models Train returns.
const Producer = "treegen train gbdt"

// Defaults of the options whose zero value means "the default".
const (
	DefaultRounds       = 100
	DefaultLearningRate = 0.3
	DefaultMaxDepth     = 6
	DefaultMaxBins      = 256
)

// Options control Train. Objective is required; every other zero value
// means the default named in its comment.
type Options struct {
	// Objective is the loss: SquaredError, Logistic, Softmax, Poisson,
	// GammaRegression, Tweedie, PseudoHuber or Quantile. Required.
	Objective Objective
	// TweedieVariancePower is the variance power ρ of Tweedie, in (1, 2); 0
	// means 1.5 (XGBoost's tweedie_variance_power).
	TweedieVariancePower float64
	// HuberSlope is the slope δ of PseudoHuber, > 0; 0 means 1 (XGBoost's
	// huber_slope).
	HuberSlope float64
	// QuantileAlpha is the level α of Quantile, in (0, 1); 0 means 0.5
	// (LightGBM's alpha).
	QuantileAlpha float64
	// ScalePosWeight multiplies the weight of the positive rows (the second
	// class) in the gradients of Logistic, and is refused by the other
	// objectives; 0 means 1 (XGBoost's scale_pos_weight).
	ScalePosWeight float64
	// Weights, if not nil, are the weights of the training rows, one per
	// row, finite, >= 0 and not all 0: they multiply every row's gradient
	// and hessian, and weigh the base score and the training metrics.
	Weights []float64
	// ValidWeights, if not nil, are the weights of the validation rows
	// (as Weights), which weigh the validation metrics. It needs a
	// validation set.
	ValidWeights []float64
	// Rounds is the number of boosting rounds; 0 means 100. Softmax grows
	// one tree per class in every round.
	Rounds int
	// LearningRate is the shrinkage η that multiplies every leaf value; 0
	// means 0.3 (XGBoost's default).
	LearningRate float64
	// MaxDepth is the maximum depth of a tree (the root has depth 0). 0
	// means 6, or unlimited (up to ir.MaxDepth) when MaxLeaves > 0.
	MaxDepth int
	// MaxLeaves, when > 0, grows the trees leaf-wise (best first, XGBoost's
	// "lossguide") up to this many leaves; 0 grows them depth-wise, level
	// by level, to MaxDepth. It must not be 1.
	MaxLeaves int
	// MinChildWeight is the minimum hessian sum of each child of a split;
	// 0 means 1. (A tiny positive value such as 1e-300 turns the limit off
	// while every child still needs one row.)
	MinChildWeight float64
	// Lambda is the L2 penalty on leaf values; 0 means 1. (A tiny positive
	// value such as 1e-300 leaves every sum H+λ unchanged, i.e. no penalty.)
	Lambda float64
	// Gamma is the minimum loss reduction of a split, in the units of the
	// gain formula in the package documentation (default 0).
	Gamma float64
	// MaxDeltaStep, when > 0, caps the absolute value of every leaf value before shrinkage (XGBoost's max_delta_step); for the poisson objective it also sets the hessian's offset, 0.7 when 0.
	MaxDeltaStep float64
	// Subsample is the fraction of the training rows drawn, without
	// replacement, for each round; 0 means 1 (every row).
	Subsample float64
	// ColSample is the fraction of the features drawn for each tree; 0
	// means 1 (every feature).
	ColSample float64
	// MaxBins is the number of quantile bins per feature, 2 to 256; 0
	// means 256. A feature with missing values has at most 255 bins for its
	// present values (its missing values take a bin of their own).
	MaxBins int
	// EarlyStopping, when > 0, stops training after this many rounds
	// without an improvement of the validation loss and keeps the trees of
	// the best round only. It needs a validation set.
	EarlyStopping int
	// EvalMetric is the validation metric of early stopping and of
	// RoundInfo.Metric: logloss, mlogloss, auc, error, merror, rmse, mae,
	// mphe, quantile, poisson-nloglik, gamma-nloglik, tweedie-nloglik or
	// tweedie-nloglik@ρ. "" means the objective's default (XGBoost's):
	// logloss, mlogloss, rmse, poisson-nloglik, gamma-nloglik,
	// tweedie-nloglik@ρ, mphe and quantile, in the order of the
	// objectives. Early stopping maximises auc and minimises the others.
	EvalMetric string
	// Seed seeds the row and column sampling.
	Seed uint64
	// Threads is the number of goroutines that build histograms; 0 means
	// runtime.GOMAXPROCS(0). It never changes the model.
	Threads int
	// Name is the model's name (ir.Model.Name).
	Name string
	// OnRound, if not nil, is called after every round, from the goroutine
	// that called Train.
	OnRound func(RoundInfo)
}

// RoundInfo reports on one boosting round.
type RoundInfo struct {
	Round  int // 1-based
	Rounds int // the number of rounds asked for
	// TrainLoss and ValidLoss are the mean loss on the training and the
	// validation rows after this round: log-loss for Logistic and Softmax,
	// mean squared error for SquaredError, and the default metric of the
	// other objectives (see EvalMetric), weighted when there are weights.
	// ValidLoss is NaN without a validation set.
	TrainLoss, ValidLoss float64
	// ValidAUC is the validation AUC (macro one-vs-rest for Softmax), NaN
	// for the regression objectives or without a validation set.
	ValidAUC float64
	// Metric is the name of the evaluation metric (Options.EvalMetric, or
	// the objective's default), and TrainMetric and ValidMetric its values
	// on the training and the validation rows after this round (ValidMetric
	// is NaN without a validation set).
	Metric                   string
	TrainMetric, ValidMetric float64
	// Elapsed is the time since Train started.
	Elapsed time.Duration
}

// settings are Options with the defaults filled in.
type settings struct {
	objective     Objective
	rounds        int
	eta           float64
	maxDepth      int // effective limit, 1..ir.MaxDepth
	maxLeaves     int // 0: depth-wise
	minChild      float64
	lambda        float64
	gamma         float64
	subsample     float64
	colsample     float64
	maxBins       int
	earlyStopping int
	seed          uint64
	threads       int
	obj           objectiveSettings // the objectives', weights' and metrics' options
}

func (o Options) settings(hasValid bool) (settings, error) {
	s := settings{
		objective:     o.Objective,
		rounds:        o.Rounds,
		eta:           o.LearningRate,
		maxDepth:      o.MaxDepth,
		maxLeaves:     o.MaxLeaves,
		minChild:      o.MinChildWeight,
		lambda:        o.Lambda,
		gamma:         o.Gamma,
		subsample:     o.Subsample,
		colsample:     o.ColSample,
		maxBins:       o.MaxBins,
		earlyStopping: o.EarlyStopping,
		seed:          o.Seed,
		threads:       o.Threads,
	}
	switch o.Objective {
	case SquaredError, Logistic, Softmax:
	case Poisson, GammaRegression, Tweedie, PseudoHuber, Quantile:
	case "":
		return s, errors.New("gbdt: no objective: set Options.Objective to " + objectiveList)
	default:
		return s, fmt.Errorf("gbdt: unknown objective %q (want %s)", o.Objective, objectiveList)
	}
	obj, err := o.objectiveSettings(hasValid)
	if err != nil {
		return s, err
	}
	s.obj = obj
	if s.rounds == 0 {
		s.rounds = DefaultRounds
	}
	if s.eta == 0 {
		s.eta = DefaultLearningRate
	}
	if s.maxBins == 0 {
		s.maxBins = DefaultMaxBins
	}
	if s.minChild == 0 {
		s.minChild = 1
	}
	if s.lambda == 0 {
		s.lambda = 1
	}
	if s.subsample == 0 {
		s.subsample = 1
	}
	if s.colsample == 0 {
		s.colsample = 1
	}
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	fraction := func(v float64) bool { return v > 0 && v <= 1 }
	switch {
	case s.rounds < 1:
		return s, fmt.Errorf("gbdt: Rounds must be at least 1, got %d", o.Rounds)
	case !(s.eta > 0) || !finite(s.eta):
		return s, fmt.Errorf("gbdt: LearningRate must be a finite number > 0, got %v", o.LearningRate)
	case o.MaxDepth < 0:
		return s, fmt.Errorf("gbdt: MaxDepth is negative (%d)", o.MaxDepth)
	case o.MaxDepth > ir.MaxDepth:
		return s, fmt.Errorf("gbdt: MaxDepth %d is deeper than the IR allows (%d)", o.MaxDepth, ir.MaxDepth)
	case o.MaxLeaves < 0 || o.MaxLeaves == 1:
		return s, fmt.Errorf("gbdt: MaxLeaves must be 0 (depth-wise growth) or at least 2, got %d", o.MaxLeaves)
	case !(s.minChild >= 0) || !finite(s.minChild):
		return s, fmt.Errorf("gbdt: MinChildWeight must be a finite number >= 0, got %v", o.MinChildWeight)
	case !(s.lambda >= 0) || !finite(s.lambda):
		return s, fmt.Errorf("gbdt: Lambda must be a finite number >= 0, got %v", o.Lambda)
	case !(s.gamma >= 0) || !finite(s.gamma):
		return s, fmt.Errorf("gbdt: Gamma must be a finite number >= 0, got %v", o.Gamma)
	case !fraction(s.subsample):
		return s, fmt.Errorf("gbdt: Subsample must be in (0, 1], got %v", o.Subsample)
	case !fraction(s.colsample):
		return s, fmt.Errorf("gbdt: ColSample must be in (0, 1], got %v", o.ColSample)
	case s.maxBins < 2 || s.maxBins > 256:
		return s, fmt.Errorf("gbdt: MaxBins must be between 2 and 256, got %d", o.MaxBins)
	case o.EarlyStopping < 0:
		return s, fmt.Errorf("gbdt: EarlyStopping is negative (%d)", o.EarlyStopping)
	case o.EarlyStopping > 0 && !hasValid:
		return s, errors.New("gbdt: EarlyStopping needs a validation set")
	case o.Threads < 0:
		return s, fmt.Errorf("gbdt: Threads is negative (%d)", o.Threads)
	}
	if s.maxDepth == 0 {
		s.maxDepth = DefaultMaxDepth
		if s.maxLeaves > 0 {
			s.maxDepth = ir.MaxDepth
		}
	}
	return s, nil
}

// params records the options for the model's provenance, defaults
// resolved. Threads is left out: it does not change the model.
func (s settings) params() map[string]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	p := map[string]string{
		"objective":        string(s.objective),
		"rounds":           strconv.Itoa(s.rounds),
		"learning_rate":    f(s.eta),
		"max_depth":        strconv.Itoa(s.maxDepth),
		"max_leaves":       strconv.Itoa(s.maxLeaves),
		"min_child_weight": f(s.minChild),
		"lambda":           f(s.lambda),
		"gamma":            f(s.gamma),
		"subsample":        f(s.subsample),
		"colsample":        f(s.colsample),
		"max_bins":         strconv.Itoa(s.maxBins),
		"early_stopping":   strconv.Itoa(s.earlyStopping),
		"seed":             strconv.FormatUint(s.seed, 10),
	}
	s.obj.addParams(p, s.objective)
	return p
}

// Train boosts trees on train, watching valid (which may be nil) for
// OnRound and early stopping, and returns the ensemble as a validated
// model (see the package documentation for its form).
//
// Train does not modify its data sets. It fails, with an error that starts
// with "gbdt:", when train has no rows, no features or no target, when a
// target value is NaN or infinite, when Logistic does not see exactly two
// classes or Softmax a single one, when SquaredError meets a target of
// text labels, when valid has other columns than train or a class train
// lacks (classes are matched by data.Dataset.LabelName), and when an
// option is invalid.
func Train(train, valid *data.Dataset, opts Options) (*ir.Model, error) {
	r, err := boost(train, valid, opts)
	if err != nil {
		return nil, err
	}
	return r.model, nil
}

// checkData returns an error unless train, and valid when not nil, are
// well-formed data sets with finite targets, valid has the columns of
// train, and both have few enough rows for this trainer's int32 indices.
func checkData(train, valid *data.Dataset) error {
	if err := trainset.Check(train, "training"); err != nil {
		return fmt.Errorf("gbdt: %w", err)
	}
	if valid != nil {
		if err := trainset.CheckValid(train, valid); err != nil {
			return fmt.Errorf("gbdt: %w", err)
		}
	}
	for _, d := range []*data.Dataset{train, valid} {
		if d != nil && d.Rows > math.MaxInt32 {
			return fmt.Errorf("gbdt: %d rows are more than the %d this trainer handles", d.Rows, math.MaxInt32)
		}
	}
	return nil
}
