package latent

import (
	"fmt"
	"math"
	"slices"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/train/internal/loss"
	"github.com/treegen/treegen/train/internal/trainset"
)

// maxClasses is the largest number of classes a classification target may
// have before it is taken for a regression target.
const maxClasses = 100

// target is what the loss reads of a data set: its outputs, its inputs
// (every feature but the regressed ones) and how to standardise.
type target struct {
	loss  Loss
	k     int      // outputs
	names []string // class names (classification)
	// inputs are the feature columns the model reads, outputs the columns
	// it regresses (Options.Regress; nil: the target column).
	inputs, outputs []int
	// A regressed value v is learnt as (v - shift[j])/scale[j].
	shift, scale []float64
}

// newTarget prepares the target of the training set d for s.
func newTarget(d *data.Dataset, s settings) (*target, error) {
	t := &target{loss: s.loss, k: 1}
	regressed := make([]bool, d.Cols)
	for _, name := range s.regress {
		j := slices.Index(d.Features, name)
		if j < 0 {
			return nil, fmt.Errorf("latent: Regress names column %q, which the training set lacks (its features: %v)", name, d.Features)
		}
		regressed[j] = true
		t.outputs = append(t.outputs, j)
	}
	for j := range d.Cols {
		if !regressed[j] {
			t.inputs = append(t.inputs, j)
		}
	}
	if len(t.inputs) == 0 {
		return nil, fmt.Errorf("latent: Regress names every column: no feature is left to route on")
	}
	switch s.loss {
	case SquaredError:
		if t.outputs == nil {
			if err := trainset.CheckRegression(d, "training"); err != nil {
				return nil, fmt.Errorf("latent: %w", err)
			}
		} else {
			t.k = len(t.outputs)
		}
		t.shift, t.scale = make([]float64, t.k), make([]float64, t.k)
		for o := range t.k {
			var sum, ss float64
			for r := range d.Rows {
				sum += t.value(d, r, o)
			}
			mean := sum / float64(d.Rows)
			for r := range d.Rows {
				v := t.value(d, r, o) - mean
				ss += v * v
			}
			sd := math.Sqrt(ss / float64(d.Rows))
			if !(sd > 0) || math.IsInf(sd, 0) {
				sd = 1
			}
			t.shift[o], t.scale[o] = mean, sd
		}
		return t, nil
	}
	names, _, err := trainset.Classes(d, "latent", "classification losses", maxClasses)
	if err != nil {
		return nil, err
	}
	switch {
	case s.loss == Logistic && len(names) > 2:
		return nil, fmt.Errorf("latent: the logistic loss needs two classes, the target has %d: use softmax", len(names))
	case s.loss == Softmax:
		t.k = len(names)
	}
	t.names = names
	return t, nil
}

// value returns regressed output o of row r of d, unstandardised.
func (t *target) value(d *data.Dataset, r, o int) float64 {
	if t.outputs == nil {
		return d.Y[r]
	}
	return d.X[r*d.Cols+t.outputs[o]]
}

// labels returns the target of d as the loss reads it, row-major n×k for
// regression (standardised) and one class index per row for
// classification, classes matched by name. what names d in errors.
func (t *target) labels(d *data.Dataset, what string) ([]float64, error) {
	if t.names == nil {
		if t.outputs == nil {
			if err := trainset.CheckRegression(d, what); err != nil {
				return nil, fmt.Errorf("latent: %w", err)
			}
		}
		y := make([]float64, d.Rows*t.k)
		for r := range d.Rows {
			for o := range t.k {
				v := t.value(d, r, o)
				if !finite(v) {
					return nil, fmt.Errorf("latent: regressed column %q of %s row %d (0-based) is %v", d.Features[t.outputs[o]], what, r, v)
				}
				y[r*t.k+o] = (v - t.shift[o]) / t.scale[o]
			}
		}
		return y, nil
	}
	cls, err := trainset.LabelsOf(d, t.names, "latent")
	if err != nil {
		return nil, err
	}
	y := make([]float64, d.Rows)
	for r, c := range cls {
		y[r] = float64(c)
	}
	return y, nil
}

// width returns how many values of labels belong to a row.
func (t *target) width() int {
	if t.names == nil {
		return t.k
	}
	return 1
}

// grad returns the loss of the margins z of one row with target y (width
// values) and writes ∂loss/∂z times scale into dz. Regression's loss is
// Σ_o (z_o - y_o)²/2 on the standardised values.
func (t *target) grad(z, y, dz []float64, scale float64) float64 {
	switch t.loss {
	case Logistic:
		l, g := loss.Logistic(z[0], y[0])
		dz[0] = g * scale
		return l
	case Softmax:
		return loss.Softmax(z, int(y[0]), dz, scale)
	}
	sum := 0.0
	for o, v := range z {
		r := v - y[o]
		dz[o] = r * scale
		sum += r * r / 2
	}
	return sum
}

// report turns a mean internal loss into the reported one: the mean
// squared error in the target's units for regression.
func (t *target) report(meanLoss float64) float64 {
	if t.loss != SquaredError {
		return meanLoss
	}
	// Σ_o (z_o - y_o)²/2 on standardised values: in the target's units
	// for one output; several outputs of different units are summed in
	// standard deviations.
	if t.k == 1 {
		return 2 * meanLoss * t.scale[0] * t.scale[0]
	}
	return 2 * meanLoss
}
