// Package gencheck compiles models with a code generation backend, many
// models to one Go module, runs the generated packages on rows and checks
// that they compute what the interpreter computes, bit for bit: the check
// the programs of docs/ run on every model they report on.
package gencheck

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
)

// Item is a model and the rows its generated code is checked on.
type Item struct {
	Name  string // names the model in errors
	Model *ir.Model
	Rows  [][]float64
}

// Options tunes Run.
type Options struct {
	// Backend is the codegen backend; "" means ifelse.
	Backend string
	// Time, if > 0, times Predict of every generated package for at least
	// this long (Result.NsPerRow).
	Time time.Duration
	// PerModule is the number of models built into one module; 0 means 40.
	PerModule int
	// Log, if not nil, receives one line per module built.
	Log func(line string)
}

// Run generates the code of every item (float64), builds and runs it on
// the item's rows, and returns what each package computed. It returns an
// error naming the first item whose margins, predictions or classes
// differ from the interpreter's on some row.
func Run(ctx context.Context, items []Item, o Options) ([]*harness.Result, error) {
	per := o.PerModule
	if per <= 0 {
		per = 40
	}
	var out []*harness.Result
	for len(items) > 0 {
		n := min(len(items), per)
		res, err := module(ctx, items[:n], o)
		if err != nil {
			return nil, err
		}
		out = append(out, res...)
		items = items[n:]
	}
	return out, nil
}

func module(ctx context.Context, items []Item, o Options) ([]*harness.Result, error) {
	backend := o.Backend
	if backend == "" {
		backend = "ifelse"
	}
	dir, err := os.MkdirTemp("", "treegen-gencheck-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	mod, err := harness.NewModule(dir)
	if err != nil {
		return nil, err
	}
	for i, it := range items {
		name := fmt.Sprintf("m%03d", i)
		files, err := codegen.Generate(it.Model, codegen.Options{Package: name, Backend: backend, Precision: codegen.Float64})
		if err != nil {
			return nil, fmt.Errorf("%s: %w", it.Name, err)
		}
		if err := os.Mkdir(mod.PackageDir(name), 0o755); err != nil {
			return nil, err
		}
		if err := codegen.WriteDir(mod.PackageDir(name), files); err != nil {
			return nil, err
		}
		if err := mod.Add(name, it.Rows, harness.Options{Time: o.Time}); err != nil {
			return nil, fmt.Errorf("%s: %w", it.Name, err)
		}
	}
	results, err := mod.Run(ctx)
	if err != nil {
		return nil, err
	}
	for i, it := range items {
		want, err := harness.Interpret(it.Model, it.Rows, ir.Float64)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", it.Name, err)
		}
		if diffs := harness.Differences(results[i], want); len(diffs) > 0 {
			lines := []string{fmt.Sprintf("%s: the generated code differs from the interpreter on %d values:", it.Name, len(diffs))}
			for _, d := range diffs[:min(5, len(diffs))] {
				lines = append(lines, d.String())
			}
			return nil, errors.New(strings.Join(lines, "\n"))
		}
	}
	if o.Log != nil {
		o.Log(fmt.Sprintf("generated code of %d models checked (build %s, run %s)", len(items), mod.BuildTime.Round(1e7), mod.RunTime.Round(1e7)))
	}
	return results, nil
}
