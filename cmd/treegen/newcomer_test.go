package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

// fails runs treegen and requires a non-zero exit with one line on stderr
// that contains want.
func fails(t *testing.T, want string, args ...string) {
	t.Helper()
	code, _, stderr := treegen(t, args...)
	if code == 0 || !strings.HasPrefix(stderr, "treegen: ") || !strings.Contains(stderr, want) || strings.Count(stderr, "\n") != 1 {
		t.Fatalf("treegen %s: exit %d, stderr %q; want one line containing %q", strings.Join(args, " "), code, stderr, want)
	}
}

// succeeds runs treegen and requires exit 0; it returns stdout and stderr.
func succeeds(t *testing.T, args ...string) (string, string) {
	t.Helper()
	code, stdout, stderr := treegen(t, args...)
	if code != 0 {
		t.Fatalf("treegen %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return stdout, stderr
}

// writeFile writes content to name in dir and returns its path.
func writeFile(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestFlagValues: a flag value the command cannot honour is refused with the
// flag's name; none is silently replaced by a default.
func TestFlagValues(t *testing.T) {
	out := filepath.Join(t.TempDir(), "m.json")
	data := []string{"--data", "testdata/small.tsv", "-o", out}
	gbdt := append([]string{"train", "gbdt", "--objective", "logistic"}, data...)
	cart := append([]string{"train", "cart"}, data...)
	tel := append([]string{"train", "tel", "--quiet"}, data...)
	tests := []struct {
		base []string
		flag string
		want string
	}{
		{gbdt, "--trees=0", "--trees must be at least 1, got 0"},
		{gbdt, "--lr=0", "--lr must be a finite number > 0, got 0"},
		{gbdt, "--lr=-1", "--lr must be a finite number > 0, got -1"},
		{gbdt, "--subsample=0", "--subsample must be in (0, 1], got 0"},
		{gbdt, "--colsample=0", "--colsample must be in (0, 1], got 0"},
		{gbdt, "--colsample=1.5", "--colsample must be in (0, 1], got 1.5"},
		{gbdt, "--max-depth=0", "--max-depth must be between 1 and 100, got 0"},
		{gbdt, "--max-leaves=1", "--max-leaves must be at least 2, got 1"},
		{gbdt, "--lambda=0", "--lambda must be a finite number > 0, got 0 (a tiny value such as 1e-300 turns it off)"},
		{gbdt, "--min-child-weight=0", "--min-child-weight must be a finite number > 0"},
		{gbdt, "--gamma=-1", "--gamma must be a finite number >= 0, got -1"},
		{gbdt, "--max-bins=1", "--max-bins must be between 2 and 256, got 1"},
		{gbdt, "--early-stopping=-1", "--early-stopping must be at least 0, got -1"},
		{gbdt, "--threads=-2", "--threads must be at least 0, got -2"},
		{gbdt, "--objective=hinge", `--objective must be logistic, softmax, squarederror, poisson, gamma, tweedie, pseudohuber or quantile, got "hinge"`},
		{gbdt, "--scale-pos-weight=0", "--scale-pos-weight must be a finite number > 0, got 0"},
		{gbdt, "--tweedie-variance-power=2", "--tweedie-variance-power must be in (1, 2), got 2"},
		{gbdt, "--tweedie-variance-power=1.2", "--tweedie-variance-power is for --objective tweedie"},
		{gbdt, "--huber-slope=-1", "--huber-slope must be a finite number > 0, got -1"},
		{gbdt, "--huber-slope=2", "--huber-slope is for --objective pseudohuber"},
		{gbdt, "--quantile-alpha=1", "--quantile-alpha must be in (0, 1), got 1"},
		{gbdt, "--quantile-alpha=0.2", "--quantile-alpha is for --objective quantile"},
		{gbdt, "--eval-metric=rmse", `--eval-metric "rmse" is for regression, and the logistic objective is a classification`},
		{gbdt, "--eval-metric=f1", `--eval-metric "f1" is unknown`},
		{gbdt, "--weight=target", `--weight names the target column "target"`},
		{gbdt, "--weight=nosuch", `testdata/small.tsv has no column "nosuch" for --weight`},
		{gbdt, "--alpha=-1", "--alpha must be a finite number >= 0, got -1"},
		{gbdt, "--max-delta-step=-0.5", "--max-delta-step must be a finite number >= 0, got -0.5"},
		{gbdt, "--colsample-bylevel=0", "--colsample-bylevel must be in (0, 1], got 0"},
		{gbdt, "--colsample-bynode=2", "--colsample-bynode must be in (0, 1], got 2"},
		{gbdt, "--max-cat-to-onehot=0", "--max-cat-to-onehot must be at least 1, got 0"},
		{gbdt, "--monotone=a:2", `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got "a:2"`},
		{gbdt, "--monotone=(1,up)", `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got "(1,up)"`},
		{gbdt, "--monotone=z:+1", `--monotone names the feature "z", which the data lacks (its features: a, b)`},
		{gbdt, "--monotone=(1,0,1)", "gbdt: MonotoneConstraints has 3 entries, the training set 2 features"},
		{gbdt, "--categorical=a,z", `--categorical names the feature "z", which the data lacks (its features: a, b)`},
		{cart, "--max-depth=-1", "--max-depth must be between 0 and 100, got -1"},
		{cart, "--min-samples-split=1", "--min-samples-split must be at least 2, got 1"},
		{cart, "--min-samples-leaf=0", "--min-samples-leaf must be at least 1, got 0"},
		{cart, "--min-impurity-decrease=-0.5", "--min-impurity-decrease must be a finite number >= 0, got -0.5"},
		{cart, "--criterion=gain", `--criterion must be gini, entropy or mse, got "gain"`},
		{tel, "--trees=0", "--trees must be at least 1, got 0"},
		{tel, "--depth=0", "--depth must be between 1 and 20, got 0"},
		{tel, "--gamma=0", "--gamma must be a finite number > 0, got 0"},
		{tel, "--epochs=0", "--epochs must be at least 1, got 0"},
		{tel, "--batch=0", "--batch must be at least 1, got 0"},
		{tel, "--lr=0", "--lr must be a finite number > 0, got 0"},
		{tel, "--l2=-1", "--l2 must be a finite number >= 0, got -1"},
		{tel, "--loss=hinge", `--loss must be logistic, softmax or squarederror, got "hinge"`},
		{[]string{"predict", "--model", "../../golden/soft/model.json", "--data", "../../golden/soft/inputs.csv"}, "--iterations=-1", "--iterations must be at least 1"},
		{[]string{"import", "lightgbm", "../../ir/lightgbm/testdata/binary.txt", "-o", out}, "--link=tanh", `--link must be identity, sigmoid, softmax or exp, got "tanh"`},
	}
	for _, tc := range tests {
		t.Run(tc.base[0]+" "+tc.base[1]+" "+tc.flag, func(t *testing.T) {
			fails(t, tc.want, append(append([]string{}, tc.base...), tc.flag)...)
			if exists(out) {
				t.Fatal("a refused command wrote its output")
			}
		})
	}
	// The values that mean something special say so in their help.
	help, _ := succeeds(t, "train", "cart", "--help")
	if !strings.Contains(help, "(0: unlimited)") {
		t.Errorf("train cart --help does not say what --max-depth 0 means:\n%s", help)
	}
}

// TestOneClassTEL: tel refuses a target with one value instead of fitting a
// regression to it, as cart and gbdt refuse it.
func TestOneClassTEL(t *testing.T) {
	dir := t.TempDir()
	data := writeFile(t, dir, "one.csv", "a,b,target\n1,2,1\n3,4,1\n5,6,1\n")
	fails(t, "the target has a single value (1) in all 3 rows: nothing to learn",
		"train", "tel", "--quiet", "--data", data, "-o", filepath.Join(dir, "m.json"))
}

// labelled is a CSV whose class labels are text, in an order that is not
// sorted, and some rows of it with a target column of anything.
const (
	labelled = "radius,texture,target\n1,5,M\n2,6,M\n3,4,B\n8,1,B\n9,2,B\n1.5,5.5,M\n7,3,B\n2.5,4.5,M\nNA,1,B\n"
	unread   = "radius,texture,target\n1,5,?\n8,1,\n9,2,whatever\n"
)

// TestTextLabels: text class labels train, evaluate and predict, and
// predict never reads a target column.
func TestTextLabels(t *testing.T) {
	dir := t.TempDir()
	train := writeFile(t, dir, "bcw.csv", labelled)
	model := filepath.Join(dir, "m.json")
	_, stderr := succeeds(t, "train", "cart", "--data", train, "-o", model)
	if !strings.Contains(stderr, "accuracy 1.0000") {
		t.Errorf("train: %s", stderr)
	}
	m, err := ir.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.ClassNames, ",") != "B,M" {
		t.Errorf("class names %q, want B, M (sorted)", m.ClassNames)
	}
	out, _ := succeeds(t, "eval", "--model", model, "--data", train)
	if !strings.Contains(out, "accuracy  1") {
		t.Errorf("eval:\n%s", out)
	}
	out, _ = succeeds(t, "predict", "--model", model, "--data", writeFile(t, dir, "new.csv", unread))
	if want := "p_M,class\n1,M\n0,B\n0,B\n"; out != want {
		t.Errorf("predict wrote\n%s\nwant\n%s", out, want)
	}
	// A test file with a class the model does not know.
	fails(t, `target X is not a class of the model (classes: [B M])`,
		"eval", "--model", model, "--data", writeFile(t, dir, "x.csv", "radius,texture,target\n1,5,X\n"))
	for _, loss := range []string{"", "--loss=softmax"} {
		args := []string{"train", "tel", "--quiet", "--impute", "--epochs", "2", "--data", train, "-o", filepath.Join(dir, "tel.json")}
		if loss != "" {
			args = append(args, loss)
		}
		succeeds(t, args...)
	}
	fails(t, "holds text labels", "train", "gbdt", "--objective", "squarederror", "--data", train, "-o", filepath.Join(dir, "r.json"))
}

// TestLibSVM: a model trained on a CSV scores a LibSVM file by position;
// absent entries, 0-based indices and the XGBoost warning.
func TestLibSVM(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	succeeds(t, "train", "cart", "--data", writeFile(t, dir, "train.csv", labelled), "-o", model)
	// Row 2 has no radius: 0 by default (class M), missing on request.
	svm := writeFile(t, dir, "rows.libsvm", "0 1:8 2:1\n0 2:5\n")
	out, _ := succeeds(t, "predict", "--model", model, "--data", svm)
	if want := "p_M,class\n0,B\n1,M\n"; out != want {
		t.Errorf("predict LibSVM wrote\n%s\nwant\n%s", out, want)
	}
	missing, _ := succeeds(t, "predict", "--model", model, "--data", svm, "--libsvm-absent", "missing")
	if missing == out {
		t.Errorf("--libsvm-absent missing changed nothing:\n%s", out)
	}
	// The same rows 0-based, found by the index 0 or forced by the flag.
	zero := writeFile(t, dir, "zero.libsvm", "0 0:8 1:1\n0 1:5\n")
	if got, _ := succeeds(t, "predict", "--model", model, "--data", zero); got != out {
		t.Errorf("0-based file: %s, want %s", got, out)
	}
	fails(t, "index 0 in a 1-based file", "predict", "--model", model, "--data", zero, "--libsvm-base", "1")
	fails(t, `--libsvm-base: unknown index base "2"`, "predict", "--model", model, "--data", zero, "--libsvm-base", "2")
	// A LibSVM file with more features than the model.
	fails(t, "has feature indices up to f3, the model has 2 features", "predict", "--model", model, "--data", writeFile(t, dir, "wide.libsvm", "0 3:1\n"))

	// A CSV whose columns have other names: refused, unless --by-position.
	renamed := writeFile(t, dir, "renamed.csv", "x1,x2\n8,1\n1,5\n")
	fails(t, `no columns "radius", "texture"; columns are: x1, x2 (--by-position matches columns by position)`, "predict", "--model", model, "--data", renamed)
	if got, _ := succeeds(t, "predict", "--model", model, "--data", renamed, "--by-position"); got != out {
		t.Errorf("--by-position: %s, want %s", got, out)
	}

	// A model imported from XGBoost warns that LibSVM zeros are not its
	// missing values.
	xgb := filepath.Join(dir, "xgb.json")
	succeeds(t, "import", "xgboost", "../../testdata/xgboost/bcw_binary_d4/model.json", "-o", xgb)
	wide := writeFile(t, dir, "bcw.libsvm", "1 1:17.99 30:0.1189\n")
	_, stderr := succeeds(t, "predict", "--model", xgb, "--data", wide)
	if !strings.Contains(stderr, "add --libsvm-absent missing to predict what XGBoost predicts") {
		t.Errorf("no warning: %q", stderr)
	}
	if _, stderr := succeeds(t, "predict", "--model", xgb, "--data", wide, "--libsvm-absent", "missing"); stderr != "" {
		t.Errorf("warning despite the flag: %q", stderr)
	}
}

// TestHints: errors speak of commands and flags, not Go identifiers.
func TestHints(t *testing.T) {
	dir := t.TempDir()
	model := trained(t)
	fails(t, "../../testdata/xgboost/bcw_binary_d4/model.json is an XGBoost model, not a treegen IR model: convert it first with treegen import xgboost",
		"gen", "--model", "../../testdata/xgboost/bcw_binary_d4/model.json", "--out", filepath.Join(dir, "p"))
	fails(t, "is a LightGBM model, not a treegen IR model: convert it first with treegen import lightgbm",
		"predict", "--model", "../../ir/lightgbm/testdata/binary.txt", "--data", "testdata/small.tsv")
	fails(t, "is already a treegen IR model: use it as it is", "import", "xgboost", model, "-o", filepath.Join(dir, "m.json"))
	fails(t, `--package "9bad": `, "gen", "--model", model, "--out", filepath.Join(dir, "p"), "--package", "9bad")
	fails(t, "--package: the default, the name of the output directory", "gen", "--model", model, "--out", filepath.Join(dir, "9bad"))
	for _, args := range [][]string{
		{"train", "gbdt", "--objective", "logistic", "--data", "testdata/small.tsv", "--lr", "0", "-o", filepath.Join(dir, "m.json")},
		{"train", "tel", "--data", "testdata/small.tsv", "--batch", "0", "-o", filepath.Join(dir, "m.json")},
		{"train", "cart", "--data", "testdata/small.tsv", "--max-depth", "-3", "-o", filepath.Join(dir, "m.json")},
	} {
		_, _, stderr := treegen(t, args...)
		for _, id := range []string{"MaxDepth", "LearningRate", "BatchSize", "Options"} {
			if strings.Contains(stderr, id) {
				t.Errorf("treegen %s: %q names the Go identifier %s", strings.Join(args, " "), stderr, id)
			}
		}
	}
}

// TestGenForeignPackage: gen refuses to write a second package into a
// directory, unless --force; an ignored file does not count.
func TestGenForeignPackage(t *testing.T) {
	model := trained(t)
	dir := filepath.Join(t.TempDir(), "pred")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, dir, "tool.go", "//go:build ignore\n\npackage tool\n")
	writeFile(t, dir, "main.go", "package main\n\nfunc main() {}\n")
	fails(t, "holds package main (main.go): generating package pred there would put two packages in one directory",
		"gen", "--model", model, "--out", dir)
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Fatalf("a refused gen wrote files: %v", entries)
	}
	succeeds(t, "gen", "--model", model, "--out", dir, "--force")
	// A package of the same name, and its external tests, are welcome.
	other := filepath.Join(t.TempDir(), "pred")
	os.Mkdir(other, 0o755)
	writeFile(t, other, "extra.go", "package pred\n")
	writeFile(t, other, "extra_test.go", "package pred_test\n")
	succeeds(t, "gen", "--model", model, "--out", other)
}

