package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/cart"
	"github.com/treegen/treegen/train/e2e"
)

// depthsSettings are the flags of the depths subcommand.
type depthsSettings struct {
	common
	only, depthsText, gridText string
	oneHotText                 string
	name                       string // of the output files: NAME.csv, NAME.png
	depths, grid               []int
	epochs, finetune           int
	deltaGamma                 float64
	workers                    int
	greedy, keepBest           bool
}

// depthResult is the outcome of one unit (data set × depth).
type depthResult struct {
	name                     string
	depth                    int
	rows, fitRows, classes   int
	e2eTest, e2eTrain        float64
	e2eValid                 float64
	greedyTest, greedyTrain  float64 // NaN without -greedy
	cartTest, cartTrain      float64
	splitsPerRow             float64 // provenance: training rows
	testSplitsPerRow         float64
	splitNodes               int
	cartSplitsPerRow         float64 // on the test rows
	cartLeaves               int
	epochs, finetune         int
	finalGamma               string
	seconds, greedySeconds   float64 // the E2E model's training time
	cartSeconds, unitSeconds float64
	trainerDiffers           int // test rows where the interpreter's class is not the trainer's
}

func runDepths(args []string) error {
	var s depthsSettings
	fs := flag.NewFlagSet("depths", flag.ContinueOnError)
	s.register(fs, 0)
	fs.StringVar(&s.only, "only", "", "comma-separated data sets (default: every classification data set of the manifest)")
	fs.StringVar(&s.oneHotText, "one-hot", "", "comma-separated data sets whose features are each replaced by one 0/1 column per distinct value (connect_4: the paper's LIBSVM encoding, 126 binary features)")
	fs.StringVar(&s.depthsText, "depths", "2,4,6,8,10", "maximum depths")
	fs.IntVar(&s.epochs, "epochs", 20, "greedy EM epochs per stump")
	fs.IntVar(&s.finetune, "finetune", 0, "finetuning epochs (0: 3 × the greedy epochs; negative: none)")
	fs.StringVar(&s.gridText, "epochs-grid", "", "tune the greedy epochs over this list on the validation part (the paper: 20,35,50,65; empty: -epochs, no tuning)")
	fs.Float64Var(&s.deltaGamma, "delta-gamma", 0.1, "Δγ, the steepness added after every epoch")
	fs.IntVar(&s.workers, "workers", 1, "units (data set × depth) trained in parallel")
	fs.StringVar(&s.name, "name", "e2e-depths", "base name of the output files (NAME.csv, NAME.png)")
	fs.BoolVar(&s.keepBest, "keep-best", true, "finetuning keeps the epoch of best deterministic accuracy on the validation part (e2e.Options.KeepBest), as the paper chooses its epochs on a validation split")
	fs.BoolVar(&s.greedy, "greedy", false, "also train the greedy tree alone (no finetuning) and report its accuracy")
	if err := s.parse(fs, "depths", args); err != nil {
		return err
	}
	var err error
	if s.depths, err = parseInts(s.depthsText); err != nil {
		return err
	}
	if s.gridText != "" {
		if s.grid, err = parseInts(s.gridText); err != nil {
			return err
		}
		slices.Sort(s.grid)
	}
	s.threads = defaultThreads(s.threads, s.workers)

	all, err := classificationSets(s.dir)
	if err != nil {
		return err
	}
	names := all
	if s.only != "" {
		names = nil
		for _, n := range strings.Split(s.only, ",") {
			if !slices.Contains(all, n) {
				return fmt.Errorf("%s is not a classification data set of %s/MANIFEST.tsv", n, s.dir)
			}
			names = append(names, n)
		}
	}
	oneHot := map[string]bool{}
	if s.oneHotText != "" {
		for _, n := range strings.Split(s.oneHotText, ",") {
			if !slices.Contains(names, n) {
				return fmt.Errorf("-one-hot: %s is not among the data sets of this run", n)
			}
			oneHot[n] = true
		}
	}
	order := map[string]int{}
	sets := map[string]*set{}
	for i, n := range names {
		order[n] = i
		if sets[n], err = load(s.dir, n, oneHot[n]); err != nil {
			return fmt.Errorf("%s: %w", n, err)
		}
	}
	type unit struct {
		st    *set
		depth int
	}
	var units []unit
	for _, n := range names {
		for _, d := range s.depths {
			units = append(units, unit{sets[n], d})
		}
	}
	// Costliest first, so that the workers finish together.
	cost := func(u unit) float64 { return float64(u.st.d.Rows) * float64(u.st.d.Cols+1) * float64(u.depth) }
	slices.SortStableFunc(units, func(a, b unit) int { return cmp.Compare(cost(b), cost(a)) })

	start := time.Now()
	chk := &checker{on: s.check, batch: s.checkBatch}
	var (
		mu       sync.Mutex
		results  []depthResult
		failures []error
		done     int
	)
	fmt.Fprintf(os.Stderr, "%d data sets × %d depths = %d units on %d workers, %d threads each\n",
		len(names), len(s.depths), len(units), s.workers, s.threads)
	work := make(chan unit)
	var wg sync.WaitGroup
	for range max(s.workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				r, err := depthUnit(&s, u.st, u.depth, chk)
				mu.Lock()
				done++
				if err != nil {
					failures = append(failures, fmt.Errorf("%s depth %d: %w", u.st.name, u.depth, err))
					fmt.Fprintf(os.Stderr, "[%d/%d %5.0fs] %s depth %d: %v\n", done, len(units), time.Since(start).Seconds(), u.st.name, u.depth, err)
				} else {
					results = append(results, r)
					greedy := ""
					if s.greedy {
						greedy = fmt.Sprintf(" (greedy %.4f)", r.greedyTest)
					}
					fmt.Fprintf(os.Stderr, "[%d/%d %5.0fs] %-24s depth %2d: E2EDT test %.4f%s train %.4f, CART test %.4f train %.4f; %.1f splits/row, %d split nodes, epochs %d+%d; %.1fs (unit %.1fs)\n",
						done, len(units), time.Since(start).Seconds(), r.name, r.depth, r.e2eTest, greedy, r.e2eTrain, r.cartTest, r.cartTrain,
						r.splitsPerRow, r.splitNodes, r.epochs, r.finetune, r.seconds, r.unitSeconds)
					sortDepthResults(results, order)
					if err := writeCSV(s.out, s.name+".csv", depthsTable(results, -1)); err != nil {
						failures = append(failures, err)
					}
				}
				mu.Unlock()
			}
		}()
	}
	for _, u := range units {
		work <- u
	}
	close(work)
	wg.Wait()
	total := time.Since(start)
	checkErr := chk.run()
	sortDepthResults(results, order)
	checked := -1
	if s.check && checkErr == nil {
		checked = 1
	}
	if err := writeCSV(s.out, s.name+".csv", depthsTable(results, checked)); err != nil {
		failures = append(failures, err)
	}
	if err := drawDepths(&s, results); err != nil {
		failures = append(failures, err)
	}
	reportDepths(&s, results, total, chk, checkErr)
	if checkErr != nil {
		failures = append(failures, checkErr)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%d failures:\n%w", len(failures), errors.Join(failures...))
	}
	return nil
}

