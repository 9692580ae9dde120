// Command tao-vs-paper checks the softmax trees of train/tao against Table
// 1 of Kairgeldin, Gabidolla and Carreira-Perpiñán, "Adaptive Softmax
// Trees for Many-Class Classification" (UAI 2024), on Letter, and runs the
// same models on three other multiclass data sets beside treegen's CART
// and GBDT. Run it from the repository root:
//
//	go run ./docs/tao-vs-paper [flags]
//
// It writes NAME.csv (default tao-letter.csv) and NAME-others.csv into -out
// (default "docs"; empty: none), prints Markdown tables on stdout and its
// progress on stderr.
//
// # Letter (Table 1)
//
// letter.tsv.gz of testdata/pmlb split as the paper does: UCI's file
// (letter-recognition.data) in its own order, the first 16,000 rows for
// training and the last 4,000 for testing. PMLB's file holds the same
// 20,000 rows in another order (UCI's first row is PMLB's data row 7,040,
// 0-based), so the split is recovered from testdata/pmlb/letter-uci-test.txt,
// the PMLB rows of UCI's last 4,000 in UCI's order; -split pmlb takes
// PMLB's first 16,000 and last 4,000 instead, a random split of the
// paper's sizes. -make-uci-split FILE writes letter-uci-test.txt from
// UCI's letter-recognition.data (the whole file, or at least its last
// 4,000 lines), matching every row by its letter and its 16 values, and
// exits. The models, all with λ = -lambda and μ = -mu (0.01, the paper's), each
// trained once per seed of -seeds (1 to 5; the paper averages 5 runs), the
// table giving means and the CSV one line per model and seed:
//
//   - Softmax: the flat multinomial L1 logistic regression (tao.Softmax).
//   - ST(k=7) of depth 7 and ST(k=5) of depth 8, the paper's depths,
//     initialised by 2-means splits (-st-init median: random directions).
//   - AST(α=0.85, ρ=1.2) and AST(α=0.75, ρ=1.2), from depth Δ₀ = 2 with
//     k₀ = 7 (the least with k₀·2^Δ₀ >= 26), the paper's defaults for the
//     rest (10 TAO iterations per expansion, 15 per global pass).
//
// For each: training and test error, depth, leaves, mean k, multiply-adds
// per test row (the non-zero weights of the decision nodes on the row's
// path and of its leaf's softmax rows; the paper's FLOPs count a dense
// softmax of 26 classes over 16 features as 416), the time per test row
// of the generated ifelse code (Predict, float64) and of the interpreter
// (runtime.Predictor.Predict), the training time, and the paper's figures
// beside them. Every model is checked: the generated code equals the
// interpreter bit for bit on every test row (internal/gencheck) and the
// interpreter predicts the trainer's class (tao.Tree.PredictClass) on
// every test row.
//
// # Other data sets
//
// For every data set of -others (default optdigits, texture and satimage:
// the multiclass sets of testdata/pmlb with the most classes after
// letter), an 80/20 stratified split (the first seed of -seeds), the same five models
// (k capped at the number of classes), treegen's CART (Gini, no depth
// limit) and GBDT (softmax objective, its defaults) on the same rows:
// test error, leaves and multiply-adds per row of the TAO models, and the
// training time.
package main

import (
	"context"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/internal/tooling/gencheck"
	"github.com/treegen/treegen/ir"
	rt "github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/cart"
	"github.com/treegen/treegen/train/gbdt"
	"github.com/treegen/treegen/train/tao"
)

// spec is one model of Table 1 with the paper's figures.
type spec struct {
	name  string
	opts  tao.Options
	paper paperRow
}

// paperRow holds the paper's figures for a model on Letter (NaN: none).
type paperRow struct {
	trainErr, testErr, depth, leaves, meanK, micros, flops float64
}

var nan = math.NaN()

func letterSpecs() []spec {
	return []spec{
		{"Softmax", tao.Options{Kind: tao.Softmax}, paperRow{22.30, 23.20, nan, nan, nan, 53, 416}},
		{"ST(k=7)", tao.Options{Kind: tao.ST, Depth: 7, K: 7}, paperRow{0.52, 8.33, 7, 128, 5.27, 142, 197}},
		{"ST(k=5)", tao.Options{Kind: tao.ST, Depth: 8, K: 5}, paperRow{0.36, 8.75, 8, 256, 3.53, 98, 214}},
		{"AST(α=0.85, ρ=1.2)", tao.Options{Kind: tao.AST, Alpha: 0.85, Rho: 1.2}, paperRow{0.30, 7.03, 12, 153, 2.13, 43, 162}},
		{"AST(α=0.75, ρ=1.2)", tao.Options{Kind: tao.AST, Alpha: 0.75, Rho: 1.2}, paperRow{2.05, 6.35, 15, 384, 1.01, 9, 151}},
	}
}

