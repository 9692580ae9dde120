package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/evaluate"
	"github.com/treegen/treegen/ir"
)

func (a *app) evalCmd() *cobra.Command {
	var model string
	var df dataFlags
	var rounds int
	var asJSON bool
	var prec ir.Precision
	cmd := &cobra.Command{
		Use:   "eval --model MODEL.json --data FILE|- [--json]",
		Short: "Score a model on labelled data: accuracy, AUC, log-loss, MSE",
		Long: `eval runs the interpreter over a labelled data file and prints accuracy,
AUC (one-vs-rest macro average for multiclass) and log-loss for classifiers,
and mean squared error for regression. Target values are matched to the
model's class names. A TSV or CSV file whose first line is all numbers has
no header line, so no column is named by --target: --target-column N says
which column is the target (--header and --no-header override the guess).
eval streams the file, as predict does, keeping only the predictions and
targets of its rows; --data - reads the standard input. The interpreter
computes in the precision the model records (float32 for a model imported
from XGBoost, whose predictions it then equals), unless --precision says
otherwise.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" {
				return fmt.Errorf("--model is required")
			}
			m, err := loadModelRounds(model, rounds)
			if err != nil {
				return err
			}
			st, err := df.streamFor(m, true, a.stderr)
			if err != nil {
				return err
			}
			defer st.Close()
			if !cmd.Flags().Changed("precision") {
				prec = m.RecordedPrecision()
			}
			s, err := evaluate.Stream(m, st, prec)
			if err != nil {
				return err
			}
			if asJSON {
				out := struct {
					Model string `json:"model"`
					Data  string `json:"data"`
					Task  string `json:"task"`
					*evaluate.Scores
				}{model, df.path, string(m.Task), s}
				b, err := json.MarshalIndent(out, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", b)
				return nil
			}
			fmt.Fprint(a.stdout, s.String())
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	df.register(cmd, "labelled data file; - reads the standard input", true)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().Var(&prec, "precision", "interpreter precision: float64 or float32 (default: the precision the model records, float32 for XGBoost imports)")
	cmd.Flags().Lookup("precision").DefValue = "" // the model's: see the help
	return cmd
}
