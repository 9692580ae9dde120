package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/gobench"
	"github.com/treegen/treegen/ir"
)

// interpName is the name of the interpreter among the backends of treegen
// bench.
const interpName = "interp"

// benchResult is one backend's line of treegen bench (its JSON form is
// fixed by the CLI contract).
type benchResult struct {
	Backend       string  `json:"backend"`
	NsPerRow      float64 `json:"ns_per_row"`
	NsPerRowBatch float64 `json:"ns_per_row_batch"`
	AllocsPerRow  float64 `json:"allocs_per_row"`
	BuildSeconds  float64 `json:"build_seconds"`
	SourceBytes   int     `json:"source_bytes"`
	// Instructions names the instructions of the batch figure: "AVX-512"
	// or "AVX2" for a generated package built with GOEXPERIMENT=simd whose
	// vector file ran, else "portable".
	Instructions string `json:"instructions"`
}

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
("` + interpName + `") is measured in this process by a loop that times it the
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
			names, err := benchBackends(m, backends)
			if err != nil {
				return err
			}
			n := d.Rows
			if rows > 0 && rows < n {
				n = rows
			}
			if n == 0 {
				return fmt.Errorf("%s has no rows", df.path)
			}
			x := make([][]float64, n)
			for i := range x {
				x[i] = d.Row(i)
			}
			opts := gobench.Options{BenchTime: budget / time.Duration(count), Count: count, SIMD: simd}
			var results []benchResult
			for _, name := range names {
				var r *gobench.Result
				size := 0
				if name == interpName {
					r, err = gobench.Interpreter(m, x, prec, opts)
					if fi, serr := os.Stat(model); serr == nil {
						size = int(fi.Size())
					}
				} else {
					b, _ := codegen.LookupBackend(name)
					if cerr := b.Check(m); cerr != nil {
						fmt.Fprintf(a.stderr, "%s: skipped: %v\n", name, cerr)
						continue
					}
					r, size, err = gobench.Generated(context.Background(), m, b.Name(), prec, x, opts)
				}
				if err != nil {
					return fmt.Errorf("%s: %w", name, err)
				}
				results = append(results, newBenchResult(name, r, size))
			}
			if asJSON {
				out, err := json.MarshalIndent(struct {
					Model   string        `json:"model"`
					Rows    int           `json:"rows"`
					Results []benchResult `json:"results"`
				}{model, n, results}, "", "  ")
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stdout, "%s\n", out)
				return nil
			}
			fmt.Fprintf(a.stdout, "%s: %s, %s of %s, %s\n", model, plural(len(m.Trees), "tree"), plural(n, "row"), df.path, prec)
			w := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(w, "backend\tns/row\tns/row batch\tallocs/row\tbuild s\tsource bytes\tinstructions\t")
			for _, r := range results {
				fmt.Fprintf(w, "%s\t%.1f\t%.1f\t%.0f\t%.2f\t%d\t%s\t\n", r.Backend, r.NsPerRow, r.NsPerRowBatch, r.AllocsPerRow, r.BuildSeconds, r.SourceBytes, r.Instructions)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	df.register(cmd, "rows to predict (a target column, if present, is ignored)", true)
	cmd.Flags().StringVar(&backends, "backends", codegen.Auto, "comma-separated backends ("+strings.Join(codegen.BackendNames(), ", ")+
		") and "+interpName+", the interpreter; "+codegen.Auto+": the backends suited to the model, then "+interpName)
	cmd.Flags().Var(&prec, "precision", "working precision of generated code and interpreter: float64 or float32 (default: the precision the model records, float32 for XGBoost imports)")
	cmd.Flags().Lookup("precision").DefValue = "" // the model's: see the help
	cmd.Flags().IntVar(&rows, "rows", 0, "use only the first N rows (0: all)")
	cmd.Flags().DurationVar(&budget, "time", 2*time.Second, "time spent measuring each of single-row and batch prediction, over all runs")
	cmd.Flags().IntVar(&count, "count", 5, "runs of each benchmark; the fastest counts")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	cmd.Flags().BoolVar(&simd, "simd", false, "build generated packages with GOEXPERIMENT=simd: PredictBatch uses their AVX2/AVX-512 code on amd64")
	return cmd
}

// benchBackends returns the names that list, the value of --backends, stands
// for, in order and each once: backends, interpName, and codegen.Auto for
// the backends suited to the validated model m followed by interpName.
func benchBackends(m *ir.Model, list string) ([]string, error) {
	var names []string
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			names = append(names, name)
		}
	}
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch name {
		case codegen.Auto:
			for _, b := range codegen.SuitedBackends(m) {
				add(b.Name())
			}
			add(interpName)
		case interpName:
			add(name)
		default:
			if _, err := codegen.LookupBackend(name); err != nil {
				return nil, fmt.Errorf("unknown backend %q in --backends (known: %s, %s, or %s)",
					name, strings.Join(codegen.BackendNames(), ", "), interpName, codegen.Auto)
			}
			add(name)
		}
	}
	return names, nil
}

// newBenchResult returns the line of treegen bench of a backend's timing.
func newBenchResult(backend string, r *gobench.Result, sourceBytes int) benchResult {
	return benchResult{
		Backend: backend, NsPerRow: r.NsPerRow, NsPerRowBatch: r.NsPerRowBatch,
		AllocsPerRow: r.AllocsPerRow(), BuildSeconds: r.Build.Seconds(), SourceBytes: sourceBytes,
		Instructions: r.Instructions,
	}
}
