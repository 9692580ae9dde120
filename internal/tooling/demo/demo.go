// Package demo is treegen's whole pipeline on an embedded data set, as
// "treegen demo" runs it: train a CART classifier on the Breast Cancer
// Wisconsin data, write the model, generate a Go package from it, build
// the package with the go command beside a driver, run it on the held-out
// rows beside the interpreter, and report accuracy, bit-for-bit equality
// and the time per row of both.
package demo

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/train/cart"
	"github.com/treegen/treegen/verify"
)

// rows is the Breast Cancer Wisconsin (Diagnostic) data set from PMLB: 569
// rows, 30 features, 2 classes.
//
//go:embed demodata/breast_cancer_wisconsin.tsv.gz
var rows []byte

// DataName is the name of the embedded data set's file.
const DataName = "breast_cancer_wisconsin.tsv.gz"

// Options control Run.
type Options struct {
	// Dir keeps the model and the generated package; "" means a temporary
	// directory, removed at the end.
	Dir string
	// Precision is that of the generated code and the interpreter.
	Precision codegen.Precision
	// MaxDepth is the tree's maximum depth.
	MaxDepth int
	// Seed seeds the 70/30 stratified split.
	Seed uint64
	// Report receives each step's line as the step ends: the step
	// ("data", "train", "model", "generate", "build", "accuracy",
	// "equal", "speed", "done") and what it found.
	Report func(step, line string)
}

// Run runs the pipeline, reporting each step as it ends. It fails when
// the generated code differs from the interpreter on any held-out row.
func Run(ctx context.Context, o Options) error {
	say := func(step, format string, args ...any) { o.Report(step, fmt.Sprintf(format, args...)) }
	start := time.Now()
	d, err := data.Read(bytes.NewReader(rows), DataName, data.Options{RequireTarget: true})
	if err != nil {
		return err
	}
	_, class, err := data.Classes(d.Y)
	if err != nil {
		return err
	}
	trainRows, testRows := data.StratifiedSplit(class, 0.3, o.Seed)
	train, test := d.Subset(trainRows), d.Subset(testRows)
	say("data", "%s: %d rows, %d features; %d for training, %d held out", DataName, d.Rows, d.Cols, train.Rows, test.Rows)

	t0 := time.Now()
	m, err := cart.Train(train, cart.Options{MaxDepth: o.MaxDepth, Name: "breast_cancer_wisconsin"})
	if err != nil {
		return err
	}
	say("train", "CART (gini, max depth %d): depth %d, %d leaves, in %s",
		o.MaxDepth, m.Trees[0].Depth(), m.Trees[0].NumLeaves(), time.Since(t0).Round(time.Millisecond))

	dir, temporary := o.Dir, o.Dir == ""
	if temporary {
		if dir, err = os.MkdirTemp("", "treegen-demo-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else if err := codegen.MakeDir(dir); err != nil {
		return err
	}
	modelPath := filepath.Join(dir, "model.json")
	if err := ir.Save(modelPath, m); err != nil {
		return err
	}
	if temporary {
		say("model", "%s (a temporary folder, removed at the end; keep the files with --dir DIR)", modelPath)
	} else {
		say("model", "%s", modelPath)
	}

	pkgDir := filepath.Join(dir, "bcw")
	if err := codegen.MakeDir(pkgDir); err != nil {
		return err
	}
	plan, err := codegen.Plan(m, codegen.Options{Package: "bcw", Precision: o.Precision, Source: "model.json"})
	if err != nil {
		return err
	}
	files, err := plan.Generate()
	if err != nil {
		return err
	}
	if err := codegen.WriteDir(pkgDir, files); err != nil {
		return err
	}
	say("generate", "package bcw (%s, %s): %d files, %s in %s", plan.Backend.Name(), plan.Precision, len(files), codegen.ByteSize(codegen.SourceSize(files)), pkgDir)

	x := make([][]float64, test.Rows)
	for i := range x {
		x[i] = test.Row(i)
	}
	res, err := harness.Run(ctx, pkgDir, x, harness.Options{Time: 500 * time.Millisecond})
	if err != nil {
		return err
	}
	say("build", "go build of the generated package and a driver: %s", res.Build.Round(time.Millisecond))

	want, err := harness.Interpret(m, x, plan.Precision)
	if err != nil {
		return err
	}
	diffs := harness.Differences(res, want)
	interpNs, _, err := harness.TimeInterpreter(m, x, plan.Precision, 500*time.Millisecond)
	if err != nil {
		return err
	}
	_, truth, _ := data.Classes(test.Y)
	say("accuracy", "generated %.4f, interpreter %.4f on %d held-out rows",
		metrics.Accuracy(truth, res.Classes), metrics.Accuracy(truth, want.Classes), len(x))
	if len(diffs) > 0 {
		return verify.Mismatch("generated code differs from the interpreter", diffs)
	}
	say("equal", "yes: margins, predictions and classes identical bit for bit on all %d rows", len(x))
	say("speed", "generated %.1f ns/row (batch %.1f), interpreter %.1f ns/row: %.1fx; %.0f allocations per row",
		res.NsPerRow, res.NsPerRowBatch, interpNs, interpNs/res.NsPerRow, res.AllocsPerRow)
	say("done", "in %s", time.Since(start).Round(time.Millisecond))
	return nil
}