func sortDepthResults(rs []depthResult, order map[string]int) {
	slices.SortFunc(rs, func(a, b depthResult) int {
		if c := cmp.Compare(order[a.name], order[b.name]); c != 0 {
			return c
		}
		return cmp.Compare(a.depth, b.depth)
	})
}

// e2eOptions returns the options of the depths subcommand's E2EDT.
func (s *depthsSettings) e2eOptions(depth, epochs int) e2e.Options {
	dg := s.deltaGamma
	return e2e.Options{
		Trees: 1, MaxDepth: depth, Epochs: epochs, FinetuneEpochs: s.finetune,
		DeltaGamma: &dg, Seed: s.seed, Threads: s.threads, BatchSize: s.batch, LearningRate: s.lr,
		KeepBest: s.keepBest,
	}
}

// depthUnit trains and tests E2EDT and CART on one data set at one depth.
func depthUnit(s *depthsSettings, st *set, depth int, chk *checker) (depthResult, error) {
	t0 := time.Now()
	p := split(st, s.seed, s.maxTrain)
	fit, valid, test := st.d.Subset(p.fit), st.d.Subset(p.valid), st.d.Subset(p.test)
	r := depthResult{name: st.name, depth: depth, rows: st.d.Rows, fitRows: fit.Rows, classes: st.k,
		greedyTest: math.NaN(), greedyTrain: math.NaN()}

	grid := s.grid
	if len(grid) == 0 {
		grid = []int{s.epochs}
	}
	var best *ir.Model
	var bestFit *e2e.Forest
	for _, epochs := range grid {
		o := s.e2eOptions(depth, epochs)
		t := time.Now()
		ef, err := e2e.Fit(fit, valid, o)
		if err != nil {
			return r, fmt.Errorf("E2EDT with %d epochs: %w", epochs, err)
		}
		m := ef.Model()
		secs := time.Since(t).Seconds()
		acc, err := repro.Accuracy(m, valid)
		if err != nil {
			return r, err
		}
		if best == nil || acc > r.e2eValid {
			best, bestFit, r.e2eValid, r.seconds, r.epochs = m, ef, acc, secs, epochs
		}
	}
	m := best
	var err error
	if r.trainerDiffers, err = sameAsTrainer(bestFit, test); err != nil {
		return r, err
	}
	if r.finetune, err = strconv.Atoi(m.Provenance.Params["finetune_epochs"]); err != nil {
		return r, err
	}
	r.finalGamma = m.Provenance.Params["final_gamma"]
	if kept, ok := m.Provenance.Params["finetune_epochs_kept"]; ok {
		// The epochs and the steepness of the finetuning epoch kept.
		if r.finetune, err = strconv.Atoi(kept); err != nil {
			return r, err
		}
		r.finalGamma = strconv.FormatFloat(e2e.Gamma0+float64(r.epochs+r.finetune-1)*s.deltaGamma, 'g', 4, 64)
	}
	if r.splitsPerRow, err = strconv.ParseFloat(m.Provenance.Params["split_evaluations_per_row"], 64); err != nil {
		return r, err
	}
	if r.e2eTest, err = repro.Accuracy(m, test); err != nil {
		return r, err
	}
	if r.e2eTrain, err = repro.Accuracy(m, fit); err != nil {
		return r, err
	}
	var nodes []int
	if r.testSplitsPerRow, nodes, err = splitStats(m, test); err != nil {
		return r, err
	}
	r.splitNodes = nodes[0]
	chk.add(fmt.Sprintf("%s depth %d", st.name, depth), m, test)

	if s.greedy {
		o := s.e2eOptions(depth, r.epochs)
		o.FinetuneEpochs = -1
		t := time.Now()
		g, err := e2e.Train(fit, nil, o)
		if err != nil {
			return r, fmt.Errorf("greedy E2EDT: %w", err)
		}
		r.greedySeconds = time.Since(t).Seconds()
		if r.greedyTest, err = repro.Accuracy(g, test); err != nil {
			return r, err
		}
		if r.greedyTrain, err = repro.Accuracy(g, fit); err != nil {
			return r, err
		}
	}

	t := time.Now()
	c, err := cart.Train(fit, cart.Options{MaxDepth: depth})
	if err != nil {
		return r, fmt.Errorf("CART: %w", err)
	}
	r.cartSeconds = time.Since(t).Seconds()
	if r.cartTest, err = repro.Accuracy(c, test); err != nil {
		return r, err
	}
	if r.cartTrain, err = repro.Accuracy(c, fit); err != nil {
		return r, err
	}
	if r.cartSplitsPerRow, _, err = splitStats(c, test); err != nil {
		return r, err
	}
	for _, nd := range c.Trees[0].Nodes {
		if !nd.Kind.IsSplit() {
			r.cartLeaves++
		}
	}
	r.unitSeconds = time.Since(t0).Seconds()
	return r, nil
}