// TestCheckModelHash: check names the model a package was generated from
// before it runs any row, and the source of each value it compares.
func TestCheckModelHash(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	succeeds(t, "train", "cart", "--data", "testdata/small.tsv", "-o", a)
	succeeds(t, "train", "cart", "--data", "testdata/small.tsv", "--criterion", "entropy", "--name", "other", "-o", b)
	pkg := filepath.Join(dir, "pa")
	succeeds(t, "gen", "--model", a, "--out", pkg)
	fails(t, "package pa in "+pkg+" was generated from a.json (model sha256 ", "check", "--model", b, "--dir", pkg, "--data", "testdata/small.tsv")
	expect := writeFile(t, dir, "expect.csv", "p_1,class\n0.5,1\n0.5,1\n0.5,1\n0.5,1\n0.5,1\n0.5,1\n")
	fails(t, "(generated), 0.5 ("+expect+")", "check", "--model", a, "--dir", pkg, "--data", "testdata/small.tsv", "--expect", expect)
}

// TestGBDTConstraints: train gbdt --monotone and --categorical reach the
// trainer, which records them in the model's provenance.
func TestGBDTConstraints(t *testing.T) {
	dir := t.TempDir()
	heart := "../../testdata/pmlb/heart_c.tsv.gz"
	for _, tc := range []struct {
		args   []string
		params map[string]string
	}{
		{[]string{"--monotone", "age:+1,oldpeak:-1", "--categorical", "cp,thal", "--alpha", "0.5", "--max-delta-step", "0.7"},
			map[string]string{"monotone_constraints": "(1,0,0,0,0,0,0,0,0,-1,0,0,0)", "categorical": "(2,12)", "max_cat_to_onehot": "4", "alpha": "0.5", "max_delta_step": "0.7"}},
		{[]string{"--monotone", "(1,0,0,0,0,0,0,0,0,-1)", "--colsample-bylevel", "0.5", "--colsample-bynode", "0.8", "--categorical", "cp", "--max-cat-to-onehot", "8"},
			map[string]string{"monotone_constraints": "(1,0,0,0,0,0,0,0,0,-1,0,0,0)", "categorical": "(2)", "max_cat_to_onehot": "8", "colsample_bylevel": "0.5", "colsample_bynode": "0.8"}},
	} {
		model := filepath.Join(dir, "m.json")
		succeeds(t, append([]string{"train", "gbdt", "--objective", "logistic", "--trees", "5", "--quiet", "--data", heart, "-o", model}, tc.args...)...)
		m, err := ir.Load(model)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range tc.params {
			if got := m.Provenance.Params[k]; got != v {
				t.Errorf("%v: param %s = %q, want %q", tc.args, k, got, v)
			}
		}
	}
}

