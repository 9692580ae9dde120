// Command bench-trees measures ns per row against the number of trees for
// the ifelse and quickscorer backends and the interpreter, one row per call
// (Predict) and in batches (PredictBatch), on random axis-aligned ensembles
// of 64-leaf trees (depth 6, 20 features, as the twonorm_1000x64 XGBoost
// fixture), with the time to generate and to build each package, and plots
// the result.
//
//	go run ./docs/bench-trees -out docs
//
// writes docs/bench-trees.csv and docs/bench-trees.png. Every figure of one
// run comes from the same machine state; the machine is shared and noisy, so
// read the curves' ratios, not their absolute values.
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

func main() {
	out := flag.String("out", "docs", "directory for bench-trees.csv and bench-trees.png")
	budget := flag.Duration("time", 500*time.Millisecond, "measuring time per backend and size")
	flag.Parse()
	log.SetFlags(0)
	sizes := []int{10, 30, 100, 300, 1000, 2000}
	backends := []string{"ifelse", "quickscorer", "interp"}
	rows := finiteRows(randmodel.Rows(7, 1024, 20))
	ns := map[string][]float64{}
	var table [][]string
	table = append(table, []string{"trees", "backend", "ns_per_row", "ns_per_row_batch", "generate_seconds", "build_seconds"})
	for _, n := range sizes {
		m := randmodel.Model(uint64(n), randmodel.Options{AxisOnly: true, Trees: n, MinDepth: 6, MaxDepth: 6, Full: true, Features: 20, Task: ir.Binary})
		for _, b := range backends {
			r, err := measure(m, b, rows, *budget)
			if err != nil {
				log.Fatalf("%d trees, %s: %v", n, b, err)
			}
			ns[b] = append(ns[b], r.single)
			if b != "ifelse" { // ifelse predicts a batch row by row
				ns[b+" batch"] = append(ns[b+" batch"], r.batch)
			}
			table = append(table, []string{strconv.Itoa(n), b, fmt.Sprintf("%.1f", r.single), fmt.Sprintf("%.1f", r.batch),
				fmt.Sprintf("%.2f", r.gen), fmt.Sprintf("%.2f", r.build)})
			log.Printf("%5d trees  %-12s %10.1f ns/row  batch %10.1f ns/row  generate %.2f s  build %.2f s", n, b, r.single, r.batch, r.gen, r.build)
		}
	}
	backends = append(backends, "quickscorer batch", "interp batch")
	if err := atomicfile.Write(filepath.Join(*out, "bench-trees.csv"), 0o644, func(w io.Writer) error {
		return csv.NewWriter(w).WriteAll(table)
	}); err != nil {
		log.Fatal(err)
	}
	if err := draw(filepath.Join(*out, "bench-trees.png"), sizes, backends, ns); err != nil {
		log.Fatal(err)
	}
}

// finiteRows replaces the NaN and ±Inf of random rows by finite values, so
// that PredictBatch takes its block path (a block with a NaN is scored row
// by row).
func finiteRows(rows [][]float64) [][]float64 {
	for i, x := range rows {
		for j, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				rows[i][j] = float64(j%5) - 2
			}
		}
	}
	return rows
}

// result is what measure measured.
type result struct {
	single, batch float64 // ns per row
	gen, build    float64 // seconds
}

// measure times one backend: ns per row one row per call and in a batch of
// all rows, and the seconds to generate and to build the package; the
// interpreter runs in this process with the harness's own timing loop.
func measure(m *ir.Model, backend string, rows [][]float64, budget time.Duration) (result, error) {
	if backend == "interp" {
		p, err := runtime.New[float64](m)
		if err != nil {
			return result{}, err
		}
		out := make([]float64, len(rows))
		var flat []float64
		for _, x := range rows {
			flat = append(flat, x...)
		}
		single := harness.MeasureRows(budget, len(rows), func() {
			for i, x := range rows {
				p.Predict(x, out[i:i+1])
			}
		})
		batch := harness.MeasureRows(budget, len(rows), func() { p.PredictBatch(flat, out, false) })
		return result{single: single, batch: batch}, nil
	}
	start := time.Now()
	files, err := codegen.Generate(m, codegen.Options{Package: "bench", Backend: backend, Precision: codegen.Float64})
	if err != nil {
		return result{}, err
	}
	gen := time.Since(start).Seconds()
	dir, err := os.MkdirTemp("", "bench-trees-")
	if err != nil {
		return result{}, err
	}
	defer os.RemoveAll(dir)
	if err := codegen.WriteDir(dir, files); err != nil {
		return result{}, err
	}
	res, err := harness.Run(context.Background(), dir, rows, harness.Options{Time: budget})
	if err != nil {
		return result{}, err
	}
	return result{single: res.NsPerRow, batch: res.NsPerRowBatch, gen: gen, build: res.Build.Seconds()}, nil
}

// draw plots ns per row against trees, both axes logarithmic.
func draw(path string, sizes []int, backends []string, ns map[string][]float64) error {
	p := plot.New()
	p.Title.Text = "64-leaf trees, 20 features: one row per call, and batches"
	p.X.Label.Text = "trees"
	p.Y.Label.Text = "ns per row"
	p.X.Scale = plot.LogScale{}
	p.Y.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	var lines []any
	for _, b := range backends {
		pts := make(plotter.XYs, len(sizes))
		for i, n := range sizes {
			pts[i].X, pts[i].Y = float64(n), ns[b][i]
		}
		lines = append(lines, b, pts)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, path)
}
