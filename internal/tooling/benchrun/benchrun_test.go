package benchrun

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/gobench"
	"github.com/treegen/treegen/ir"
)

const (
	axisModel = "../../../golden/axis100/model.json"
	softModel = "../../../golden/soft/model.json"
)

func load(t *testing.T, path string) *ir.Model {
	t.Helper()
	m, err := ir.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestBackends(t *testing.T) {
	m := load(t, axisModel)
	var suited []string
	for _, b := range codegen.SuitedBackends(m) {
		suited = append(suited, b.Name())
	}
	for _, tc := range []struct {
		list string
		want []string
		err  string
	}{
		{"auto", append(slices.Clone(suited), Interp), ""},
		{"interp", []string{Interp}, ""},
		{"ifelse, interp,ifelse", []string{"ifelse", Interp}, ""},
		{"interp,auto", append([]string{Interp}, suited...), ""},
		{"interp,llvm", nil, `unknown backend "llvm" in --backends (known: ` + strings.Join(codegen.BackendNames(), ", ") + ", interp, or auto)"},
		{"", nil, `unknown backend "" in --backends`},
	} {
		got, err := Backends(m, tc.list)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("Backends(%q): %v", tc.list, err)
		case tc.err != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.err)):
			t.Errorf("Backends(%q): error %v, want %s", tc.list, err, tc.err)
		case !slices.Equal(got, tc.want):
			t.Errorf("Backends(%q) = %q, want %q", tc.list, got, tc.want)
		}
	}
}

// TestRun measures the interpreter, and skips a backend that cannot
// compile the model without building anything.
func TestRun(t *testing.T) {
	m := load(t, softModel)
	rows := make([][]float64, 4)
	for i := range rows {
		rows[i] = make([]float64, m.NumFeatures)
	}
	var skipped []string
	results, err := Run(context.Background(), m, softModel, []string{"quickscorer", Interp}, rows, codegen.Float64,
		gobench.Options{BenchTime: time.Millisecond, Count: 1}, func(name string, err error) {
			skipped = append(skipped, name)
		})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(skipped, []string{"quickscorer"}) {
		t.Errorf("skipped %q, want quickscorer", skipped)
	}
	if len(results) != 1 || results[0].Backend != Interp || results[0].NsPerRow <= 0 || results[0].SourceBytes <= 0 {
		t.Errorf("results %+v, want one of the interpreter, timed, with the model file's size", results)
	}
	if _, err := Run(context.Background(), m, softModel, []string{"llvm"}, rows, codegen.Float64, gobench.Options{Count: 1}, nil); err == nil {
		t.Error("Run of an unknown backend: no error")
	}
}

func TestWriteTable(t *testing.T) {
	for _, tc := range []struct {
		results []Result
		want    string
	}{
		{nil, "  backend  ns/row  ns/row batch  allocs/row  build s  source bytes  instructions\n"},
		{[]Result{{Backend: "ifelse", NsPerRow: 12.34, NsPerRowBatch: 5, AllocsPerRow: 0, BuildSeconds: 1.234, SourceBytes: 5262, Instructions: "portable"}},
			"  backend  ns/row  ns/row batch  allocs/row  build s  source bytes  instructions\n" +
				"   ifelse    12.3           5.0           0     1.23          5262      portable\n"},
	} {
		var b bytes.Buffer
		if err := WriteTable(&b, tc.results); err != nil {
			t.Fatal(err)
		}
		if got := strings.ReplaceAll(b.String(), " \n", "\n"); got != tc.want {
			t.Errorf("table\n%s\nwant\n%s", got, tc.want)
		}
	}
}