// settings are the flags.
type settings struct {
	out, dir, name, others string
	lambda, mu             float64
	seeds                  []uint64
	seedsText              string
	threads                int
	strict                 bool
	timeEach               time.Duration
	only, split, stInit    string
}

// result is one trained model's figures.
type result struct {
	dataset, model              string
	seed                        uint64
	trainErr, testErr           float64
	depth, leaves               int
	meanK, flops                float64
	genNs, interpNs             float64
	seconds                     float64
	paper                       paperRow
	trainerDiffers, checkedRows int
	isTAO                       bool
	depthMean, leavesMean       float64 // means over the seeds (mean only)
	minTest, maxTest            float64
	objective                   string
	m                           *ir.Model
	test                        *data.Dataset
}

func main() {
	var s settings
	flag.StringVar(&s.out, "out", "docs", "directory for the CSV files (empty: none)")
	flag.StringVar(&s.dir, "data", "testdata/pmlb", "directory of the PMLB data sets")
	flag.StringVar(&s.name, "name", "tao-letter", "base name of the CSV files (NAME.csv, NAME-others.csv)")
	flag.StringVar(&s.others, "others", "optdigits,texture,satimage", "other multiclass data sets (empty: none)")
	flag.StringVar(&s.only, "only", "", "comma-separated Letter models to run, by position 1-5 (default all)")
	flag.Float64Var(&s.lambda, "lambda", 0.01, "λ, the L1 weight of the decision nodes (the paper: 0.01)")
	flag.Float64Var(&s.mu, "mu", 0.01, "μ, the L1 weight of the leaf softmaxes (the paper: 0.01)")
	flag.StringVar(&s.seedsText, "seeds", "1,2,3,4,5", "seeds: every Letter model is trained once per seed and the table gives the means (the paper averages 5 runs); the other data sets use the first")
	flag.IntVar(&s.threads, "threads", 0, "threads of every training (0: all cores)")
	flag.BoolVar(&s.strict, "strict", false, "strict TAO: accept a decision node's update only when it lowers Eq. 2")
	flag.DurationVar(&s.timeEach, "time", time.Second, "time spent timing each model's generated code and interpreter")
	flag.StringVar(&s.stInit, "st-init", string(tao.KMeans), "initial splits of the STs: kmeans (the default of train/tao for an ST) or median")
	flag.StringVar(&s.split, "split", "uci", "the Letter split: uci (the paper's: UCI's first 16,000 rows and last 4,000) or pmlb (PMLB's first 16,000 and last 4,000)")
	makeSplit := flag.String("make-uci-split", "", "write testdata/pmlb/letter-uci-test.txt from UCI's letter-recognition.data at this path, and exit")
	flag.Parse()
	if *makeSplit != "" {
		if err := writeUCISplit(s.dir, *makeSplit); err != nil {
			fmt.Fprintln(os.Stderr, "tao-vs-paper:", err)
			os.Exit(1)
		}
		return
	}
	if s.split != "uci" && s.split != "pmlb" {
		fmt.Fprintf(os.Stderr, "tao-vs-paper: -split %q: want uci or pmlb\n", s.split)
		os.Exit(2)
	}
	for _, t := range strings.Split(s.seedsText, ",") {
		v, err := strconv.ParseUint(strings.TrimSpace(t), 10, 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "tao-vs-paper: -seeds: %v\n", err)
			os.Exit(2)
		}
		s.seeds = append(s.seeds, v)
	}
	if err := run(&s); err != nil {
		fmt.Fprintln(os.Stderr, "tao-vs-paper:", err)
		os.Exit(1)
	}
}

