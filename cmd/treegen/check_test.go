package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCheckExpectXGBoost: check --expect compares a package with
// XGBoost's own predictions, pred.csv of a fixture, which has no header
// line (its first line is a row, never skipped) and, for multi:softmax,
// holds class ids; a float64 package is told that the file looks float32.
func TestCheckExpectXGBoost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	tests := []struct {
		fixture   string
		precision string
		out       string // in stdout on success
		err       string // in stderr on failure
	}{
		{"bcw_binary_d4", "float32", "ok: predictions equal " + filepath.Join("..", "..", "testdata", "xgboost", "bcw_binary_d4", "pred.csv") + " on 171 rows\n", ""},
		{"bcw_binary_d4", "float64", "", "row 0: prediction[0] = 0.9993081226205147 (generated), 0.999308109 (" +
			filepath.Join("..", "..", "testdata", "xgboost", "bcw_binary_d4", "pred.csv") +
			"); row 1: prediction[0] = 0.9994448564285962 (generated), 0.999444902 (" +
			filepath.Join("..", "..", "testdata", "xgboost", "bcw_binary_d4", "pred.csv") +
			"); row 2: prediction[0] = 0.19666024843976698 (generated), 0.19666025 (" +
			filepath.Join("..", "..", "testdata", "xgboost", "bcw_binary_d4", "pred.csv") +
			"); and 168 more; the package is float64 and the expected values look float32: regenerate it with --precision float32\n"},
		{"satimage_softmax_d5", "float32", "ok: predicted classes equal " + filepath.Join("..", "..", "testdata", "xgboost", "satimage_softmax_d5", "pred.csv") + " on 1930 rows (it holds one class id per row)\n", ""},
	}
	for _, tc := range tests {
		t.Run(tc.fixture+"/"+tc.precision, func(t *testing.T) {
			fixture := filepath.Join("..", "..", "testdata", "xgboost", tc.fixture)
			dir := t.TempDir()
			model := filepath.Join(dir, "model.json")
			succeeds(t, "import", "xgboost", filepath.Join(fixture, "model.json"), "-o", model)
			pkg := filepath.Join(dir, "fixture")
			succeeds(t, "gen", "--model", model, "--out", pkg, "--precision", tc.precision)
			args := []string{"check", "--model", model, "--dir", pkg, "--data", filepath.Join(fixture, "inputs.csv"), "--expect", filepath.Join(fixture, "pred.csv")}
			if tc.err != "" {
				fails(t, tc.err, args...)
				return
			}
			out, _ := succeeds(t, args...)
			if !strings.HasSuffix(out, tc.out) {
				t.Errorf("check:\n%s\nwant the end\n%s", out, tc.out)
			}
		})
	}
}

// TestRecordedPrecision: predict computes in the precision the model
// records, float32 for an XGBoost import, and so writes XGBoost's own
// predictions without --precision; --precision float64 overrides it.
func TestRecordedPrecision(t *testing.T) {
	fixture := filepath.Join("..", "..", "testdata", "xgboost", "bcw_binary_d4")
	model := filepath.Join(t.TempDir(), "model.json")
	succeeds(t, "import", "xgboost", filepath.Join(fixture, "model.json"), "-o", model)
	want, err := os.ReadFile(filepath.Join(fixture, "pred.csv"))
	if err != nil {
		t.Fatal(err)
	}
	wants := strings.Fields(string(want))
	tests := []struct {
		args  []string
		equal bool
	}{
		{nil, true},
		{[]string{"--precision", "float32"}, true},
		{[]string{"--precision", "float64"}, false},
	}
	for _, tc := range tests {
		out, _ := succeeds(t, append([]string{"predict", "--model", model, "--data", filepath.Join(fixture, "inputs.csv")}, tc.args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")[1:]
		if len(lines) != len(wants) {
			t.Fatalf("%v: %d rows, want %d", tc.args, len(lines), len(wants))
		}
		equal := true
		for i, line := range lines {
			got, _ := strconv.ParseFloat(strings.Split(line, ",")[0], 32)
			w, _ := strconv.ParseFloat(wants[i], 32)
			equal = equal && got == w
		}
		if equal != tc.equal {
			t.Errorf("%v: predictions equal XGBoost's: %v, want %v", tc.args, equal, tc.equal)
		}
	}
}
