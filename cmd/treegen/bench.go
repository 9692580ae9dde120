package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// benchResult is one backend's line of treegen bench (its JSON form is
// fixed by the CLI contract).
type benchResult struct {
	Backend       string  `json:"backend"`
	NsPerRow      float64 `json:"ns_per_row"`
	NsPerRowBatch float64 `json:"ns_per_row_batch"`
	AllocsPerRow  float64 `json:"allocs_per_row"`
	BuildSeconds  float64 `json:"build_seconds"`
	SourceBytes   int     `json:"source_bytes"`
}

func (a *app) benchCmd() *cobra.Command {
	var model, dataPath, target, backends, precision string
	var rows int
	var budget time.Duration
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "bench --model MODEL.json --data FILE [--backends ifelse,quickscorer,interp]",
		Short: "Measure generated code against the interpreter, per row",
		Long: `bench generates the model with each backend into a temporary module beside a
driver program, builds it with the go command (timing the build), and runs the
rows of the data file through it: ns per row calling Predict on one row at a
time, ns per row through PredictBatch, and heap allocations per row. The
interpreter ("interp") is measured with the same timing loop in this process:
the best of five rounds, each at least --time/5 long. Backends that cannot
compile the model are reported as such and skipped.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" {
				return fmt.Errorf("--model is required")
			}
			if precision != "float64" && precision != "float32" {
				return fmt.Errorf("--precision must be float64 or float32, not %q", precision)
			}
			m, d, err := loadModelAndRows(model, dataPath, target)
			if err != nil {
				return err
			}
			n := d.Rows
			if rows > 0 && rows < n {
				n = rows
			}
			if n == 0 {
				return fmt.Errorf("%s has no rows", dataPath)
			}
			x := make([][]float64, n)
			for i := range x {
				x[i] = d.Row(i)
			}
			if backends == "auto" {
				backends = "ifelse,quickscorer,interp"
				if hasSoftNodes(m) {
					backends = "smoothstep,interp"
				}
			}
			var results []benchResult
			for _, b := range strings.Split(backends, ",") {
				b = strings.TrimSpace(b)
				var r benchResult
				var err error
				if b == "interp" {
					r, err = benchInterp(m, model, x, precision == "float32", budget)
				} else {
					r, err = benchGenerated(m, b, precision, x, budget)
				}
				if err != nil {
					if strings.Contains(err.Error(), "unknown backend") {
						return err
					}
					// A backend that cannot compile this model is skipped.
					fmt.Fprintf(a.stderr, "%s: skipped: %v\n", b, err)
					continue
				}
				results = append(results, r)
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
			fmt.Fprintf(a.stdout, "%s: %d trees, %d rows of %s, %s\n", model, len(m.Trees), n, dataPath, precision)
			w := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
			fmt.Fprintln(w, "backend\tns/row\tns/row batch\tallocs/row\tbuild s\tsource bytes\t")
			for _, r := range results {
				fmt.Fprintf(w, "%s\t%.1f\t%.1f\t%.0f\t%.2f\t%d\t\n", r.Backend, r.NsPerRow, r.NsPerRowBatch, r.AllocsPerRow, r.BuildSeconds, r.SourceBytes)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	cmd.Flags().StringVar(&dataPath, "data", "", "rows to predict (a target column, if present, is ignored)")
	cmd.Flags().StringVar(&target, "target", "target", "name of the target column")
	cmd.Flags().StringVar(&backends, "backends", "auto", "comma-separated backends; interp is the interpreter; auto: smoothstep,interp for soft trees, else ifelse,quickscorer,interp")
	cmd.Flags().StringVar(&precision, "precision", "float64", "float64 or float32")
	cmd.Flags().IntVar(&rows, "rows", 0, "use only the first N rows (0: all)")
	cmd.Flags().DurationVar(&budget, "time", 2*time.Second, "time spent measuring each of single-row and batch prediction")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}

// hasSoftNodes reports whether a tree of m has a soft node.
func hasSoftNodes(m *ir.Model) bool {
	for i := range m.Trees {
		for j := range m.Trees[i].Nodes {
			if m.Trees[i].Nodes[j].Kind == ir.Soft {
				return true
			}
		}
	}
	return false
}

// benchGenerated generates, builds and times one backend.
func benchGenerated(m *ir.Model, backend, precision string, rows [][]float64, budget time.Duration) (benchResult, error) {
	files, err := codegen.Generate(m, codegen.Options{Package: "bench", Backend: backend, Precision: codegen.Precision(precision)})
	if err != nil {
		return benchResult{}, err
	}
	dir, err := os.MkdirTemp("", "treegen-bench-")
	if err != nil {
		return benchResult{}, err
	}
	defer os.RemoveAll(dir)
	pkg := filepath.Join(dir, "bench")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		return benchResult{}, err
	}
	if err := codegen.WriteDir(pkg, files); err != nil {
		return benchResult{}, err
	}
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	res, err := harness.Run(context.Background(), pkg, rows, harness.Options{Time: budget})
	if err != nil {
		return benchResult{}, err
	}
	return benchResult{
		Backend: backend, NsPerRow: res.NsPerRow, NsPerRowBatch: res.NsPerRowBatch,
		AllocsPerRow: res.AllocsPerRow, BuildSeconds: res.Build.Seconds(), SourceBytes: size,
	}, nil
}

// benchInterp times the interpreter with the driver's timing loop; its
// "build" is loading the model, its "source" the model file.
func benchInterp(m *ir.Model, path string, rows [][]float64, single bool, budget time.Duration) (benchResult, error) {
	if single {
		return benchInterpF[float32](m, path, rows, budget)
	}
	return benchInterpF[float64](m, path, rows, budget)
}

func benchInterpF[F runtime.Float](m *ir.Model, path string, rows [][]float64, budget time.Duration) (benchResult, error) {
	start := time.Now()
	p, err := runtime.New[F](m)
	if err != nil {
		return benchResult{}, err
	}
	load := time.Since(start)
	xs := make([][]F, len(rows))
	flat := make([]F, 0, len(rows)*m.NumFeatures)
	for i, r := range rows {
		xs[i] = make([]F, len(r))
		for j, v := range r {
			xs[i][j] = F(v)
		}
		flat = append(flat, xs[i]...)
	}
	out := make([]F, m.NumOutputs)
	batch := make([]F, len(rows)*m.NumOutputs)
	var sink F
	single := harness.MeasureRows(budget, len(rows), func() {
		for _, x := range xs {
			p.Predict(x, out)
			sink += out[0]
		}
	})
	batched := harness.MeasureRows(budget, len(rows), func() { p.PredictBatch(flat, batch, false) })
	allocs := testingAllocs(func() {
		for _, x := range xs {
			p.Predict(x, out)
		}
	}) / float64(len(rows))
	_ = sink
	size := 0
	if fi, err := os.Stat(path); err == nil {
		size = int(fi.Size())
	}
	return benchResult{Backend: "interp", NsPerRow: single, NsPerRowBatch: batched, AllocsPerRow: allocs,
		BuildSeconds: load.Seconds(), SourceBytes: size}, nil
}

// testingAllocs returns the heap allocations one call of f makes.
func testingAllocs(f func()) float64 {
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return float64(after.Mallocs - before.Mallocs)
}
