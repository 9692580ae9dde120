package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/tooling/benchrun"
	"github.com/treegen/treegen/ir"
)

// softModel is a model of soft trees, which the smoothstep backend
// compiles, and softRows rows of its features.
const (
	softModel = "../../golden/soft/model.json"
	softRows  = "../../golden/soft/inputs.csv"
)

// treegen runs the command line in-process and returns exit status, stdout
// and stderr.
func treegen(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// trained returns a model trained on testdata/small.tsv in a temporary
// directory.
func trained(t *testing.T) string {
	t.Helper()
	model := filepath.Join(t.TempDir(), "model.json")
	if code, _, stderr := treegen(t, "train", "cart", "--data", "testdata/small.tsv", "-o", model); code != 0 {
		t.Fatalf("train failed: %s", stderr)
	}
	return model
}

// TestBadInput: every bad input gets exactly one line on stderr, prefixed
// "treegen: ", a non-zero exit, and leaves an existing output file as it was.
func TestBadInput(t *testing.T) {
	model := trained(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "existing.json")
	const sentinel = "precious\n"
	readOnly := filepath.Join(dir, "ro")
	os.Mkdir(readOnly, 0o555)
	if os.Geteuid() == 0 {
		readOnly = "/sys" // root may write anywhere else
	}
	tests := []struct {
		name string
		args []string
		want string // the whole stderr line, after "treegen: "
	}{
		{"truncated JSON", []string{"inspect", "testdata/truncated.json"},
			"testdata/truncated.json: 1:43: invalid JSON: unexpected end of input (truncated file?)"},
		{"not IR", []string{"inspect", "testdata/notir.json"},
			"testdata/notir.json: not a treegen model: format_version is missing"},
		{"JSON array", []string{"inspect", "testdata/array.json"},
			"testdata/array.json: not a treegen model: the top level is an array, want an object"},
		{"unknown field", []string{"inspect", "testdata/unknownfield.json"},
			`testdata/unknownfield.json: trees[0].nodes[0].colour: unknown field "colour" (known: activity, bias, categories, cover, default_left, feature, gain, gamma, indices, kind, left, less_equal, right, softmax, threshold, value, weights)`},
		{"child out of range", []string{"gen", "--model", "testdata/badchild.json", "--out", dir, "--package", "p"},
			"testdata/badchild.json: invalid model: trees[0].nodes[0].right: child 5 out of range: the tree has 3 nodes"},
		{"feature out of range", []string{"predict", "--model", "testdata/badfeature.json", "--data", "testdata/small.tsv"},
			"testdata/badfeature.json: invalid model: trees[0].nodes[0].feature: feature 3 out of range: the model has 1 features"},
		{"missing model", []string{"inspect", filepath.Join(dir, "nope.json")},
			"open " + filepath.Join(dir, "nope.json") + ": no such file or directory"},
		{"ragged row", []string{"train", "cart", "--data", "testdata/ragged.tsv", "-o", existing},
			"testdata/ragged.tsv:3: row has 2 fields, header has 3"},
		{"non-numeric cell", []string{"train", "cart", "--data", "testdata/nonnumeric.tsv", "-o", existing},
			`testdata/nonnumeric.tsv:3:2: cell "abc" in column "b" is not a number`},
		{"missing target", []string{"train", "cart", "--data", "testdata/small.tsv", "--target", "label", "-o", existing},
			`testdata/small.tsv:1: no column "label"; columns are: a, b, target`},
		{"eval missing target", []string{"eval", "--model", model, "--data", "testdata/small.tsv", "--target", "y"},
			`testdata/small.tsv:1: no column "y"; columns are: a, b, target`},
		{"output in missing directory", []string{"train", "cart", "--data", "testdata/small.tsv", "-o", filepath.Join(dir, "no", "m.json")},
			"cannot write " + filepath.Join(dir, "no", "m.json") + ": directory " + filepath.Join(dir, "no") + ": no such file or directory"},
		{"output in read-only directory", []string{"train", "cart", "--data", "testdata/small.tsv", "-o", filepath.Join(readOnly, "m.json")},
			"cannot write " + filepath.Join(readOnly, "m.json") + ": permission denied"},
		{"gen into missing parent", []string{"gen", "--model", model, "--out", filepath.Join(dir, "a", "b"), "--package", "p"},
			"output directory " + filepath.Join(dir, "a", "b") + " cannot be created: " + filepath.Join(dir, "a") + " does not exist"},
		{"package not an identifier", []string{"gen", "--model", model, "--out", dir, "--package", "1abc"},
			`--package "1abc": package name "1abc" is not a Go identifier`},
		{"package is a keyword", []string{"gen", "--model", model, "--out", dir, "--package", "func"},
			`--package "func": package name "func" is a Go keyword`},
		{"unknown backend", []string{"gen", "--model", model, "--out", dir, "--package", "p", "--backend", "llvm"},
			`unknown backend "llvm" (known backends: ` + strings.Join(codegen.BackendNames(), ", ") + `, or auto)`},
		{"bench: unknown backend", []string{"bench", "--model", model, "--data", "testdata/small.tsv", "--backends", "interp,llvm"},
			`unknown backend "llvm" in --backends (known: ` + strings.Join(codegen.BackendNames(), ", ") + `, interp, or auto)`},
		{"bad precision", []string{"gen", "--model", model, "--out", dir, "--package", "p", "--precision", "float16"},
			`--precision: unknown precision "float16" (want float64 or float32)`},
		{"predict: bad precision", []string{"predict", "--model", model, "--data", "testdata/small.tsv", "--precision", "double"},
			`--precision: unknown precision "double" (want float64 or float32)`},
		{"bench: bad precision", []string{"bench", "--model", model, "--data", "testdata/small.tsv", "--precision", "f32"},
			`--precision: unknown precision "f32" (want float64 or float32)`},
		{"demo: bad precision", []string{"demo", "--precision", ""},
			`--precision: unknown precision "" (want float64 or float32)`},
		{"option of another backend", []string{"gen", "--model", model, "--out", dir, "--package", "p", "--backend", ifelse.Name, "--prune", "0.1"},
			"--prune is an option of the " + smoothstep.Name + " backend, not of " + ifelse.Name},
		{"option of a backend auto does not pick", []string{"gen", "--model", model, "--out", dir, "--package", "p", "--prune", "0.1"},
			"--prune is an option of the " + smoothstep.Name + " backend, not of " + ifelse.Name + ", which auto picked for this model (choose one with --backend)"},
		{"bad backend option", []string{"gen", "--model", softModel, "--out", dir, "--package", "p", "--prune", "-1"},
			"--prune -1: want a finite number >= 0"},
		{"backend option not a number", []string{"gen", "--model", softModel, "--out", dir, "--package", "p", "--prune", "x"},
			`--prune: "x" is not a number`},
		{"wrong feature count", []string{"predict", "--model", "testdata/badchild.json", "--data", "testdata/small.tsv"},
			"testdata/badchild.json: invalid model: trees[0].nodes[0].right: child 5 out of range: the tree has 3 nodes"},
		{"unknown flag", []string{"gen", "--modle", model},
			"unknown flag --modle (did you mean --model?); treegen gen --help lists the flags"},
		{"unknown command", []string{"frobnicate"},
			`unknown command "frobnicate" for "treegen"`},
		{"unknown importer", []string{"import", "catboost", "m.cbm"},
			`unknown importer "catboost" for "treegen import"; known: lightgbm, xgboost`},
		{"unknown trainer with flags", []string{"train", "xgb", "--data", "testdata/small.tsv"},
			`unknown trainer "xgb" for "treegen train"; known: cart, e2e, gbdt, latent, tao, tel`},
		{"missing --out", []string{"train", "cart", "--data", "testdata/small.tsv"},
			"-o/--out is required"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(existing, []byte(sentinel), 0o644); err != nil {
				t.Fatal(err)
			}
			code, _, stderr := treegen(t, tc.args...)
			if code == 0 {
				t.Fatalf("exit status 0, want non-zero")
			}
			if want := "treegen: " + tc.want + "\n"; stderr != want {
				t.Fatalf("stderr:\n got  %q\n want %q", stderr, want)
			}
			if got, _ := os.ReadFile(existing); string(got) != sentinel {
				t.Fatalf("the existing output file was changed to %q", got)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.Contains(e.Name(), ".tmp") {
					t.Fatalf("a temporary file was left behind: %s", e.Name())
				}
			}
		})
	}
}