// TestLeavesAndIterations: predict --leaves gives the leaf node of each
// tree, and --iterations the first rounds, on a boosted model.
func TestLeavesAndIterations(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "gbdt.json")
	succeeds(t, "train", "gbdt", "--objective", "logistic", "--trees", "5", "--quiet", "--data", "../../testdata/pmlb/heart_c.tsv.gz", "-o", model)
	out, _ := succeeds(t, "predict", "--model", model, "--data", "../../testdata/pmlb/heart_c.tsv.gz", "--leaves")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "tree_0,tree_1,tree_2,tree_3,tree_4" || len(lines) != 304 {
		t.Fatalf("--leaves wrote %d lines, header %q", len(lines), lines[0])
	}
	m, err := ir.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	for _, cell := range strings.Split(lines[1], ",") {
		if cell == "" {
			t.Fatalf("empty cell in %q", lines[1])
		}
	}
	three, _ := succeeds(t, "predict", "--model", model, "--data", "../../testdata/pmlb/heart_c.tsv.gz", "--margin", "--iterations", "3")
	all, _ := succeeds(t, "predict", "--model", model, "--data", "../../testdata/pmlb/heart_c.tsv.gz", "--margin")
	if three == all {
		t.Error("--iterations 3 predicts what all rounds predict")
	}
	first, err := m.FirstRounds(3)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "first.json")
	if err := ir.Save(path, first); err != nil {
		t.Fatal(err)
	}
	if want, _ := succeeds(t, "predict", "--model", path, "--data", "../../testdata/pmlb/heart_c.tsv.gz", "--margin"); three != want {
		t.Error("--iterations 3 differs from the model cut to 3 rounds")
	}
	fails(t, "--iterations 6: ", "predict", "--model", model, "--data", "../../testdata/pmlb/heart_c.tsv.gz", "--iterations", "6")
	fails(t, "--leaves: ", "predict", "--model", softModel, "--data", softRows, "--leaves")
}

