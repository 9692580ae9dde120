package gbdt

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/treegen/treegen/data"
)

// objectiveList names the objectives in errors.
const objectiveList = "squarederror, logistic, softmax, poisson, gamma, tweedie, pseudohuber or quantile"

// Defaults of the objectives' options whose zero value means "the default".
const (
	DefaultTweedieVariancePower = 1.5
	DefaultHuberSlope           = 1
	DefaultQuantileAlpha        = 0.5
	// DefaultPoissonMaxDeltaStep is the poisson objective's MaxDeltaStep
	// when Options.MaxDeltaStep is 0: the offset of its hessian,
	// exp(m + offset), and the cap on its leaf values (XGBoost's).
	DefaultPoissonMaxDeltaStep = 0.7
)

// objectiveSettings are the options of the objectives, the weights and the
// evaluation metric, checked, with the defaults filled in.
type objectiveSettings struct {
	poissonDelta float64 // the offset of the poisson hessian: settings.maxDeltaStep
	rho          float64 // tweedie variance power
	slope        float64 // pseudo-Huber slope
	alpha        float64 // quantile level
	scalePos     float64 // logistic: the factor of the positive rows' weights
	metric       string  // the evaluation metric, resolved
	metricRho    float64 // the variance power of tweedie-nloglik
	weights      string  // SHA-256 of Options.Weights, "" without
	validWeights string  // SHA-256 of Options.ValidWeights, "" without
}

// isRegression reports whether obj fits a real target (not classes).
func isRegression(obj Objective) bool {
	return obj != Logistic && obj != Softmax
}

// hasExpLink reports whether obj's model predicts exp(margin).
func hasExpLink(obj Objective) bool {
	return obj == Poisson || obj == GammaRegression || obj == Tweedie
}

// defaultMetric is XGBoost's default evaluation metric of the objective
// (LightGBM's for quantile).
func defaultMetric(obj Objective, rho float64) string {
	switch obj {
	case Logistic:
		return "logloss"
	case Softmax:
		return "mlogloss"
	case Poisson:
		return "poisson-nloglik"
	case GammaRegression:
		return "gamma-nloglik"
	case Tweedie:
		return "tweedie-nloglik@" + strconv.FormatFloat(rho, 'g', -1, 64)
	case PseudoHuber:
		return "mphe"
	case Quantile:
		return "quantile"
	}
	return "rmse"
}

// objectiveSettings checks the options of the objectives, the weights and
// the metric (the objective itself is known to be valid) and fills in
// their defaults; hasValid says whether there is a validation set.
func (o Options) objectiveSettings(hasValid bool) (objectiveSettings, error) {
	s := objectiveSettings{
		rho:      o.TweedieVariancePower,
		slope:    o.HuberSlope,
		alpha:    o.QuantileAlpha,
		scalePos: o.ScalePosWeight,
	}
	if s.rho == 0 {
		s.rho = DefaultTweedieVariancePower
	}
	if s.slope == 0 {
		s.slope = DefaultHuberSlope
	}
	if s.alpha == 0 {
		s.alpha = DefaultQuantileAlpha
	}
	if s.scalePos == 0 {
		s.scalePos = 1
	}
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	switch {
	case !(s.rho > 1 && s.rho < 2):
		return s, fmt.Errorf("gbdt: TweedieVariancePower must be in (1, 2), got %v", o.TweedieVariancePower)
	case !(s.slope > 0) || !finite(s.slope):
		return s, fmt.Errorf("gbdt: HuberSlope must be a finite number > 0, got %v", o.HuberSlope)
	case !(s.alpha > 0 && s.alpha < 1):
		return s, fmt.Errorf("gbdt: QuantileAlpha must be in (0, 1), got %v", o.QuantileAlpha)
	case !(s.scalePos > 0) || !finite(s.scalePos):
		return s, fmt.Errorf("gbdt: ScalePosWeight must be a finite number > 0, got %v", o.ScalePosWeight)
	case s.scalePos != 1 && o.Objective != Logistic:
		return s, fmt.Errorf("gbdt: ScalePosWeight is for the logistic objective, not %s", o.Objective)
	case o.ValidWeights != nil && !hasValid:
		return s, fmt.Errorf("gbdt: ValidWeights without a validation set")
	}
	if err := checkWeights(o.Weights, "Weights"); err != nil {
		return s, err
	}
	if err := checkWeights(o.ValidWeights, "ValidWeights"); err != nil {
		return s, err
	}
	s.weights, s.validWeights = weightsHash(o.Weights), weightsHash(o.ValidWeights)
	metric, rho, err := resolveMetric(o.EvalMetric, o.Objective, s.rho)
	if err != nil {
		return s, err
	}
	s.metric, s.metricRho = metric, rho
	return s, nil
}

