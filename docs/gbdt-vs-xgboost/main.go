// Command gbdt-vs-xgboost compares treegen's gradient-boosting trainer with
// XGBoost 1.7 (tree_method "hist") on the classification data sets of
// testdata/pmlb and prints a Markdown table of test AUCs and fit
// times.
//
// Run it from the repository root:
//
//	go run ./docs/gbdt-vs-xgboost
//	go run ./docs/gbdt-vs-xgboost -only letter,sleep -repeat 5 -threads 1
//
// For each data set it makes a stratified 70/30 split (data.StratifiedSplit
// with test fraction 0.3 and seed 1), writes the training and test row
// indices to a temporary directory, runs xgb_train.py (which trains XGBoost
// on the same rows of the same file with the same hyperparameters and
// writes its test probabilities), trains treegen's GBDT, and computes both
// test AUCs with metrics.MacroAUC (the AUC of the second class for two
// classes, the mean one-vs-rest AUC for more). docs/GBDT.md shows the
// result.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/pmlb"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/gbdt"
)

// params are the hyperparameters both libraries get; the JSON names are
// those xgb_train.py reads.
type params struct {
	Rounds         int     `json:"rounds"`
	MaxDepth       int     `json:"max_depth"`
	Eta            float64 `json:"eta"`
	Lambda         float64 `json:"lambda"`
	MinChildWeight float64 `json:"min_child_weight"`
	MaxBin         int     `json:"max_bin"`
	Subsample      float64 `json:"subsample"`
	ColSample      float64 `json:"colsample_bytree"`
	Threads        int     `json:"nthread"`
	Seed           uint64  `json:"seed"`
}

func main() {
	var p params
	flag.IntVar(&p.Rounds, "rounds", 100, "boosting rounds")
	flag.IntVar(&p.MaxDepth, "depth", 6, "maximum tree depth")
	flag.Float64Var(&p.Eta, "eta", 0.1, "learning rate")
	flag.Float64Var(&p.Lambda, "lambda", 1, "L2 penalty on leaf values")
	flag.Float64Var(&p.MinChildWeight, "min-child-weight", 1, "minimum hessian sum of a child")
	flag.IntVar(&p.MaxBin, "max-bin", 256, "histogram bins per feature")
	flag.Float64Var(&p.Subsample, "subsample", 1, "row subsampling per round (treegen) or tree (XGBoost)")
	flag.Float64Var(&p.ColSample, "colsample", 1, "column subsampling per tree")
	flag.IntVar(&p.Threads, "threads", 2, "threads of both trainers")
	flag.Uint64Var(&p.Seed, "seed", 0, "sampling seed of both trainers (their generators differ)")
	dir := flag.String("data", "testdata/pmlb", "directory holding MANIFEST.tsv and the data sets")
	python := flag.String("python", "/usr/bin/python3", "Python interpreter with xgboost")
	script := flag.String("script", "docs/gbdt-vs-xgboost/xgb_train.py", "the XGBoost side of the comparison")
	only := flag.String("only", "", "comma-separated data set names to run (default: every classification data set)")
	repeat := flag.Int("repeat", 3, "fit each model this many times, alternating the libraries, and report the fastest fit of each")
	flag.Parse()
	if err := run(p, *dir, *python, *script, *only, max(*repeat, 1)); err != nil {
		fmt.Fprintln(os.Stderr, "gbdt-vs-xgboost:", err)
		os.Exit(1)
	}
}

// xgbResult is what xgb_train.py prints.
type xgbResult struct {
	FitSeconds float64 `json:"fit_seconds"`
	Version    string  `json:"xgboost"`
	Trees      int     `json:"trees"`
}

type row struct {
	name                 string
	rows, feats, classes int
	xgbAUC, tgAUC        float64
	xgbFit, tgFit        float64
	xgbTrees, tgTrees    int
	version              string
}

