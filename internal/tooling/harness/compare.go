package harness

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/verify"
)

// Diff is one disagreement between the generated package and the
// interpreter: What is "margin[k]", "prediction[k]" or "class", and Got
// and Want come from the generated code and the interpreter unless
// GotFrom and WantFrom name other sources.
type Diff = verify.Diff

// Compare runs rows through the interpreter for m, in the precision of the
// generated package, and returns every disagreement with res, bit for bit
// (any two NaNs are equal).
func Compare(m *ir.Model, rows [][]float64, res *Result, prec ir.Precision) ([]Diff, error) {
	want, err := Interpret(m, rows, prec)
	if err != nil {
		return nil, err
	}
	return Differences(res, want), nil
}

// Differences returns every disagreement of got with want, bit for bit (any
// two NaNs are equal), row by row: margins, predictions and class, each
// only where want has them (a nil Margins, Preds or Classes of want is not
// compared).
func Differences(got, want *Result) []Diff {
	var diffs []Diff
	vector := func(i int, what string, g, w [][]float64) {
		if i >= len(w) {
			return
		}
		for k, v := range w[i] {
			gv := math.NaN()
			if i < len(g) && k < len(g[i]) {
				gv = g[i][k]
			}
			if !Same(gv, v) || i >= len(g) || k >= len(g[i]) {
				diffs = append(diffs, Diff{Row: i, What: fmt.Sprintf("%s[%d]", what, k), Got: gv, Want: v})
			}
		}
	}
	rows := max(len(want.Margins), len(want.Preds), len(want.Classes))
	for i := 0; i < rows; i++ {
		vector(i, "margin", got.Margins, want.Margins)
		vector(i, "prediction", got.Preds, want.Preds)
		if i < len(want.Classes) {
			g := -1
			if i < len(got.Classes) {
				g = got.Classes[i]
			}
			if g != want.Classes[i] {
				diffs = append(diffs, Diff{Row: i, What: "class", Got: float64(g), Want: float64(want.Classes[i])})
			}
		}
	}
	return diffs
}

// Same reports whether a and b are the same float: the same bits, or both
// NaN (NaN payloads are not part of the semantics).
func Same(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b)
}

// Verify builds the generated package in dir, runs rows through it and
// through the interpreter for m in precision prec, and
// returns what the package computed, and an error that lists the first
// five disagreements if they differ anywhere, bit for bit.
func Verify(ctx context.Context, dir string, m *ir.Model, rows [][]float64, prec ir.Precision, opts Options) (*Result, error) {
	res, err := Run(ctx, dir, rows, opts)
	if err != nil {
		return nil, err
	}
	diffs, err := Compare(m, rows, res, prec)
	if err != nil {
		return nil, err
	}
	if len(diffs) == 0 {
		return res, nil
	}
	lines := []string{fmt.Sprintf("%d values differ from the interpreter's:", len(diffs))}
	for i, d := range diffs {
		if i == 5 {
			lines = append(lines, "...")
			break
		}
		lines = append(lines, d.String())
	}
	return res, errors.New(strings.Join(lines, "\n"))
}
