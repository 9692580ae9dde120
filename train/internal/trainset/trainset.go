// Package trainset holds what treegen's trainers share about their data:
// the checks of a training and a validation set, and how the classes of a
// target become a model's task, link and class names.
package trainset

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// Check returns an error unless d is a well-formed data set with a finite
// target. what names it in errors ("training", "validation"); the errors
// read well after the trainer's name: "tel: the training set has no rows".
func Check(d *data.Dataset, what string) error {
	if d != nil && d.IsCompact() {
		return fmt.Errorf("the %s set is compact (data.Options.Compact), which this trainer does not read: expand it with Dataset.Expand", what)
	}
	return check(d, what)
}

// CheckCompact is Check for a trainer that reads compact data sets as well
// (through data.Dataset.At, Column and Row).
func CheckCompact(d *data.Dataset, what string) error {
	return check(d, what)
}

func check(d *data.Dataset, what string) error {
	values := 0
	if d != nil {
		values = max(len(d.X), len(d.XC))
	}
	switch {
	case d == nil:
		return fmt.Errorf("no %s set", what)
	case d.Rows <= 0:
		return fmt.Errorf("the %s set has no rows", what)
	case d.Cols <= 0:
		return fmt.Errorf("the %s set has no features", what)
	case d.Y == nil:
		return fmt.Errorf("the %s set has no target column", what)
	case values != d.Rows*d.Cols || d.X != nil && d.XC != nil:
		return fmt.Errorf("malformed %s set: %d values for %d rows of %d features", what, values, d.Rows, d.Cols)
	case len(d.Y) != d.Rows:
		return fmt.Errorf("malformed %s set: %d target values for %d rows", what, len(d.Y), d.Rows)
	case d.Features != nil && len(d.Features) != d.Cols:
		return fmt.Errorf("malformed %s set: %d feature names for %d features", what, len(d.Features), d.Cols)
	}
	for r, v := range d.Y {
		if math.IsNaN(v) {
			return fmt.Errorf("the target of %s row %d (0-based) is missing (NaN)", what, r)
		}
		if math.IsInf(v, 0) {
			return fmt.Errorf("the target of %s row %d (0-based) is infinite (%v)", what, r, v)
		}
	}
	return CheckLabels(d, what)
}

// CheckLabels returns an error unless the text labels of d, if it has
// them, are distinct and every target value is the index of one. what
// names d as for Check.
func CheckLabels(d *data.Dataset, what string) error {
	if d.Labels == nil {
		return nil
	}
	seen := make(map[string]bool, len(d.Labels))
	for _, l := range d.Labels {
		if seen[l] {
			return fmt.Errorf("malformed %s set: label %q is listed twice", what, l)
		}
		seen[l] = true
	}
	for r, v := range d.Y {
		if !(v >= 0 && v < float64(len(d.Labels))) || v != math.Trunc(v) {
			return fmt.Errorf("malformed %s set: the target of row %d (0-based) is %v, not the index of one of its %d labels", what, r, v, len(d.Labels))
		}
	}
	return nil
}

// maxLabelsShown is how many text labels CheckRegression shows.
const maxLabelsShown = 3

// CheckRegression returns an error when the target of d holds text labels
// (d.Labels is set), which a regression cannot fit. what names d as for
// Check.
func CheckRegression(d *data.Dataset, what string) error {
	if d.Labels == nil {
		return nil
	}
	shown := make([]string, 0, maxLabelsShown+1)
	for i, l := range d.Labels {
		if i == maxLabelsShown {
			shown = append(shown, "...")
			break
		}
		shown = append(shown, strconv.Quote(l))
	}
	return fmt.Errorf("the target column of the %s set holds text labels (%s) and a regression needs numbers", what, strings.Join(shown, ", "))
}

// CheckValid returns an error unless valid is well formed (Check) and has
// the columns of train.
func CheckValid(train, valid *data.Dataset) error {
	if err := Check(valid, "validation"); err != nil {
		return err
	}
	if valid.Cols != train.Cols {
		return fmt.Errorf("the validation set has %d features, the training set %d", valid.Cols, train.Cols)
	}
	if train.Features != nil && valid.Features != nil {
		for j := range train.Features {
			if train.Features[j] != valid.Features[j] {
				return fmt.Errorf("feature %d is %q in the validation set, %q in the training set", j, valid.Features[j], train.Features[j])
			}
		}
	}
	return nil
}

// ClassNames returns the names of the classes of d whose target values
// are labels (ascending, as data.Classes returns them): d.LabelName of each.
func ClassNames(d *data.Dataset, labels []float64) []string {
	names := make([]string, len(labels))
	for i, v := range labels {
		names[i] = d.LabelName(v)
	}
	return names
}

// Describe sets the task of a model of k outputs trained on a target whose
// classes are named names (nil for regression), the link that goes with
// the task, its outputs and its class names. The task follows from k and
// names: regression (identity link) without names, binary (sigmoid) for
// one output, multiclass (softmax) for one output per class.
func Describe(m *ir.Model, k int, names []string) {
	switch {
	case names == nil:
		m.Task, m.Link = ir.Regression, ir.Identity
	case k == 1:
		m.Task, m.Link = ir.Binary, ir.Sigmoid
	default:
		m.Task, m.Link = ir.Multiclass, ir.Softmax
	}
	m.NumOutputs = k
	if names != nil {
		m.ClassNames = slices.Clone(names)
	}
}

// Fingerprint returns the fingerprint of the training set train for a
// model's provenance, with that of the validation set valid (if not nil)
// under the same keys prefixed "valid_".
func Fingerprint(train, valid *data.Dataset) map[string]string {
	fp := train.Fingerprint()
	if valid != nil {
		for key, v := range valid.Fingerprint() {
			fp["valid_"+key] = v
		}
	}
	return fp
}
