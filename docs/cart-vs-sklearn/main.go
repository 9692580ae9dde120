// Command cart-vs-sklearn compares treegen's CART trainer with
// scikit-learn's DecisionTreeClassifier on the classification data sets of
// testdata/pmlb and prints a Markdown table of test accuracies and fit
// times.
//
// Run it from the repository root:
//
//	go run ./docs/cart-vs-sklearn                      # gini, max depth 8
//	go run ./docs/cart-vs-sklearn -criterion entropy
//
// For each data set it makes a stratified 70/30 split (data.StratifiedSplit
// with test fraction 0.3 and seed 1), writes the training and test row
// indices to a temporary directory, runs sklearn_tree.py (which trains
// DecisionTreeClassifier(criterion, max_depth, random_state=0) on the same
// rows of the same file and prints its test accuracy and fit time), trains
// treegen's CART with the same settings and evaluates it on the same test
// rows. docs/CART.md shows the result.
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
	"github.com/treegen/treegen/train/cart"
)

func main() {
	criterion := flag.String("criterion", "gini", "split criterion: gini or entropy")
	depth := flag.Int("depth", 8, "maximum tree depth")
	dir := flag.String("data", "testdata/pmlb", "directory holding MANIFEST.tsv and the data sets")
	python := flag.String("python", "/usr/bin/python3", "Python interpreter with scikit-learn")
	script := flag.String("script", "docs/cart-vs-sklearn/sklearn_tree.py", "the scikit-learn side of the comparison")
	only := flag.String("only", "", "comma-separated data set names to run (default: every classification data set)")
	flag.IntVar(&randomState, "random-state", 0, "scikit-learn's random_state (the order in which it visits features, hence its choice among tied splits)")
	flag.IntVar(&spread, "spread", 1, "also run scikit-learn with the next spread-1 random_state values and show the range of its accuracies")
	flag.BoolVar(&float32X, "float32", false, "train treegen on the features rounded to float32, as scikit-learn stores them")
	flag.Parse()
	if err := run(*criterion, *depth, *dir, *python, *script, *only); err != nil {
		fmt.Fprintln(os.Stderr, "cart-vs-sklearn:", err)
		os.Exit(1)
	}
}

// Diagnostic settings (see the flags).
var (
	randomState int
	spread      int
	float32X    bool
)

// sklearnResult is what sklearn_tree.py prints.
type sklearnResult struct {
	Accuracy   float64 `json:"accuracy"`
	FitSeconds float64 `json:"fit_seconds"`
	Version    string  `json:"sklearn"`
	Nodes      int     `json:"nodes"`
	Depth      int     `json:"depth"`
}

type row struct {
	name                string
	rows, feats, labels int
	sk                  sklearnResult
	skMin, skMax        float64 // accuracy range over the random_state values of -spread
	acc, fit            float64
	nodes, depth        int
}

func run(criterion string, depth int, dir, python, script, only string) error {
	names, err := pmlb.ClassificationSets(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		return err
	}
	if only != "" {
		names = strings.Split(only, ",")
	}
	tmp, err := os.MkdirTemp("", "cart-vs-sklearn")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	var results []row
	for _, name := range names {
		r, err := compare(name, criterion, depth, dir, python, script, tmp)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		fmt.Fprintf(os.Stderr, "%-24s sklearn %.4f  treegen %.4f\n", name, r.sk.Accuracy, r.acc)
		results = append(results, r)
	}
	print(results, criterion, depth)
	return nil
}

func compare(name, criterion string, depth int, dir, python, script, tmp string) (row, error) {
	path := filepath.Join(dir, name+".tsv.gz")
	d, err := data.ReadFile(path, data.Options{RequireTarget: true})
	if err != nil {
		return row{}, err
	}
	labels, class, err := data.Classes(d.Y)
	if err != nil {
		return row{}, err
	}
	train, test := data.StratifiedSplit(class, 0.3, 1)
	trainFile := filepath.Join(tmp, name+".train")
	testFile := filepath.Join(tmp, name+".test")
	if err := writeRows(trainFile, train); err != nil {
		return row{}, err
	}
	if err := writeRows(testFile, test); err != nil {
		return row{}, err
	}

	var sk sklearnResult
	skMin, skMax := math.Inf(1), math.Inf(-1)
	for i := range max(spread, 1) {
		res, err := runSklearn(python, script, path, trainFile, testFile, criterion, depth, randomState+i)
		if err != nil {
			return row{}, err
		}
		if i == 0 {
			sk = res
		}
		skMin, skMax = min(skMin, res.Accuracy), max(skMax, res.Accuracy)
	}

	if float32X {
		for i, v := range d.X {
			d.X[i] = float64(float32(v))
		}
	}
	start := time.Now()
	m, err := cart.Train(d.Subset(train), cart.Options{Criterion: cart.Criterion(criterion), MaxDepth: depth, Name: name})
	fit := time.Since(start).Seconds()
	if err != nil {
		return row{}, err
	}
	correct := 0
	for _, r := range test {
		if predictClass(m, d.Row(r)) == class[r] {
			correct++
		}
	}
	return row{
		name: name, rows: d.Rows, feats: d.Cols, labels: len(labels),
		sk: sk, skMin: skMin, skMax: skMax, acc: float64(correct) / float64(len(test)), fit: fit,
		nodes: len(m.Trees[0].Nodes), depth: m.Trees[0].Depth(),
	}, nil
}

