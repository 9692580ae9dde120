package quickscorer_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/golden"
	"github.com/treegen/treegen/internal/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/xgboost"
	"github.com/treegen/treegen/runtime"
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
	for _, tc := range []struct {
		name string
		m    *ir.Model
		rows [][]float64
	}{
		{"axis100", gc.Model, gc.Inputs},
		{"twonorm_1000x64", tn, tnRows},
	} {
		for _, prec := range precisions {
			var interp float64
			if prec == codegen.Float32 {
				interp = interpNs[float32](t, tc.m, tc.rows)
			} else {
				interp = interpNs[float64](t, tc.m, tc.rows)
			}
			ns := map[string]float64{}
			for _, backend := range []string{"quickscorer", "ifelse"} {
				files, err := codegen.Generate(tc.m, codegen.Options{Package: "p", Backend: backend, Precision: prec})
				if err != nil {
					t.Fatal(err)
				}
				dir := t.TempDir()
				if err := codegen.WriteDir(dir, files); err != nil {
					t.Fatal(err)
				}
				res, err := harness.Run(context.Background(), dir, tc.rows, harness.Options{Time: time.Second})
				if err != nil {
					t.Fatal(err)
				}
				ns[backend] = res.NsPerRow
			}
			t.Logf("%-16s %s  quickscorer %8.1f ns/row  ifelse %8.1f ns/row  interpreter %8.1f ns/row (%d rows)",
				tc.name, prec, ns["quickscorer"], ns["ifelse"], interp, len(tc.rows))
		}
	}
}

// interpNs returns the interpreter's time per row of Predict.
func interpNs[F runtime.Float](t *testing.T, m *ir.Model, rows [][]float64) float64 {
	p, err := runtime.New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	xs := make([][]F, len(rows))
	for i, r := range rows {
		xs[i] = make([]F, len(r))
		for j, v := range r {
			xs[i][j] = F(v)
		}
	}
	out := make([]F, m.NumOutputs)
	n := 0
	start := time.Now()
	for time.Since(start) < time.Second {
		for _, x := range xs {
			if err := p.Predict(x, out); err != nil {
				t.Fatal(err)
			}
		}
		n += len(xs)
	}
	return float64(time.Since(start).Nanoseconds()) / float64(n)
}
