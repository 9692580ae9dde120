// Command vector-speed measures the batch and single-row speed of generated
// code on the five model shapes of ../ANCHORS-style comparisons (XGBoost 1.7
// models of 100 and 1,000 trees of depth 6 on 50 features, 300 trees of
// depth 8 on 20 features, 200 trees of depth 6 on 30 features with 10% of
// the cells missing, and 500 trees of depth 4 on 64 features with 10
// classes), with and without GOEXPERIMENT=simd, and writes the table of
// docs/PERFORMANCE.md beside the figures of XGBoost's own batch predictor.
//
// Run it from the repository root:
//
//	/usr/bin/python3 docs/vector-speed/make_models.py /tmp/vs   # XGBoost 1.7 (Debian's python3-xgboost)
//	go run ./docs/vector-speed -models /tmp/vs -out docs
//
// The first trains the five models on synthetic data (scikit-learn's
// make_classification and make_regression, fixed seeds) and writes each as
// NAME.json (XGBoost's JSON) with 4,000 rows NAME.csv. The second imports
// them (treegen import xgboost), runs treegen bench on the first 2,048 rows
// of each, in float32, once with --simd (backends walk, quickscorer and
// ifelse, then the interpreter) and once without (quickscorer and walk),
// and writes docs/vector-speed.csv and docs/vector-speed.md, the table,
// which it also prints. It takes about ten minutes on two cores. The
// machine is noisy: compare within a line.
//
// XGBoost's batch figures are those of ANCHORS (XGBoost 1.7.4's C++ batch
// predictor through its C API, one thread, on models of the same shapes),
// which this program does not measure: XGBoost's Python predict on a
// DMatrix it has seen returns cached predictions.
package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"

	"github.com/treegen/treegen/docs/internal/repro"
)

// shape is one of the five models.
type shape struct {
	name, what string
	xgboost    float64 // XGBoost's batch ns per row, from ANCHORS
}

var shapes = []shape{
	{"b100", "100 trees of depth 6, 50 features, binary", 1239},
	{"b1000", "1,000 trees of depth 6, 50 features, binary", 16003},
	{"r300", "300 trees of depth 8, 20 features, regression", 5236},
	{"nan200", "200 trees of depth 6, 30 features, 10% NaN cells", 4581},
	{"m500", "500 trees of depth 4, 64 features, 10 classes", 4227},
}

// result is a line of treegen bench --json.
type result struct {
	Backend       string  `json:"backend"`
	NsPerRow      float64 `json:"ns_per_row"`
	NsPerRowBatch float64 `json:"ns_per_row_batch"`
	Instructions  string  `json:"instructions"`
}

func main() {
	models := flag.String("models", "", "folder of the models that make_models.py wrote")
	out := flag.String("out", "docs", "folder of vector-speed.csv and vector-speed.md")
	benchTime := flag.String("time", "1s", "treegen bench --time")
	flag.Parse()
	if *models == "" {
		log.Fatal("-models is required")
	}
	tg := filepath.Join(os.TempDir(), "treegen-vector-speed")
	repro.Run("go", "build", "-o", tg, "./cmd/treegen")
	var md bytes.Buffer
	fmt.Fprintln(&md, "| model | XGBoost batch | best batch (SIMD) | / XGBoost | quickscorer batch, portable | walk 1 row | ifelse 1 row | quickscorer 1 row | interp 1 row | interp batch |")
	fmt.Fprintln(&md, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	var rows [][]string
	rows = append(rows, []string{"model", "simd", "backend", "ns_per_row", "ns_per_row_batch", "instructions"})
	for _, s := range shapes {
		ir := filepath.Join(os.TempDir(), "vector-speed-"+s.name+".json")
		repro.Run(tg, "import", "xgboost", filepath.Join(*models, s.name+".json"), "-o", ir)
		data := filepath.Join(*models, s.name+".csv")
		bench := func(simd bool, backends string) map[string]result {
			args := []string{"bench", "--model", ir, "--data", data, "--rows", "2048", "--precision", "float32",
				"--time", *benchTime, "--count", "3", "--backends", backends, "--json"}
			if simd {
				args = append(args, "--simd")
			}
			var got struct{ Results []result }
			if err := json.Unmarshal(repro.Run(tg, args...), &got); err != nil {
				log.Fatal(err)
			}
			m := map[string]result{}
			for _, r := range got.Results {
				m[r.Backend] = r
				rows = append(rows, []string{s.name, strconv.FormatBool(simd), r.Backend,
					strconv.FormatFloat(r.NsPerRow, 'f', 1, 64), strconv.FormatFloat(r.NsPerRowBatch, 'f', 1, 64), r.Instructions})
			}
			return m
		}
		v := bench(true, "walk,quickscorer,ifelse,interp")
		p := bench(false, "quickscorer,walk")
		best, who := 0.0, ""
		for _, b := range []string{"walk", "quickscorer", "ifelse"} {
			if r, ok := v[b]; ok && (who == "" || r.NsPerRowBatch < best) {
				best, who = r.NsPerRowBatch, b+" "+r.Instructions
			}
		}
		fmt.Fprintf(&md, "| %s | %s | %s (%s) | %.1fx | %s | %s | %s | %s | %s | %s |\n", s.what, repro.Thousands(s.xgboost), repro.Thousands(best), who, s.xgboost/best,
			repro.Thousands(p["quickscorer"].NsPerRowBatch), repro.Thousands(v["walk"].NsPerRow), repro.Thousands(v["ifelse"].NsPerRow), repro.Thousands(v["quickscorer"].NsPerRow),
			repro.Thousands(v["interp"].NsPerRow), repro.Thousands(v["interp"].NsPerRowBatch))
	}
	var c bytes.Buffer
	w := csv.NewWriter(&c)
	w.WriteAll(rows)
	repro.Write(filepath.Join(*out, "vector-speed.csv"), c.Bytes())
	repro.Write(filepath.Join(*out, "vector-speed.md"), md.Bytes())
	os.Stdout.Write(md.Bytes())
}
