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
	var model, out string
	var df dataFlags
	var rounds int
	var margin, leaves bool
	prec := codegen.Float64
	cmd := &cobra.Command{
		Use:   "predict --model MODEL.json --data FILE [--out FILE] [--margin | --leaves]",
		Short: "Predict with the interpreter; CSV out",
		Long: `predict runs the interpreter over every row of a data file (with or without
its target column) and writes CSV: one column per output, then, for
classifiers, the predicted class. A classifier's outputs are the
probabilities of its classes, named p_<class> (p_<second class> alone for a
binary classifier); other outputs are named output_0, output_1, ...
--margin writes raw scores before the link, in columns named margin_<class>
(margin_0, margin_1, ... for outputs that are not classes), --leaves the
leaf each tree sends the row to (columns tree_0, tree_1, ...). Numbers are
printed so that they parse back to the same float64 (float32 with
--precision float32).

A target column in the data file is left out without being read, so it may
hold anything. The feature columns are matched to the model's by name
(--by-position to match them by position; a LibSVM file always is). A TSV or
CSV file whose first line is all numbers has no header line: its columns
are matched by position (--header and --no-header override the guess, and
--target-column N names the column to leave out).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" {
				return fmt.Errorf("--model is required")
			}
			m, d, err := loadModelAndRows(model, rounds, &df, a.stderr)
			if err != nil {
				return err
			}
			if leaves && margin {
				return fmt.Errorf("--leaves and --margin exclude each other")
			}
			return writeOut(out, a.stdout, func(w io.Writer) error {
				switch {
				case leaves && prec.Is32():
					return writeLeaves[float32](w, m, d)
				case leaves:
					return writeLeaves[float64](w, m, d)
				case prec.Is32():
					return writePredictions[float32](w, m, d, margin)
				}
				return writePredictions[float64](w, m, d, margin)
			})
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	df.register(cmd, "data file (the target column, if present, is left out unread)", true)
	cmd.Flags().StringVarP(&out, "out", "o", "", "output CSV file (default: stdout)")
	cmd.Flags().BoolVar(&margin, "margin", false, "write raw scores (margins) instead of predictions")
	cmd.Flags().BoolVar(&leaves, "leaves", false, "write the leaf each tree sends the row to (its node index in the tree), one column per tree, like XGBoost's pred_leaf")
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
	header := outputNames(m, margin)
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

// writeLeaves writes the CSV of the leaves that every row of d reaches in
// each tree: columns tree_0, tree_1, ..., each the index of the leaf's node
// in its tree (ir.Tree.Nodes), computed in precision F.
func writeLeaves[F runtime.Float](w io.Writer, m *ir.Model, d *data.Dataset) error {
	p, err := runtime.New[F](m)
	if err != nil {
		return err
	}
	if !p.HardTrees() {
		return fmt.Errorf("--leaves: the model has soft or latent trees, which send a row to several leaves: leaf indices need hard trees")
	}
	leaves := make([]int, p.NumTrees())
	x := make([]F, m.NumFeatures)
	bw := bufio.NewWriter(w)
	for t := range leaves {
		if t > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString("tree_" + strconv.Itoa(t))
	}
	bw.WriteByte('\n')
	for i := 0; i < d.Rows; i++ {
		for j, v := range d.Row(i) {
			x[j] = F(v)
		}
		if err := p.PredictLeaves(x, leaves); err != nil {
			return err
		}
		for t, l := range leaves {
			if t > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString(strconv.Itoa(l))
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// outputNames names the output columns: p_<class> for the probability of a
// class, margin_<class> for its raw score (margin), and output_<k> or
// margin_<k> for other outputs.
func outputNames(m *ir.Model, margin bool) []string {
	prob, other := "p_", "output_"
	if margin {
		prob, other = "margin_", "margin_"
	}
	names := make([]string, m.NumOutputs)
	for k := range names {
		switch {
		case m.Task == ir.Binary && len(m.ClassNames) == 2:
			names[k] = prob + m.ClassNames[1]
		case m.Task == ir.Multiclass && len(m.ClassNames) == m.NumOutputs:
			names[k] = prob + m.ClassNames[k]
		default:
			names[k] = other + strconv.Itoa(k)
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
