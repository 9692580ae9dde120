package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/verify"
)

func (a *app) checkCmd() *cobra.Command {
	var model, dir, expect string
	var df dataFlags
	var rounds int
	var rows int
	cmd := &cobra.Command{
		Use:   "check --model MODEL.json --dir DIR --data FILE [--expect FILE]",
		Short: "Build a generated package and prove it equals the interpreter",
		Long: `check copies the generated package in DIR into a temporary module beside a
driver program, builds it with the go command, runs every row of the data file
through it, and compares margins, predictions and classes with the interpreter
bit for bit (in the package's precision). With --expect it also compares the
predictions with a CSV file as written by "treegen predict" (for a float32
package, by "treegen predict --precision float32"), or by a library: numbers
only, without a header line, such as XGBoost's predict() output; a file of
one column for a model of several classes holds class ids (XGBoost's
multi:softmax), which are compared with the predicted classes. When the
file looks written in the other precision, the error says so.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" || dir == "" {
				return fmt.Errorf("--model and --dir are required")
			}
			m, d, err := loadModelAndRows(model, rounds, &df, a.stderr)
			if err != nil {
				return err
			}
			pkg, err := harness.Inspect(dir)
			if err != nil {
				return err
			}
			if err := pkg.SameModel(m, model); err != nil {
				return err
			}
			x := firstRows(d, rows)
			n := len(x)
			res, err := harness.Run(context.Background(), dir, x, harness.Options{})
			if err != nil {
				return err
			}
			diffs, err := harness.Compare(m, x, res, pkg.Precision)
			if err != nil {
				return err
			}
			if len(diffs) > 0 {
				return verify.Mismatch(fmt.Sprintf("%s differs from the interpreter", dir), diffs)
			}
			prec := codegen.Float64
			if pkg.Precision.Is32() {
				prec = codegen.Float32
			}
			fmt.Fprintf(a.stdout, "ok: package %s in %s (%s) equals the interpreter bit for bit on %d rows of %s (built in %s)\n",
				pkg.Name, dir, prec, n, df.path, res.Build.Round(time.Millisecond))
			if expect == "" {
				return nil
			}
			want, err := verify.ReadExpected(expect, m)
			if err != nil {
				return err
			}
			if err := want.Compare(dir, res.Preds, res.Classes, pkg.Precision); err != nil {
				return err
			}
			if want.Classes {
				fmt.Fprintf(a.stdout, "ok: predicted classes equal %s on %d rows (it holds one class id per row)\n", expect, n)
				return nil
			}
			fmt.Fprintf(a.stdout, "ok: predictions equal %s on %d rows\n", expect, n)
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	cmd.Flags().StringVar(&dir, "dir", "", "directory of the generated package")
	df.register(cmd, "rows to check (a target column, if present, is ignored)", true)
	cmd.Flags().StringVar(&expect, "expect", "", "expected predictions: CSV from treegen predict, or a library's (numbers only, or one class id per row)")
	cmd.Flags().IntVar(&rows, "rows", 0, "check only the first N rows (0: all)")
	return cmd
}
