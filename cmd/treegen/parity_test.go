package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestXGBoostParityByDefault is the promise of the README, as a user keeps
// it: an XGBoost model imported, compiled and checked against XGBoost's own
// predictions, with no flag about precision. The generated package
// predicts what XGBoost predicted, bit for bit, for a binary, a multiclass
// and a regression model (testdata/xgboost holds XGBoost 1.7's outputs).
func TestXGBoostParityByDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	for _, fixture := range []string{"bcw_binary_d4", "optdigits_softprob_d5", "houses_reg_d8"} {
		t.Run(fixture, func(t *testing.T) {
			t.Parallel()
			src := filepath.Join("../../testdata/xgboost", fixture)
			dir := t.TempDir()
			model := filepath.Join(dir, "model.json")
			pkg := filepath.Join(dir, "predictor")
			succeeds(t, "import", "xgboost", filepath.Join(src, "model.json"), "-o", model)
			_, stderr := succeeds(t, "gen", "--model", model, "--out", pkg)
			if !strings.Contains(stderr, "float32") {
				t.Errorf("gen did not pick float32, the precision the XGBoost model records:\n%s", stderr)
			}
			stdout, _ := succeeds(t, "check", "--model", model, "--dir", pkg,
				"--data", filepath.Join(src, "inputs.csv"), "--expect", filepath.Join(src, "pred.csv"))
			if !strings.Contains(stdout, "ok: predictions equal") {
				t.Errorf("check --expect did not compare with XGBoost's predictions:\n%s", stdout)
			}
		})
	}
}
