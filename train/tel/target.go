package tel

import (
	"fmt"
	"math"
	"slices"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/train/internal/loss"
	"github.com/treegen/treegen/train/internal/trainset"
)

// target is the training target in the form a loss needs.
type target struct {
	loss  Loss
	k     int      // outputs: 1, or the number of classes for Softmax
	names []string // class names, by class (classification)
	// base is the internal base score added to the tree sum: the constant
	// model of least loss for the classification losses, 0 for
	// SquaredError, whose target is standardised.
	base []float64
	// The model's margin is shift + scale·(base + Σ trees): shift is the
	// mean and scale the standard deviation of a regression target (0 and
	// 1 for classification).
	shift, scale float64
}

// newTarget prepares the target of d for loss.
func newTarget(d *data.Dataset, loss Loss) (*target, error) {
	t := &target{loss: loss, k: 1, scale: 1}
	if loss == SquaredError {
		if err := trainset.CheckRegression(d, "training"); err != nil {
			return nil, fmt.Errorf("tel: %w", err)
		}
		n := float64(d.Rows)
		s := 0.0
		for _, v := range d.Y {
			s += v
		}
		mean := s / n
		ss := 0.0
		for _, v := range d.Y {
			ss += (v - mean) * (v - mean)
		}
		sd := math.Sqrt(ss / n)
		if !(sd > 0) || math.IsInf(sd, 0) {
			sd = 1
		}
		t.shift, t.scale = mean, sd
		t.base = []float64{0}
		return t, nil
	}
	labels, index, err := data.Classes(d.Y)
	if err != nil {
		return nil, fmt.Errorf("tel: %w", err)
	}
	switch {
	case len(labels) < 2:
		return nil, fmt.Errorf("tel: the target has a single class (%s) in all %d rows: nothing to classify", d.LabelName(labels[0]), d.Rows)
	case loss == Logistic && len(labels) > 2:
		return nil, fmt.Errorf("tel: the logistic loss needs two classes, the target has %d: use softmax", len(labels))
	}
	t.names = trainset.ClassNames(d, labels)
	if loss == Softmax {
		t.k = len(labels)
	}
	count := make([]int, len(labels))
	for _, c := range index {
		count[c]++
	}
	n := float64(d.Rows)
	if loss == Logistic {
		q := math.Min(math.Max(float64(count[1])/n, 1e-15), 1-1e-15)
		t.base = []float64{math.Log(q / (1 - q))}
	} else {
		t.base = make([]float64, t.k)
		for c, m := range count {
			t.base[c] = math.Log(float64(m) / n)
		}
	}
	return t, nil
}

// labelsOf returns the target of d as the loss reads it: class indices for
// classification, standardised values for regression. Classes are matched
// by name (data.Dataset.LabelName), so that a validation file read on its
// own, whose text labels index another list, maps correctly.
func (t *target) labelsOf(d *data.Dataset, what string) ([]float64, error) {
	y := make([]float64, d.Rows)
	if t.names == nil {
		if err := trainset.CheckRegression(d, what); err != nil {
			return nil, fmt.Errorf("tel: %w", err)
		}
		for r, v := range d.Y {
			y[r] = (v - t.shift) / t.scale
		}
		return y, nil
	}
	index := make(map[string]int, len(t.names))
	for i, name := range t.names {
		index[name] = i
	}
	known := make(map[float64]int) // the class of each target value seen
	for r, v := range d.Y {
		c, ok := known[v]
		if !ok {
			name := d.LabelName(v)
			if c, ok = index[name]; !ok {
				return nil, fmt.Errorf("tel: %s row %d (0-based) has class %s, which the training set lacks", what, r, name)
			}
			known[v] = c
		}
		y[r] = float64(c)
	}
	return y, nil
}

// grad returns the loss of margins z (base included) for label y and
// writes ∂loss/∂z, multiplied by scale, into dz.
func (t *target) grad(z []float64, y float64, dz []float64, scale float64) float64 {
	switch t.loss {
	case Logistic:
		l, g := loss.Logistic(z[0], y)
		dz[0] = g * scale
		return l
	case Softmax:
		return loss.Softmax(z, int(y), dz, scale)
	default:
		r := z[0] - y
		dz[0] = r * scale
		return r * r / 2
	}
}