func run(s *settings) error {
	d, err := data.ReadFile(filepath.Join(s.dir, "letter.tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		return err
	}
	first, last, err := letterSplit(s, d.Rows)
	if err != nil {
		return err
	}
	train, test := d.Subset(first), d.Subset(last)
	var letter []*result
	for i, sp := range letterSpecs() {
		if s.only != "" && !strings.Contains(","+s.only+",", ","+strconv.Itoa(i+1)+",") {
			continue
		}
		for _, seed := range s.seeds {
			r, err := fitTAO(s, "letter", sp.name, sp.opts, seed, train, test)
			if err != nil {
				return err
			}
			r.paper = sp.paper
			letter = append(letter, r)
		}
	}
	var others []*result
	if s.others != "" {
		for _, name := range strings.Split(s.others, ",") {
			rs, err := otherSet(s, name)
			if err != nil {
				return err
			}
			others = append(others, rs...)
		}
	}
	all := append(append([]*result(nil), letter...), others...)
	if err := check(s, all); err != nil {
		return err
	}
	report(s, letter, others)
	if s.out == "" {
		return nil
	}
	if err := writeCSV(filepath.Join(s.out, s.name+".csv"), letter); err != nil {
		return err
	}
	if len(others) > 0 {
		return writeCSV(filepath.Join(s.out, s.name+"-others.csv"), others)
	}
	return nil
}

// fitTAO trains one TAO model on train and measures it on test.
func fitTAO(s *settings, dataset, name string, o tao.Options, seed uint64, train, test *data.Dataset) (*result, error) {
	o.Lambda, o.Mu, o.Seed, o.Threads, o.Strict = &s.lambda, &s.mu, seed, s.threads, s.strict
	if o.Kind == tao.ST {
		o.Init = tao.Init(s.stInit)
	}
	o.Name = dataset
	fmt.Fprintf(os.Stderr, "%s: training %s...\n", dataset, name)
	t0 := time.Now()
	tree, err := tao.Fit(train, nil, o)
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", dataset, name, err)
	}
	r := &result{dataset: dataset, model: name, seed: seed, seconds: time.Since(t0).Seconds(), isTAO: true,
		m: tree.Model(), test: test, paper: paperRow{nan, nan, nan, nan, nan, nan, nan}}
	p := r.m.Provenance.Params
	r.depth, _ = strconv.Atoi(p["final_depth"])
	r.leaves, _ = strconv.Atoi(p["leaves"])
	r.meanK, _ = strconv.ParseFloat(p["mean_k"], 64)
	r.objective = p["objective"]
	if r.trainErr, err = errorRate(r.m, train); err != nil {
		return nil, err
	}
	if r.testErr, err = errorRate(r.m, test); err != nil {
		return nil, err
	}
	pred, err := rt.New[float64](r.m)
	if err != nil {
		return nil, err
	}
	for i := range test.Rows {
		got, err := pred.PredictClass(test.Row(i))
		if err != nil {
			return nil, err
		}
		if got != tree.PredictClass(test.Row(i)) {
			r.trainerDiffers++
		}
	}
	if r.trainerDiffers > 0 {
		return nil, fmt.Errorf("%s %s: the interpreter's class differs from the trainer's on %d test rows", dataset, name, r.trainerDiffers)
	}
	r.checkedRows = test.Rows
	if r.flops, err = flopsPerRow(r.m, test); err != nil {
		return nil, err
	}
	r.interpNs = timeInterpreter(pred, test, s.timeEach)
	fmt.Fprintf(os.Stderr, "%s %s: test error %.2f%%, depth %d, %d leaves, mean k %.2f, %.1f s\n",
		dataset, name, 100*r.testErr, r.depth, r.leaves, r.meanK, r.seconds)
	return r, nil
}

// otherSet trains the five TAO models, CART and GBDT on an 80/20 split of
// the data set name.
func otherSet(s *settings, name string) ([]*result, error) {
	d, class, k, err := repro.Read(s.dir, name)
	if err != nil {
		return nil, err
	}
	seed := s.seeds[0]
	trainRows, testRows := data.StratifiedSplit(class, 0.2, seed)
	train, test := d.Subset(trainRows), d.Subset(testRows)
	var out []*result
	for _, sp := range letterSpecs() {
		o := sp.opts
		o.K = min(o.K, k)
		r, err := fitTAO(s, name, sp.name, o, seed, train, test)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	refs := []struct {
		name string
		fit  func() (*ir.Model, error)
	}{
		{"CART", func() (*ir.Model, error) { return cart.Train(train, cart.Options{}) }},
		{"GBDT", func() (*ir.Model, error) {
			return gbdt.Train(train, nil, gbdt.Options{Objective: gbdt.Softmax, Seed: seed, Threads: s.threads})
		}},
	}
	for _, ref := range refs {
		fmt.Fprintf(os.Stderr, "%s: training %s...\n", name, ref.name)
		t0 := time.Now()
		m, err := ref.fit()
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", name, ref.name, err)
		}
		r := &result{dataset: name, model: ref.name, seed: seed, seconds: time.Since(t0).Seconds(), m: m, test: test,
			paper: paperRow{nan, nan, nan, nan, nan, nan, nan}, meanK: nan, flops: nan, genNs: nan, interpNs: nan}
		if r.trainErr, err = errorRate(m, train); err != nil {
			return nil, err
		}
		if r.testErr, err = errorRate(m, test); err != nil {
			return nil, err
		}
		for _, t := range m.Trees {
			r.leaves += t.NumLeaves()
		}
		out = append(out, r)
	}
	return out, nil
}

