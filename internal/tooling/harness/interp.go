package harness

import (
	"fmt"
	"time"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// Interpret returns what the interpreter computes for rows with m, in
// precision prec (in float32, inputs rounded to float32, outputs widened to
// float64 exactly): margins, predictions and, for a classifier, classes.
func Interpret(m *ir.Model, rows [][]float64, prec ir.Precision) (*Result, error) {
	if prec.Is32() {
		return interpret[float32](m, rows)
	}
	return interpret[float64](m, rows)
}

func interpret[F runtime.Float](m *ir.Model, rows [][]float64) (*Result, error) {
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	res := &Result{}
	x := make([]F, m.NumFeatures)
	out := make([]F, m.NumOutputs)
	widen := func() []float64 {
		w := make([]float64, len(out))
		for k, v := range out {
			w[k] = float64(v)
		}
		return w
	}
	for _, row := range rows {
		if len(row) != m.NumFeatures {
			return nil, fmt.Errorf("row has %d values, want %d", len(row), m.NumFeatures)
		}
		for j, v := range row {
			x[j] = F(v)
		}
		if err := p.PredictMargin(x, out); err != nil {
			return nil, err
		}
		res.Margins = append(res.Margins, widen())
		if err := p.Predict(x, out); err != nil {
			return nil, err
		}
		res.Preds = append(res.Preds, widen())
		if m.IsClassifier() {
			c, err := p.PredictClass(x)
			if err != nil {
				return nil, err
			}
			res.Classes = append(res.Classes, c)
		}
	}
	return res, nil
}

// TimeInterpreter returns the interpreter's time per row of Predict, one
// row at a time, and of PredictBatch on all rows, with m on rows in
// precision prec, measured as the driver measures a generated package:
// with MeasureRows and budget.
func TimeInterpreter(m *ir.Model, rows [][]float64, prec ir.Precision, budget time.Duration) (nsPerRow, nsPerRowBatch float64, err error) {
	if prec.Is32() {
		return timeInterpreter[float32](m, rows, budget)
	}
	return timeInterpreter[float64](m, rows, budget)
}

func timeInterpreter[F runtime.Float](m *ir.Model, rows [][]float64, budget time.Duration) (float64, float64, error) {
	if len(rows) == 0 {
		return 0, 0, fmt.Errorf("no rows to time the interpreter on")
	}
	p, err := runtime.New[F](m)
	if err != nil {
		return 0, 0, err
	}
	flat := make([]F, 0, len(rows)*m.NumFeatures)
	for _, row := range rows {
		if len(row) != m.NumFeatures {
			return 0, 0, fmt.Errorf("row has %d values, want %d", len(row), m.NumFeatures)
		}
		for _, v := range row {
			flat = append(flat, F(v))
		}
	}
	out := make([]F, m.NumOutputs)
	outs := make([]F, len(rows)*m.NumOutputs)
	single := MeasureRows(budget, len(rows), func() {
		for i := 0; i < len(flat); i += m.NumFeatures {
			p.Predict(flat[i:i+m.NumFeatures], out)
		}
	})
	batch := MeasureRows(budget, len(rows), func() { p.PredictBatch(flat, outs, false) })
	return single, batch, nil
}