// TestImportLinkAndRounds: --link replaces the link and says so; an
// XGBoost model with a best iteration keeps the rounds up to it.
func TestImportLinkAndRounds(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	_, stderr := succeeds(t, "import", "lightgbm", "../../ir/lightgbm/testdata/binary.txt", "--link", "identity", "-o", out)
	if !strings.Contains(stderr, "link identity (--link; the file implies sigmoid)") {
		t.Errorf("stderr %q", stderr)
	}
	m, err := ir.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if m.Link != ir.Identity || m.Provenance.Params["link_in_file"] != "sigmoid" {
		t.Errorf("link %s, provenance %v", m.Link, m.Provenance.Params)
	}
	fails(t, "--link softmax: ", "import", "lightgbm", "../../ir/lightgbm/testdata/binary.txt", "--link", "softmax", "-o", out)

	early := "../../ir/xgboost/testdata/models/bcw_early_stop/model.json"
	_, stderr = succeeds(t, "import", "xgboost", early, "-o", out)
	if !strings.Contains(stderr, "kept the first ") || !strings.Contains(stderr, "--all-rounds keeps them all") {
		t.Errorf("import of an early-stopped model: %q", stderr)
	}
	kept, err := ir.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	_, stderr = succeeds(t, "import", "xgboost", early, "--all-rounds", "-o", out)
	all, err := ir.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stderr, "kept the first") || len(all.Trees) <= len(kept.Trees) {
		t.Errorf("--all-rounds: %d trees (default %d); %q", len(all.Trees), len(kept.Trees), stderr)
	}
}

