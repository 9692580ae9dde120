package main

import (
	"cmp"
	"errors"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/e2e"
)

// forestModel is a trained forest with what is reported on it.
type forestModel struct {
	trees                          int
	testAcc, trainAcc, validAcc    float64
	testSplits, trainSplits        float64
	nodesMean, nodesSE             float64
	nodesMin, nodesMax             int
	finalGamma                     string
	seconds                        float64
	derived                        bool // the first trees of a larger forest (-nested)
	m                              *ir.Model
	epochs, finetune               int
	deltaGamma                     float64
	trainRows, validRows, testRows int
	// trainerDiffers counts the test rows where the interpreter's class is
	// not the trainer's own (e2e.Forest.PredictClass); -1: not checked
	// (a forest taken as the first trees of a larger one).
	trainerDiffers int
}

// trainerCheck returns the sentence on the trainer-against-interpreter
// check of the models, or a failure.
func trainerCheck(models []*forestModel) (string, error) {
	checked, differ := 0, 0
	for _, f := range models {
		if f == nil || f.trainerDiffers < 0 {
			continue
		}
		checked++
		differ += f.trainerDiffers
	}
	if differ > 0 {
		return "", fmt.Errorf("the interpreter's class differs from the trainer's on %d test rows", differ)
	}
	return fmt.Sprintf("The interpreter's class equals the trainer's own deterministic prediction (e2e.Forest.PredictClass) on every test row of the %d forests trained.", checked), nil
}

// measure fills the accuracies and split statistics of f from its model.
func (f *forestModel) measure(train, valid, test *data.Dataset) error {
	var err error
	if f.testAcc, err = repro.Accuracy(f.m, test); err != nil {
		return err
	}
	if f.trainAcc, err = repro.Accuracy(f.m, train); err != nil {
		return err
	}
	f.validAcc = math.NaN()
	if valid != nil {
		if f.validAcc, err = repro.Accuracy(f.m, valid); err != nil {
			return err
		}
		f.validRows = valid.Rows
	}
	var nodes []int
	if f.testSplits, nodes, err = splitStats(f.m, test); err != nil {
		return err
	}
	if f.trainSplits, _, err = splitStats(f.m, train); err != nil {
		return err
	}
	fl := make([]float64, len(nodes))
	for i, n := range nodes {
		fl[i] = float64(n)
	}
	f.nodesMean, f.nodesSE = repro.MeanSE(fl)
	f.nodesMin, f.nodesMax = slices.Min(nodes), slices.Max(nodes)
	f.finalGamma = f.m.Provenance.Params["final_gamma"]
	f.trees = len(f.m.Trees)
	f.trainRows, f.testRows = train.Rows, test.Rows
	if f.finetune, err = strconv.Atoi(f.m.Provenance.Params["finetune_epochs"]); err != nil {
		return err
	}
	if f.epochs, err = strconv.Atoi(f.m.Provenance.Params["epochs"]); err != nil {
		return err
	}
	if f.deltaGamma, err = strconv.ParseFloat(f.m.Provenance.Params["delta_gamma"], 64); err != nil {
		return err
	}
	return nil
}

// forestFlags are the forest settings shared by annealing and forest.
type forestFlags struct {
	dataset         string
	depth, features int
	finetuneFactor  int
	workers         int
}

func (f *forestFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.dataset, "dataset", "letter", "data set (the paper: Letter)")
	fs.IntVar(&f.depth, "depth", 10, "maximum depth of every tree")
	fs.IntVar(&f.features, "features", 8, "random features per split")
	fs.IntVar(&f.finetuneFactor, "finetune-factor", 3, "finetuning epochs per greedy epoch (0: no finetuning)")
}

func (f *forestFlags) options(c *common, trees, epochs int, deltaGamma float64) e2e.Options {
	dg := deltaGamma
	ft := f.finetuneFactor * epochs
	if ft == 0 {
		ft = -1
	}
	return e2e.Options{Trees: trees, MaxDepth: f.depth, FeaturesPerSplit: f.features, Epochs: epochs, FinetuneEpochs: ft,
		DeltaGamma: &dg, Seed: c.seed, Threads: c.threads, BatchSize: c.batch, LearningRate: c.lr}
}