// checkWeights returns an error unless w is nil or holds finite weights
// >= 0, not all 0. name names it in errors.
func checkWeights(w []float64, name string) error {
	if w == nil {
		return nil
	}
	sum := 0.0
	for r, v := range w {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("gbdt: %s[%d] (row %d, 0-based) is %v: weights must be finite numbers >= 0", name, r, r, v)
		}
		sum += v
	}
	if !(sum > 0) {
		return fmt.Errorf("gbdt: the %d %s are all 0", len(w), name)
	}
	return nil
}

// weightsHash returns the SHA-256, in hex, of the IEEE 754 bits of w, each
// value as 8 little-endian bytes (data.Dataset.Fingerprint's hash of a data
// set whose values are w), or "" for nil.
func weightsHash(w []float64) string {
	if w == nil {
		return ""
	}
	return (&data.Dataset{X: w}).Fingerprint()["sha256"]
}

// resolveMetric checks the metric name for obj and returns its canonical
// name ("" means the objective's default; the aliases logloss/mlogloss and
// error/merror take the objective's name) and, for tweedie-nloglik, its
// variance power (rho unless the name gives one).
func resolveMetric(name string, obj Objective, rho float64) (string, float64, error) {
	if name == "" {
		return defaultMetric(obj, rho), rho, nil
	}
	bad := func(why string) (string, float64, error) {
		return "", 0, fmt.Errorf("gbdt: EvalMetric %q %s", name, why)
	}
	switch name {
	case "logloss", "mlogloss", "auc", "error", "merror":
		if isRegression(obj) {
			return bad(fmt.Sprintf("is for classification, and the %s objective is a regression", obj))
		}
		switch {
		case name == "auc":
			return name, 0, nil
		case name == "logloss" || name == "mlogloss":
			return defaultMetric(obj, rho), 0, nil
		case obj == Softmax:
			return "merror", 0, nil
		}
		return "error", 0, nil
	case "rmse", "mae", "mphe", "quantile":
		if !isRegression(obj) {
			return bad(fmt.Sprintf("is for regression, and the %s objective is a classification", obj))
		}
		return name, 0, nil
	case "poisson-nloglik", "gamma-nloglik", "tweedie-nloglik":
		if !hasExpLink(obj) {
			return bad("needs a positive prediction: the poisson, gamma or tweedie objective")
		}
		if name == "tweedie-nloglik" {
			return defaultMetric(Tweedie, rho), rho, nil
		}
		return name, 0, nil
	}
	if v, ok := strings.CutPrefix(name, "tweedie-nloglik@"); ok {
		if !hasExpLink(obj) {
			return bad("needs a positive prediction: the poisson, gamma or tweedie objective")
		}
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || !(r > 1 && r < 2) {
			return bad("has a variance power that is not a number in (1, 2)")
		}
		return defaultMetric(Tweedie, r), r, nil
	}
	return bad("is unknown (want logloss, mlogloss, auc, error, merror, rmse, mae, mphe, quantile, poisson-nloglik, gamma-nloglik, tweedie-nloglik or tweedie-nloglik@ρ)")
}

// addParams records in p, a model's provenance parameters, the options
// that differ from what the squarederror, logistic and softmax objectives
// always had, so that their models' provenance stays as it was.
func (s objectiveSettings) addParams(p map[string]string, obj Objective) {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch obj {
	case Tweedie:
		p["tweedie_variance_power"] = f(s.rho)
	case PseudoHuber:
		p["huber_slope"] = f(s.slope)
	case Quantile:
		p["quantile_alpha"] = f(s.alpha)
	}
	if s.scalePos != 1 {
		p["scale_pos_weight"] = f(s.scalePos)
	}
	if s.metric != defaultMetric(obj, s.rho) || !(obj == SquaredError || obj == Logistic || obj == Softmax) {
		p["eval_metric"] = s.metric
	}
	if s.weights != "" {
		p["weights_sha256"] = s.weights
	}
	if s.validWeights != "" {
		p["valid_weights_sha256"] = s.validWeights
	}
}

// CheckEvalMetric returns the canonical name of the evaluation metric name
// for the objective obj (the name of Options.EvalMetric's default for "",
// the objective's name for the aliases logloss/mlogloss and error/merror,
// tweedie-nloglik@1.5 for tweedie-nloglik), or an error, starting with
// "gbdt:", when obj has no such metric. obj must be a valid objective.
func CheckEvalMetric(name string, obj Objective) (string, error) {
	m, _, err := resolveMetric(name, obj, DefaultTweedieVariancePower)
	return m, err
}