func TestTrainPredictEvalInspect(t *testing.T) {
	model := trained(t)
	code, out, stderr := treegen(t, "predict", "--model", model, "--data", "testdata/small.tsv")
	if code != 0 {
		t.Fatal(stderr)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "p_1,class" || len(lines) != 7 {
		t.Fatalf("predict output:\n%s", out)
	}
	code, out, stderr = treegen(t, "eval", "--model", model, "--data", "testdata/small.tsv", "--json")
	if code != 0 {
		t.Fatal(stderr)
	}
	var s struct {
		Rows     int     `json:"rows"`
		Accuracy float64 `json:"accuracy"`
		AUC      float64 `json:"auc"`
	}
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		t.Fatalf("eval --json: %v\n%s", err, out)
	}
	if s.Rows != 6 || s.Accuracy != 1 || s.AUC != 1 {
		t.Fatalf("a fully grown tree should fit its training data: %+v", s)
	}
	code, out, _ = treegen(t, "inspect", model)
	if code != 0 || !strings.Contains(out, "task         binary (2 classes: \"0\", \"1\")") {
		t.Fatalf("inspect:\n%s", out)
	}
	code, out, _ = treegen(t, "inspect", "--dot", model)
	if code != 0 || !strings.HasPrefix(out, "digraph \"small\" {") || !strings.Contains(out, "->") {
		t.Fatalf("inspect --dot:\n%s", out)
	}
}

func TestGenCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	model := trained(t)
	for _, prec := range []string{"float64", "float32"} {
		t.Run(prec, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "small")
			if code, _, stderr := treegen(t, "gen", "--model", model, "--out", dir, "--precision", prec); code != 0 {
				t.Fatal(stderr)
			}
			expect := filepath.Join(t.TempDir(), "expect.csv")
			if code, _, stderr := treegen(t, "predict", "--model", model, "--data", "testdata/small.tsv", "--precision", prec, "-o", expect); code != 0 {
				t.Fatal(stderr)
			}
			code, out, stderr := treegen(t, "check", "--model", model, "--dir", dir, "--data", "testdata/small.tsv", "--expect", expect)
			if code != 0 || !strings.Contains(out, "equals the interpreter bit for bit on 6 rows") || !strings.Contains(out, "predictions equal") {
				t.Fatalf("check: %s%s", out, stderr)
			}
		})
	}
}

func TestDemo(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	code, out, stderr := treegen(t, "demo")
	if code != 0 {
		t.Fatalf("demo failed: %s", stderr)
	}
	for _, want := range []string{"equal     yes", "accuracy  generated 0.9", "speed     generated",
		"(a temporary folder, removed at the end; keep the files with --dir DIR)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("demo output lacks %q:\n%s", want, out)
		}
	}
}

// TestImport imports an XGBoost fixture and a LightGBM model, and checks the
// generated float32 code against the interpreter on the fixture's rows.
func TestImport(t *testing.T) {
	dir := t.TempDir()
	xgb := filepath.Join(dir, "xgb.json")
	code, _, stderr := treegen(t, "import", "xgboost", "../../testdata/xgboost/bcw_binary_d4/model.json", "-o", xgb)
	if code != 0 || !strings.Contains(stderr, "binary, 30 features, 1 output, 50 trees") {
		t.Fatalf("import xgboost: %d %s", code, stderr)
	}
	lgb := filepath.Join(dir, "lgb.json")
	code, _, stderr = treegen(t, "import", "lightgbm", "../../ir/lightgbm/testdata/binary.txt", "-o", lgb)
	if code != 0 || !strings.Contains(stderr, "binary, 3 features, 1 output, 3 trees") {
		t.Fatalf("import lightgbm: %d %s", code, stderr)
	}
	if testing.Short() {
		return
	}
	pkg := filepath.Join(dir, "bcw")
	if code, _, stderr := treegen(t, "gen", "--model", xgb, "--out", pkg, "--precision", "float32"); code != 0 {
		t.Fatal(stderr)
	}
	code, out, stderr := treegen(t, "check", "--model", xgb, "--dir", pkg, "--data", "../../testdata/xgboost/bcw_binary_d4/inputs.csv")
	if code != 0 || !strings.Contains(out, "(float32) equals the interpreter bit for bit on 171 rows") {
		t.Fatalf("check: %s%s", out, stderr)
	}
}

