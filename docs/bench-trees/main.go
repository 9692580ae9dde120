// Command bench-trees measures ns per row against the number of trees for
// the ifelse and quickscorer backends and the interpreter, on random
// axis-aligned ensembles of 64-leaf trees (depth 6, 20 features, as the
// twonorm_1000x64 XGBoost fixture), and plots the result.
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
	"github.com/treegen/treegen/internal/harness"
	"github.com/treegen/treegen/internal/randmodel"
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
	rows := randmodel.Rows(7, 1000, 20)
	ns := map[string][]float64{}
	var table [][]string
	table = append(table, []string{"trees", "backend", "ns_per_row", "build_seconds"})
	for _, n := range sizes {
		m := randmodel.Model(uint64(n), randmodel.Options{AxisOnly: true, Trees: n, MinDepth: 6, MaxDepth: 6, Full: true, Features: 20, Task: ir.Binary})
		for _, b := range backends {
			v, build, err := measure(m, b, rows, *budget)
			if err != nil {
				log.Fatalf("%d trees, %s: %v", n, b, err)
			}
			ns[b] = append(ns[b], v)
			table = append(table, []string{strconv.Itoa(n), b, fmt.Sprintf("%.1f", v), fmt.Sprintf("%.2f", build)})
			log.Printf("%5d trees  %-12s %10.1f ns/row  build %.2f s", n, b, v, build)
		}
	}
	f, err := os.Create(filepath.Join(*out, "bench-trees.csv"))
	if err != nil {
		log.Fatal(err)
	}
	w := csv.NewWriter(f)
	w.WriteAll(table)
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
	if err := draw(filepath.Join(*out, "bench-trees.png"), sizes, backends, ns); err != nil {
		log.Fatal(err)
	}
}

// measure returns ns per row (single-row Predict) and the build seconds of
// one backend; the interpreter runs in this process with the same loop.
func measure(m *ir.Model, backend string, rows [][]float64, budget time.Duration) (float64, float64, error) {
	if backend == "interp" {
		p, err := runtime.New[float64](m)
		if err != nil {
			return 0, 0, err
		}
		out := make([]float64, 1)
		best := math.Inf(1)
		for round := 0; round < 5; round++ {
			start := time.Now()
			passes := 0
			for time.Since(start) < budget/5 || passes == 0 {
				for _, x := range rows {
					p.Predict(x, out)
				}
				passes++
			}
			best = math.Min(best, float64(time.Since(start).Nanoseconds())/float64(passes*len(rows)))
		}
		return best, 0, nil
	}
	files, err := codegen.Generate(m, codegen.Options{Package: "bench", Backend: backend})
	if err != nil {
		return 0, 0, err
	}
	dir, err := os.MkdirTemp("", "bench-trees-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(dir)
	if err := codegen.WriteDir(dir, files); err != nil {
		return 0, 0, err
	}
	res, err := harness.Run(context.Background(), dir, rows, harness.Options{Time: budget})
	if err != nil {
		return 0, 0, err
	}
	return res.NsPerRow, res.Build.Seconds(), nil
}

// draw plots ns per row against trees, both axes logarithmic.
func draw(path string, sizes []int, backends []string, ns map[string][]float64) error {
	p := plot.New()
	p.Title.Text = "Predict, one row per call: 64-leaf trees, 20 features"
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
