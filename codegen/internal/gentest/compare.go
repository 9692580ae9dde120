package gentest

import (
	"fmt"
	"testing"
	"time"

	"github.com/treegen/treegen/ir"
)

// Expect is a case to build with what its outputs must equal.
type Expect struct {
	Case
	// Model is the model the interpreter runs for the comparison.
	Model *ir.Model
	// Margins, if set, are expected margins besides the interpreter's: hand
	// computed, or those of the library the model comes from.
	Margins [][]float64
	// Classes, if set, are expected classes (hand computed).
	Classes []int
	// NoOracle, if set, says why the case is not compared with the
	// interpreter.
	NoOracle string
}

// BuildAndCompare builds the cases in one module (gofmt, vet, build), runs
// them, and reports with t.Errorf every row whose margins, predictions or
// classes differ, bit for bit, from the interpreter's or from the expected
// ones, and every allocation of a case with Allocs. A failing model is
// logged when it is small.
func BuildAndCompare(t *testing.T, cases []Expect) {
	t.Helper()
	mod, err := NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if err := mod.Add(c.Case); err != nil {
			t.Fatal(err)
		}
	}
	if err := mod.Gofmt(); err != nil {
		t.Error(err)
	}
	start := time.Now()
	results, err := mod.Run(true)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d packages: vet, build and run in %v (build %v)", len(cases), time.Since(start).Round(time.Millisecond), mod.BuildTime.Round(time.Millisecond))
	for i, c := range cases {
		res := results[i]
		if len(res.Margin) != len(c.Inputs) {
			t.Fatalf("%s: %d rows of output for %d inputs", c.Name, len(res.Margin), len(c.Inputs))
		}
		if c.Allocs && (res.PredictAllocs != 0 || res.BatchAllocs != 0) {
			t.Errorf("%s: Predict allocates %v times, PredictBatch %v times; want 0", c.Name, res.PredictAllocs, res.BatchAllocs)
		}
		want := Oracle{Margin: res.Margin, Predict: res.Predict, Class: res.Class}
		if c.NoOracle != "" {
			t.Logf("%s: not compared with the interpreter: %s", c.Name, c.NoOracle)
		} else {
			want = Interpret(t, c.Model, c.Inputs, c.Float32)
		}
		fails := 0
		for row := range c.Inputs {
			if fails > 3 {
				break
			}
			where := fmt.Sprintf("%s row %d %v", c.Name, row, c.Inputs[row])
			if c.Margins != nil && !SameRow(res.Margin[row], c.Margins[row]) {
				t.Errorf("%s: PredictMargin = %v, expected %v", where, res.Margin[row], c.Margins[row])
				fails++
			}
			if c.Classes != nil && res.Class[row] != c.Classes[row] {
				t.Errorf("%s: PredictClass = %d, expected %d", where, res.Class[row], c.Classes[row])
				fails++
			}
			if !SameRow(res.Margin[row], want.Margin[row]) {
				t.Errorf("%s: PredictMargin = %v, interpreter %v", where, res.Margin[row], want.Margin[row])
				fails++
			}
			if !SameRow(res.Predict[row], want.Predict[row]) {
				t.Errorf("%s: Predict = %v, interpreter %v", where, res.Predict[row], want.Predict[row])
				fails++
			}
			if res.Class[row] != want.Class[row] {
				t.Errorf("%s: PredictClass = %d, interpreter %d", where, res.Class[row], want.Class[row])
				fails++
			}
		}
		if fails > 0 {
			if data, _ := ir.Marshal(c.Model); len(data) < 20000 {
				t.Logf("%s model:\n%s", c.Name, data)
			}
		}
	}
}

// SameRow reports whether two rows are equal bit for bit (every NaN
// equals every NaN).
func SameRow(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !SameFloat(a[i], b[i]) {
			return false
		}
	}
	return true
}
