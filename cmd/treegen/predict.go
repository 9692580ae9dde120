package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

func (a *app) predictCmd() *cobra.Command {
	var model, dataPath, target, out string
	var margin bool
	prec := codegen.Float64
	cmd := &cobra.Command{
		Use:   "predict --model MODEL.json --data FILE [--out FILE] [--margin]",
		Short: "Predict with the interpreter; CSV out",
		Long: `predict runs the interpreter over every row of a data file (with or without
its target column) and writes CSV: one column per output, then, for
classifiers, the predicted class. A classifier's outputs are the
probabilities of its classes, named p_<class> (p_<second class> alone for a
binary classifier); other outputs are named output_0, output_1, ... --margin writes raw scores before the link. Numbers are printed so
that they parse back to the same float64.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" {
				return fmt.Errorf("--model is required")
			}
			m, d, err := loadModelAndRows(model, dataPath, target)
			if err != nil {
				return err
			}
			return writeOut(out, a.stdout, func(w io.Writer) error {
				if prec.Is32() {
					return writePredictions[float32](w, m, d, margin)
				}
				return writePredictions[float64](w, m, d, margin)
			})
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	cmd.Flags().StringVar(&dataPath, "data", "", "data file (the target column, if present, is ignored)")
	cmd.Flags().StringVar(&target, "target", "target", "name of the target column, left out of the features")
	cmd.Flags().StringVarP(&out, "out", "o", "", "output CSV file (default: stdout)")
	cmd.Flags().BoolVar(&margin, "margin", false, "write raw scores (margins) instead of predictions")
	cmd.Flags().Var(&prec, "precision", "interpreter precision: float64, or float32 to match float32 generated code")
	return cmd
}

// writePredictions writes the CSV of predictions (or margins) of every row
// of d, computed by the interpreter in precision F.
func writePredictions[F runtime.Float](w io.Writer, m *ir.Model, d *data.Dataset, margin bool) error {
	p, err := runtime.New[F](m)
	if err != nil {
		return err
	}
	bits := 64
	if _, ok := any(F(0)).(float32); ok {
		bits = 32
	}
	bw := bufio.NewWriter(w)
	header := outputNames(m)
	if m.IsClassifier() {
		header = append(header, "class")
	}
	for j, h := range header {
		if j > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(csvField(h))
	}
	bw.WriteByte('\n')
	x := make([]F, m.NumFeatures)
	row := make([]F, m.NumOutputs)
	for i := 0; i < d.Rows; i++ {
		for j, v := range d.Row(i) {
			x[j] = F(v)
		}
		if margin {
			p.PredictMargin(x, row)
		} else {
			p.Predict(x, row)
		}
		for k, v := range row {
			if k > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(strconv.FormatFloat(float64(v), 'g', -1, bits))
		}
		if m.IsClassifier() {
			c, _ := p.PredictClass(x)
			bw.WriteString("," + csvField(className(m, c)))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// outputNames names the output columns.
func outputNames(m *ir.Model) []string {
	names := make([]string, m.NumOutputs)
	for k := range names {
		switch {
		case m.Task == ir.Binary && len(m.ClassNames) == 2:
			names[k] = "p_" + m.ClassNames[1]
		case m.Task == ir.Multiclass && len(m.ClassNames) == m.NumOutputs:
			names[k] = "p_" + m.ClassNames[k]
		default:
			names[k] = fmt.Sprintf("output_%d", k)
		}
	}
	return names
}

// className is the name of class c.
func className(m *ir.Model, c int) string {
	if c < len(m.ClassNames) {
		return m.ClassNames[c]
	}
	return strconv.Itoa(c)
}

// csvField quotes s if CSV needs it.
func csvField(s string) string {
	for _, r := range s {
		if r == ',' || r == '"' || r == '\n' || r == '\r' {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
	}
	return s
}
