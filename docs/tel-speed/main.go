// Command tel-speed measures the seconds per training epoch of the tree
// ensemble layer (train/tel) against the depth of its trees, for the
// conditional smooth-step passes, the dense smooth-step passes and the
// dense logistic passes, in the timing set-up of the TEL paper and of the
// PyTorch figures in the project's anchors: 10 trees, γ = 1, Adam with
// learning rate 0.1, minibatches of 256 rows, twonorm (7,400 × 20,
// standardised), a fixed seed.
//
//	go run ./docs/tel-speed -out docs
//
// writes docs/tel-speed.csv and docs/tel-speed.png. Each figure is the
// mean over the first -epochs epochs of a run from the same initial
// weights (minibatch updates only), with the mean number of leaves a row
// reaches per tree over those epochs. The passes run one after the other
// at every depth, so that the ratios compare like with like on a shared,
// noisy machine.
package main

import (
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"path/filepath"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/train/tel"
)

type pass struct {
	name string
	act  tel.Activation
	mode tel.Mode
}

var passes = []pass{
	{"conditional smooth-step", tel.SmoothStep, tel.Conditional},
	{"dense smooth-step", tel.SmoothStep, tel.Dense},
	{"dense logistic", tel.LogisticActivation, tel.Dense},
}

func main() {
	out := flag.String("out", "docs", "directory for tel-speed.csv and tel-speed.png")
	file := flag.String("data", "train/tel/testdata/twonorm.tsv.gz", "data set")
	epochs := flag.Int("epochs", 10, "epochs per run")
	flag.Parse()
	log.SetFlags(0)
	d, err := data.ReadFile(*file, data.Options{RequireTarget: true})
	if err != nil {
		log.Fatal(err)
	}
	depths := []int{2, 4, 6, 8, 10}
	secs := map[string][]float64{}
	table := [][]string{{"depth", "pass", "seconds_per_epoch", "reachable_leaves", "leaves", "first_epoch_reachable_leaves", "last_epoch_reachable_leaves"}}
	for _, depth := range depths {
		for _, ps := range passes {
			o := tel.DefaultOptions(tel.Logistic)
			o.Depth, o.Activation, o.Mode = depth, ps.act, ps.mode
			o.LearningRate, o.Epochs = 0.1, *epochs
			var train time.Duration
			var leaves float64
			var hist []tel.EpochInfo
			o.OnEpoch = func(i tel.EpochInfo) {
				train += i.TrainTime
				leaves += i.ReachableLeaves
				hist = append(hist, i)
			}
			if _, err := tel.Fit(d, nil, o); err != nil {
				log.Fatalf("depth %d, %s: %v", depth, ps.name, err)
			}
			s := train.Seconds() / float64(*epochs)
			reach := leaves / float64(*epochs)
			secs[ps.name] = append(secs[ps.name], s)
			table = append(table, []string{strconv.Itoa(depth), ps.name, fmt.Sprintf("%.4f", s), fmt.Sprintf("%.2f", reach), strconv.Itoa(1 << depth),
				fmt.Sprintf("%.2f", hist[0].ReachableLeaves), fmt.Sprintf("%.2f", hist[len(hist)-1].ReachableLeaves)})
			log.Printf("depth %2d  %-24s %8.4f s/epoch  %7.2f / %d leaves reachable per row and tree", depth, ps.name, s, reach, 1<<depth)
		}
		i := len(secs[passes[0].name]) - 1
		log.Printf("depth %2d  conditional speed-up: %.1fx over dense smooth-step, %.1fx over dense logistic", depth,
			secs[passes[1].name][i]/secs[passes[0].name][i], secs[passes[2].name][i]/secs[passes[0].name][i])
	}
	if err := atomicfile.Write(filepath.Join(*out, "tel-speed.csv"), 0o644, func(w io.Writer) error {
		return csv.NewWriter(w).WriteAll(table)
	}); err != nil {
		log.Fatal(err)
	}
	if err := draw(filepath.Join(*out, "tel-speed.png"), depths, secs); err != nil {
		log.Fatal(err)
	}
}

func draw(path string, depths []int, secs map[string][]float64) error {
	p := plot.New()
	p.Title.Text = "TEL training, 10 trees, γ = 1, batch 256, twonorm"
	p.X.Label.Text = "tree depth"
	p.Y.Label.Text = "seconds per epoch"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	p.Legend.Top = true
	p.Legend.Left = true
	var lines []any
	for _, ps := range passes {
		pts := make(plotter.XYs, len(depths))
		for i, d := range depths {
			pts[i].X, pts[i].Y = float64(d), secs[ps.name][i]
		}
		lines = append(lines, ps.name, pts)
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, path)
}