func run(p params, dir, python, script, only string, repeat int) error {
	names, err := pmlb.ClassificationSets(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return err
	}
	if only != "" {
		names = strings.Split(only, ",")
	}
	tmp, err := os.MkdirTemp("", "gbdt-vs-xgboost")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var results []row
	for _, name := range names {
		r, err := compare(p, name, dir, python, script, tmp, repeat)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(os.Stderr, "%-24s AUC xgboost %.5f treegen %.5f   fit xgboost %.3fs treegen %.3fs\n",
			name, r.xgbAUC, r.tgAUC, r.xgbFit, r.tgFit)
		results = append(results, r)
	}
	print(p, results)
	return nil
}

func compare(p params, name, dir, python, script, tmp string, repeat int) (row, error) {
	path := filepath.Join(dir, name+".tsv.gz")
	d, err := data.ReadFile(path, data.Options{RequireTarget: true})
	if err != nil {
		return row{}, err
	}
	labels, class, err := data.Classes(d.Y)
	if err != nil {
		return row{}, err
	}
	k := len(labels)
	train, test := data.StratifiedSplit(class, 0.3, 1)
	trainFile := filepath.Join(tmp, name+".train")
	testFile := filepath.Join(tmp, name+".test")
	probFile := filepath.Join(tmp, name+".probs")
	if err := writeRows(trainFile, train); err != nil {
		return row{}, err
	}
	if err := writeRows(testFile, test); err != nil {
		return row{}, err
	}
	truth := make([]int, len(test))
	for i, r := range test {
		truth[i] = class[r]
	}

	obj := gbdt.Logistic
	if k > 2 {
		obj = gbdt.Softmax
	}
	opts := gbdt.Options{
		Objective:      obj,
		Rounds:         p.Rounds,
		LearningRate:   p.Eta,
		MaxDepth:       p.MaxDepth,
		MinChildWeight: p.MinChildWeight,
		Lambda:         p.Lambda,
		MaxBins:        p.MaxBin,
		Subsample:      p.Subsample,
		ColSample:      p.ColSample,
		Seed:           p.Seed,
		Threads:        p.Threads,
		Name:           name,
	}
	sub := d.Subset(train)

	// The fits of the two libraries alternate, so that both see the same
	// machine; the fastest fit of each counts.
	res := row{name: name, rows: d.Rows, feats: d.Cols, classes: k, xgbFit: math.Inf(1), tgFit: math.Inf(1)}
	var m *ir.Model
	for range repeat {
		xr, err := runXGBoost(python, script, path, trainFile, testFile, probFile, p)
		if err != nil {
			return row{}, err
		}
		res.xgbFit = min(res.xgbFit, xr.FitSeconds)
		res.xgbTrees, res.version = xr.Trees, xr.Version

		start := time.Now()
		m, err = gbdt.Train(sub, nil, opts)
		fit := time.Since(start).Seconds()
		if err != nil {
			return row{}, err
		}
		res.tgFit = min(res.tgFit, fit)
	}
	probs, err := readProbs(probFile, len(test), k)
	if err != nil {
		return row{}, err
	}
	res.xgbAUC = metrics.MacroAUC(truth, probs, k)

	res.tgTrees = len(m.Trees)
	pred, err := runtime.New[float64](m)
	if err != nil {
		return row{}, err
	}
	probs = make([]float64, len(test)*k)
	out := make([]float64, m.NumOutputs)
	for i, r := range test {
		if err := pred.Predict(d.Row(r), out); err != nil {
			return row{}, err
		}
		if k == 2 {
			probs[2*i], probs[2*i+1] = 1-out[0], out[0]
		} else {
			copy(probs[i*k:(i+1)*k], out)
		}
	}
	res.tgAUC = metrics.MacroAUC(truth, probs, k)
	return res, nil
}

