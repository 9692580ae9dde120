package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/predict"
	"github.com/treegen/treegen/predict/parquettable"
)

func (a *app) predictCmd() *cobra.Command {
	var model, out string
	var df dataFlags
	var rounds int
	var margin, leaves bool
	var prec codegen.Precision
	cmd := &cobra.Command{
		Use:   "predict --model MODEL.json --data FILE|- [--out FILE|-] [--margin | --leaves]",
		Short: "Predict with the interpreter; CSV or Parquet out",
		Long: `predict runs the interpreter over every row of a data file (with or without
its target column) and writes CSV: one column per output, then, for
classifiers, the predicted class. A classifier's outputs are the
probabilities of its classes, named p_<class> (p_<second class> alone for a
binary classifier); other outputs are named output_0, output_1, ...
--margin writes raw scores before the link, in columns named margin_<class>
(margin_0, margin_1, ... for outputs that are not classes), --leaves the
leaf each tree sends the row to (columns tree_0, tree_1, ...). Numbers are
printed so that they parse back to the same float64 (float32 with
--precision float32). The interpreter computes in the precision the model
records (float32 for a model imported from XGBoost, whose predictions it
then equals), unless --precision says otherwise. An --out file named *.parquet gets Parquet instead:
DOUBLE columns (FLOAT with --precision float32, INT64 for --leaves) and a
STRING column for the class.

predict streams: it parses and scores the file block by block on every
core and writes the lines in file order, in memory that does not grow with
the file. --data - reads the standard input (gzip too), --out - or no
--out writes the standard output. A LibSVM file streams with --libsvm-base
0 or 1; with auto it is read whole.

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
			if leaves && margin {
				return fmt.Errorf("--leaves and --margin exclude each other")
			}
			m, err := loadModelRounds(model, rounds)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("precision") {
				prec = m.RecordedPrecision()
			}
			s, err := df.streamFor(m, false, a.stderr)
			if err != nil {
				return err
			}
			defer s.Close()
			var t *predict.Table
			if leaves {
				if t, err = predict.Leaves(m, prec); err != nil {
					return fmt.Errorf("--leaves: %w", err)
				}
			} else if t, err = predict.Outputs(m, margin, prec); err != nil {
				return err
			}
			return writeOut(out, a.stdout, func(w io.Writer) error {
				if parquettable.IsName(out) {
					return parquettable.Write(w, t, s)
				}
				return t.WriteCSV(w, s)
			})
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	df.register(cmd, "data file (the target column, if present, is left out unread); - reads the standard input", true)
	cmd.Flags().StringVarP(&out, "out", "o", "", "output file: CSV, or Parquet when its name ends in .parquet (default: CSV on stdout)")
	cmd.Flags().BoolVar(&margin, "margin", false, "write raw scores (margins) instead of predictions")
	cmd.Flags().BoolVar(&leaves, "leaves", false, "write the leaf each tree sends the row to (its node index in the tree), one column per tree, like XGBoost's pred_leaf")
	cmd.Flags().Var(&prec, "precision", "interpreter precision: float64, or float32 to match float32 generated code (default: the precision the model records, float32 for XGBoost imports)")
	cmd.Flags().Lookup("precision").DefValue = "" // the model's: see the help
	return cmd
}