// TestSmallGlitches: completion, inspect's -0, bench's singular.
func TestSmallGlitches(t *testing.T) {
	out, _ := succeeds(t, "completion", "bash")
	if !strings.Contains(out, "__start_treegen") {
		t.Errorf("completion bash printed %.200q", out)
	}
	dir := t.TempDir()
	data, err := os.ReadFile(trained(t))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ir.Decode(data, "model.json")
	if err != nil {
		t.Fatal(err)
	}
	m.BaseScore = []float64{negZero()}
	path := filepath.Join(dir, "z.json")
	if err := ir.Save(path, m); err != nil {
		t.Fatal(err)
	}
	out, _ = succeeds(t, "inspect", path)
	if !strings.Contains(out, "base score   [0]\n") {
		t.Errorf("inspect:\n%s", out)
	}
}

func negZero() float64 {
	z := 0.0
	return -z
}

// TestGBDTWeights: --weight takes a column of the data files as the rows'
// weights, out of the features, and refuses a bad weight naming the file,
// the row and the column.
func TestGBDTWeights(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a\tw\tb\ttarget\n")
	for i := range 40 {
		fmt.Fprintf(&b, "%d\t%d\t%d\t%d\n", i%7, 1+i%3, i%5, (i*i)%9)
	}
	train := writeFile(t, dir, "w.tsv", b.String())
	model := filepath.Join(dir, "m.json")
	_, stderr := succeeds(t, "train", "gbdt", "--objective", "poisson", "--weight", "w", "--trees", "5", "--eval-metric", "rmse",
		"--valid-fraction", "0.25", "--early-stopping", "3", "--test", train, "--data", train, "-o", model)
	if !strings.Contains(stderr, "valid rmse ") {
		t.Errorf("no valid rmse in the progress lines:\n%s", stderr)
	}
	m, err := ir.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.FeatureNames, []string{"a", "b"}) || m.Link != ir.Exp {
		t.Errorf("features %v, link %s", m.FeatureNames, m.Link)
	}
	for _, k := range []string{"weights_sha256", "valid_weights_sha256", "eval_metric", "max_delta_step"} {
		if m.Provenance.Params[k] == "" {
			t.Errorf("no provenance param %q: %v", k, m.Provenance.Params)
		}
	}
	bad := writeFile(t, dir, "bad.tsv", "a\tw\ttarget\n1\t1\t0\n2\t-1\t1\n")
	fails(t, `bad.tsv: row 2: the weight (column "w") is -1`, "train", "gbdt", "--objective", "logistic", "--weight", "w", "--data", bad, "-o", model)
	zero := writeFile(t, dir, "zero.tsv", "a\tw\ttarget\n1\t0\t0\n2\t0\t1\n")
	fails(t, `zero.tsv: the weights (column "w") are all 0`, "train", "gbdt", "--objective", "logistic", "--weight", "w", "--data", zero, "-o", model)
	neg := writeFile(t, dir, "neg.tsv", "a\ttarget\n1\t0\n2\t-1\n")
	fails(t, "the poisson objective needs targets >= 0, and training row 1 (0-based) has -1", "train", "gbdt", "--objective", "poisson", "--data", neg, "-o", model)
}