// flopsPerRow returns the mean multiply-adds per row of d of the softmax
// tree m: the non-zero weights of the oblique nodes on the row's path and
// of the rows of its leaf's softmax (none for a one-class leaf).
func flopsPerRow(m *ir.Model, d *data.Dataset) (float64, error) {
	t := &m.Trees[0]
	path := make([]int, len(t.Nodes)) // multiply-adds from the root to each node, its own included
	for i := range t.Nodes {
		n := &t.Nodes[i]
		own := len(n.Weights)
		if n.Kind == ir.SoftmaxLeaf && len(n.Softmax.Classes) > 1 {
			for _, r := range n.Softmax.Rows {
				own += len(r.Weights)
			}
		}
		path[i] += own
		if n.Kind.IsSplit() {
			path[n.Left] += path[i]
			path[n.Right] += path[i]
		}
	}
	p, err := rt.New[float64](m)
	if err != nil {
		return 0, err
	}
	leaf := make([]int, 1)
	total := 0
	for i := range d.Rows {
		if err := p.PredictLeaves(d.Row(i), leaf); err != nil {
			return 0, err
		}
		total += path[leaf[0]]
	}
	return float64(total) / float64(d.Rows), nil
}

// timeInterpreter returns the nanoseconds per row of Predict over the
// rows of d, run for at least budget.
func timeInterpreter(p *rt.Predictor[float64], d *data.Dataset, budget time.Duration) float64 {
	out := make([]float64, p.NumOutputs())
	rows := 0
	start := time.Now()
	for time.Since(start) < budget {
		for i := range d.Rows {
			_ = p.Predict(d.Row(i), out)
		}
		rows += d.Rows
	}
	return float64(time.Since(start).Nanoseconds()) / float64(rows)
}

// check compiles every TAO model with the ifelse backend, checks it
// against the interpreter on its test rows and times it.
func check(s *settings, rs []*result) error {
	var items []gencheck.Item
	var which []*result
	for _, r := range rs {
		if !r.isTAO {
			continue
		}
		rows := make([][]float64, r.test.Rows)
		for i := range rows {
			rows[i] = r.test.Row(i)
		}
		items = append(items, gencheck.Item{Name: r.dataset + " " + r.model, Model: r.m, Rows: rows})
		which = append(which, r)
	}
	fmt.Fprintf(os.Stderr, "checking and timing the generated code of %d models...\n", len(items))
	res, err := gencheck.Run(context.Background(), items, gencheck.Options{Time: s.timeEach,
		Log: func(line string) { fmt.Fprintln(os.Stderr, line) }})
	if err != nil {
		return err
	}
	for i, r := range which {
		r.genNs = res[i].NsPerRow
	}
	return nil
}

// errorRate is 1 - repro.Accuracy.
func errorRate(m *ir.Model, d *data.Dataset) (float64, error) {
	acc, err := repro.Accuracy(m, d)
	return 1 - acc, err
}

// f formats v with prec decimals, "–" for NaN.
func f(v float64, prec int) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', prec, 64)
}

