// Command tel-runs times whole training runs of the tree ensemble layer,
// as a user runs them, beside the dense PyTorch figures of the project's
// anchors: "treegen train tel" on twonorm (7,400 × 20), 10 trees, γ = 1,
// minibatches of 256 rows, at depths 4, 8 and 10, for 1, 6 and 30 epochs,
// each in a process of its own, from start to exit (reading and
// standardising the data, training, writing the model, scoring the
// training rows), with the process's peak resident set size.
//
//	go run ./docs/tel-runs -out docs     # about two minutes on 2 cores
//
// builds cmd/treegen, runs every configuration -count times (the fastest
// run counts: the machine is shared and noisy; the peak RSS is the largest
// of the runs), prints a Markdown table and writes tel-runs.csv to -out.
//
// The PyTorch column is the anchors' seconds per epoch of Debian's
// PyTorch 1.13 with the same architecture and data, dense (every node and
// leaf of every tree for every row, as public soft-tree code computes),
// 2 torch threads, times the number of epochs: 0.018 s at depth 4, 0.177
// s at depth 8, 0.622 s at depth 10. Those figures count the epochs' work
// only, no start-up, so the ratio is unfavourable to treegen, whose
// figure includes its whole process.
package main

import (
	"context"
	"encoding/csv"
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/treegen/treegen/internal/atomicfile"
)

// pytorchEpoch is the anchors' seconds per epoch of dense PyTorch, by
// depth (10 trees, γ = 1, batch 256, twonorm, smooth-step).
var pytorchEpoch = map[int]float64{4: 0.018, 8: 0.177, 10: 0.622}

type run struct {
	depth, epochs int
	seconds       float64
	rss           int64
}

func main() {
	out := flag.String("out", "docs", "directory for tel-runs.csv (empty: no CSV)")
	file := flag.String("data", "testdata/pmlb/twonorm.tsv.gz", "training data")
	count := flag.Int("count", 3, "runs of every configuration; the fastest counts")
	lr := flag.Float64("lr", 0.01, "Adam's learning rate (treegen's default)")
	threads := flag.Int("threads", 0, "--threads of the runs (0: all cores)")
	flag.Parse()
	log.SetFlags(0)

	dir, err := os.MkdirTemp("", "tel-runs")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "treegen")
	build := exec.Command("go", "build", "-o", bin, "./cmd/treegen")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		log.Fatalf("building cmd/treegen (run from the repository root): %v", err)
	}

	var runs []run
	for _, depth := range []int{4, 8, 10} {
		for _, epochs := range []int{1, 6, 30} {
			r := run{depth: depth, epochs: epochs, seconds: -1}
			for range *count {
				sec, rss, err := once(bin, *file, filepath.Join(dir, "model.json"), depth, epochs, *lr, *threads)
				if err != nil {
					log.Fatal(err)
				}
				if r.seconds < 0 || sec < r.seconds {
					r.seconds = sec
				}
				r.rss = max(r.rss, rss)
			}
			log.Printf("depth %2d, %2d epochs: %.2f s, peak RSS %d MiB", depth, epochs, r.seconds, r.rss>>20)
			runs = append(runs, r)
		}
	}

	fmt.Printf("| depth | epochs | treegen, whole run (s) | peak RSS (MiB) | dense PyTorch, epochs only (s) | PyTorch / treegen |\n")
	fmt.Printf("| ---: | ---: | ---: | ---: | ---: | ---: |\n")
	table := [][]string{{"depth", "epochs", "treegen_seconds", "peak_rss_bytes", "pytorch_seconds", "ratio"}}
	for _, r := range runs {
		pt := pytorchEpoch[r.depth] * float64(r.epochs)
		fmt.Printf("| %d | %d | %.2f | %d | %.2f | %.1fx |\n", r.depth, r.epochs, r.seconds, r.rss>>20, pt, pt/r.seconds)
		table = append(table, []string{strconv.Itoa(r.depth), strconv.Itoa(r.epochs),
			strconv.FormatFloat(r.seconds, 'f', 3, 64), strconv.FormatInt(r.rss, 10),
			strconv.FormatFloat(pt, 'f', 3, 64), strconv.FormatFloat(pt/r.seconds, 'f', 2, 64)})
	}
	fmt.Printf("\nCommand: `go run ./docs/tel-runs %s` (learning rate %g, %d runs each, the fastest counted)\n", strings.Join(os.Args[1:], " "), *lr, *count)
	if *out == "" {
		return
	}
	if err := atomicfile.Write(filepath.Join(*out, "tel-runs.csv"), 0o644, func(w io.Writer) error {
		return csv.NewWriter(w).WriteAll(table)
	}); err != nil {
		log.Fatal(err)
	}
}

// once runs one training process and returns its wall time and peak RSS.
func once(bin, file, model string, depth, epochs int, lr float64, threads int) (float64, int64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "train", "tel", "--data", file, "--trees", "10",
		"--depth", strconv.Itoa(depth), "--gamma", "1", "--batch", "256", "--epochs", strconv.Itoa(epochs),
		"--lr", strconv.FormatFloat(lr, 'g', -1, 64), "--threads", strconv.Itoa(threads),
		"--quiet", "-o", model)
	cmd.Stderr = io.Discard
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, fmt.Errorf("depth %d, %d epochs: %v", depth, epochs, err)
	}
	return time.Since(t0).Seconds(), peakRSS(cmd.ProcessState), nil
}
