// Package trainset holds what treegen's trainers share about their data:
// the checks of a training and a validation set, and how the classes of a
// target become a model's task, link and class names.
package trainset

import (
	"fmt"
	"math"
	"strconv"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// Check returns an error unless d is a well-formed data set with a finite
// target. what names it in errors ("training", "validation"); the errors
// read well after the trainer's name: "tel: the training set has no rows".
func Check(d *data.Dataset, what string) error {
	switch {
	case d == nil:
		return fmt.Errorf("no %s set", what)
	case d.Rows <= 0:
		return fmt.Errorf("the %s set has no rows", what)
	case d.Cols <= 0:
		return fmt.Errorf("the %s set has no features", what)
	case d.Y == nil:
		return fmt.Errorf("the %s set has no target column", what)
	case len(d.X) != d.Rows*d.Cols:
		return fmt.Errorf("malformed %s set: %d values for %d rows of %d features", what, len(d.X), d.Rows, d.Cols)
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
	return nil
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

// Label is the class name of the target value v: the shortest decimal that
// parses back to v.
func Label(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Describe sets the task of a model of k outputs trained on a target whose
// classes are labels (ascending; nil for regression), the link that goes
// with the task, its outputs and its class names. The task follows from k
// and labels: regression (identity link) without labels, binary (sigmoid)
// for one output, multiclass (softmax) for one output per class.
func Describe(m *ir.Model, k int, labels []float64) {
	switch {
	case labels == nil:
		m.Task, m.Link = ir.Regression, ir.Identity
	case k == 1:
		m.Task, m.Link = ir.Binary, ir.Sigmoid
	default:
		m.Task, m.Link = ir.Multiclass, ir.Softmax
	}
	m.NumOutputs = k
	if labels != nil {
		m.ClassNames = make([]string, len(labels))
		for i, v := range labels {
			m.ClassNames[i] = Label(v)
		}
	}
}
