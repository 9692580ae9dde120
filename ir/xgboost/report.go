package xgboost

import "github.com/treegen/treegen/ir"

// RoundsLeftOut says, in a sentence, that the import of m kept fewer
// rounds than its file holds, because the file records the best iteration
// of early stopping: "kept the first 10 of 14 rounds: ...". It is "" when
// m, a model imported by this package or any other, kept every round.
func RoundsLeftOut(m *ir.Model) string {
	if m.Provenance == nil {
		return ""
	}
	p := m.Provenance.Params
	kept, saved, best := p["rounds_kept"], p["rounds_saved"], p["best_iteration"]
	if best == "" || kept == saved {
		return ""
	}
	return "kept the first " + kept + " of " + saved + " rounds: the file records best_iteration " + best +
		", which XGBoost's scikit-learn predict uses (--all-rounds keeps them all)"
}
