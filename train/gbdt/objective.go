package gbdt

import (
	"fmt"
	"math"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/train/internal/trainset"
)

// minHessian is the floor of the hessians of the classification losses
// (XGBoost's): it keeps H+λ and the hessian sums of saturated rows away
// from 0.
const minHessian = 1e-16

// gradPair is the gradient and hessian of the loss of one row with respect
// to one margin.
type gradPair struct{ g, h float64 }

// target is the training target in the form an objective needs.
type target struct {
	obj   Objective
	k     int       // margins per row: 1, or the number of classes for Softmax
	names []string  // class names, by class (classification)
	y     []float64 // regression target
	cls   []int32   // class index of every row (classification)
	// w are the weights of the rows in the gradients (Options.Weights,
	// times ScalePosWeight for the positive rows), nil for all 1.
	w  []float64
	os objectiveSettings
}

// newTarget prepares the target of d for s.objective, with the row weights
// w (nil for none; known to be valid, but not to have d.Rows of them).
func newTarget(d *data.Dataset, s *settings, w []float64) (*target, error) {
	obj := s.objective
	t := &target{obj: obj, k: 1, os: s.obj, w: w}
	if w != nil && len(w) != d.Rows {
		return nil, fmt.Errorf("gbdt: %d Weights for %d training rows", len(w), d.Rows)
	}
	if isRegression(obj) {
		if err := trainset.CheckRegression(d, "training"); err != nil {
			return nil, fmt.Errorf("gbdt: %w", err)
		}
		if err := checkLabels(d.Y, obj, "training"); err != nil {
			return nil, err
		}
		t.y = d.Y
		return t, nil
	}
	labels, index, err := data.Classes(d.Y)
	if err != nil {
		return nil, fmt.Errorf("gbdt: %w", err)
	}
	switch {
	case len(labels) < 2:
		return nil, fmt.Errorf("gbdt: the target has a single class (%s) in all %d rows: nothing to classify", d.LabelName(labels[0]), d.Rows)
	case obj == Logistic && len(labels) > 2:
		return nil, fmt.Errorf("gbdt: the logistic objective needs two classes, the target has %d: use softmax", len(labels))
	}
	t.names = trainset.ClassNames(d, labels)
	t.cls = make([]int32, len(index))
	for r, c := range index {
		t.cls[r] = int32(c)
	}
	if obj == Softmax {
		t.k = len(labels)
	}
	if obj == Logistic && s.obj.scalePos != 1 {
		t.w = make([]float64, d.Rows)
		for r, c := range t.cls {
			t.w[r] = 1
			if w != nil {
				t.w[r] = w[r]
			}
			if c == 1 {
				t.w[r] *= s.obj.scalePos
			}
		}
	}
	return t, nil
}

// checkLabels returns an error naming the first row of d whose target obj
// cannot fit: poisson and tweedie need targets >= 0, gamma targets > 0.
// what names the data set ("training", "validation").
func checkLabels(y []float64, obj Objective, what string) error {
	for r, v := range y {
		switch {
		case (obj == Poisson || obj == Tweedie) && v < 0:
			return fmt.Errorf("gbdt: the %s objective needs targets >= 0, and %s row %d (0-based) has %v", obj, what, r, v)
		case obj == GammaRegression && !(v > 0):
			return fmt.Errorf("gbdt: the gamma objective needs targets > 0, and %s row %d (0-based) has %v", what, r, v)
		}
	}
	return nil
}

// classesOf maps the target of a validation set to the training classes,
// by name (data.Dataset.LabelName), so that a validation file read on its
// own, whose text labels index another list, maps correctly. It returns
// nil for regression, after checking that the target holds numbers.
func (t *target) classesOf(d *data.Dataset) ([]int32, error) {
	if t.names == nil {
		if err := trainset.CheckRegression(d, "validation"); err != nil {
			return nil, fmt.Errorf("gbdt: %w", err)
		}
		return nil, checkLabels(d.Y, t.obj, "validation")
	}
	index := make(map[string]int32, len(t.names))
	for i, name := range t.names {
		index[name] = int32(i)
	}
	known := make(map[float64]int32) // the class of each target value seen
	cls := make([]int32, d.Rows)
	for r, v := range d.Y {
		c, ok := known[v]
		if !ok {
			name := d.LabelName(v)
			if c, ok = index[name]; !ok {
				return nil, fmt.Errorf("gbdt: validation row %d (0-based) has class %s, which the training set lacks", r, name)
			}
			known[v] = c
		}
		cls[r] = c
	}
	return cls, nil
}

// baseScore returns the initial margins: the constant model that minimises
// the training loss. Squared error: the mean target. Logistic: the log-odds
// of the fraction of the second class, clipped to [1e-15, 1-1e-15] first.
// Softmax: the logarithms of the class fractions. With weights, and for
// the other objectives, see otherBaseScore.
func (t *target) baseScore() []float64 {
	if t.w != nil || !(t.obj == SquaredError || t.obj == Logistic || t.obj == Softmax) {
		return t.otherBaseScore()
	}
	switch t.obj {
	case SquaredError:
		// Two passes: the mean, then a correction with the mean of the
		// residuals (exact when the first mean is off by rounding).
		n := float64(len(t.y))
		s := 0.0
		for _, v := range t.y {
			s += v
		}
		mean := s / n
		c := 0.0
		for _, v := range t.y {
			c += v - mean
		}
		return []float64{mean + c/n}
	case Logistic:
		pos := 0
		for _, c := range t.cls {
			pos += int(c)
		}
		p := float64(pos) / float64(len(t.cls))
		p = math.Min(math.Max(p, 1e-15), 1-1e-15)
		return []float64{math.Log(p / (1 - p))}
	default:
		count := make([]int, t.k)
		for _, c := range t.cls {
			count[c]++
		}
		b := make([]float64, t.k)
		for k, c := range count {
			b[k] = math.Log(float64(c) / float64(len(t.cls)))
		}
		return b
	}
}