// runSklearn runs the scikit-learn side on the given split.
func runSklearn(python, script, path, trainFile, testFile, criterion string, depth, seed int) (sklearnResult, error) {
	cmd := exec.Command(python, script, path, trainFile, testFile, criterion, strconv.Itoa(depth), strconv.Itoa(seed))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return sklearnResult{}, fmt.Errorf("%s: %w", script, err)
	}
	var res sklearnResult
	if err := json.Unmarshal(out, &res); err != nil {
		return sklearnResult{}, fmt.Errorf("%s printed %q: %w", script, out, err)
	}
	return res, nil
}

func writeRows(path string, rows []int) error {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strconv.Itoa(r))
		b.WriteByte('\n')
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// predictClass walks the single tree of the CART model m and returns the
// class index it predicts for x, as ir/doc.go defines it.
func predictClass(m *ir.Model, x []float64) int {
	nodes := m.Trees[0].Nodes
	i := 0
	for nodes[i].IsSplit() {
		n := &nodes[i]
		v := x[n.Feature]
		var left bool
		switch {
		case math.IsNaN(v):
			left = n.DefaultLeft
		case n.LessEqual:
			left = v <= n.Threshold
		default:
			left = v < n.Threshold
		}
		if left {
			i = n.Left
		} else {
			i = n.Right
		}
	}
	v := nodes[i].Value
	if m.Task == ir.Binary {
		if v[0] > 0.5 {
			return 1
		}
		return 0
	}
	best := 0
	for k := range v {
		if v[k] > v[best] {
			best = k
		}
	}
	return best
}

func print(results []row, criterion string, depth int) {
	version := ""
	if len(results) > 0 {
		version = results[0].sk.Version
	}
	fmt.Printf("criterion %s, max depth %d, stratified 70/30 split (seed 1); scikit-learn %s, random_state %d", criterion, depth, version, randomState)
	if float32X {
		fmt.Printf("; treegen on float32-rounded features")
	}
	fmt.Print("\n\n")
	rangeHead, rangeSep := "", ""
	if spread > 1 {
		rangeHead = fmt.Sprintf(" sklearn acc. range, random_state %d..%d |", randomState, randomState+spread-1)
		rangeSep = " ---: |"
	}
	fmt.Printf("| dataset | rows | features | classes | sklearn acc. %% | treegen acc. %% | diff (points) |%s sklearn nodes | treegen nodes | sklearn fit ms | treegen fit ms |\n", rangeHead)
	fmt.Printf("| --- | ---: | ---: | ---: | ---: | ---: | ---: |%s ---: | ---: | ---: | ---: |\n", rangeSep)
	var sumSk, sumTg, sumMin, sumMax, sumSkFit, sumTgFit float64
	for _, r := range results {
		spreadCol := ""
		if spread > 1 {
			spreadCol = fmt.Sprintf(" %.2f–%.2f |", 100*r.skMin, 100*r.skMax)
		}
		fmt.Printf("| %s | %d | %d | %d | %.2f | %.2f | %+.2f |%s %d | %d | %.1f | %.1f |\n",
			r.name, r.rows, r.feats, r.labels, 100*r.sk.Accuracy, 100*r.acc, 100*(r.acc-r.sk.Accuracy),
			spreadCol, r.sk.Nodes, r.nodes, 1000*r.sk.FitSeconds, 1000*r.fit)
		sumSk += r.sk.Accuracy
		sumTg += r.acc
		sumMin += r.skMin
		sumMax += r.skMax
		sumSkFit += r.sk.FitSeconds
		sumTgFit += r.fit
	}
	n := float64(len(results))
	spreadCol := ""
	if spread > 1 {
		spreadCol = fmt.Sprintf(" %.2f–%.2f |", 100*sumMin/n, 100*sumMax/n)
	}
	fmt.Printf("| **mean** | | | | **%.2f** | **%.2f** | **%+.2f** |%s | | %.1f | %.1f |\n",
		100*sumSk/n, 100*sumTg/n, 100*(sumTg-sumSk)/n, spreadCol, 1000*sumSkFit/n, 1000*sumTgFit/n)
}
