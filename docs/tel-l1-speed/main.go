// Command tel-l1-speed measures what sparse hyperplanes buy in generated
// code: for every data set of two docs/tel-vs-paper CSVs, the dense one
// (tel-vs-paper.csv) and the L1 one (tel-l1.csv, from "-l1s ... -min-zeros
// 0.7"), it retrains seed 1's winning configuration of each on all the
// data set's rows ("treegen train tel", the same γ, learning rate, L1,
// epochs and minibatch size), compiles both models with the smoothstep
// backend and times them with "treegen bench" (float64, one row per call,
// the fastest of -count runs), and prints the ratio of the dense model's
// ns per row to the sparse one's, beside the sparse model's fraction of
// zero weights and the test AUCs of the two CSVs.
//
//	go run ./docs/tel-l1-speed -out docs      # about five minutes on 2 cores
//
// writes tel-l1-speed.csv to -out.
package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/ir"
)

// config is seed 1's winning configuration in a tel-vs-paper CSV.
type config struct {
	gamma, lr, l2, l1 string
	epochs, batch     string
	auc, zeros        float64
}

func main() {
	dense := flag.String("dense", "docs/tel-vs-paper.csv", "tel-vs-paper CSV of the dense models")
	sparse := flag.String("sparse", "docs/tel-l1.csv", "tel-vs-paper CSV of the L1 models")
	dir := flag.String("data", "testdata/pmlb", "directory of the data sets")
	count := flag.Int("count", 3, "benchmark runs; the fastest counts")
	benchTime := flag.String("time", "1s", "benchmark time of a model (treegen bench --time)")
	rows := flag.Int("rows", 2000, "rows timed per data set (the first ones)")
	out := flag.String("out", "docs", "directory for tel-l1-speed.csv (empty: no CSV)")
	flag.Parse()
	log.SetFlags(0)

	dc, err := readCSV(*dense)
	if err != nil {
		log.Fatal(err)
	}
	sc, err := readCSV(*sparse)
	if err != nil {
		log.Fatal(err)
	}
	tmp, err := os.MkdirTemp("", "tel-l1-speed")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "treegen")
	if err := run(exec.Command("go", "build", "-o", bin, "./cmd/treegen")); err != nil {
		log.Fatalf("building cmd/treegen (run from the repository root): %v", err)
	}

	table := [][]string{{"dataset", "dense_auc", "l1_auc", "auc_difference", "l1_zero_weights", "dense_ns_per_row", "l1_ns_per_row", "speed_up"}}
	fmt.Println("| data set | test AUC, dense | test AUC, L1 | L1 − dense | zero weights (L1) | dense ns/row | L1 ns/row | speed-up |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	var names []string
	for n := range sc {
		if _, ok := dc[n]; ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	near, fast, both := 0, 0, 0
	for _, n := range names {
		data := filepath.Join(*dir, n+".tsv.gz")
		var ns [2]float64
		var zeros float64
		for i, c := range []config{dc[n], sc[n]} {
			model := filepath.Join(tmp, fmt.Sprintf("%s-%d.json", n, i))
			args := []string{"train", "tel", "--data", data, "--trees", "10", "--depth", "4", "--gamma", c.gamma,
				"--lr", c.lr, "--l2", c.l2, "--l1", c.l1, "--epochs", c.epochs, "--batch", c.batch,
				"--impute", "--seed", "1", "--quiet", "-o", model}
			if err := run(exec.Command(bin, args...)); err != nil {
				log.Fatalf("%s: %v", n, err)
			}
			if i == 1 {
				if zeros, err = zeroFraction(model); err != nil {
					log.Fatal(err)
				}
			}
			v, err := bench(bin, model, data, *rows, *count, *benchTime)
			if err != nil {
				log.Fatalf("%s: %v", n, err)
			}
			ns[i] = v
		}
		d, s := dc[n], sc[n]
		up := ns[0] / ns[1]
		diff := s.auc - d.auc
		if math.Abs(diff) <= 0.01 {
			near++
			if up >= 2 {
				both++
			}
		}
		if up >= 2 {
			fast++
		}
		fmt.Printf("| %s | %.4f | %.4f | %+.4f | %.1f%% | %.0f | %.0f | %.2fx |\n", n, d.auc, s.auc, diff, 100*zeros, ns[0], ns[1], up)
		table = append(table, []string{n, f4(d.auc), f4(s.auc), f4(diff), f4(zeros),
			strconv.FormatFloat(ns[0], 'f', 1, 64), strconv.FormatFloat(ns[1], 'f', 1, 64), strconv.FormatFloat(up, 'f', 2, 64)})
		log.Printf("%-24s dense %7.0f ns/row, L1 %7.0f ns/row (%.1f%% zeros): %.2fx", n, ns[0], ns[1], 100*zeros, up)
	}
	fmt.Printf("\n%d of %d data sets: L1 test AUC within 0.01 of the dense model's; %d: generated code at least 2x faster; %d: both. Command: `go run ./docs/tel-l1-speed %s`\n",
		near, len(names), fast, both, strings.Join(os.Args[1:], " "))
	if *out == "" {
		return
	}
	if err := atomicfile.Write(filepath.Join(*out, "tel-l1-speed.csv"), 0o644, func(w io.Writer) error {
		return csv.NewWriter(w).WriteAll(table)
	}); err != nil {
		log.Fatal(err)
	}
}

func f4(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }

func run(cmd *exec.Cmd) error {
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("%s: %v: %s", strings.Join(cmd.Args, " "), err, stderr.String())
	}
	return nil
}

