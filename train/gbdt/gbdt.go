package gbdt

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
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
	// DefaultMaxCatToOnehot is the default of Options.MaxCatToOnehot.
	DefaultMaxCatToOnehot = 4
)

// maxCatThreshold is the largest number of categories that a sorted
// categorical split considers on either side (XGBoost's max_cat_threshold,
// at its default).
const maxCatThreshold = 64

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
	// MaxDeltaStep, when > 0, caps the absolute value of every leaf value
	// before shrinkage (XGBoost's max_delta_step); for the poisson
	// objective it also sets the hessian's offset exp(m + MaxDeltaStep).
	// 0 means no cap, or 0.7 for both uses with the poisson objective (as
	// XGBoost's count:poisson).
	MaxDeltaStep float64
	// Alpha is the L1 penalty on leaf values (default 0): the gradient sum
	// G of a leaf or a child is shrunk towards 0 by Alpha, in its value
	// -T(G)/(H+λ) and in the gain T(G)²/(H+λ) (XGBoost's alpha).
	Alpha float64
	// Subsample is the fraction of the training rows drawn, without
	// replacement, for each round; 0 means 1 (every row).
	Subsample float64
	// ColSample is the fraction of the features drawn for each tree; 0
	// means 1 (every feature).
	ColSample float64
	// ColSampleByLevel is the fraction of the tree's features drawn for
	// each depth of the tree; 0 means 1 (XGBoost's colsample_bylevel).
	ColSampleByLevel float64
	// ColSampleByNode is the fraction of the level's features drawn for
	// each node, which scans only those for its split; 0 means 1
	// (XGBoost's colsample_bynode).
	ColSampleByNode float64
	// MonotoneConstraints, when not nil, holds per feature -1 (the
	// prediction may only fall as the feature grows), 0 (no constraint) or
	// +1 (it may only rise); features past its end are unconstrained. A
	// split on a constrained feature whose children's values break the
	// constraint is not made, and the values of a node's descendants stay
	// on its side of the mean of the two children's values, as with
	// XGBoost's monotone_constraints.
	MonotoneConstraints []int
	// Categorical holds the indices of the categorical features: their
	// values are categories, integers from 0 to ir.MaxCategory (NaN:
	// missing), at most 256 distinct ones (255 with missing values), each
	// in a bin of its own whatever MaxBins. Their splits send a set of
	// categories left (ir.Categorical nodes), as XGBoost's with
	// enable_categorical.
	Categorical []int
	// MaxCatToOnehot: a categorical feature with fewer categories than
	// this splits one category against the rest; one with more sorts the
	// categories of a node by their leaf value and splits the sorted list
	// in two. 0 means 4 (XGBoost's max_cat_to_onehot).
	MaxCatToOnehot int
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
	// Timing, if not nil, receives where the time of Train went.
	Timing *Timing

	// cl is what RegisterFlags records, nil without it.
	cl *commandLine
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

// Timing is where the time of a Train call went: Prepare before the first
// round (checking the options and the data, the targets and the weights,
// quantising the features into bins), then Boost (the rounds, and making
// and validating the model). Like XGBoost's training time, which excludes
// building its DMatrix, Boost is the figure to compare.
type Timing struct {
	Prepare, Boost time.Duration
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

	alpha          float64
	maxDeltaStep   float64
	colsampleLevel float64
	colsampleNode  float64
	// monotone[f] is the constraint of feature f, nil without any.
	monotone []int
	// categorical[f] reports whether feature f is categorical, nil without
	// categorical features.
	categorical    []bool
	maxCatToOnehot int
	// plain: no Alpha, MaxDeltaStep or constraints, so that a node's gain
	// term is G²/(H+λ) and its value -G/(H+λ).
	plain bool
	// weightGain: the gain term of a node is computed from its (capped or
	// bounded) value w as -(2Gw + (H+λ)w²), as XGBoost does with
	// max_delta_step or monotone constraints.
	weightGain bool
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

		alpha:          o.Alpha,
		maxDeltaStep:   o.MaxDeltaStep,
		colsampleLevel: o.ColSampleByLevel,
		colsampleNode:  o.ColSampleByNode,
		maxCatToOnehot: o.MaxCatToOnehot,
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
	if s.colsampleLevel == 0 {
		s.colsampleLevel = 1
	}
	if s.colsampleNode == 0 {
		s.colsampleNode = 1
	}
	if s.maxCatToOnehot == 0 {
		s.maxCatToOnehot = DefaultMaxCatToOnehot
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
	case !(s.alpha >= 0) || !finite(s.alpha):
		return s, fmt.Errorf("gbdt: Alpha must be a finite number >= 0, got %v", o.Alpha)
	case !(s.maxDeltaStep >= 0) || !finite(s.maxDeltaStep):
		return s, fmt.Errorf("gbdt: MaxDeltaStep must be a finite number >= 0, got %v", o.MaxDeltaStep)
	case !fraction(s.colsampleLevel):
		return s, fmt.Errorf("gbdt: ColSampleByLevel must be in (0, 1], got %v", o.ColSampleByLevel)
	case !fraction(s.colsampleNode):
		return s, fmt.Errorf("gbdt: ColSampleByNode must be in (0, 1], got %v", o.ColSampleByNode)
	case o.MaxCatToOnehot < 0:
		return s, fmt.Errorf("gbdt: MaxCatToOnehot is negative (%d)", o.MaxCatToOnehot)
	}
	for f, c := range o.MonotoneConstraints {
		if c < -1 || c > 1 {
			return s, fmt.Errorf("gbdt: MonotoneConstraints[%d] is %d; want -1, 0 or +1", f, c)
		}
	}
	if s.objective == Poisson && s.maxDeltaStep == 0 {
		// XGBoost's count:poisson sets max_delta_step to 0.7 for both the
		// hessian and the cap on the leaf values.
		s.maxDeltaStep = DefaultPoissonMaxDeltaStep
	}
	s.obj.poissonDelta = s.maxDeltaStep
	constrained := slices.ContainsFunc(o.MonotoneConstraints, func(c int) bool { return c != 0 })
	s.plain = s.alpha == 0 && s.maxDeltaStep == 0 && !constrained
	s.weightGain = s.maxDeltaStep > 0 || constrained
	if s.maxDepth == 0 {
		s.maxDepth = DefaultMaxDepth
		if s.maxLeaves > 0 {
			s.maxDepth = ir.MaxDepth
		}
	}
	return s, nil
}

