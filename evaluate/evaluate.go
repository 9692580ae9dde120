package evaluate

import (
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/runtime"
)

// Scores are the evaluation measures of a model on labelled rows; a measure
// that the model's task does not have, or that is not a number, is nil.
type Scores struct {
	// Rows is the number of rows scored.
	Rows int `json:"rows"`
	// Accuracy is the share of rows whose predicted class is the target
	// (classifiers).
	Accuracy *float64 `json:"accuracy,omitempty"`
	// AUC is the area under the ROC curve, for several classes the mean of
	// the one-vs-rest AUCs (classifiers).
	AUC *float64 `json:"auc,omitempty"`
	// LogLoss is the mean negative log-likelihood of the targets
	// (classifiers whose outputs are probabilities).
	LogLoss *float64 `json:"log_loss,omitempty"`
	// MSE is the mean squared error (regressions of one output).
	MSE *float64 `json:"mse,omitempty"`
}

// ClassOf maps the target of a row to a class index of a model: label is
// the target as text (a label, or the number written out), y its value and
// isText whether the target is a text label rather than a number.
type ClassOf func(label string, y float64, isText bool) (int, error)

// ClassMapper returns the ClassOf of the classifier m: a target's label
// through m.ClassNames when the model has them, else its value y as an
// integer 0..classes-1, which a text target is not.
func ClassMapper(m *ir.Model) ClassOf {
	classes := m.NumOutputs
	if m.Task == ir.Binary {
		classes = 2
	}
	byName := map[string]int{}
	for i, name := range m.ClassNames {
		byName[name] = i
	}
	return func(label string, y float64, isText bool) (int, error) {
		if m.ClassNames != nil {
			c, ok := byName[label]
			if !ok {
				return 0, fmt.Errorf("target %s is not a class of the model (classes: %v)", label, m.ClassNames)
			}
			return c, nil
		}
		if isText || y != math.Trunc(y) || y < 0 || int(y) >= classes {
			return 0, fmt.Errorf("target %s is not a class index 0..%d", label, classes-1)
		}
		return int(y), nil
	}
}

// ClassIndex maps the targets of the rows of d to class indices of the
// classifier m (see ClassMapper). An error names the file and the row.
func ClassIndex(m *ir.Model, d *data.Dataset) ([]int, error) {
	classOf := ClassMapper(m)
	idx := make([]int, len(d.Y))
	for i, y := range d.Y {
		c, err := classOf(d.LabelName(y), y, d.Labels != nil)
		if err != nil {
			return nil, fmt.Errorf("%s: row %d: %v", d.Source, i+1, err)
		}
		idx[i] = c
	}
	return idx, nil
}