// depthsTable is the CSV of the results; checked is 1 when the generated
// code of every model was checked, -1 while it is not (yet).
func depthsTable(rs []depthResult, checked int) [][]string {
	table := [][]string{{"dataset", "depth", "rows", "classes", "e2e_test", "cart_test", "e2e_train", "cart_train", "splits_per_row", "seconds",
		"train_rows", "e2e_valid", "greedy_test", "greedy_train", "greedy_seconds", "e2e_test_splits_per_row", "e2e_split_nodes",
		"epochs", "finetune_epochs", "final_gamma", "cart_test_splits_per_row", "cart_leaves", "cart_seconds", "unit_seconds", "codegen_checked"}}
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	for _, r := range rs {
		greedySecs := ""
		if !math.IsNaN(r.greedyTest) {
			greedySecs = g(r.greedySeconds)
		}
		table = append(table, []string{r.name, strconv.Itoa(r.depth), strconv.Itoa(r.rows), strconv.Itoa(r.classes),
			f4(r.e2eTest), f4(r.cartTest), f4(r.e2eTrain), f4(r.cartTrain), g(r.splitsPerRow), g(r.seconds),
			strconv.Itoa(r.fitRows), f4(r.e2eValid), f4(r.greedyTest), f4(r.greedyTrain), greedySecs, g(r.testSplitsPerRow), strconv.Itoa(r.splitNodes),
			strconv.Itoa(r.epochs), strconv.Itoa(r.finetune), r.finalGamma, g(r.cartSplitsPerRow), strconv.Itoa(r.cartLeaves), g(r.cartSeconds), g(r.unitSeconds),
			strconv.FormatBool(checked > 0)})
	}
	return table
}

