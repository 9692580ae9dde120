package benchrun

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/gobench"
	"github.com/treegen/treegen/ir"
)

// Interp is the name of the interpreter among the backends.
const Interp = "interp"

// Result is one backend's measurement (its JSON form is fixed by the
// command-line contract).
type Result struct {
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

// Report is the measurement of a model's backends on rows of data, as
// treegen bench --json prints it.
type Report struct {
	Model   string   `json:"model"`
	Rows    int      `json:"rows"`
	Results []Result `json:"results"`
}

// Backends returns the names that list, a comma-separated list of
// backends, stands for, in order and each once: backends, [Interp], and
// [codegen.Auto] for the backends suited to the validated model m followed
// by Interp. An unknown name is an error that lists the known ones.
func Backends(m *ir.Model, list string) ([]string, error) {
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
			add(Interp)
		case Interp:
			add(name)
		default:
			if _, err := codegen.LookupBackend(name); err != nil {
				return nil, fmt.Errorf("unknown backend %q in --backends (known: %s, %s, or %s)",
					name, strings.Join(codegen.BackendNames(), ", "), Interp, codegen.Auto)
			}
			add(name)
		}
	}
	return names, nil
}

// Run measures the backends names (as [Backends] returns them) on rows
// with the model m, read from the file modelPath, in precision prec. The
// interpreter is timed in this process, its source being the model file;
// each generated package is built and timed by gobench. A backend that
// cannot compile m is passed to skipped with the reason, and left out.
// An error names the backend.
func Run(ctx context.Context, m *ir.Model, modelPath string, names []string, rows [][]float64, prec codegen.Precision, opts gobench.Options, skipped func(name string, err error)) ([]Result, error) {
	var results []Result
	for _, name := range names {
		var r *gobench.Result
		var err error
		size := 0
		if name == Interp {
			r, err = gobench.Interpreter(m, rows, prec, opts)
			if fi, serr := os.Stat(modelPath); serr == nil {
				size = int(fi.Size())
			}
		} else {
			b, lerr := codegen.LookupBackend(name)
			if lerr != nil {
				return nil, lerr
			}
			if cerr := b.Check(m); cerr != nil {
				skipped(name, cerr)
				continue
			}
			r, size, err = gobench.Generated(ctx, m, b.Name(), prec, rows, opts)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		results = append(results, newResult(name, r, size))
	}
	return results, nil
}

// newResult returns the measurement of a backend from its timing.
func newResult(backend string, r *gobench.Result, sourceBytes int) Result {
	return Result{
		Backend: backend, NsPerRow: r.NsPerRow, NsPerRowBatch: r.NsPerRowBatch,
		AllocsPerRow: r.AllocsPerRow(), BuildSeconds: r.Build.Seconds(), SourceBytes: sourceBytes,
		Instructions: r.Instructions,
	}
}

// WriteTable writes the results as a table with a header line, its
// columns aligned right.
func WriteTable(w io.Writer, results []Result) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "backend\tns/row\tns/row batch\tallocs/row\tbuild s\tsource bytes\tinstructions\t")
	for _, r := range results {
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.0f\t%.2f\t%d\t%s\t\n", r.Backend, r.NsPerRow, r.NsPerRowBatch, r.AllocsPerRow, r.BuildSeconds, r.SourceBytes, r.Instructions)
	}
	return tw.Flush()
}
