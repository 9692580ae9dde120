package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

const (
	xgbBinary = "../../testdata/xgboost/bcw_binary_d4/model.json"
	lgbBinary = "../../ir/lightgbm/testdata/binary.txt"
)

// TestImportWrongImporter: a file given to the wrong importer names the
// right one.
func TestImportWrongImporter(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"lightgbm to xgboost", []string{"import", "xgboost", lgbBinary, "-o", out},
			lgbBinary + " is a LightGBM model: import it with treegen import lightgbm " + lgbBinary + " -o " + out},
		{"xgboost to lightgbm", []string{"import", "lightgbm", "--model", xgbBinary, "-o", out},
			xgbBinary + " is an XGBoost model: import it with treegen import xgboost " + xgbBinary + " -o " + out},
		{"ubjson to lightgbm", []string{"import", "lightgbm", "../../ir/xgboost/testdata/tiny.ubj", "-o", out},
			"is an XGBoost model: import it with treegen import xgboost"},
		{"ir to lightgbm", []string{"import", "lightgbm", "../../golden/cart_binary/model.json", "-o", out},
			"is already a treegen IR model"},
		{"both forms", []string{"import", "xgboost", "--model", xgbBinary, xgbBinary, "-o", out},
			"the model is given twice, --model " + xgbBinary + " and " + xgbBinary + ": give it once"},
		{"neither", []string{"import", "xgboost", "-o", out}, "the model file is required: --model FILE (or FILE as the argument)"},
		{"two arguments", []string{"import", "xgboost", xgbBinary, xgbBinary, "-o", out}, "accepts at most 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fails(t, tt.want, tt.args...)
			if exists(out) {
				t.Fatal("a failed import wrote its output")
			}
		})
	}
}

// TestImportModelFlag: --model and the positional file give the same
// model, and the summary says "1 output".
func TestImportModelFlag(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	_, stderr := succeeds(t, "import", "xgboost", "--model", xgbBinary, "-o", a)
	if !strings.Contains(stderr, "binary, 30 features, 1 output, 50 trees") {
		t.Errorf("summary %q, want \"1 output\"", stderr)
	}
	succeeds(t, "import", "xgboost", xgbBinary, "-o", b)
	ma, mb := loadIR(t, a), loadIR(t, b)
	x, _ := ir.Marshal(ma)
	y, _ := ir.Marshal(mb)
	if string(x) != string(y) {
		t.Error("--model and the positional file import differently")
	}
	_, stderr = succeeds(t, "import", "xgboost", "--model", "../../testdata/xgboost/letter_softprob_d6/model.json", "-o", a)
	if !strings.Contains(stderr, "26 outputs") {
		t.Errorf("summary %q, want \"26 outputs\"", stderr)
	}
}

func loadIR(t *testing.T, path string) *ir.Model {
	t.Helper()
	m, err := ir.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}
