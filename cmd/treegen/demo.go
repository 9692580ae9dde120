package main

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/train/cart"
	"github.com/treegen/treegen/verify"
)

// demoData is the Breast Cancer Wisconsin (Diagnostic) data set from PMLB:
// 569 rows, 30 features, 2 classes.
//
//go:embed demodata/breast_cancer_wisconsin.tsv.gz
var demoData []byte

const demoName = "breast_cancer_wisconsin.tsv.gz"

func (a *app) demoCmd() *cobra.Command {
	var dir string
	prec := codegen.Float64
	var depth int
	var seed uint64
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole pipeline on an embedded data set",
		Long: `demo trains a CART classifier on the embedded Breast Cancer Wisconsin data
(70/30 stratified split), writes the model as IR JSON, generates a Go package
from it, builds that package with the go command, runs it on the held-out rows
beside the interpreter, and reports accuracy, bit-for-bit equality and the
time per row of generated code and interpreter.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			w := a.stdout
			start := time.Now()
			d, err := data.Read(bytes.NewReader(demoData), demoName, data.Options{RequireTarget: true})
			if err != nil {
				return err
			}
			_, class, err := data.Classes(d.Y)
			if err != nil {
				return err
			}
			trainRows, testRows := data.StratifiedSplit(class, 0.3, seed)
			train, test := d.Subset(trainRows), d.Subset(testRows)
			fmt.Fprintf(w, "data      %s: %d rows, %d features; %d for training, %d held out\n",
				demoName, d.Rows, d.Cols, train.Rows, test.Rows)

			t0 := time.Now()
			m, err := cart.Train(train, cart.Options{MaxDepth: depth, Name: "breast_cancer_wisconsin"})
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "train     CART (gini, max depth %d): depth %d, %d leaves, in %s\n",
				depth, m.Trees[0].Depth(), m.Trees[0].NumLeaves(), time.Since(t0).Round(time.Millisecond))

			temporary := dir == ""
			if temporary {
				tmp, err := os.MkdirTemp("", "treegen-demo-")
				if err != nil {
					return err
				}
				defer os.RemoveAll(tmp)
				dir = tmp
			} else if err := codegen.MakeDir(dir); err != nil {
				return err
			}
			modelPath := filepath.Join(dir, "model.json")
			if err := ir.Save(modelPath, m); err != nil {
				return err
			}
			if temporary {
				fmt.Fprintf(w, "model     %s (a temporary folder, removed at the end; keep the files with --dir DIR)\n", modelPath)
			} else {
				fmt.Fprintf(w, "model     %s\n", modelPath)
			}

			pkgDir := filepath.Join(dir, "bcw")
			if err := codegen.MakeDir(pkgDir); err != nil {
				return err
			}
			b, err := codegen.AutoBackend(m)
			if err != nil {
				return err
			}
			files, err := codegen.Generate(m, codegen.Options{Package: "bcw", Backend: b.Name(), Precision: prec, Source: "model.json"})
			if err != nil {
				return err
			}
			if err := codegen.WriteDir(pkgDir, files); err != nil {
				return err
			}
			fmt.Fprintf(w, "generate  package bcw (%s, %s): %d files, %d bytes in %s\n", b.Name(), prec, len(files), codegen.SourceSize(files), pkgDir)

			rows := firstRows(test, 0)
			res, err := harness.Run(context.Background(), pkgDir, rows, harness.Options{Time: 500 * time.Millisecond})
			if err != nil {
				return err
			}
			fmt.Fprintf(w, "build     go build of the generated package and a driver: %s\n", res.Build.Round(time.Millisecond))

			want, err := harness.Interpret(m, rows, prec)
			if err != nil {
				return err
			}
			diffs := harness.Differences(res, want)
			interpNs, _, err := harness.TimeInterpreter(m, rows, prec, 500*time.Millisecond)
			if err != nil {
				return err
			}
			_, truth, _ := data.Classes(test.Y)
			fmt.Fprintf(w, "accuracy  generated %.4f, interpreter %.4f on %d held-out rows\n",
				metrics.Accuracy(truth, res.Classes), metrics.Accuracy(truth, want.Classes), len(rows))
			if len(diffs) > 0 {
				return verify.Mismatch("generated code differs from the interpreter", diffs)
			}
			fmt.Fprintf(w, "equal     yes: margins, predictions and classes identical bit for bit on all %d rows\n", len(rows))
			fmt.Fprintf(w, "speed     generated %.1f ns/row (batch %.1f), interpreter %.1f ns/row: %.1fx; %.0f allocations per row\n",
				res.NsPerRow, res.NsPerRowBatch, interpNs, interpNs/res.NsPerRow, res.AllocsPerRow)
			fmt.Fprintf(w, "done      in %s\n", time.Since(start).Round(time.Millisecond))
			return nil
		},
	}
	cmd.Flags().StringVar(&dir, "dir", "", "keep the model and generated package in this directory (default: a temporary one, removed)")
	cmd.Flags().Var(&prec, "precision", "precision of the generated code and the interpreter: float64 or float32")
	cmd.Flags().IntVar(&depth, "max-depth", 6, "maximum depth of the tree")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed of the train/test split")
	return cmd
}
