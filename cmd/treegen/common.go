package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/runtime"
)

// readData reads a data file; with requireTarget the target column must exist.
func readData(path, target string, requireTarget bool) (*data.Dataset, error) {
	if path == "" {
		return nil, fmt.Errorf("--data is required")
	}
	return data.ReadFile(path, data.Options{Target: target, RequireTarget: requireTarget})
}

// loadModelAndRows loads a model and a data file (with or without its
// target column) whose features fit it.
func loadModelAndRows(model, path, target string) (*ir.Model, *data.Dataset, error) {
	m, err := ir.Load(model)
	if err != nil {
		return nil, nil, err
	}
	d, err := readData(path, target, false)
	if err != nil {
		return nil, nil, err
	}
	if err := matchFeatures(m, d); err != nil {
		return nil, nil, err
	}
	return m, d, nil
}

// matchFeatures checks that a data set fits the model's input.
func matchFeatures(m *ir.Model, d *data.Dataset) error {
	if d.Cols != m.NumFeatures {
		return fmt.Errorf("%s has %d feature columns, the model expects %d", d.Source, d.Cols, m.NumFeatures)
	}
	if m.FeatureNames != nil {
		for j, name := range m.FeatureNames {
			if d.Features[j] != name {
				return fmt.Errorf("%s: column %d is %q, the model expects %q", d.Source, j+1, d.Features[j], name)
			}
		}
	}
	return nil
}

// writeOut writes through fill to path atomically, or to w when path is ""
// or "-".
func writeOut(path string, w io.Writer, fill func(io.Writer) error) error {
	if path == "" || path == "-" {
		return fill(w)
	}
	return atomicfile.Write(path, 0o644, fill)
}

// classIndex maps target values to the model's class indices: through
// ClassNames when the model has them, else as integers 0..classes-1.
func classIndex(m *ir.Model, d *data.Dataset) ([]int, error) {
	classes := m.NumOutputs
	if m.Task == ir.Binary {
		classes = 2
	}
	byName := map[string]int{}
	for i, name := range m.ClassNames {
		byName[name] = i
	}
	idx := make([]int, len(d.Y))
	for i, y := range d.Y {
		label := strconv.FormatFloat(y, 'g', -1, 64)
		if m.ClassNames != nil {
			c, ok := byName[label]
			if !ok {
				return nil, fmt.Errorf("%s: row %d: target %s is not a class of the model (classes: %v)", d.Source, i+1, label, m.ClassNames)
			}
			idx[i] = c
			continue
		}
		if y != math.Trunc(y) || y < 0 || int(y) >= classes {
			return nil, fmt.Errorf("%s: row %d: target %s is not a class index 0..%d", d.Source, i+1, label, classes-1)
		}
		idx[i] = int(y)
	}
	return idx, nil
}

// scores are the evaluation measures of a model on a data set; absent
// measures are nil.
type scores struct {
	Rows     int      `json:"rows"`
	Accuracy *float64 `json:"accuracy,omitempty"`
	AUC      *float64 `json:"auc,omitempty"`
	LogLoss  *float64 `json:"log_loss,omitempty"`
	MSE      *float64 `json:"mse,omitempty"`
}

func some(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

// evaluate scores m on d with the interpreter.
func evaluate(m *ir.Model, d *data.Dataset) (*scores, error) {
	if !d.HasTarget() {
		return nil, fmt.Errorf("%s has no target column to evaluate against", d.Source)
	}
	if err := matchFeatures(m, d); err != nil {
		return nil, err
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		return nil, err
	}
	k := m.NumOutputs
	preds := make([]float64, d.Rows*k)
	if err := p.PredictBatch(d.X, preds, false); err != nil {
		return nil, err
	}
	s := &scores{Rows: d.Rows}
	if !m.IsClassifier() {
		if k == 1 {
			s.MSE = some(metrics.MSE(d.Y, preds))
		}
		return s, nil
	}
	truth, err := classIndex(m, d)
	if err != nil {
		return nil, err
	}
	classes := make([]int, d.Rows)
	for i := range classes {
		classes[i], _ = p.PredictClass(d.Row(i))
	}
	s.Accuracy = some(metrics.Accuracy(truth, classes))
	probs := preds
	if m.Task == ir.Binary {
		probs = make([]float64, 2*d.Rows)
		for i, v := range preds {
			probs[2*i], probs[2*i+1] = 1-v, v
		}
		k = 2
	}
	s.AUC = some(metrics.MacroAUC(truth, probs, k))
	if isProbability(probs) {
		s.LogLoss = some(metrics.LogLoss(truth, probs, k))
	}
	return s, nil
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

// String formats scores one per line.
func (s *scores) String() string {
	out := fmt.Sprintf("rows      %d\n", s.Rows)
	for _, f := range []struct {
		name string
		v    *float64
	}{{"accuracy", s.Accuracy}, {"auc", s.AUC}, {"log_loss", s.LogLoss}, {"mse", s.MSE}} {
		if f.v != nil {
			out += fmt.Sprintf("%-9s %.6g\n", f.name, *f.v)
		}
	}
	return out
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
