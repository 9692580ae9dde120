package gbdt

import (
	"strings"
	"testing"
)

// TestObjectives checks that Objectives lists what Options takes and what
// its errors name, in their order.
func TestObjectives(t *testing.T) {
	var names []string
	for _, obj := range Objectives() {
		if _, err := (Options{Objective: obj}).settings(false); err != nil && strings.Contains(err.Error(), "objective") {
			t.Errorf("objective %s: %v", obj, err)
		}
		names = append(names, string(obj))
	}
	if want := strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]; objectiveList != want {
		t.Errorf("errors list the objectives as %q, Objectives as %q", objectiveList, want)
	}
	o := Objectives()
	o[0] = "changed"
	if Objectives()[0] != SquaredError {
		t.Error("Objectives returns a shared slice")
	}
}

// TestEvalMetrics checks that every metric of EvalMetrics suits some
// objective, and that the error for an unknown one lists them all.
func TestEvalMetrics(t *testing.T) {
	for _, name := range EvalMetrics() {
		ok := false
		for _, obj := range Objectives() {
			if _, _, err := resolveMetric(name, obj, DefaultTweedieVariancePower); err == nil {
				ok = true
			}
		}
		if !ok {
			t.Errorf("metric %s suits no objective", name)
		}
	}
	_, _, err := resolveMetric("nope", SquaredError, DefaultTweedieVariancePower)
	if want := "(want " + strings.Join(EvalMetrics(), ", ") + " or tweedie-nloglik@ρ)"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an unknown metric: %v; want the message to list %s", err, want)
	}
}
