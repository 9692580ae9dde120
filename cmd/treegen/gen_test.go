package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/xgboost"
)

// xgboostModel imports the XGBoost model of testdata/xgboost/NAME with
// package xgboost and saves it as an IR model in a temporary directory.
func xgboostModel(t *testing.T, name string) string {
	t.Helper()
	m, err := xgboost.Load(filepath.Join("../../testdata/xgboost", name, "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), name+".json")
	if err := ir.Save(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestGenRecordedPrecision: gen writes the precision that the model
// records without --precision (float32 for an XGBoost import, whose tests
// compare in float32), and the precision of the flag with it.
func TestGenRecordedPrecision(t *testing.T) {
	model := xgboostModel(t, "bcw_binary_d4")
	for _, tc := range []struct {
		flag, want string
	}{
		{"", "float32"},
		{"float64", "float64"},
		{"float32", "float32"},
	} {
		dir := filepath.Join(t.TempDir(), "bcw")
		args := []string{"gen", "--model", model, "--out", dir, "--omit-version"}
		if tc.flag != "" {
			args = append(args, "--precision", tc.flag)
		}
		code, _, stderr := treegen(t, args...)
		if code != 0 || !strings.Contains(stderr, ", "+tc.want+")\n") {
			t.Fatalf("gen --precision %q: %d %q", tc.flag, code, stderr)
		}
		data, err := os.ReadFile(filepath.Join(dir, codegen.MainFile))
		if err != nil {
			t.Fatal(err)
		}
		_, rest := header(t, filepath.Join(dir, codegen.MainFile))
		if !strings.Contains(rest, ", "+tc.want+": exact,") ||
			!bytes.Contains(data, []byte("func Predict(x *[NumFeatures]"+tc.want+") [NumOutputs]"+tc.want+" {")) {
			t.Errorf("--precision %q: the package is not in %s: header %q", tc.flag, tc.want, rest)
		}
	}
}

// TestGenHelpPrecision: the help of --precision says that its default is
// the model's, and shows no fixed default.
func TestGenHelpPrecision(t *testing.T) {
	code, stdout, stderr := treegen(t, "gen", "--help")
	help := stdout + stderr
	if code != 0 || !strings.Contains(help, "(default: the precision the model records, float32 for XGBoost imports, else float64)") ||
		strings.Contains(help, `(default "float64")`) || strings.Contains(help, "(default float64)") {
		t.Errorf("gen --help: %d\n%s", code, help)
	}
}

// TestGenLargePackage: the summary of a package of megabytes says its size
// and file count and what can make it smaller: backends that hold the
// trees in tables and compile the model, or fewer trees.
func TestGenLargePackage(t *testing.T) {
	soft, err := ir.Load(softModel)
	if err != nil {
		t.Fatal(err)
	}
	axis, err := ir.Load("../../golden/axis100/model.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		m       *ir.Model
		backend string
		sizes   []int
		want    string // "" for no warning
	}{
		{"small", axis, "ifelse", []int{400_000, 599_999}, ""},
		{"ifelse", axis, "ifelse", []int{400_000, 600_000},
			"large package: 1.0 MB of Go source in 2 files: the code of ifelse for every node of every tree; --backend walk or --backend quickscorer also compiles this model, holding the trees in tables"},
		{"walk", axis, "walk", []int{3_400_000, 1}, "large package: 3.4 MB of Go source in 2 files: the tables of walk; fewer trees make it smaller"},
		{"quickscorer", axis, "quickscorer", []int{12_345_678}, "large package: 12 MB of Go source in 1 file: the tables of quickscorer; fewer trees"},
		{"soft", soft, "smoothstep", []int{2_000_000},
			"large package: 2.0 MB of Go source in 1 file: the code of smoothstep for every node of every tree, and no backend that holds trees in tables compiles this model; fewer trees"},
	} {
		p, err := codegen.Plan(tc.m, codegen.Options{Package: "p", Backend: tc.backend})
		if err != nil {
			t.Fatal(err)
		}
		var files []codegen.File
		for i, n := range tc.sizes {
			files = append(files, codegen.File{Name: string(rune('a'+i)) + ".go", Data: make([]byte, n)})
		}
		var stderr bytes.Buffer
		(&app{stderr: &stderr}).genSummary(p, "dir", files)
		got := stderr.String()
		switch {
		case tc.want == "" && strings.Contains(got, "large package"):
			t.Errorf("%s: a warning for a small package:\n%s", tc.name, got)
		case tc.want != "" && !strings.Contains(got, "\n"+tc.want):
			t.Errorf("%s: summary\n%s\nwant it to say\n%s", tc.name, got, tc.want)
		}
	}

	// A real package of megabytes: 520 trees of depth 6 in ifelse.
	model := xgboostModel(t, "letter_softprob_d6")
	code, _, stderr := treegen(t, "gen", "--model", model, "--out", filepath.Join(t.TempDir(), "letter"), "--backend", "ifelse")
	if code != 0 || !strings.Contains(stderr, " MB (ifelse, float32)\nlarge package: ") ||
		!strings.Contains(stderr, "--backend walk or --backend quickscorer also compiles this model") {
		t.Errorf("gen of 520 trees: %d\n%s", code, stderr)
	}
}