func TestImportAndGBDTBadInput(t *testing.T) {
	dir := t.TempDir()
	trunc := filepath.Join(dir, "trunc.txt")
	os.WriteFile(trunc, []byte("tree\nversion=v4\nnum_class=1\n"), 0o644)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"xgboost: not a model", []string{"import", "xgboost", "testdata/small.tsv", "-o", filepath.Join(dir, "m.json")}, "testdata/small.tsv"},
		{"xgboost: IR file", []string{"import", "xgboost", "testdata/badchild.json", "-o", filepath.Join(dir, "m.json")}, "testdata/badchild.json"},
		{"lightgbm: truncated", []string{"import", "lightgbm", trunc, "-o", filepath.Join(dir, "m.json")},
			trunc + `:3: truncated model: no Tree= block and no "end of trees" line`},
		{"missing -o", []string{"import", "lightgbm", trunc}, "-o/--out is required"},
		{"gbdt: no objective", []string{"train", "gbdt", "--data", "testdata/small.tsv", "-o", filepath.Join(dir, "m.json")},
			"--objective is required: logistic (binary), softmax (multiclass) or squarederror (regression)"},
		{"gbdt: bad valid fraction", []string{"train", "gbdt", "--data", "testdata/small.tsv", "--objective", "logistic", "--valid-fraction", "1.5", "-o", filepath.Join(dir, "m.json")},
			"--valid-fraction must be in [0, 1), got 1.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := treegen(t, tc.args...)
			if code == 0 || !strings.HasPrefix(stderr, "treegen: ") || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
				t.Fatalf("exit %d, stderr %q; want one line containing %q", code, stderr, tc.want)
			}
			if exists(filepath.Join(dir, "m.json")) {
				t.Fatal("a failed command wrote its output")
			}
		})
	}
}

func TestTrainGBDT(t *testing.T) {
	model := filepath.Join(t.TempDir(), "gbdt.json")
	code, _, stderr := treegen(t, "train", "gbdt", "--data", "../../golden/cart_multiclass/train.tsv.gz", "--objective", "softmax",
		"--trees", "20", "--valid-fraction", "0.3", "--early-stopping", "5", "-o", model)
	if code != 0 || !strings.Contains(stderr, "valid (validation") {
		t.Fatalf("train gbdt: %d\n%s", code, stderr)
	}
	code, out, _ := treegen(t, "inspect", model)
	if code != 0 || !strings.Contains(out, "task         multiclass (4 classes") {
		t.Fatalf("inspect:\n%s", out)
	}
}

func TestBench(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated code")
	}
	model := trained(t)
	code, out, stderr := treegen(t, "bench", "--model", model, "--data", "testdata/small.tsv", "--time", "50ms", "--json")
	if code != 0 {
		t.Fatalf("bench: %s", stderr)
	}
	var r struct {
		Rows    int
		Results []benchrun.Result
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("bench --json: %v\n%s", err, out)
	}
	m, err := ir.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, b := range codegen.SuitedBackends(m) {
		want = append(want, b.Name())
	}
	want = append(want, "interp")
	var got []string
	for _, res := range r.Results {
		got = append(got, res.Backend)
	}
	if r.Rows != 6 || strings.Join(got, ",") != strings.Join(want, ",") {
		t.Fatalf("bench --json: backends %v, want %v: %+v", got, want, r)
	}
	for _, res := range r.Results {
		if res.NsPerRow <= 0 || res.NsPerRowBatch <= 0 || res.AllocsPerRow != 0 {
			t.Errorf("%s: %+v", res.Backend, res)
		}
	}

	// A named backend that cannot compile the model is skipped.
	code, out, stderr = treegen(t, "bench", "--model", softModel, "--data", softRows, "--rows", "10", "--time", "10ms",
		"--backends", ifelse.Name+",interp")
	soft, err := ir.Load(softModel)
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 || !strings.HasPrefix(stderr, ifelse.Name+": skipped: ") || !strings.Contains(out, plural(len(soft.Trees), "tree")+", 10 rows of "+softRows) ||
		!strings.Contains(out, " interp ") || strings.Contains(out, " "+ifelse.Name+" ") {
		t.Fatalf("bench of a backend that cannot compile the model: %d\n%s%s", code, out, stderr)
	}
}

func TestTrainTELBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	oneClass := write("one.tsv", "a\tb\ttarget\n1\t2\t1\n3\t4\t1\n5\t6\t1\n")
	withNaN := write("nan.tsv", "a\tb\ttarget\n1\t2\t0\n3\tNA\t1\n5\t6\t0\n7\t8\t1\n")
	emptyValid := write("valid.tsv", "a\tb\ttarget\n")
	tel := func(extra ...string) []string {
		return append([]string{"train", "tel", "--data", "testdata/small.tsv", "--epochs", "2", "-o", out}, extra...)
	}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"negative gamma", tel("--gamma", "-1"), "--gamma must be a finite number > 0, got -1"},
		{"zero gamma", tel("--gamma", "0"), "--gamma must be a finite number > 0, got 0 (the smooth-step of width 0 is a hard step"},
		{"depth 0", tel("--depth", "0"), "--depth must be between 1 and 20, got 0"},
		{"depth 21", tel("--depth", "21"), "--depth must be between 1 and 20, got 21"},
		{"one class", []string{"train", "tel", "--data", oneClass, "--loss", "logistic", "-o", out},
			"tel: the target has a single class (1) in all 3 rows: nothing to classify"},
		{"NaN feature", []string{"train", "tel", "--data", withNaN, "-o", out},
			`tel: feature "b" (column 1) of training row 1 (0-based) is missing (NaN); use --impute to replace missing values by the training mean`},
		{"empty validation file", tel("--valid", emptyValid), emptyValid + ": no data rows"},
		{"empty validation split", tel("--valid-fraction", "0.01"), "tel: the validation set has no rows"},
		{"early stopping without validation", tel("--early-stopping", "3"), "--early-stopping needs validation data"},
		{"unknown loss", tel("--loss", "hinge"), `--loss must be logistic, softmax or squarederror, got "hinge"`},
		{"bad valid fraction", tel("--valid-fraction", "-0.5"), "--valid-fraction must be in [0, 1), got -0.5"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := treegen(t, tc.args...)
			if code == 0 || !strings.Contains(stderr, "treegen: "+tc.want) {
				t.Fatalf("exit %d, stderr %q; want a line containing %q", code, stderr, tc.want)
			}
			if exists(out) {
				t.Fatal("a failed command wrote its output")
			}
		})
	}
}

func TestTrainTEL(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "tel.json")
	code, _, stderr := treegen(t, "train", "tel", "--data", "../../golden/cart_multiclass/train.tsv.gz",
		"--trees", "4", "--depth", "3", "--epochs", "30", "--lr", "0.05", "--valid-fraction", "0.3", "--early-stopping", "5",
		"--test", "../../golden/cart_multiclass/train.tsv.gz", "-o", model)
	if code != 0 || !strings.Contains(stderr, "loss softmax (from the target values") || !strings.Contains(stderr, "valid (validation") ||
		!strings.Contains(stderr, "test (train.tsv.gz") {
		t.Fatalf("train tel: %d\n%s", code, stderr)
	}
	code, out, _ := treegen(t, "inspect", model)
	if code != 0 || !strings.Contains(out, "task         multiclass (4 classes") || !strings.Contains(out, "soft") {
		t.Fatalf("inspect:\n%s", out)
	}
	// The same seed gives the same bytes.
	again := filepath.Join(dir, "again.json")
	if code, _, stderr := treegen(t, "train", "tel", "--data", "../../golden/cart_multiclass/train.tsv.gz",
		"--trees", "4", "--depth", "3", "--epochs", "30", "--lr", "0.05", "--valid-fraction", "0.3", "--early-stopping", "5",
		"--quiet", "--threads", "1", "-o", again); code != 0 {
		t.Fatalf("train tel: %s", stderr)
	}
	a, _ := os.ReadFile(model)
	b, _ := os.ReadFile(again)
	if !bytes.Equal(a, b) {
		t.Fatal("two trainings with the same seed differ")
	}
}

// header returns the header comment of a generated file, its lines after
// the first joined by spaces.
func header(t *testing.T, path string) (first, rest string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, _, _ := strings.Cut(string(data), "\n\n")
	lines := strings.Split(head, "\n")
	for i := range lines {
		lines[i] = strings.TrimPrefix(lines[i], "// ")
	}
	return lines[0], strings.Join(lines[1:], " ")
}