func forestHeader() []string {
	return []string{"dataset", "trees", "depth", "features_per_split", "epochs", "finetune_epochs", "delta_gamma", "train_rows", "valid_rows", "test_rows",
		"valid_accuracy", "test_accuracy", "train_accuracy", "test_splits_per_row", "train_splits_per_row",
		"split_nodes_per_tree_mean", "split_nodes_per_tree_se", "split_nodes_per_tree_min", "split_nodes_per_tree_max",
		"final_gamma", "seconds", "first_trees_of_larger_forest"}
}

func (f *forestModel) row(dataset string, depth, features int) []string {
	g := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	return []string{dataset, strconv.Itoa(f.trees), strconv.Itoa(depth), strconv.Itoa(features), strconv.Itoa(f.epochs), strconv.Itoa(f.finetune),
		g(f.deltaGamma), strconv.Itoa(f.trainRows), strconv.Itoa(f.validRows), strconv.Itoa(f.testRows),
		f4(f.validAcc), f4(f.testAcc), f4(f.trainAcc), g(f.testSplits), g(f.trainSplits),
		g(f.nodesMean), g(f.nodesSE), strconv.Itoa(f.nodesMin), strconv.Itoa(f.nodesMax),
		f.finalGamma, g(f.seconds), strconv.FormatBool(f.derived)}
}

