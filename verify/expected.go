package verify

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/treegen/treegen/ir"
)

// Expected are expected predictions, read from a CSV file.
type Expected struct {
	// Path names the file in messages.
	Path string
	// Header says whether the file's first line is a header (its first
	// cell is not a number), which is then not a row.
	Header bool
	// Classes says that the file holds one class id per row, for a model
	// of several classes, as XGBoost's predict() writes for multi:softmax:
	// Rows then hold the class ids, compared with predicted classes.
	Classes bool
	// Rows holds the expected predictions of each row: the model's
	// NumOutputs values, or its class id when Classes is set.
	Rows [][]float64
}

// ReadExpected reads the CSV file at path of the expected predictions of m
// (see ParseExpected).
func ReadExpected(path string, m *ir.Model) (*Expected, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ParseExpected(f, path, m)
}

// ParseExpected reads CSV expected predictions of m from r, named name in
// errors. The first line is a header when its first cell is not a number,
// as the columns of "treegen predict" are named (p_<class>, output_0, ...);
// a library's prediction file, all numbers, has none, and its first line
// is a row. Each row holds m.NumOutputs numbers first (further columns,
// such as the class of treegen predict, are ignored), except that a file
// of one column for a model of several classes holds one class id per row
// (Classes). An error names the file, the line and the column.
func ParseExpected(r io.Reader, name string, m *ir.Model) (*Expected, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = false
	var recs [][]string
	var lines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, fmt.Errorf("%s:%d:%d: %v", name, pe.Line, pe.Column, pe.Err)
			}
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		line, _ := cr.FieldPos(0)
		recs = append(recs, rec)
		lines = append(lines, line)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty file", name)
	}
	e := &Expected{Path: name}
	if _, err := number(recs[0][0]); err != nil {
		e.Header = true
		recs, lines = recs[1:], lines[1:]
	}
	k := m.NumOutputs
	if m.IsClassifier() && k > 1 && len(recs) > 0 {
		e.Classes = true
		for _, rec := range recs {
			e.Classes = e.Classes && len(rec) == 1
		}
	}
	if e.Classes {
		k = 1
	}
	e.Rows = make([][]float64, len(recs))
	for i, rec := range recs {
		if len(rec) < k {
			return nil, fmt.Errorf("%s:%d: %d columns, want at least %d", name, lines[i], len(rec), k)
		}
		row := make([]float64, k)
		for j := range row {
			v, err := number(rec[j])
			if err != nil {
				return nil, fmt.Errorf("%s:%d:%d: %q is not a number", name, lines[i], j+1, rec[j])
			}
			if e.Classes && !(v == math.Trunc(v) && v >= 0 && v < float64(m.NumOutputs)) {
				return nil, fmt.Errorf("%s:%d:%d: %q is not a class id 0..%d (a file of one column holds the class of each row)", name, lines[i], j+1, rec[j], m.NumOutputs-1)
			}
			row[j] = v
		}
		e.Rows[i] = row
	}
	return e, nil
}

// number parses a cell as a float64.
func number(s string) (float64, error) {
	return strconv.ParseFloat(strings.TrimSpace(s), 64)
}

// What names what e holds: "predictions" or "predicted classes".
func (e *Expected) What() string {
	if e.Classes {
		return "predicted classes"
	}
	return "predictions"
}

// Compare compares predictions of the model with its first len(preds)
// rows, bit for bit in precision prec (any two NaNs are equal): preds holds
// the NumOutputs predictions of each row and classes the predicted class
// of each row (nil for a model that is not a classifier). In precision
// float32 an expected value is rounded to float32 first. The error starts
// with source, which names where preds come from, lists the first
// differences, and says so when the expected values look written in the
// other precision, naming the flag that regenerates the package in it.
func (e *Expected) Compare(source string, preds [][]float64, classes []int, prec ir.Precision) error {
	n := len(preds)
	if len(e.Rows) < n {
		return fmt.Errorf("%s has %d rows, the data %d", e.Path, len(e.Rows), n)
	}
	if e.Classes && len(classes) < n {
		return fmt.Errorf("%s holds classes, and %s predicts none", e.Path, source)
	}
	var diffs []Diff
	var got, want []float64 // every pair compared, for the hint
	for i := range n {
		for k, w := range e.Rows[i] {
			g, what := 0.0, ""
			if e.Classes {
				g, what = float64(classes[i]), "class"
			} else {
				g, what = preds[i][k], fmt.Sprintf("prediction[%d]", k)
				got, want = append(got, g), append(want, w)
			}
			if prec.Is32() && !e.Classes {
				w = float64(float32(w))
			}
			if !(g == w || math.IsNaN(g) && math.IsNaN(w)) {
				diffs = append(diffs, Diff{Row: i, What: what, Got: g, Want: w, WantFrom: e.Path})
			}
		}
	}
	if len(diffs) == 0 {
		return nil
	}
	err := Mismatch(fmt.Sprintf("%s differs from %s", source, e.Path), diffs)
	if hint := precisionHint(got, want, prec); hint != "" {
		err = fmt.Errorf("%w; %s", err, hint)
	}
	return err
}