// runXGBoost runs the XGBoost side on the given split.
func runXGBoost(python, script, path, trainFile, testFile, probFile string, p params) (xgbResult, error) {
	js, err := json.Marshal(p)
	if err != nil {
		return xgbResult{}, err
	}
	cmd := exec.Command(python, script, path, trainFile, testFile, probFile, string(js))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return xgbResult{}, fmt.Errorf("%s: %w", script, err)
	}
	var res xgbResult
	if err := json.Unmarshal(out, &res); err != nil {
		return xgbResult{}, fmt.Errorf("%s printed %q: %w", script, out, err)
	}
	return res, nil
}

// readProbs reads n rows of k probabilities written by xgb_train.py, each
// as the hexadecimal bits of a float64.
func readProbs(path string, n, k int) ([]float64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != n {
		return nil, fmt.Errorf("%s: %d rows, want %d", path, len(lines), n)
	}
	probs := make([]float64, 0, n*k)
	for i, line := range lines {
		fields := strings.Fields(line)
		if len(fields) != k {
			return nil, fmt.Errorf("%s:%d: %d values, want %d", path, i+1, len(fields), k)
		}
		for _, f := range fields {
			u, err := strconv.ParseUint(f, 16, 64)
			if err != nil {
				return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
			}
			probs = append(probs, math.Float64frombits(u))
		}
	}
	return probs, nil
}

func writeRows(path string, rows []int) error {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strconv.Itoa(r))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// print writes the Markdown table: one line per data set, then the means
// over the TEL paper's data sets (every one but letter) and letter's line
// again.
func print(p params, rs []row) {
	version := ""
	if len(rs) > 0 {
		version = rs[0].version
	}
	fmt.Printf("%d rounds, max depth %d, eta %g, lambda %g, min_child_weight %g, max_bin %d, subsample %g, colsample %g, %d threads; stratified 70/30 split (seed 1); XGBoost %s, tree_method hist\n\n",
		p.Rounds, p.MaxDepth, p.Eta, p.Lambda, p.MinChildWeight, p.MaxBin, p.Subsample, p.ColSample, p.Threads, version)
	fmt.Println("| dataset | rows | features | classes | XGBoost AUC | treegen AUC | diff | XGBoost fit s | treegen fit s | ratio |")
	fmt.Println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	var tel []row
	for _, r := range rs {
		fmt.Printf("| %s | %d | %d | %d | %.4f | %.4f | %+.4f | %.3f | %.3f | %.2f |\n",
			r.name, r.rows, r.feats, r.classes, r.xgbAUC, r.tgAUC, r.tgAUC-r.xgbAUC, r.xgbFit, r.tgFit, r.tgFit/r.xgbFit)
		if r.name != "letter" {
			tel = append(tel, r)
		}
	}
	if len(tel) > 0 {
		var xa, ta, xf, tf, logRatio float64
		for _, r := range tel {
			xa += r.xgbAUC
			ta += r.tgAUC
			xf += r.xgbFit
			tf += r.tgFit
			logRatio += math.Log(r.tgFit / r.xgbFit)
		}
		n := float64(len(tel))
		fmt.Printf("| **mean of %d (all but letter)** | | | | **%.4f** | **%.4f** | **%+.4f** | %.3f | %.3f | %.2f |\n",
			len(tel), xa/n, ta/n, (ta-xa)/n, xf/n, tf/n, tf/xf)
		fmt.Printf("\nOver those %d data sets: mean AUC difference %+.4f (treegen - XGBoost); total fit time %.2f s (XGBoost) and %.2f s (treegen), ratio %.2f; geometric mean of the per-data-set time ratios %.2f.\n",
			len(tel), (ta-xa)/n, xf, tf, tf/xf, math.Exp(logRatio/n))
	}
	for _, r := range rs {
		if r.name == "letter" {
			fmt.Printf("letter: AUC %.4f (XGBoost) and %.4f (treegen), difference %+.4f; fit %.2f s and %.2f s, ratio %.2f.\n",
				r.xgbAUC, r.tgAUC, r.tgAUC-r.xgbAUC, r.xgbFit, r.tgFit, r.tgFit/r.xgbFit)
		}
	}
}