// TestGenBackend: without --backend, gen uses the backend that auto picks
// for the model, writes exact code whose header says which backend auto
// picked and why, and says both in its summary; a named backend is used
// as it is, without a word on auto.
func TestGenBackend(t *testing.T) {
	for _, tc := range []struct {
		model, backend string
	}{
		{trained(t), ""},
		{softModel, ""},
		{softModel, codegen.Auto},
		{softModel, smoothstep.Name},
		{"../../golden/axis100/model.json", ifelse.Name},
	} {
		m, err := ir.Load(tc.model)
		if err != nil {
			t.Fatal(err)
		}
		c, err := codegen.Choose(m)
		if err != nil {
			t.Fatal(err)
		}
		b, auto := c.Backend.Name(), tc.backend == "" || tc.backend == codegen.Auto
		if !auto {
			b = tc.backend
		}
		dir := filepath.Join(t.TempDir(), "p")
		args := []string{"gen", "--model", tc.model, "--out", dir, "--precision", "float32"}
		if tc.backend != "" {
			args = append(args, "--backend", tc.backend)
		}
		code, _, stderr := treegen(t, args...)
		summary := regexp.MustCompile(`^generated package p in \S+: [0-9]+ files, [0-9.]+ (B|kB|MB) \(` + b + `, float32\)\n`)
		if code != 0 || !summary.MatchString(stderr) {
			t.Fatalf("gen %s: %d %q", strings.Join(args[1:], " "), code, stderr)
		}
		picked := "\npicked by auto: " + c.Why + "\n"
		if strings.Contains(stderr, picked) != auto {
			t.Errorf("%s, --backend %q: the summary says why auto picked %s: %v, want %v:\n%s", tc.model, tc.backend, b, !auto, auto, stderr)
		}
		_, rest := header(t, filepath.Join(dir, codegen.MainFile))
		want := "Backend " + b + ", float32: exact, equal bit for bit to the treegen interpreter."
		if auto {
			want += " Picked by auto: " + c.Why
		}
		if !strings.HasPrefix(rest, want) || strings.Contains(rest, "Picked by auto:") != auto {
			t.Errorf("%s, --backend %q: header %q, want %q...", tc.model, tc.backend, rest, want)
		}
	}
}

// TestGenApproximate: a backend option that changes the predictions makes
// gen say that the code is approximate, measure it with --data, and write
// both into the headers.
func TestGenApproximate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "soft")
	code, _, stderr := treegen(t, "gen", "--model", softModel, "--out", dir, "--backend", smoothstep.Name, "--prune", "0.3", "--data", softRows)
	if code != 0 {
		t.Fatal(stderr)
	}
	measured := regexp.MustCompile(`On the 303 rows of inputs\.csv, predictions are at most [0-9.e-]+ from the interpreter's(, except on [0-9]+ rows? where one of them is NaN and the other is not)?; ([0-9]+ predicted class(es)? differs?|no predicted class differs)\.`)
	for _, want := range []string{
		"B (" + smoothstep.Name + ", float64, prune 0.3)\n",
		"\napproximate: ",
		"weights with |w| <= 0.3 are left out of the margins",
		"\nmeasured: On the 303 rows",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if !measured.MatchString(stderr) {
		t.Errorf("stderr does not say what was measured:\n%s", stderr)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		_, rest := header(t, filepath.Join(dir, e.Name()))
		if !strings.HasPrefix(rest, "Backend "+smoothstep.Name+", float64, prune 0.3: approximate. ") ||
			!strings.Contains(rest, "weights with |w| <= 0.3 are left out") || !measured.MatchString(rest) {
			t.Errorf("%s: header %q", e.Name(), rest)
		}
	}

	// Without --data, gen says how to measure.
	code, _, stderr = treegen(t, "gen", "--model", softModel, "--out", dir, "--prune", "0.3")
	if code != 0 || !strings.Contains(stderr, "\nnot measured: add --data FILE") {
		t.Fatalf("gen without --data: %d\n%s", code, stderr)
	}
	if _, rest := header(t, filepath.Join(dir, codegen.MainFile)); !strings.Contains(rest, ": approximate. ") || strings.Contains(rest, "On the") {
		t.Errorf("header without --data: %q", rest)
	}

	// --data of exact code is not read.
	code, _, stderr = treegen(t, "gen", "--model", softModel, "--out", dir, "--data", "testdata/nope.tsv")
	if code != 0 || !strings.Contains(stderr, "--data testdata/nope.tsv is not read: the code is exact\n") {
		t.Fatalf("gen of exact code with --data: %d\n%s", code, stderr)
	}

	// The rows must fit the model.
	code, _, stderr = treegen(t, "gen", "--model", softModel, "--out", dir, "--prune", "0.3", "--data", "testdata/small.tsv")
	if code == 0 || stderr != "treegen: testdata/small.tsv has 2 feature columns, the model expects 8\n" {
		t.Fatalf("gen with rows of another model: %d %q", code, stderr)
	}
}