// params records the options for the model's provenance, defaults
// resolved. Threads is left out: it does not change the model. The options
// added after the first release are recorded only when set, so that the
// models of the others stay the same.
func (s settings) params() map[string]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	m := map[string]string{
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
	if s.alpha > 0 {
		m["alpha"] = f(s.alpha)
	}
	if s.maxDeltaStep > 0 {
		m["max_delta_step"] = f(s.maxDeltaStep)
	}
	if s.colsampleLevel < 1 {
		m["colsample_bylevel"] = f(s.colsampleLevel)
	}
	if s.colsampleNode < 1 {
		m["colsample_bynode"] = f(s.colsampleNode)
	}
	if s.monotone != nil {
		m["monotone_constraints"] = tuple(s.monotone)
	}
	if s.categorical != nil {
		var cats []int
		for f, c := range s.categorical {
			if c {
				cats = append(cats, f)
			}
		}
		m["categorical"] = tuple(cats)
		m["max_cat_to_onehot"] = strconv.Itoa(s.maxCatToOnehot)
	}
	s.obj.addParams(m, s.objective)
	return m
}

// tuple writes xs as XGBoost writes its tuples: "(1,0,-1)".
func tuple(xs []int) string {
	b := []byte{'('}
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(x), 10)
	}
	return string(append(b, ')'))
}

// resolveFeatures completes s with the options that depend on the
// features of the training set d (MonotoneConstraints, Categorical), and
// checks them and the categorical features' values.
func (s *settings) resolveFeatures(o Options, d *data.Dataset) error {
	p := d.Cols
	if len(o.MonotoneConstraints) > p {
		return fmt.Errorf("gbdt: MonotoneConstraints has %d entries, the training set %d features", len(o.MonotoneConstraints), p)
	}
	for _, c := range o.MonotoneConstraints {
		if c != 0 {
			s.monotone = make([]int, p)
			copy(s.monotone, o.MonotoneConstraints)
			break
		}
	}
	if len(o.Categorical) > 0 {
		s.categorical = make([]bool, p)
	}
	for _, f := range o.Categorical {
		switch {
		case f < 0 || f >= p:
			return fmt.Errorf("gbdt: Categorical names feature %d; the training set has features 0 to %d", f, p-1)
		case s.categorical[f]:
			return fmt.Errorf("gbdt: Categorical names feature %d twice", f)
		case s.monotone != nil && s.monotone[f] != 0:
			return fmt.Errorf("gbdt: feature %d (%s) is categorical and has a monotone constraint", f, featureName(d, f))
		}
		s.categorical[f] = true
		if err := checkCategories(d, f); err != nil {
			return err
		}
	}
	return nil
}

// maxCategories is the largest number of categories of a categorical
// feature (one less with missing values): each has a bin of its own.
const maxCategories = 256

// checkCategories returns an error unless every value of feature f of d
// is NaN or a category, and there are few enough categories.
func checkCategories(d *data.Dataset, f int) error {
	seen := map[float64]bool{}
	missing := false
	for r := range d.Rows {
		v := d.At(r, f)
		if v != v {
			missing = true
			continue
		}
		if !(v >= 0 && v <= ir.MaxCategory) || v != math.Trunc(v) {
			return fmt.Errorf("gbdt: categorical feature %d (%s): row %d (0-based) has the value %v, not a category (an integer from 0 to %d)", f, featureName(d, f), r, v, ir.MaxCategory)
		}
		if !seen[v] {
			seen[v] = true
			if len(seen) > maxCategories {
				break
			}
		}
	}
	limit := maxCategories
	if missing {
		limit--
	}
	if len(seen) > limit {
		return fmt.Errorf("gbdt: categorical feature %d (%s) has more than %d categories", f, featureName(d, f), limit)
	}
	return nil
}

// featureName returns the name of feature f of d, quoted, or "unnamed".
func featureName(d *data.Dataset, f int) string {
	if f < len(d.Features) {
		return strconv.Quote(d.Features[f])
	}
	return "unnamed"
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
	if err := trainset.CheckCompact(train, "training"); err != nil {
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