// report turns the mean internal loss into the reported one: for
// SquaredError the mean squared error in the target's units.
func (t *target) report(meanLoss float64) float64 {
	if t.loss == SquaredError {
		return 2 * meanLoss * t.scale * t.scale
	}
	return meanLoss
}

// auc returns the AUC of margins (n × k) against labels y, NaN for
// SquaredError.
func (t *target) auc(y, margins []float64) float64 {
	switch t.loss {
	case Logistic:
		pos := make([]bool, len(y))
		for r, v := range y {
			pos[r] = v == 1
		}
		return metrics.AUC(pos, margins)
	case Softmax:
		probs := slices.Clone(margins)
		truth := make([]int, len(y))
		for r, v := range y {
			truth[r] = int(v)
			row := probs[r*t.k : (r+1)*t.k]
			metrics.Softmax(row, row)
		}
		return metrics.MacroAUC(truth, probs, t.k)
	}
	return math.NaN()
}

// featureName names feature j of d in errors.
func featureName(d *data.Dataset, j int) string {
	if d.Features != nil && d.Features[j] != "" {
		return fmt.Sprintf("%q (column %d)", d.Features[j], j)
	}
	return fmt.Sprintf("%d", j)
}

// standardiser is the input map x' = (x - shift)·scale fitted on the
// training set, with the training means that replace missing values when
// Options.Impute is set.
type standardiser struct {
	shift, scale []float64
}

// fitStandardiser computes the mean and standard deviation of every
// feature of d over its present values. A constant feature (or one with no
// present value) gets scale 1 (and shift 0 when it has no value). Without
// impute a missing value is an error; infinite values always are.
func fitStandardiser(d *data.Dataset, impute bool) (*standardiser, error) {
	p := d.Cols
	st := &standardiser{shift: make([]float64, p), scale: make([]float64, p)}
	count := make([]int, p)
	for r := range d.Rows {
		for j, v := range d.Row(r) {
			switch {
			case math.IsNaN(v):
				if !impute {
					return nil, fmt.Errorf("tel: feature %s of training row %d (0-based) is missing (NaN); set Options.Impute to replace missing values by the training mean", featureName(d, j), r)
				}
			case math.IsInf(v, 0):
				return nil, fmt.Errorf("tel: feature %s of training row %d (0-based) is infinite (%v)", featureName(d, j), r, v)
			default:
				st.shift[j] += v
				count[j]++
			}
		}
	}
	for j := range st.shift {
		if count[j] > 0 {
			st.shift[j] /= float64(count[j])
		}
	}
	ss := make([]float64, p)
	for r := range d.Rows {
		for j, v := range d.Row(r) {
			if !math.IsNaN(v) {
				ss[j] += (v - st.shift[j]) * (v - st.shift[j])
			}
		}
	}
	for j := range ss {
		st.scale[j] = 1
		if count[j] > 0 {
			if sd := math.Sqrt(ss[j] / float64(count[j])); sd > 0 && !math.IsInf(1/sd, 0) {
				st.scale[j] = 1 / sd
			}
		}
	}
	return st, nil
}

// apply returns the standardised rows of d, missing values replaced by the
// training mean (x' = 0) when impute is set, else refused. what names d in
// errors.
func (st *standardiser) apply(d *data.Dataset, impute bool, what string) ([]float64, error) {
	x := make([]float64, len(d.X))
	p := d.Cols
	for r := range d.Rows {
		for j, v := range d.Row(r) {
			switch {
			case math.IsNaN(v):
				if !impute {
					return nil, fmt.Errorf("tel: feature %s of %s row %d (0-based) is missing (NaN); set Options.Impute to replace missing values by the training mean", featureName(d, j), what, r)
				}
				x[r*p+j] = 0
			case math.IsInf(v, 0):
				return nil, fmt.Errorf("tel: feature %s of %s row %d (0-based) is infinite (%v)", featureName(d, j), what, r, v)
			default:
				x[r*p+j] = (v - st.shift[j]) * st.scale[j]
			}
		}
	}
	return x, nil
}