// mean averages the Letter results of one model over its seeds.
func mean(rs []*result) *result {
	m := *rs[0]
	avg := func(get func(r *result) float64) float64 {
		t := 0.0
		for _, r := range rs {
			t += get(r)
		}
		return t / float64(len(rs))
	}
	m.trainErr = avg(func(r *result) float64 { return r.trainErr })
	m.testErr = avg(func(r *result) float64 { return r.testErr })
	m.meanK = avg(func(r *result) float64 { return r.meanK })
	m.flops = avg(func(r *result) float64 { return r.flops })
	m.genNs = avg(func(r *result) float64 { return r.genNs })
	m.interpNs = avg(func(r *result) float64 { return r.interpNs })
	m.seconds = avg(func(r *result) float64 { return r.seconds })
	m.depthMean = avg(func(r *result) float64 { return float64(r.depth) })
	m.leavesMean = avg(func(r *result) float64 { return float64(r.leaves) })
	m.minTest, m.maxTest = math.Inf(1), math.Inf(-1)
	for _, r := range rs {
		m.minTest, m.maxTest = min(m.minTest, r.testErr), max(m.maxTest, r.testErr)
	}
	return &m
}

func report(s *settings, letter, others []*result) {
	fmt.Printf("Letter (%s split: 16,000 training rows, 4,000 test rows), λ = %g, μ = %g, %s%s; means over the seeds.\n\n", map[string]string{"uci": "UCI's", "pmlb": "PMLB's"}[s.split], s.lambda, s.mu,
		plural(len(s.seeds), "seed"), map[bool]string{true: ", strict TAO", false: ""}[s.strict])
	fmt.Println("| model | train err % | test err % (min–max) | Δ | leaves | k̄ | mult-adds/row | generated ns/row | interpreter ns/row | training s | paper: train / test err %, Δ, L, k̄, µs, FLOPs |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|---|---|")
	for i := 0; i < len(letter); i += len(s.seeds) {
		r := mean(letter[i : i+len(s.seeds)])
		p := r.paper
		fmt.Printf("| %s | %s | %s (%s–%s) | %s | %s | %s | %s | %s | %s | %s | %s / %s, %s, %s, %s, %s, %s |\n",
			r.model, f(100*r.trainErr, 2), f(100*r.testErr, 2), f(100*r.minTest, 2), f(100*r.maxTest, 2),
			f(r.depthMean, 1), f(r.leavesMean, 0), f(r.meanK, 2), f(r.flops, 0),
			f(r.genNs, 0), f(r.interpNs, 0), f(r.seconds, 1),
			f(p.trainErr, 2), f(p.testErr, 2), f(p.depth, 0), f(p.leaves, 0), f(p.meanK, 2), f(p.micros, 0), f(p.flops, 0))
	}
	n := 0
	for _, r := range letter {
		n += r.checkedRows
	}
	fmt.Printf("\nThe generated ifelse code of every TAO model (%d on Letter) equals the interpreter bit for bit on every test row, and the interpreter predicts the trainer's class on every test row (%d rows of Letter in all).\n", len(letter), n)
	if len(others) == 0 {
		return
	}
	fmt.Println("\n| data set | model | train err % | test err % | leaves | k̄ | mult-adds/row | training s |")
	fmt.Println("|---|---|---|---|---|---|---|---|")
	for _, r := range others {
		fmt.Printf("| %s | %s | %s | %s | %d | %s | %s | %s |\n", r.dataset, r.model, f(100*r.trainErr, 2), f(100*r.testErr, 2),
			r.leaves, f(r.meanK, 2), f(r.flops, 0), f(r.seconds, 1))
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

func writeCSV(path string, rs []*result) error {
	var b strings.Builder
	b.WriteString("dataset,model,seed,train_error,test_error,depth,leaves,mean_k,mult_adds_per_row,generated_ns_per_row,interpreter_ns_per_row,train_seconds,objective,paper_train_error,paper_test_error,paper_depth,paper_leaves,paper_mean_k,paper_us_per_row,paper_flops\n")
	g := func(v float64) string {
		if math.IsNaN(v) {
			return ""
		}
		return strconv.FormatFloat(v, 'g', 6, 64)
	}
	for _, r := range rs {
		p := r.paper
		fmt.Fprintf(&b, "%s,%q,%d,%s,%s,%d,%d,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", r.dataset, r.model, r.seed,
			g(r.trainErr), g(r.testErr), r.depth, r.leaves, g(r.meanK), g(r.flops), g(r.genNs), g(r.interpNs), g(r.seconds), r.objective,
			g(p.trainErr/100), g(p.testErr/100), g(p.depth), g(p.leaves), g(p.meanK), g(p.micros), g(p.flops))
	}
	return atomicfile.WriteFile(path, []byte(b.String()), 0o644)
}