// precisionHint says which precision the expected values want look
// written in, when it is not prec and they are close to the values got:
// "" otherwise. Close is, in float32 ulps, at most 1 for a float64 package
// (its predictions rounded to float32 are a float32 library's, or one ulp
// off), and at most 16 for a float32 package, whose float32 arithmetic
// drifts from float64's by a few roundings.
func precisionHint(got, want []float64, prec ir.Precision) string {
	if len(got) == 0 {
		return ""
	}
	tolerance := uint32(1)
	if prec.Is32() {
		tolerance = 16
	}
	short := true // every expected value is written with the 9 digits of a float32 at most
	for i, w := range want {
		if ulps32(got[i], w) > tolerance {
			return ""
		}
		short = short && digits(w) <= 9
	}
	switch {
	case !prec.Is32() && short:
		return "the package is float64 and the expected values look float32: regenerate it with --precision float32"
	case prec.Is32() && !short:
		return "the package is float32 and the expected values look float64: regenerate it with --precision float64"
	}
	return ""
}

// ulps32 returns how many float32 values lie between a and b rounded to
// float32, plus one (0 when they are equal, or both NaN); at most 2^32-1.
func ulps32(a, b float64) uint32 {
	x, y := float32(a), float32(b)
	switch {
	case x == y || x != x && y != y:
		return 0
	case x != x || y != y:
		return math.MaxUint32
	}
	// Map the floats to integers in the order of the floats.
	key := func(f float32) int64 {
		u := int64(math.Float32bits(f))
		if u&(1<<31) != 0 {
			return -(u &^ (1 << 31))
		}
		return u
	}
	d := key(x) - key(y)
	if d < 0 {
		d = -d
	}
	return uint32(min(d, math.MaxUint32))
}

// digits returns the number of significant digits of the shortest decimal
// form of v that reads back as v.
func digits(v float64) int {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	s := strconv.FormatFloat(math.Abs(v), 'e', -1, 64)
	mant, _, _ := strings.Cut(s, "e")
	return len(strings.Replace(mant, ".", "", 1))
}

// Diff is one disagreement between two predictions of a row.
type Diff struct {
	Row       int
	What      string // "margin[k]", "prediction[k]" or "class"
	Got, Want float64
	// GotFrom and WantFrom name where Got and Want come from; "" means
	// "generated" and "interpreter".
	GotFrom, WantFrom string
}

// String describes the disagreement in one line, naming the source of each
// value: "row 3: prediction[0] = 0.25 (generated), 0.5 (expected.csv)".
func (d Diff) String() string {
	gotFrom, wantFrom := d.GotFrom, d.WantFrom
	if gotFrom == "" {
		gotFrom = "generated"
	}
	if wantFrom == "" {
		wantFrom = "interpreter"
	}
	return fmt.Sprintf("row %d: %s = %v (%s), %v (%s)", d.Row, d.What, d.Got, gotFrom, d.Want, wantFrom)
}

// Mismatch formats the first three differences as one error, what first:
// "what: row 1: ...; row 2: ...; row 5: ...; and 4 more".
func Mismatch[D fmt.Stringer](what string, diffs []D) error {
	var parts []string
	for i, d := range diffs {
		if i == 3 {
			parts = append(parts, fmt.Sprintf("and %d more", len(diffs)-3))
			break
		}
		parts = append(parts, d.String())
	}
	return fmt.Errorf("%s: %s", what, strings.Join(parts, "; "))
}
