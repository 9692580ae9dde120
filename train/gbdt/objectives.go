package gbdt

// Objectives returns the objectives Options.Objective takes, in the order
// errors list them: a fresh slice, which the caller may change.
func Objectives() []Objective {
	return []Objective{SquaredError, Logistic, Softmax, Poisson, GammaRegression, Tweedie, PseudoHuber, Quantile}
}

// EvalMetrics returns the names Options.EvalMetric takes, in the order
// errors list them: a fresh slice, which the caller may change. Each suits
// some objectives only (CheckEvalMetric says which); tweedie-nloglik also
// takes a variance power, as tweedie-nloglik@1.2.
func EvalMetrics() []string {
	return []string{"logloss", "mlogloss", "auc", "error", "merror", "rmse", "mae", "mphe", "quantile",
		"poisson-nloglik", "gamma-nloglik", "tweedie-nloglik"}
}
