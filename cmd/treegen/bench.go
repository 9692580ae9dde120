package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/benchrun"
	"github.com/treegen/treegen/internal/tooling/gobench"
)

func (a *app) benchCmd() *cobra.Command {
	var model, backends string
	var df dataFlags
	var prec codegen.Precision
	var rows, count, rounds int
	var budget time.Duration
	var asJSON, simd bool
	cmd := &cobra.Command{
		Use:   "bench --model MODEL.json --data FILE [--backends auto|NAME,...]",
		Short: "Measure generated code against the interpreter, per row",
		Long: `bench generates the model with each backend into a temporary module, writes a
standard Go benchmark beside it (BenchmarkPredict/<package>/one-row and
/batch), builds it with "go test -c" (timing the build) and runs it as
"go test -run ^$ -bench . -benchmem -benchtime T -count N" would, over the
rows of the data file: ns per row calling Predict on one row at a time, ns
per row through PredictBatch, and heap allocations per row. The interpreter
("` + benchrun.Interp + `") is measured in this process by a loop that times it the
same way (its "build" is loading the model, its source the model file).
Each benchmark runs --count times for --time/--count; the fastest run
counts.
auto, the default, measures the backends suited to the model (of
` + strings.Join(codegen.BackendNames(), ", ") + `), then the interpreter. A named
backend that cannot compile the model is reported as such and skipped.

--simd builds the generated packages with GOEXPERIMENT=simd, which takes
their vector file (PredictBatch with AVX2 or AVX-512 instructions, on amd64);
a GOEXPERIMENT in the environment reaches the go command as it is, so
GOEXPERIMENT=simd treegen bench does the same. The "instructions" column
says which instructions PredictBatch used: AVX-512, AVX2, or portable.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" {
				return fmt.Errorf("--model is required")
			}
			if count < 1 {
				return fmt.Errorf("--count must be at least 1, not %d", count)
			}
			if budget < time.Duration(count) {
				return fmt.Errorf("--time %s is too short for --count %d", budget, count)
			}
			m, d, err := loadModelAndRows(model, rounds, &df, a.stderr)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("precision") {
				prec = m.RecordedPrecision()
			}
			names, err := benchrun.Backends(m, backends)
			if err != nil {
				return err
			}
			x := firstRows(d, rows)
			n := len(x)
			if n == 0 {
				return fmt.Errorf("%s has no rows", df.path)
			}
			opts := gobench.Options{BenchTime: budget / time.Duration(count), Count: count, SIMD: simd}
			results, err := benchrun.Run(context.Background(), m, model, names, x, prec, opts, func(name string, err error) {
				fmt.Fprintf(a.stderr, "%s: skipped: %v\n", name, err)
			})
			if err != nil {
				return err
			}
			if asJSON {
				out, err := json.MarshalIndent(benchrun.Report{Model: model, Rows: n, Results: results}, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", out)
				return nil
			}
			fmt.Fprintf(a.stdout, "%s: %s, %s of %s, %s\n", model, plural(len(m.Trees), "tree"), plural(n, "row"), df.path, prec)
			return benchrun.WriteTable(a.stdout, results)
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	df.register(cmd, "rows to predict (a target column, if present, is ignored)", true)
	cmd.Flags().StringVar(&backends, "backends", codegen.Auto, "comma-separated backends ("+strings.Join(codegen.BackendNames(), ", ")+
		") and "+benchrun.Interp+", the interpreter; "+codegen.Auto+": the backends suited to the model, then "+benchrun.Interp)
	cmd.Flags().Var(&prec, "precision", "working precision of generated code and interpreter: float64 or float32 (default: the precision the model records, float32 for XGBoost imports)")
	cmd.Flags().Lookup("precision").DefValue = "" // the model's: see the help
	cmd.Flags().IntVar(&rows, "rows", 0, "use only the first N rows (0: all)")
	cmd.Flags().DurationVar(&budget, "time", 2*time.Second, "time spent measuring each of single-row and batch prediction, over all runs")
	cmd.Flags().IntVar(&count, "count", 5, "runs of each benchmark; the fastest counts")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&simd, "simd", false, "build generated packages with GOEXPERIMENT=simd: PredictBatch uses their AVX2/AVX-512 code on amd64")
	return cmd
}