// gradients computes, for the rows [lo, hi), the gradient pairs of every
// margin: grads[k][r] for margin k of row r, from margins[k*n+r] (the
// margins are stored class by class, n per class).
func (t *target) gradients(margins []float64, grads [][]gradPair, lo, hi int) {
	if !(t.obj == SquaredError || t.obj == Logistic || t.obj == Softmax) {
		t.otherGradients(margins, grads[0], lo, hi)
		return
	}
	if t.w != nil {
		defer t.weigh(grads, lo, hi)
	}
	switch t.obj {
	case SquaredError:
		g := grads[0]
		for r := lo; r < hi; r++ {
			g[r] = gradPair{margins[r] - t.y[r], 1}
		}
	case Logistic:
		g := grads[0]
		for r := lo; r < hi; r++ {
			p := sigmoid(margins[r])
			h := p * (1 - p)
			if h < minHessian {
				h = minHessian
			}
			g[r] = gradPair{p - float64(t.cls[r]), h}
		}
	default:
		// Blocks of rows, each pass over one class's margins at a time; the
		// exponentials wait in e, so that grads is written once.
		const block = 256
		var mx, sum [block]float64
		e := make([]float64, t.k*block)
		n := len(grads[0])
		for b0 := lo; b0 < hi; b0 += block {
			b1 := min(b0+block, hi)
			w := b1 - b0
			copy(mx[:w], margins[b0:b1])
			for k := 1; k < t.k; k++ {
				for i, v := range margins[k*n+b0 : k*n+b1] {
					if v > mx[i] {
						mx[i] = v
					}
				}
			}
			clear(sum[:w])
			for k := range t.k {
				ek := e[k*block : k*block+w]
				for i, v := range margins[k*n+b0 : k*n+b1] {
					ek[i] = math.Exp(v - mx[i])
					sum[i] += ek[i]
				}
			}
			for i := range w {
				sum[i] = 1 / sum[i]
			}
			cls := t.cls[b0:b1]
			for k := range t.k {
				g, ek := grads[k][b0:b1], e[k*block:k*block+w]
				for i := range g {
					p := ek[i] * sum[i]
					y := 0.0
					if int(cls[i]) == k {
						y = 1
					}
					// XGBoost's diagonal hessian, twice p(1-p).
					h := 2 * p * (1 - p)
					if h < minHessian {
						h = minHessian
					}
					g[i] = gradPair{p - y, h}
				}
			}
		}
	}
}

func sigmoid(m float64) float64 { return 1 / (1 + math.Exp(-m)) }

// scorer computes the loss and the AUC of margins against a target.
type scorer struct {
	obj   Objective
	k     int
	y     []float64 // regression
	cls   []int32   // classification
	truth []int     // cls as ints, for the metrics package
	probs []float64 // scratch: n × (2 or k)
	pos   []bool    // scratch: binary AUC
	score []float64 // scratch: binary AUC
	// w are the rows' weights (nil: all 1) and os the options of the
	// objective and the metric (see target.scorer).
	w  []float64
	os objectiveSettings
}

func newScorer(obj Objective, k int, y []float64, cls []int32) *scorer {
	s := &scorer{obj: obj, k: k, y: y, cls: cls}
	if cls != nil {
		s.truth = make([]int, len(cls))
		for i, c := range cls {
			s.truth[i] = int(c)
		}
	}
	return s
}

// probabilities fills s.probs with the probabilities of the classes, one
// row per row of the margins (stored class by class), and returns the
// width of its rows.
func (s *scorer) probabilities(margins []float64) int {
	n := len(s.cls)
	w := max(s.k, 2)
	if len(s.probs) != n*w {
		s.probs = make([]float64, n*w)
	}
	if s.obj == Logistic {
		for r := range n {
			p := sigmoid(margins[r])
			s.probs[2*r], s.probs[2*r+1] = 1-p, p
		}
		return w
	}
	m := make([]float64, w)
	for r := range n {
		for k := range m {
			m[k] = margins[k*n+r]
		}
		metrics.Softmax(s.probs[r*w:(r+1)*w], m)
	}
	return w
}

// loss returns the mean loss of the margins: log-loss, or the mean squared
// error; weighted, or for the other objectives, see otherLoss.
func (s *scorer) loss(margins []float64) float64 {
	if s.w != nil || isRegression(s.obj) && s.obj != SquaredError {
		return s.otherLoss(margins)
	}
	if s.obj == SquaredError {
		return metrics.MSE(s.y, margins)
	}
	w := s.probabilities(margins)
	return metrics.LogLoss(s.truth, s.probs, w)
}

// auc returns the AUC of the margins (macro one-vs-rest for Softmax), NaN
// for regression. It ranks by probabilities, as a user of the model would.
func (s *scorer) auc(margins []float64) float64 {
	if isRegression(s.obj) {
		return math.NaN()
	}
	w := s.probabilities(margins)
	if s.w != nil {
		return s.weightedAUC(w)
	}
	return metrics.MacroAUC(s.truth, s.probs, w)
}