// readCSV returns seed 1's configuration and the mean test AUC of every
// data set of a tel-vs-paper CSV.
func readCSV(path string) (map[string]config, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(recs) < 2 {
		return nil, fmt.Errorf("%s: no data sets", path)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	for _, h := range []string{"dataset", "ours_mean", "batch", "chosen_gamma/lr[/l2]/epochs_per_seed"} {
		if _, ok := col[h]; !ok {
			return nil, fmt.Errorf("%s: no column %q", path, h)
		}
	}
	out := map[string]config{}
	for line, r := range recs[1:] {
		seed1 := strings.Fields(r[col["chosen_gamma/lr[/l2]/epochs_per_seed"]])
		if len(seed1) == 0 {
			return nil, fmt.Errorf("%s:%d: no configuration", path, line+2)
		}
		parts := strings.Split(seed1[0], "/")
		if len(parts) < 3 {
			return nil, fmt.Errorf("%s:%d: configuration %q: want γ/lr[/l2][/l1=x]/epochs", path, line+2, seed1[0])
		}
		c := config{gamma: parts[0], lr: parts[1], l2: "0", l1: "0", epochs: parts[len(parts)-1], batch: r[col["batch"]]}
		for _, p := range parts[2 : len(parts)-1] {
			if v, ok := strings.CutPrefix(p, "l1="); ok {
				c.l1 = v
			} else {
				c.l2 = p
			}
		}
		if c.auc, err = strconv.ParseFloat(r[col["ours_mean"]], 64); err != nil {
			return nil, fmt.Errorf("%s:%d: ours_mean: %v", path, line+2, err)
		}
		out[r[col["dataset"]]] = c
	}
	return out, nil
}

// zeroFraction returns the fraction of a TEL model's node weights that are
// 0: the exported nodes list only the others.
func zeroFraction(path string) (float64, error) {
	m, err := ir.Load(path)
	if err != nil {
		return 0, err
	}
	listed, total := 0, 0
	for _, t := range m.Trees {
		for _, n := range t.Nodes {
			if n.Kind == ir.Soft {
				listed += len(n.Weights)
				total += m.NumFeatures
			}
		}
	}
	return 1 - float64(listed)/float64(total), nil
}

// bench returns the smoothstep code's ns per row (one row per call) of
// the model on the first rows of data.
func bench(bin, model, data string, rows, count int, benchTime string) (float64, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "bench", "--model", model, "--data", data, "--backends", "smoothstep",
		"--rows", strconv.Itoa(rows), "--count", strconv.Itoa(count), "--time", benchTime, "--json")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	outb, err := cmd.Output()
	if err != nil {
		return 0, fmt.Errorf("bench: %v: %s", err, stderr.String())
	}
	var res struct {
		Results []struct {
			Backend  string  `json:"backend"`
			NsPerRow float64 `json:"ns_per_row"`
		} `json:"results"`
	}
	if err := json.Unmarshal(outb, &res); err != nil {
		return 0, fmt.Errorf("bench output: %v", err)
	}
	for _, r := range res.Results {
		if r.Backend == "smoothstep" {
			return r.NsPerRow, nil
		}
	}
	return 0, fmt.Errorf("bench: no smoothstep result")
}
