package main

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestImportClassNames names the classes of imported models and picks the
// positive class; wrong counts and unknown classes are refused.
func TestImportClassNames(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	fails(t, "--class-names: 3 class names for a model of 2 classes (binary)",
		"import", "xgboost", xgbBinary, "--class-names", "a,b,c", "-o", out)
	fails(t, "--class-names: 2 class names for a model of 26 classes (multiclass)",
		"import", "xgboost", "../../testdata/xgboost/letter_softprob_d6/model.json", "--class-names", "a,b", "-o", out)
	fails(t, `--positive maybe: no class "maybe": the model's classes are "benign" and "malignant"`,
		"import", "xgboost", xgbBinary, "--class-names", "benign,malignant", "--positive", "maybe", "-o", out)
	fails(t, `--positive benign: no class "benign": the model's classes are "0" and "1"`,
		"import", "lightgbm", lgbBinary, "--positive", "benign", "-o", out)
	if exists(out) {
		t.Fatal("a failed import wrote its output")
	}

	succeeds(t, "import", "xgboost", xgbBinary, "--class-names", "benign, malignant", "-o", out)
	plain := loadIR(t, out)
	if want := []string{"benign", "malignant"}; !slices.Equal(plain.ClassNames, want) {
		t.Errorf("class names %q, want %q", plain.ClassNames, want)
	}
	succeeds(t, "import", "xgboost", xgbBinary, "--class-names", "benign,malignant", "--positive", "benign", "-o", out)
	m := loadIR(t, out)
	if want := []string{"malignant", "benign"}; !slices.Equal(m.ClassNames, want) {
		t.Errorf("class names %q, want %q", m.ClassNames, want)
	}
	if got := m.Provenance.Params["positive"]; got != "benign (--positive; the file scores malignant)" {
		t.Errorf("provenance positive = %q", got)
	}
	for i, n := range m.Trees[0].Nodes {
		if want := plain.Trees[0].Nodes[i].Value; len(want) == 1 && (len(n.Value) != 1 || n.Value[0] != -want[0]) {
			t.Errorf("node %d: leaf %v, want the negated %v", i, n.Value, want)
		}
	}
}

// TestTrainPositive: --positive of the train commands makes the named class
// the one a binary model scores.
func TestTrainPositive(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	succeeds(t, "train", "gbdt", "--data", "testdata/small.tsv", "--objective", "logistic", "--trees", "3", "-o", out)
	if got := loadIR(t, out).ClassNames; !slices.Equal(got, []string{"0", "1"}) {
		t.Fatalf("class names %q, want [0 1]", got)
	}
	succeeds(t, "train", "gbdt", "--data", "testdata/small.tsv", "--objective", "logistic", "--trees", "3", "--positive", "0", "-o", out)
	if got := loadIR(t, out).ClassNames; !slices.Equal(got, []string{"1", "0"}) {
		t.Errorf("class names %q, want [1 0]", got)
	}
	succeeds(t, "train", "cart", "--data", "testdata/small.tsv", "--positive", "0", "-o", out)
	if got := loadIR(t, out).ClassNames; !slices.Equal(got, []string{"1", "0"}) {
		t.Errorf("cart: class names %q, want [1 0]", got)
	}
	out2 := filepath.Join(dir, "m2.json")
	fails(t, `--positive 7: no class "7": the model's classes are "0" and "1"`,
		"train", "cart", "--data", "testdata/small.tsv", "--positive", "7", "-o", out2)
	if exists(out2) {
		t.Fatal("a failed train wrote its output")
	}
}
