package trainset

import (
	"fmt"
	"math"
	"strconv"

	"github.com/treegen/treegen/data"
)

// Classes returns the class names of the target of d and every row's
// class index, refusing a target that looks like a regression target
// (non-integer numbers, or more than maxClasses distinct values) or that
// has a single class. trainer prefixes the errors ("e2e"); models names
// what the trainer makes in the refusal of a regression target ("E2E
// trees are for classification").
func Classes(d *data.Dataset, trainer, models string, maxClasses int) ([]string, []int, error) {
	labels, index, err := data.Classes(d.Y)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", trainer, err)
	}
	if d.Labels == nil {
		for _, v := range labels {
			if v != math.Trunc(v) {
				return nil, nil, fmt.Errorf("%s: the target holds the non-integer value %v, a regression target: %s are for classification", trainer, v, models)
			}
		}
	}
	switch {
	case len(labels) > maxClasses:
		return nil, nil, fmt.Errorf("%s: the target has %d distinct values (more than %d), a regression target: %s are for classification", trainer, len(labels), maxClasses, models)
	case len(labels) < 2:
		return nil, nil, fmt.Errorf("%s: the target has a single class (%s) in all %d rows: nothing to classify", trainer, d.LabelName(labels[0]), d.Rows)
	}
	return ClassNames(d, labels), index, nil
}

// LabelsOf returns the classes of the rows of the validation set d,
// matched by name to the training classes names.
func LabelsOf(d *data.Dataset, names []string, trainer string) ([]int, error) {
	index := make(map[string]int, len(names))
	for i, name := range names {
		index[name] = i
	}
	y := make([]int, d.Rows)
	for r, v := range d.Y {
		c, ok := index[d.LabelName(v)]
		if !ok {
			return nil, fmt.Errorf("%s: validation row %d (0-based) has class %s, which the training set lacks", trainer, r, d.LabelName(v))
		}
		y[r] = c
	}
	return y, nil
}

// featureName names feature j of d in errors.
func featureName(d *data.Dataset, j int) string {
	if d.Features != nil && d.Features[j] != "" {
		return fmt.Sprintf("%q (column %d)", d.Features[j], j)
	}
	return strconv.Itoa(j)
}

// checkValue refuses a missing (unless impute) or infinite feature value.
func checkValue(d *data.Dataset, r, j int, v float64, what, trainer string, impute bool) error {
	switch {
	case math.IsNaN(v) && !impute:
		return fmt.Errorf("%s: feature %s of %s row %d (0-based) is missing (NaN); set Options.Impute to replace missing values by the training mean", trainer, featureName(d, j), what, r)
	case math.IsInf(v, 0):
		return fmt.Errorf("%s: feature %s of %s row %d (0-based) is infinite (%v)", trainer, featureName(d, j), what, r, v)
	}
	return nil
}

// FitStandardiser returns the training mean (shift) and the inverse of
// the standard deviation (scale) of every feature of d, over its values
// that are not missing (with impute; without, a missing value is an
// error); a constant feature, or one without values, gets scale 1. The
// pair becomes a model's Preprocess, x' = (x - shift)·scale.
func FitStandardiser(d *data.Dataset, trainer string, impute bool) (shift, scale []float64, err error) {
	p := d.Cols
	shift, scale = make([]float64, p), make([]float64, p)
	count := make([]float64, p)
	for r := range d.Rows {
		for j, v := range d.Row(r) {
			if err := checkValue(d, r, j, v, "training", trainer, impute); err != nil {
				return nil, nil, err
			}
			if !math.IsNaN(v) {
				shift[j] += v
				count[j]++
			}
		}
	}
	for j := range shift {
		if count[j] > 0 {
			shift[j] /= count[j]
		}
	}
	ss := make([]float64, p)
	for r := range d.Rows {
		for j, v := range d.Row(r) {
			if !math.IsNaN(v) {
				ss[j] += (v - shift[j]) * (v - shift[j])
			}
		}
	}
	for j := range ss {
		scale[j] = 1
		if sd := math.Sqrt(ss[j] / max(count[j], 1)); sd > 0 && !math.IsInf(1/sd, 0) {
			scale[j] = 1 / sd
		}
	}
	return shift, scale, nil
}

// Standardise returns the rows of d (row-major) mapped by
// x' = (x - shift)·scale, as the runtime applies a model's Preprocess; a
// missing value (allowed with impute) becomes 0, the training mean. what
// names d in errors ("training", "validation").
func Standardise(d *data.Dataset, shift, scale []float64, what, trainer string, impute bool) ([]float64, error) {
	x := make([]float64, len(d.X))
	for r := range d.Rows {
		for j, v := range d.Row(r) {
			if err := checkValue(d, r, j, v, what, trainer, impute); err != nil {
				return nil, err
			}
			if math.IsNaN(v) {
				continue // imputed: the training mean, x' = 0
			}
			x[r*d.Cols+j] = (v - shift[j]) * scale[j]
		}
	}
	return x, nil
}

// Complete returns an error naming the first missing value (NaN) of d, for
// a trainer that cannot train on one: trainer prefixes the error ("tao"),
// what names d ("training"), and why ends the message ("softmax leaves
// compute with every feature, so softmax trees need complete rows").
func Complete(d *data.Dataset, what, trainer, why string) error {
	for i, v := range d.X {
		if math.IsNaN(v) {
			r, j := i/d.Cols, i%d.Cols
			return fmt.Errorf("%s: feature %s of %s row %d (0-based) is missing (NaN): %s; fill in missing values before training", trainer, featureName(d, j), what, r, why)
		}
	}
	return nil
}