func reportDepths(s *depthsSettings, rs []depthResult, total time.Duration, chk *checker, checkErr error) {
	byDepth := map[int][]depthResult{}
	for _, r := range rs {
		byDepth[r.depth] = append(byDepth[r.depth], r)
	}
	greedyCol, greedySep := "", ""
	if s.greedy {
		greedyCol, greedySep = " mean greedy E2EDT test |", " ---: |"
	}
	fmt.Printf("| depth | data sets | mean E2EDT test | mean CART test |%s E2EDT wins | ties | CART wins | mean E2EDT train | mean CART train | mean E2EDT splits/row | mean CART splits/row |\n", greedyCol)
	fmt.Printf("| ---: | ---: | ---: | ---: |%s ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n", greedySep)
	for _, d := range sortedKeys(byDepth) {
		g := byDepth[d]
		var et, ct, gt, etr, ctr, es, cs []float64
		wins, ties, losses := 0, 0, 0
		for _, r := range g {
			et, ct, gt = append(et, r.e2eTest), append(ct, r.cartTest), append(gt, r.greedyTest)
			etr, ctr = append(etr, r.e2eTrain), append(ctr, r.cartTrain)
			es, cs = append(es, r.splitsPerRow), append(cs, r.cartSplitsPerRow)
			switch {
			case r.e2eTest > r.cartTest:
				wins++
			case r.e2eTest < r.cartTest:
				losses++
			default:
				ties++
			}
		}
		mean := func(v []float64) float64 { m, _ := repro.MeanSE(v); return m }
		greedy := ""
		if s.greedy {
			greedy = fmt.Sprintf(" %.4f |", mean(gt))
		}
		fmt.Printf("| %d | %d | %.4f | %.4f |%s %d | %d | %d | %.4f | %.4f | %.2f | %.2f |\n",
			d, len(g), mean(et), mean(ct), greedy, wins, ties, losses, mean(etr), mean(ctr), mean(es), mean(cs))
	}
	fmt.Println()
	if s.greedy {
		greedyCol = " greedy E2EDT test |"
	}
	fmt.Printf("| data set | rows | classes | depth | E2EDT test | CART test |%s E2EDT train | CART train | E2EDT valid | E2EDT splits/row | split nodes | epochs | final γ | E2EDT seconds |\n", greedyCol)
	fmt.Printf("| --- | ---: | ---: | ---: | ---: | ---: |%s ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n", greedySep)
	for _, r := range rs {
		greedy := ""
		if s.greedy {
			greedy = fmt.Sprintf(" %.4f |", r.greedyTest)
		}
		fmt.Printf("| %s | %d | %d | %d | %.4f | %.4f |%s %.4f | %.4f | %.4f | %.2f | %d | %d+%d | %s | %.1f |\n",
			r.name, r.rows, r.classes, r.depth, r.e2eTest, r.cartTest, greedy, r.e2eTrain, r.cartTrain, r.e2eValid,
			r.splitsPerRow, r.splitNodes, r.epochs, r.finetune, shortGamma(r.finalGamma), r.seconds)
	}
	tuning := fmt.Sprintf("%d greedy epochs per stump, no tuning", s.epochs)
	if len(s.grid) > 0 {
		tuning = fmt.Sprintf("greedy epochs tuned over %v on the validation part", s.grid)
	}
	if s.keepBest {
		tuning += ", finetuning keeping its epoch of best validation accuracy"
	}
	fmt.Printf("\nE2EDT: one tree, every feature per split, %s, Δγ = %g, seed %d; trained on 64%% of the rows, tested on 20%%. CART: Gini, MaxDepth as E2EDT, same rows. Total run time %s, %d workers × %d threads. Command: `%s`\n",
		tuning, s.deltaGamma, s.seed, total.Round(time.Second), s.workers, s.threads, s.cmdLine)
	fmt.Print(s.deviation())
	if checkErr != nil {
		fmt.Printf("\n**The generated-code check failed:** %v\n", checkErr)
	} else {
		fmt.Printf("\n%s\n", chk.summary())
	}
	differ := 0
	for _, r := range rs {
		differ += r.trainerDiffers
	}
	if differ == 0 {
		fmt.Printf("\nThe interpreter's class equals the trainer's own deterministic prediction (e2e.Forest.PredictClass) on every test row of every model.\n")
	} else {
		fmt.Printf("\n**The interpreter's class differs from the trainer's on %d test rows.**\n", differ)
	}
}

