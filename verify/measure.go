package verify

import (
	"fmt"
	"math"
	"strconv"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// Deviation is how far the predictions of one model are from another's.
type Deviation struct {
	// MaxDiff is the largest absolute difference of two predictions that
	// are both numbers.
	MaxDiff float64
	// NaNRows counts the rows with a prediction that is NaN for one model
	// and not for the other.
	NaNRows int
	// Classes counts the rows whose predicted classes differ.
	Classes int
}

// Measure compares the predictions of got with those of want on rows,
// with the interpreter in precision prec. The models must have the same
// features and outputs; every row holds one value per feature.
func Measure(want, got *ir.Model, rows [][]float64, prec ir.Precision) (Deviation, error) {
	if want.NumFeatures != got.NumFeatures || want.NumOutputs != got.NumOutputs {
		return Deviation{}, fmt.Errorf("the models differ in shape: %d features and %d outputs, and %d and %d",
			want.NumFeatures, want.NumOutputs, got.NumFeatures, got.NumOutputs)
	}
	if prec.Is32() {
		return measure[float32](want, got, rows)
	}
	return measure[float64](want, got, rows)
}

func measure[F runtime.Float](want, got *ir.Model, rows [][]float64) (Deviation, error) {
	var dev Deviation
	pw, err := runtime.New[F](want)
	if err != nil {
		return dev, err
	}
	pg, err := runtime.New[F](got)
	if err != nil {
		return dev, err
	}
	x := make([]F, want.NumFeatures)
	yw := make([]F, want.NumOutputs)
	yg := make([]F, got.NumOutputs)
	for i, row := range rows {
		if len(row) != len(x) {
			return dev, fmt.Errorf("row %d has %d values, the model %d features", i+1, len(row), len(x))
		}
		for j, v := range row {
			x[j] = F(v)
		}
		if err := pw.Predict(x, yw); err != nil {
			return dev, err
		}
		if err := pg.Predict(x, yg); err != nil {
			return dev, err
		}
		nan := false
		for k := range yw {
			a, b := float64(yw[k]), float64(yg[k])
			switch {
			case a == b || math.IsNaN(a) && math.IsNaN(b):
			case math.IsNaN(a) || math.IsNaN(b):
				nan = true
			default:
				dev.MaxDiff = math.Max(dev.MaxDiff, math.Abs(a-b))
			}
		}
		if nan {
			dev.NaNRows++
		}
		if want.IsClassifier() && pw.ClassOf(yw) != pg.ClassOf(yg) {
			dev.Classes++
		}
	}
	return dev, nil
}

// Sentence says what dev is on the n rows of the file name, for the header
// of generated code: "On the 303 rows of heart.tsv.gz, predictions are at
// most 0.0021 from the interpreter's; 2 predicted classes differ." The
// part on classes is there for a classifier only.
func (dev Deviation) Sentence(n int, name string, classifier bool) string {
	s := fmt.Sprintf("On the %s of %s, ", plural(n, "row"), name)
	if dev.MaxDiff == 0 && dev.NaNRows == 0 {
		s += "predictions equal the interpreter's"
	} else {
		s += "predictions are at most " + UpperBound(dev.MaxDiff) + " from the interpreter's"
	}
	if dev.NaNRows > 0 {
		s += fmt.Sprintf(", except on %s where one of them is NaN and the other is not", plural(dev.NaNRows, "row"))
	}
	if classifier {
		switch dev.Classes {
		case 0:
			s += "; no predicted class differs"
		case 1:
			s += "; 1 predicted class differs"
		default:
			s += fmt.Sprintf("; %d predicted classes differ", dev.Classes)
		}
	}
	return s + "."
}

// UpperBound formats v with two significant digits (three when rounding
// up carries into a new digit), rounded up so that the number shown is not
// below v: 0.00213 is "0.0022", 99.01 is "100".
func UpperBound(v float64) string {
	s := strconv.FormatFloat(v, 'g', 2, 64)
	if p, err := strconv.ParseFloat(s, 64); err == nil && p >= v || math.IsInf(v, 0) || !(v > 0) {
		return s
	}
	e := int(math.Floor(math.Log10(v))) - 1 // v/10^e has two digits before the point
	u := math.Ceil(v/math.Pow(10, float64(e))) * math.Pow(10, float64(e))
	if e >= -8 {
		return strconv.FormatFloat(u, 'f', max(0, -e), 64)
	}
	return strconv.FormatFloat(u, 'g', 3, 64)
}

// plural returns "1 row" or "n rows".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