func runAnnealing(args []string) error {
	var s common
	var ff forestFlags
	var epochsText, dgText string
	var trees int
	fs := flag.NewFlagSet("annealing", flag.ContinueOnError)
	s.register(fs, 0)
	ff.register(fs)
	fs.StringVar(&epochsText, "epochs-list", "15", "greedy epochs, one forest pair each (the paper: 15,30,45)")
	fs.StringVar(&dgText, "delta-gammas", "0,0.1", "the values of Δγ compared")
	fs.IntVar(&trees, "trees", 10, "trees per forest (sNDF's Letter set-up, which the paper copies: 70)")
	fs.IntVar(&ff.workers, "workers", 1, "forests (epochs × Δγ) trained in parallel")
	if err := s.parse(fs, "annealing", args); err != nil {
		return err
	}
	epochsList, err := parseInts(epochsText)
	if err != nil {
		return err
	}
	dgs, err := parseFloats(dgText)
	if err != nil {
		return err
	}
	s.threads = defaultThreads(s.threads, ff.workers)
	st, err := load(s.dir, ff.dataset, false)
	if err != nil {
		return err
	}
	p := split(st, s.seed, s.maxTrain)
	fit, valid, test := st.d.Subset(p.fit), st.d.Subset(p.valid), st.d.Subset(p.test)
	type unit struct {
		epochs int
		dg     float64
	}
	var units []unit
	for _, e := range epochsList {
		for _, dg := range dgs {
			units = append(units, unit{e, dg})
		}
	}
	slices.SortStableFunc(units, func(a, b unit) int { return cmp.Compare(b.epochs, a.epochs) })
	chk := &checker{on: s.check, batch: s.checkBatch}
	start := time.Now()
	var (
		mu       sync.Mutex
		results  = map[unit]*forestModel{}
		failures []error
		done     int
	)
	fmt.Fprintf(os.Stderr, "%s: %d training, %d validation, %d test rows; %d forests of %d trees on %d workers, %d threads each\n",
		ff.dataset, fit.Rows, valid.Rows, test.Rows, len(units), trees, ff.workers, s.threads)
	work := make(chan unit)
	var wg sync.WaitGroup
	for range max(ff.workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				t := time.Now()
				f := &forestModel{}
				ef, err := e2e.Fit(fit, valid, ff.options(&s, trees, u.epochs, u.dg))
				if err == nil {
					f.m, f.seconds = ef.Model(), time.Since(t).Seconds()
					err = f.measure(fit, valid, test)
				}
				if err == nil {
					f.trainerDiffers, err = sameAsTrainer(ef, test)
				}
				mu.Lock()
				done++
				if err != nil {
					failures = append(failures, fmt.Errorf("epochs %d Δγ %g: %w", u.epochs, u.dg, err))
					fmt.Fprintf(os.Stderr, "[%d/%d] epochs %d Δγ %g: %v\n", done, len(units), u.epochs, u.dg, err)
				} else {
					results[u] = f
					chk.add(fmt.Sprintf("epochs %d Δγ %g", u.epochs, u.dg), f.m, test)
					fmt.Fprintf(os.Stderr, "[%d/%d %5.0fs] epochs %d+%d Δγ %g: valid %.4f test %.4f train %.4f, %.1f split nodes per tree, final γ %s; %.1fs\n",
						done, len(units), time.Since(start).Seconds(), f.epochs, f.finetune, u.dg, f.validAcc, f.testAcc, f.trainAcc, f.nodesMean, shortGamma(f.finalGamma), f.seconds)
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

	table := [][]string{forestHeader()}
	fmt.Printf("| greedy + finetune epochs | Δγ | trees | validation accuracy | test accuracy | training accuracy | split nodes per tree | test splits/row | final γ | seconds |\n")
	fmt.Printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, e := range epochsList {
		for _, dg := range dgs {
			f, ok := results[unit{e, dg}]
			if !ok {
				continue
			}
			table = append(table, f.row(ff.dataset, ff.depth, ff.features))
			fmt.Printf("| %d + %d | %g | %d | %.4f | %.4f | %.4f | %.1f | %.1f | %s | %.1f |\n",
				f.epochs, f.finetune, dg, f.trees, f.validAcc, f.testAcc, f.trainAcc, f.nodesMean, f.testSplits, shortGamma(f.finalGamma), f.seconds)
		}
	}
	fmt.Printf("\nE2EDF on %s: %d trees of depth %d, %d random features per split, finetuning %d× the greedy epochs, γ₀ = 1, seed %d; trained on 64%% of the rows (%d), validation accuracy on 16%% (%d; Table 1 reports validation accuracy), test accuracy on 20%% (%d). Total run time %s, %d workers × %d threads. Command: `%s`\n",
		ff.dataset, trees, ff.depth, ff.features, ff.finetuneFactor, s.seed, fit.Rows, valid.Rows, test.Rows, total.Round(time.Second), ff.workers, s.threads, s.cmdLine)
	fmt.Print(s.deviation())
	if checkErr != nil {
		fmt.Printf("\n**The generated-code check failed:** %v\n", checkErr)
		failures = append(failures, checkErr)
	} else {
		fmt.Printf("\n%s\n", chk.summary())
	}
	if sentence, err := trainerCheck(slices.Collect(maps.Values(results))); err != nil {
		fmt.Printf("\n**%v**\n", err)
		failures = append(failures, err)
	} else {
		fmt.Printf("\n%s\n", sentence)
	}
	if err := writeCSV(s.out, "e2e-annealing.csv", table); err != nil {
		failures = append(failures, err)
	}
	if len(failures) > 0 {
		return fmt.Errorf("%d failures:\n%w", len(failures), errors.Join(failures...))
	}
	return nil
}

// gapEpoch is one finetuning epoch of the T = 1 model.
type gapEpoch struct {
	epoch                int
	gamma, logLikelihood float64
	trainAcc, heldoutAcc float64
	heldoutProbAcc       float64 // of the probabilistic tree (Eq. 2) at γ
	elapsed              float64
}

func runForest(args []string) error {
	var s common
	var ff forestFlags
	var treesText string
	var epochs int
	var deltaGamma float64
	var nested bool
	fs := flag.NewFlagSet("forest", flag.ContinueOnError)
	s.register(fs, 0)
	ff.register(fs)
	fs.StringVar(&treesText, "trees-list", "1,3,5,10", "forest sizes T (sNDF's Letter set-up: add 70)")
	fs.IntVar(&epochs, "epochs", 45, "greedy epochs (the paper's Letter setting: 45)")
	fs.Float64Var(&deltaGamma, "delta-gamma", 0.1, "Δγ")
	fs.BoolVar(&nested, "nested", true, "train only the largest forest and take the smaller ones as its first T trees")
	if err := s.parse(fs, "forest", args); err != nil {
		return err
	}
	sizes, err := parseInts(treesText)
	if err != nil {
		return err
	}
	slices.Sort(sizes)
	sizes = slices.Compact(sizes)
	if sizes[0] < 1 {
		return fmt.Errorf("-trees-list: %d trees", sizes[0])
	}
	s.threads = defaultThreads(s.threads, 1)
	st, err := load(s.dir, ff.dataset, false)
	if err != nil {
		return err
	}
	p := split(st, s.seed, s.maxTrain)
	train, test := st.d.Subset(p.train), st.d.Subset(p.test)
	fmt.Fprintf(os.Stderr, "%s: %d training, %d test rows; forests of %v trees, %d threads\n", ff.dataset, train.Rows, test.Rows, sizes, s.threads)
	start := time.Now()
	chk := &checker{on: s.check, batch: s.checkBatch}

	// The T = 1 model, with the γ gap recorded in its finetuning.
	var gap []gapEpoch
	o := ff.options(&s, 1, epochs, deltaGamma)
	o.OnEpoch = func(i e2e.EpochInfo) {
		if i.Phase == e2e.Finetune {
			gap = append(gap, gapEpoch{i.Epoch, i.Gamma, i.LogLikelihood, i.TrainAccuracy, i.ValidAccuracy, i.ValidProbAccuracy, i.Elapsed.Seconds()})
			if i.Epoch%10 == 0 || i.Epoch == i.Epochs {
				fmt.Fprintf(os.Stderr, "  T=1 finetune epoch %d/%d: γ %.2f, mean log-likelihood %.4f, train %.4f, held-out %.4f (%.0fs)\n",
					i.Epoch, i.Epochs, i.Gamma, i.LogLikelihood, i.TrainAccuracy, i.ValidAccuracy, i.Elapsed.Seconds())
			}
		}
	}
	t := time.Now()
	oneFit, err := e2e.Fit(train, test, o)
	if err != nil {
		return fmt.Errorf("T = 1: %w", err)
	}
	one := oneFit.Model()
	models := map[int]*forestModel{1: {m: one, seconds: time.Since(t).Seconds()}}
	if models[1].trainerDiffers, err = sameAsTrainer(oneFit, test); err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "[%5.0fs] T = 1 trained in %.1fs\n", time.Since(start).Seconds(), models[1].seconds)

	train1 := func(T int) error {
		done := map[int]float64{}
		o := ff.options(&s, T, epochs, deltaGamma)
		o.OnEpoch = func(i e2e.EpochInfo) {
			done[i.Tree] = i.Elapsed.Seconds()
			if i.Phase == e2e.Finetune && i.Epoch == i.Epochs {
				fmt.Fprintf(os.Stderr, "  T=%d: tree %d done at %.0fs\n", T, i.Tree+1, i.Elapsed.Seconds())
			}
		}
		t := time.Now()
		ef, err := e2e.Fit(train, nil, o)
		if err != nil {
			return fmt.Errorf("T = %d: %w", T, err)
		}
		m := ef.Model()
		models[T] = &forestModel{m: m, seconds: time.Since(t).Seconds()}
		if models[T].trainerDiffers, err = sameAsTrainer(ef, test); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "[%5.0fs] T = %d trained in %.1fs\n", time.Since(start).Seconds(), T, models[T].seconds)
		if !nested {
			return nil
		}
		if !reflect.DeepEqual(m.Trees[0], one.Trees[0]) {
			return fmt.Errorf("-nested: the first tree of the forest of %d trees differs from the model of one tree; run with -nested=false", T)
		}
		for _, n := range sizes {
			if n == 1 || n >= T {
				continue
			}
			sub := *m
			sub.Trees = slices.Clone(m.Trees[:n])
			sub.Provenance = &ir.Provenance{Producer: m.Provenance.Producer, Params: maps.Clone(m.Provenance.Params), Data: m.Provenance.Data}
			sub.Provenance.Params["trees"] = strconv.Itoa(n)
			perRow, _, err := splitStats(&sub, train)
			if err != nil {
				return err
			}
			sub.Provenance.Params["split_evaluations_per_row"] = strconv.FormatFloat(perRow, 'g', -1, 64)
			if err := sub.Validate(); err != nil {
				return fmt.Errorf("the first %d trees: %w", n, err)
			}
			models[n] = &forestModel{m: &sub, seconds: done[n-1], derived: true, trainerDiffers: -1}
		}
		return nil
	}
	if nested {
		if big := sizes[len(sizes)-1]; big > 1 {
			if err := train1(big); err != nil {
				return err
			}
		}
	} else {
		for _, T := range sizes {
			if T > 1 {
				if err := train1(T); err != nil {
					return err
				}
			}
		}
	}
	total := time.Since(start)

	table := [][]string{forestHeader()}
	fmt.Printf("| T | test accuracy | training accuracy | split evaluations per row (test) | (training) | split nodes per tree, mean ± SE | min–max | final γ | seconds |\n")
	fmt.Printf("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, T := range sizes {
		f := models[T]
		if err := f.measure(train, nil, test); err != nil {
			return fmt.Errorf("T = %d: %w", T, err)
		}
		if !f.derived {
			chk.add(fmt.Sprintf("T = %d", T), f.m, test)
		}
		table = append(table, f.row(ff.dataset, ff.depth, ff.features))
		secs := fmt.Sprintf("%.1f", f.seconds)
		if f.derived {
			secs += " (first trees)"
		}
		fmt.Printf("| %d | %.4f | %.4f | %.1f | %.1f | %.1f ± %.1f | %d–%d | %s | %s |\n",
			T, f.testAcc, f.trainAcc, f.testSplits, f.trainSplits, f.nodesMean, f.nodesSE, f.nodesMin, f.nodesMax, shortGamma(f.finalGamma), secs)
	}
	checkErr := chk.run()
	big := models[sizes[len(sizes)-1]]
	fmt.Printf("\nSplit (oblique) nodes per depth-%d tree over the %d trees of the largest forest: %.1f ± %.1f (SE), %d to %d (the paper, Letter: 758 ± 1 of at most %d).\n",
		ff.depth, big.trees, big.nodesMean, big.nodesSE, big.nodesMin, big.nodesMax, 1<<ff.depth-1)
	fmt.Printf("\nE2EDF on %s: depth %d, %d random features per split, %d greedy + %d finetuning epochs, Δγ = %g, γ₀ = 1, seed %d; trained on 80%% of the rows (%d), tested on 20%% (%d). One run; the paper averages three. sNDF's Letter set-up, which the paper matches: 70 trees of depth 10 with 8 random features per split (-trees-list 1,3,5,10,70). Total run time %s, %d threads. Command: `%s`\n",
		ff.dataset, ff.depth, ff.features, epochs, ff.finetuneFactor*epochs, deltaGamma, s.seed, train.Rows, test.Rows, total.Round(time.Second), s.threads, s.cmdLine)
	if nested && sizes[len(sizes)-1] > 1 {
		fmt.Printf("\nThe smaller forests are the first T trees of the forest of %d (-nested), whose first tree was checked to equal the model of one tree, node for node; their seconds are the time at which their last tree was finished.\n", sizes[len(sizes)-1])
	}
	fmt.Print(s.deviation())

	// The γ gap.
	gapTable := [][]string{{"epoch", "gamma", "log_likelihood", "exp_log_likelihood", "train_accuracy", "heldout_accuracy", "heldout_prob_accuracy", "elapsed_seconds"}}
	for _, g := range gap {
		ff := func(v float64) string { return strconv.FormatFloat(v, 'g', 8, 64) }
		gapTable = append(gapTable, []string{strconv.Itoa(g.epoch), ff(g.gamma), ff(g.logLikelihood), ff(math.Exp(g.logLikelihood)),
			f4(g.trainAcc), f4(g.heldoutAcc), f4(g.heldoutProbAcc), strconv.FormatFloat(g.elapsed, 'f', 1, 64)})
	}
	if len(gap) > 0 {
		fmt.Printf("\nThe γ gap, finetuning the T = 1 tree (every %s epoch): exp(mean log-likelihood) is the geometric mean probability of the true class under the probabilistic tree on the training rows; the accuracies are the deterministic tree's (γ → ∞) and, last, the probabilistic tree's at γ (Eq. 2), whose gap annealing closes.\n\n", "tenth")
		fmt.Println("| epoch | γ | mean log-likelihood | exp(mean log-likelihood) | deterministic training accuracy | deterministic held-out accuracy | probabilistic held-out accuracy |")
		fmt.Println("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
		for i, g := range gap {
			if i == 0 || (i+1)%10 == 0 || i == len(gap)-1 {
				fmt.Printf("| %d | %.2f | %.4f | %.4f | %.4f | %.4f | %.4f |\n", g.epoch, g.gamma, g.logLikelihood, math.Exp(g.logLikelihood), g.trainAcc, g.heldoutAcc, g.heldoutProbAcc)
			}
		}
	}
	var failures []error
	if checkErr != nil {
		fmt.Printf("\n**The generated-code check failed:** %v\n", checkErr)
		failures = append(failures, checkErr)
	} else {
		fmt.Printf("\n%s\n", chk.summary())
	}
	if sentence, err := trainerCheck(slices.Collect(maps.Values(models))); err != nil {
		fmt.Printf("\n**%v**\n", err)
		failures = append(failures, err)
	} else {
		fmt.Printf("\n%s\n", sentence)
	}
	if s.out != "" {
		for _, w := range []func() error{
			func() error { return writeCSV(s.out, "e2e-forest.csv", table) },
			func() error { return writeCSV(s.out, "e2e-gap.csv", gapTable) },
			func() error { return drawGap(filepath.Join(s.out, "e2e-gap.png"), ff.dataset, gap) },
			func() error { return drawForest(filepath.Join(s.out, "e2e-forest.png"), ff.dataset, sizes, models) },
		} {
			if err := w(); err != nil {
				failures = append(failures, err)
			}
		}
	}
	if len(failures) > 0 {
		return fmt.Errorf("%d failures:\n%w", len(failures), errors.Join(failures...))
	}
	return nil
}

// drawGap plots the deterministic accuracies and the probabilistic
// likelihood of the T = 1 tree against γ during finetuning.
func drawGap(path, dataset string, gap []gapEpoch) error {
	if len(gap) == 0 {
		return nil
	}
	p := plot.New()
	p.Title.Text = dataset + ": one E2EDT tree during finetuning"
	p.X.Label.Text = "steepness γ"
	p.Y.Label.Text = "accuracy / probability"
	p.Legend.Top = false
	p.Legend.Left = false
	series := func(f func(gapEpoch) float64) plotter.XYs {
		pts := make(plotter.XYs, len(gap))
		for i, g := range gap {
			pts[i] = plotter.XY{X: g.gamma, Y: f(g)}
		}
		return pts
	}
	if err := plotutil.AddLines(p,
		"deterministic, training accuracy", series(func(g gapEpoch) float64 { return g.trainAcc }),
		"deterministic, held-out accuracy", series(func(g gapEpoch) float64 { return g.heldoutAcc }),
		"probabilistic (Eq. 2), held-out accuracy", series(func(g gapEpoch) float64 { return g.heldoutProbAcc }),
		"probabilistic, exp(mean log p(y|x)), training", series(func(g gapEpoch) float64 { return math.Exp(g.logLikelihood) }),
	); err != nil {
		return err
	}
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, path)
}

// drawForest plots test accuracy against split evaluations per row, as
// Figure 6 of the paper.
func drawForest(path, dataset string, sizes []int, models map[int]*forestModel) error {
	p := plot.New()
	p.Title.Text = dataset + ": E2EDF, test accuracy against computational load"
	p.X.Label.Text = "split evaluations per row (test, log scale)"
	p.Y.Label.Text = "test accuracy"
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	pts := make(plotter.XYs, 0, len(sizes))
	labels := make([]string, 0, len(sizes))
	for _, T := range sizes {
		f := models[T]
		pts = append(pts, plotter.XY{X: f.testSplits, Y: f.testAcc})
		labels = append(labels, fmt.Sprintf("T=%d", T))
	}
	if err := plotutil.AddLinePoints(p, "E2EDF", pts); err != nil {
		return err
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: pts, Labels: labels})
	if err != nil {
		return err
	}
	p.Add(l)
	return p.Save(16*vg.Centimeter, 11*vg.Centimeter, path)
}