// drawDepths plots connect_4's accuracy against depth, when it is in the
// run.
func drawDepths(s *depthsSettings, rs []depthResult) error {
	if s.out == "" {
		return nil
	}
	var c4 []depthResult
	for _, r := range rs {
		if r.name == "connect_4" {
			c4 = append(c4, r)
		}
	}
	if len(c4) == 0 {
		return nil
	}
	p := plot.New()
	p.Title.Text = "connect_4: a single tree, accuracy against depth"
	p.X.Label.Text = "maximum depth"
	p.Y.Label.Text = "accuracy"
	p.Legend.Top = true
	p.Legend.Left = true
	series := func(f func(depthResult) float64) plotter.XYs {
		pts := make(plotter.XYs, 0, len(c4))
		for _, r := range c4 {
			if v := f(r); !math.IsNaN(v) {
				pts = append(pts, plotter.XY{X: float64(r.depth), Y: v})
			}
		}
		return pts
	}
	lines := []any{
		"E2EDT test", series(func(r depthResult) float64 { return r.e2eTest }),
		"CART test", series(func(r depthResult) float64 { return r.cartTest }),
		"E2EDT train", series(func(r depthResult) float64 { return r.e2eTrain }),
		"CART train", series(func(r depthResult) float64 { return r.cartTrain }),
	}
	if s.greedy {
		lines = append(lines,
			"greedy E2EDT test", series(func(r depthResult) float64 { return r.greedyTest }),
			"greedy E2EDT train", series(func(r depthResult) float64 { return r.greedyTrain }))
	}
	if err := plotutil.AddLinePoints(p, lines...); err != nil {
		return err
	}
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, filepath.Join(s.out, s.name+".png"))
}