// Dataset scores m on the rows of d with the interpreter in precision prec
// (m.RecordedPrecision() gives the predictions of the library that made
// the model), on every core. d must have a target and one feature column
// per feature of m, in the model's order (matching columns by name is the
// caller's).
func Dataset(m *ir.Model, d *data.Dataset, prec ir.Precision) (*Scores, error) {
	if !d.HasTarget() {
		return nil, fmt.Errorf("%s has no target column to evaluate against", d.Source)
	}
	if d.Cols != m.NumFeatures {
		return nil, fmt.Errorf("%s has %d feature columns, the model expects %d", d.Source, d.Cols, m.NumFeatures)
	}
	p, err := newPredictor(m, prec)
	if err != nil {
		return nil, err
	}
	k := m.NumOutputs
	preds := make([]float64, d.Rows*k)
	// The rows in blocks, on every core: the predictor is safe for
	// concurrent use, and each row's prediction is its own.
	const block = 1024
	blocks := (d.Rows + block - 1) / block
	errs := make([]error, blocks)
	parallel.For(blocks, goruntime.GOMAXPROCS(0), func(b int) {
		lo, hi := b*block, min(d.Rows, (b+1)*block)
		errs[b] = p.batch(d.Block(lo, hi, nil), preds[lo*k:hi*k])
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var truth []int
	if m.IsClassifier() {
		if truth, err = ClassIndex(m, d); err != nil {
			return nil, err
		}
	}
	return summarize(m, p, preds, d.Y, truth), nil
}

// Stream scores m on the rows of s with the interpreter in precision prec,
// block by block. It keeps the predictions and targets of every row, which
// AUC needs: 8 bytes per output and 8 per target. s must have a target,
// and its feature columns must be the model's.
func Stream(m *ir.Model, s *data.Stream, prec ir.Precision) (*Scores, error) {
	if !s.HasTarget() {
		return nil, fmt.Errorf("%s has no target column to evaluate against", s.Source())
	}
	if cols := len(s.Features()); cols != m.NumFeatures {
		return nil, fmt.Errorf("%s has %d feature columns, the model expects %d", s.Source(), cols, m.NumFeatures)
	}
	p, err := newPredictor(m, prec)
	if err != nil {
		return nil, err
	}
	k := m.NumOutputs
	s.Prepare = func(b *data.Block) {
		b.Scores = slices.Grow(b.Scores[:0], b.Rows*k)[:b.Rows*k]
		if err := p.batch(b.X, b.Scores); err != nil {
			panic(err) // the shapes are right: the columns were checked
		}
	}
	classOf := ClassMapper(m)
	var preds, y []float64
	var truth []int
	err = s.Each(func(b *data.Block) error {
		preds = append(preds, b.Scores...)
		if !m.IsClassifier() {
			y = append(y, b.Y...)
			return nil
		}
		first := s.Rows() - b.Rows
		for r, v := range b.Y {
			label, text := "", false
			if b.YText != nil && b.YText[r] != "" {
				label, text = b.YText[r], true
			} else {
				label = strconv.FormatFloat(v+0, 'g', -1, 64) // v+0 turns -0 into +0
			}
			c, err := classOf(label, v, text)
			if err != nil {
				return fmt.Errorf("%s: row %d: %v", s.Source(), first+r+1, err)
			}
			truth = append(truth, c)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return summarize(m, p, preds, y, truth), nil
}

// summarize computes the scores of the predictions preds of p (NumOutputs
// per row) against the targets y of a regression, or the true classes
// truth of a classifier.
func summarize(m *ir.Model, p *predictor, preds, y []float64, truth []int) *Scores {
	k := m.NumOutputs
	rows := len(preds) / k
	s := &Scores{Rows: rows}
	if !m.IsClassifier() {
		if k == 1 {
			s.MSE = some(metrics.MSE(y, preds))
		}
		return s
	}
	classes := make([]int, rows)
	for i := range classes {
		classes[i] = p.classOf(preds[i*k : (i+1)*k])
	}
	s.Accuracy = some(metrics.Accuracy(truth, classes))
	probs := preds
	if m.Task == ir.Binary {
		probs = make([]float64, 2*rows)
		for i, v := range preds {
			probs[2*i], probs[2*i+1] = 1-v, v
		}
		k = 2
	}
	s.AUC = some(metrics.MacroAUC(truth, probs, k))
	if isProbability(probs) {
		s.LogLoss = some(metrics.LogLoss(truth, probs, k))
	}
	return s
}

// some returns a pointer to v, or nil when v is NaN or infinite.
func some(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// isProbability reports whether every value lies in [0, 1].
func isProbability(v []float64) bool {
	for _, x := range v {
		if !(x >= 0 && x <= 1) {
			return false
		}
	}
	return true
}

// measures lists the measures of s that are present, in their order.
func (s *Scores) measures() []measure {
	var out []measure
	for _, f := range []measure{{"accuracy", s.Accuracy}, {"auc", s.AUC}, {"log_loss", s.LogLoss}, {"mse", s.MSE}} {
		if f.v != nil {
			out = append(out, f)
		}
	}
	return out
}

// measure is one named measure of Scores.
type measure struct {
	name string
	v    *float64
}

// String formats the scores one per line, with six significant digits:
// "rows      303\naccuracy  0.867987\n...".
func (s *Scores) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "rows      %d\n", s.Rows)
	for _, f := range s.measures() {
		fmt.Fprintf(&b, "%-9s %.6g\n", f.name, *f.v)
	}
	return b.String()
}

// Line formats the measures on one line with four decimals, each preceded
// by a space: " accuracy 0.8680 auc 0.9012 log_loss 0.3511".
func (s *Scores) Line() string {
	var b strings.Builder
	for _, f := range s.measures() {
		fmt.Fprintf(&b, " %s %.4f", f.name, *f.v)
	}
	return b.String()
}

// predictor is the interpreter in one precision, seen in float64.
type predictor struct {
	batch   func(x, out []float64) error // PredictBatch; safe for concurrent use
	classOf func(out []float64) int      // ClassOf; one call at a time
}

// newPredictor returns the interpreter of m in precision prec.
func newPredictor(m *ir.Model, prec ir.Precision) (*predictor, error) {
	prec, err := prec.Resolve()
	if err != nil {
		return nil, err
	}
	if !prec.Is32() {
		p, err := runtime.New[float64](m)
		if err != nil {
			return nil, err
		}
		return &predictor{
			batch:   func(x, out []float64) error { return p.PredictBatch(x, out, false) },
			classOf: p.ClassOf,
		}, nil
	}
	p, err := runtime.New[float32](m)
	if err != nil {
		return nil, err
	}
	narrow := func(v []float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	var buf []float32
	return &predictor{
		batch: func(x, out []float64) error {
			out32 := make([]float32, len(out))
			if err := p.PredictBatch(narrow(x), out32, false); err != nil {
				return err
			}
			for i, v := range out32 {
				out[i] = float64(v)
			}
			return nil
		},
		classOf: func(out []float64) int {
			// One row at a time (summarize), into one buffer.
			buf = buf[:0]
			for _, x := range out {
				buf = append(buf, float32(x))
			}
			return p.ClassOf(buf)
		},
	}, nil
}
