package quickscorer_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/golden"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/xgboost"
)

// TestMeasure reports the time per row of the quickscorer and ifelse
// packages and of the interpreter on golden/axis100 and the
// twonorm_1000x64 XGBoost fixture. It is a measurement, not a check: it
// runs only with TREEGEN_MEASURE=1.
func TestMeasure(t *testing.T) {
	if os.Getenv("TREEGEN_MEASURE") != "1" {
		t.Skip("set TREEGEN_MEASURE=1 to measure")
	}
	gc, err := golden.Load("axis100", false)
	if err != nil {
		t.Fatal(err)
	}
	tn, err := xgboost.Load(filepath.Join(fixtures, "twonorm_1000x64", "model.json"))
	if err != nil {
		t.Fatal(err)
	}
	tnRows := readCSV(t, filepath.Join(fixtures, "twonorm_1000x64", "inputs.csv"), true, 1000)
	type run struct {
		model   string
		m       *ir.Model
		rows    [][]float64
		prec    codegen.Precision
		backend string
	}
	var runs []run
	mod, err := harness.NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		m    *ir.Model
		rows [][]float64
	}{
		{"axis100", gc.Model, gc.Inputs},
		{"twonorm_1000x64", tn, tnRows},
	} {
		for _, prec := range gentest.Precisions() {
			for _, backend := range []string{"quickscorer", "ifelse"} {
				files, err := codegen.Generate(tc.m, codegen.Options{Package: "p", Backend: backend, Precision: prec})
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("p%d", len(runs))
				if err := gentest.WritePackage(mod, name, files); err != nil {
					t.Fatal(err)
				}
				if err := mod.Add(name, tc.rows, harness.Options{Time: time.Second}); err != nil {
					t.Fatal(err)
				}
				runs = append(runs, run{tc.name, tc.m, tc.rows, prec, backend})
			}
		}
	}
	res, err := mod.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(runs); i += 2 {
		r := runs[i]
		interp, _, err := harness.TimeInterpreter(r.m, r.rows, r.prec, time.Second)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%-16s %s  quickscorer %8.1f ns/row  ifelse %8.1f ns/row  interpreter %8.1f ns/row (%d rows)",
			r.model, r.prec, res[i].NsPerRow, res[i+1].NsPerRow, interp, len(r.rows))
	}
}
