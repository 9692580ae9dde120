// Command e2e-vs-paper checks the end-to-end learned deterministic
// decision trees and forests of train/e2e against three claims of Hehn,
// Kooij and Hamprecht, "End-to-End Learning of Decision Trees and Forests"
// (IJCV 2020): Figure 2 (§3.1, a single E2EDT tree against
// greedy axis-aligned trees at depths 2 to 10), Table 1 (§3.5, steepness
// annealing Δγ = 0.1 against Δγ = 0 in a forest on Letter) and Figure 6
// (§3.6, accuracy against split evaluations of forests of T trees on
// Letter, and the number of split nodes per depth-10 tree, 758 ± 1 in the
// paper). Run it from the repository root, one subcommand at a time:
//
//	go run ./docs/e2e-vs-paper depths    [flags]   # Figure 2
//	go run ./docs/e2e-vs-paper annealing [flags]   # Table 1
//	go run ./docs/e2e-vs-paper forest    [flags]   # Figure 6, and the γ gap
//
// Each writes its CSV files (and PNG plots) into -out (default "docs";
// empty: none), prints a Markdown summary on stdout and its progress on
// stderr. `go run ./docs/e2e-vs-paper SUBCOMMAND -h` lists the flags.
//
// # Splits (all subcommands)
//
// A data set of testdata/pmlb is split 80/20 into training and test rows,
// stratified by class (data.StratifiedSplit with the classes of
// data.Classes, test fraction 0.2, seed -seed); the paper splits 80/20
// "when a separate test set is not provided", as for all PMLB sets. Where a
// validation set is used, it is 20% of the training rows, stratified, seed
// -seed again, so that the model is trained on 64% of the rows. With
// -max-train-rows N > 0 the rows a model is trained on are cut to about N
// (a stratified subsample, seed -seed): a deviation from the protocol for
// quick runs, which the summary then names. So are -batch and
// -learning-rate, which change E2E's minibatch (1000 rows) and Adam step
// size (0.001), the paper's settings and the package defaults (which
// take at least 10 Adam steps per epoch on fewer than 10,000 rows; see
// train/e2e's documentation).
// annealing and forest also take -dataset (letter), -depth (10), -features
// (8) and -finetune-factor (3: finetuning epochs per greedy epoch).
//
// All accuracies are those of the exported ir.Model as the runtime
// interpreter predicts (runtime.New[float64](m).PredictClass), deterministic
// routing (γ → ∞), its class matched to the row's by name. With -check (on
// by default) every E2E model is also compiled with the ifelse backend
// (float64), many models to one Go module through internal/harness, and its
// margins, predictions and classes are checked to equal the interpreter's
// bit for bit on every test row; the summary counts the models and rows.
//
// # depths (Figure 2, §3.1)
//
// For every classification data set of the manifest (or those of -only)
// and every depth d of -depths (default 2,4,6,8,10):
//
//   - E2EDT: e2e.Train with one tree, MaxDepth d, every feature in every
//     split, -epochs greedy epochs per stump (default 20, the smallest of the
//     paper's grid), -finetune finetuning epochs (0, the default: 3 ×
//     -epochs = 60; negative: none), Δγ -delta-gamma (0.1), γ₀ = 1, Adam
//     with α = 0.001 and minibatches of 1000 (the package defaults are the
//     paper's), seed -seed, trained on the 64% with the 16% validation part
//     passed for reporting only. With -epochs-grid (e.g. 20,35,50,65, the
//     paper's grid) one tree is trained per value (finetuning 3× that unless
//     -finetune is set) and the one of highest deterministic validation
//     accuracy is kept (ties: fewer epochs), as the paper tunes the epochs
//     on a train/validation split; without it nothing is tuned.
//   - With -greedy, also the greedy tree alone (FinetuneEpochs -1, the same
//     epochs): the paper's "Greedy" line of Figure 2.
//   - CART: train/cart with MaxDepth d (Gini, no pruning, no ensemble; the
//     paper's baselines are axis-aligned, OC1, CO2 and non-greedy oblique
//     trees of Norouzi et al. 2015, whose figures are not repeated here)
//     on the same 64%.
//
// It reports test and training (64%) accuracy of both, the E2EDT's
// validation accuracy, its split evaluations per row (the provenance's
// split_evaluations_per_row: mean over training rows of the splits on
// the deterministic path), its number of split nodes, the final γ and the
// training seconds. Units (data set × depth) run on -workers goroutines,
// each E2E training with -threads threads (default NumCPU/workers); the
// threads never change an E2E model and every unit is deterministic for
// its seed, so the results do not depend on -workers (only the seconds
// do). e2e-depths.csv is rewritten (atomically) after every unit, sorted by
// data set and depth; e2e-depths.png shows connect_4's test and training
// accuracy against depth when connect_4 is in the run. The Markdown table
// gives, per depth, the mean test accuracy of both and E2EDT's wins, ties
// and losses, then one row per data set and depth. The paper's data sets
// (MNIST, SensIT, Connect4, Protein) are not all here: of them only
// connect_4 is in testdata/pmlb, and the comparison runs on all 24
// classification sets instead.
//
// -one-hot NAMES replaces every feature of the named data sets by one 0/1
// column per distinct value, for E2EDT and CART alike: the paper's
// Connect4 is LIBSVM's, whose board is one-hot (126 binary features),
// where PMLB's connect_4 codes each cell 0, 1 or 2.
//
// # annealing (Table 1, §3.5)
//
// E2EDF on letter: -trees (10) trees of depth -depth (10), -features (8)
// random features per split, for every value E of -epochs-list (default
// 15; the paper has 15, 30 and 45) E greedy epochs and 3E finetuning
// epochs, once with Δγ = 0 and once with Δγ = 0.1 (-delta-gammas), seed
// -seed, trained on the 64% of letter. Table 1 of the paper reports
// validation accuracy: here the deterministic accuracy of the forest on
// the 16% validation part, and on the 20% test part beside it. The units
// (E × Δγ) run on -workers goroutines. e2e-annealing.csv. The paper's
// Letter set-up is that of sNDF, below; -trees 70 runs it.
//
// # forest (Figure 6 and the split count of §3.6)
//
// E2EDF on letter with T trees for every T of -trees-list (default
// 1,3,5,10), depth 10, 8 random features per split, Δγ = 0.1, -epochs
// (45, the paper's Letter setting) greedy and 3× as many finetuning
// epochs, trained on the whole 80% (the paper trains "on the full training
// data, i.e. including validation data"), seed -seed; the paper averages
// three runs, this is one (run -seed 2 and 3 for the others). It reports
// the test and training accuracy, the split evaluations per row (summed over
// the trees; on the test rows and, as the provenance counts them, on the
// training rows) and the mean, standard error, minimum and maximum number
// of split (oblique) nodes per tree, against the paper's 758 ± 1 on Letter.
// Training a forest grows and finetunes tree t from its own random stream
// (seed, t), independently of the others, so the forest of the first T trees
// of a larger forest is the forest of T trees: with -nested (on by default)
// only the largest T is trained, the smaller ones are its first T trees
// (their seconds the time at which tree T was finished), and the
// separately trained T = 1 model, below, is checked to equal its first
// tree, node for node; -nested=false trains every T on its own.
//
// The settings of sNDF's Letter configuration, which the paper's E2EDF
// copies (same depth, trees and features per split), are 70 trees of depth
// 10 with 8 random features per split, as we read Kontschieder et al. 2015
// §5.1; -trees-list adds 70 when asked (-trees-list 1,3,5,10,70).
//
// The γ gap: the T = 1 model is trained with OnEpoch, which reports after
// every finetuning epoch the steepness γ, the mean log-likelihood of the
// probabilistic tree (mean log p(y|x) over the training rows, Eqs. 2 and 4,
// before the epoch's leaf update) and the accuracy of the deterministic
// tree on the training rows and on the held-out 20% (passed to e2e.Train as
// its validation set, for reporting only: it never steers training).
// e2e-gap.csv holds one line per epoch and e2e-gap.png plots the two
// deterministic accuracies and exp(mean log-likelihood), the geometric mean
// probability of the true class under the probabilistic tree, against γ.
// e2e-forest.csv has one line per T, e2e-forest.png plots test accuracy
// against split evaluations per row (log scale), as Figure 6.
//
// # Run times on 2 cores
//
// Measured on 2 cores, one worker, 2 threads, -check on (the build of the
// generated code included):
//
//	depths -only glass,ecoli,heart_c -depths 2,4                     0.7 s
//	depths -only glass,ecoli,heart_c,vehicle,yeast -depths 2,4,6     2 s
//	depths -only connect_4,letter -depths 2,6,10 -max-train-rows 2000 -greedy  20 s
//	depths -only letter -depths 10                (12,800 rows)     38 s
//	depths -only connect_4 -depths 10 -max-train-rows 8000          83 s
//	forest -trees-list 1,3 -epochs 3 -max-train-rows 2000           2 s
//	forest -trees-list 1 -epochs 5                (16,000 rows)     13 s
//	annealing -trees 3 -epochs-list 3 -max-train-rows 2000          2.5 s
//
// The full runs are estimated from these, not measured: a finetuning epoch
// costs about rows × split nodes (0.6 s for 16,000 letter rows and 374
// nodes), a greedy epoch about as much as a finetuning epoch of a small
// tree. depths at its defaults: 40 minutes to an hour, most of it
// connect_4 and sleep at depths 8 and 10 (43,000 and 68,000 training rows,
// about 10 minutes each at depth 10); -greedy adds a fifth, -epochs-grid
// 20,35,50,65 multiplies by about 8. forest at its defaults: about 3
// minutes per depth-10 tree at 45 + 135 epochs, 11 trees (T = 1 and the
// forest of 10), 35 minutes; -trees-list 1,3,5,10,70 about 4 hours.
// annealing at its defaults: 20 trees at 15 + 45 epochs, about 15
// minutes; -epochs-list 15,30,45 about 1.5 hours; -trees 70 seven times as
// long. -workers and -threads divide these on more cores.
package main

import (
	"context"
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/internal/tooling/gencheck"
	"github.com/treegen/treegen/internal/tooling/pmlb"
	"github.com/treegen/treegen/ir"
	rt "github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/e2e"
)

const usage = `usage: go run ./docs/e2e-vs-paper SUBCOMMAND [flags]

subcommands:
  depths     Figure 2: E2EDT against CART, per data set and depth
  annealing  Table 1: E2EDF on letter with Δγ = 0 and Δγ = 0.1
  forest     Figure 6: E2EDF on letter with T trees; split counts; the γ gap
  split      write the 80/20 split of a data set, for random_forest.py

run "go run ./docs/e2e-vs-paper SUBCOMMAND -h" for its flags
`

func main() {
	if len(os.Args) < 2 {
		fmt.Fprint(os.Stderr, usage)
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "depths":
		err = runDepths(os.Args[2:])
	case "annealing":
		err = runAnnealing(os.Args[2:])
	case "forest":
		err = runForest(os.Args[2:])
	case "split":
		err = runSplit(os.Args[2:])
	case "-h", "-help", "--help", "help":
		fmt.Print(usage)
		return
	default:
		fmt.Fprintf(os.Stderr, "e2e-vs-paper: unknown subcommand %q\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e-vs-paper:", err)
		os.Exit(1)
	}
}

// common are the flags of every subcommand.
type common struct {
	out, dir   string
	seed       uint64
	threads    int
	maxTrain   int
	check      bool
	checkBatch int
	batch      int
	lr         float64
	cmdLine    string
}

func (c *common) register(fs *flag.FlagSet, threads int) {
	fs.StringVar(&c.out, "out", "docs", "directory for the CSV and PNG files (empty: none)")
	fs.StringVar(&c.dir, "data", "testdata/pmlb", "directory holding MANIFEST.tsv and the data sets")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of the splits and of training")
	fs.IntVar(&c.threads, "threads", threads, "threads of every E2E training (0: NumCPU divided by -workers)")
	fs.IntVar(&c.maxTrain, "max-train-rows", 0, "cut the training rows of every model to about this many, stratified (0: all; a deviation for quick runs)")
	fs.BoolVar(&c.check, "check", true, "compile every E2E model with the ifelse backend and check it against the interpreter, bit for bit, on every test row")
	fs.IntVar(&c.checkBatch, "check-batch", 40, "models compiled into one Go module by -check")
	fs.IntVar(&c.batch, "batch", 0, "E2E minibatch rows (0: the package default and the paper's, 1000; else a deviation)")
	fs.Float64Var(&c.lr, "learning-rate", 0, "E2E Adam step size (0: the package default and the paper's, 0.001; else a deviation)")
}

func (c *common) parse(fs *flag.FlagSet, name string, args []string) error {
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%s: unexpected arguments %q", name, fs.Args())
	}
	c.cmdLine = "go run ./docs/e2e-vs-paper " + name
	if len(args) > 0 {
		c.cmdLine += " " + strings.Join(args, " ")
	}
	return nil
}

// deviation is the sentence the summaries print for -max-train-rows.
func (c *common) deviation() string {
	var out string
	if c.maxTrain > 0 {
		out += fmt.Sprintf("\n**Deviation:** -max-train-rows %d: every model was trained on a stratified subsample of at most about %d of its training rows, not all of them.\n", c.maxTrain, c.maxTrain)
	}
	if c.batch > 0 && c.batch != e2e.DefaultBatchSize {
		out += fmt.Sprintf("\n**Deviation:** -batch %d: E2E minibatches of %d rows, not the paper's %d.\n", c.batch, c.batch, e2e.DefaultBatchSize)
	}
	if c.lr > 0 && c.lr != e2e.DefaultLearningRate {
		out += fmt.Sprintf("\n**Deviation:** -learning-rate %g: Adam's step size is not the paper's %g.\n", c.lr, e2e.DefaultLearningRate)
	}
	return out
}

// set is a data set read into memory.
type set struct {
	name  string
	d     *data.Dataset
	class []int // class index of every row
	k     int
}

// load reads the data set name of dir; with oneHot, every feature is
// replaced by one 0/1 column per distinct value (see oneHotEncode).
func load(dir, name string, oneHot bool) (*set, error) {
	d, class, k, err := repro.Read(dir, name)
	if err != nil {
		return nil, err
	}
	if oneHot {
		if d, err = oneHotEncode(d); err != nil {
			return nil, err
		}
	}
	return &set{name: name, d: d, class: class, k: k}, nil
}

// oneHotEncode returns d with every feature column replaced by one column
// per distinct value, in increasing order of the value, holding 1 where the
// row has that value and 0 elsewhere; the columns are named "name=value".
// This is how LIBSVM's connect-4, the paper's Connect4, encodes the board
// (42 cells × blank, x, o: 126 binary features) where PMLB's connect_4
// holds one column of 0, 1 or 2 per cell. A column with a missing value is
// refused: it has no indicator.
func oneHotEncode(d *data.Dataset) (*data.Dataset, error) {
	values := make([][]float64, d.Cols)
	for c := range d.Cols {
		seen := map[float64]bool{}
		for r := range d.Rows {
			v := d.X[r*d.Cols+c]
			if math.IsNaN(v) {
				return nil, fmt.Errorf("one-hot: column %s, row %d: missing value", d.Features[c], r+1)
			}
			if !seen[v] {
				seen[v] = true
				values[c] = append(values[c], v)
			}
		}
		slices.Sort(values[c])
	}
	out := &data.Dataset{Source: d.Source, Format: d.Format, Y: d.Y, Rows: d.Rows, Labels: d.Labels}
	for c, vs := range values {
		for _, v := range vs {
			out.Features = append(out.Features, fmt.Sprintf("%s=%g", d.Features[c], v))
		}
	}
	out.Cols = len(out.Features)
	out.X = make([]float64, out.Rows*out.Cols)
	for r := range d.Rows {
		j := r * out.Cols
		for c, vs := range values {
			i, _ := slices.BinarySearch(vs, d.X[r*d.Cols+c])
			out.X[j+i] = 1
			j += len(vs)
		}
	}
	return out, nil
}

// parts are the row indices of the splits of a data set.
type parts struct {
	train, test []int // the 80/20 split
	fit, valid  []int // the 64/16 split of train
}

// split makes the 80/20 split of st and the 80/20 split of its training
// rows, both stratified with seed; maxTrain > 0 cuts train and fit to
// about maxTrain rows each (stratified, seed).
func split(st *set, seed uint64, maxTrain int) parts {
	var p parts
	p.train, p.test = data.StratifiedSplit(st.class, 0.2, seed)
	fit, valid := data.StratifiedSplit(pick(st.class, p.train), 0.2, seed)
	p.fit, p.valid = pick(p.train, fit), pick(p.train, valid)
	p.train = subsample(st, p.train, maxTrain, seed)
	p.fit = subsample(st, p.fit, maxTrain, seed)
	return p
}

// pick returns v[i] for every i of idx.
func pick[T any](v []T, idx []int) []T {
	out := make([]T, len(idx))
	for j, i := range idx {
		out[j] = v[i]
	}
	return out
}

// subsample returns a stratified subset of about n of rows (all of them
// when n <= 0 or n >= len(rows)).
func subsample(st *set, rows []int, n int, seed uint64) []int {
	if n <= 0 || n >= len(rows) {
		return rows
	}
	_, keep := data.StratifiedSplit(pick(st.class, rows), float64(n)/float64(len(rows)), seed)
	return pick(rows, keep)
}

// sameAsTrainer returns the number of rows of d on which the interpreter's
// class for the exported model differs from the trainer's own
// deterministic prediction (e2e.Forest.PredictClass); it should be 0.
func sameAsTrainer(f *e2e.Forest, d *data.Dataset) (int, error) {
	p, err := rt.New[float64](f.Model())
	if err != nil {
		return 0, err
	}
	bad := 0
	for r := range d.Rows {
		c, err := p.PredictClass(d.Row(r))
		if err != nil {
			return 0, err
		}
		if c != f.PredictClass(d.Row(r)) {
			bad++
		}
	}
	return bad, nil
}

// splitStats returns the mean number of split nodes the deterministic paths
// of the rows of d visit, summed over the trees of m, and the number of
// split nodes of every tree.
func splitStats(m *ir.Model, d *data.Dataset) (perRow float64, nodes []int, err error) {
	p, err := rt.New[float64](m)
	if err != nil {
		return 0, nil, err
	}
	depths := make([][]int, len(m.Trees))
	for t, tr := range m.Trees {
		depths[t] = make([]int, len(tr.Nodes))
		n := 0
		for i, nd := range tr.Nodes {
			if nd.Kind.IsSplit() {
				n++
				depths[t][nd.Left] = depths[t][i] + 1
				depths[t][nd.Right] = depths[t][i] + 1
			}
		}
		nodes = append(nodes, n)
	}
	leaves := make([]int, len(m.Trees))
	total := 0
	for r := range d.Rows {
		if err := p.PredictLeaves(d.Row(r), leaves); err != nil {
			return 0, nil, err
		}
		for t, l := range leaves {
			total += depths[t][l]
		}
	}
	return float64(total) / float64(d.Rows), nodes, nil
}

func parseInts(text string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(text, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("bad list value %q: %v", f, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func parseFloats(text string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(text, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("bad list value %q: %v", f, err)
		}
		out = append(out, v)
	}
	return out, nil
}

func f4(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// writeCSV writes table to dir/name atomically; nothing when dir is empty.
func writeCSV(dir, name string, table [][]string) error {
	if dir == "" {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, name), 0o644, func(w io.Writer) error {
		return csv.NewWriter(w).WriteAll(table)
	})
}

// classificationSets returns the classification data sets of the manifest
// in dir, in its order.
func classificationSets(dir string) ([]string, error) {
	return pmlb.ClassificationSets(filepath.Join(dir, "MANIFEST.tsv"))
}

// defaultThreads is NumCPU divided among workers, at least 1.
func defaultThreads(threads, workers int) int {
	if threads > 0 {
		return threads
	}
	return max(1, runtime.NumCPU()/max(workers, 1))
}

// checker compiles models with the ifelse backend and checks them against
// the interpreter on their rows, bit for bit, many models to a module.
type checker struct {
	on      bool
	batch   int
	mu      sync.Mutex
	pending []checkItem
	models  int
	rows    int
}

type checkItem struct {
	what string
	m    *ir.Model
	rows [][]float64
}

// add queues m to be checked on the rows of d.
func (c *checker) add(what string, m *ir.Model, d *data.Dataset) {
	if !c.on {
		return
	}
	rows := make([][]float64, d.Rows)
	for r := range rows {
		rows[r] = d.Row(r)
	}
	c.mu.Lock()
	c.pending = append(c.pending, checkItem{what, m, rows})
	c.mu.Unlock()
}

// run checks every queued model, -check-batch to a module.
func (c *checker) run() error {
	c.mu.Lock()
	items := c.pending
	c.pending = nil
	c.mu.Unlock()
	for len(items) > 0 {
		n := min(len(items), max(c.batch, 1))
		if err := c.module(items[:n]); err != nil {
			return err
		}
		items = items[n:]
	}
	return nil
}

func (c *checker) module(items []checkItem) error {
	gi := make([]gencheck.Item, len(items))
	for i, it := range items {
		gi[i] = gencheck.Item{Name: it.what, Model: it.m, Rows: it.rows}
	}
	fmt.Fprintf(os.Stderr, "checking the generated code of %d models...\n", len(items))
	if _, err := gencheck.Run(context.Background(), gi, gencheck.Options{
		PerModule: len(items),
		Log:       func(line string) { fmt.Fprintln(os.Stderr, line) },
	}); err != nil {
		return err
	}
	c.models += len(items)
	for _, it := range items {
		c.rows += len(it.rows)
	}
	return nil
}

// summary is the sentence on the check for the Markdown output.
func (c *checker) summary() string {
	if !c.on {
		return "Generated code not checked (-check=false)."
	}
	return fmt.Sprintf("Generated ifelse code (float64) of all %d E2E models equals the interpreter bit for bit (margins, predictions, classes) on all %d test rows.", c.models, c.rows)
}

// sortedKeys returns the keys of m in increasing order.
func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// shortGamma writes the provenance's final γ (a sum of Δγ steps, such as
// 8.999999999999986) to four significant digits.
func shortGamma(text string) string {
	v, err := strconv.ParseFloat(text, 64)
	if err != nil {
		return text
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// runSplit writes the rows of the 80/20 split that every subcommand makes
// of a data set (0-based data rows of its file, one per line) to
// NAME-train.txt and NAME-test.txt in -out, so that random_forest.py
// trains scikit-learn on the very rows E2EDF trains on.
func runSplit(args []string) error {
	var s common
	var name string
	fs := flag.NewFlagSet("split", flag.ContinueOnError)
	s.register(fs, 0)
	fs.StringVar(&name, "dataset", "letter", "data set")
	if err := s.parse(fs, "split", args); err != nil {
		return err
	}
	if s.out == "" {
		return errors.New("-out is empty: nowhere to write the split")
	}
	st, err := load(s.dir, name, false)
	if err != nil {
		return err
	}
	p := split(st, s.seed, s.maxTrain)
	for _, pr := range []struct {
		part string
		rows []int
	}{{"train", p.train}, {"test", p.test}} {
		part, rows := pr.part, pr.rows
		var b strings.Builder
		for _, r := range rows {
			fmt.Fprintln(&b, r)
		}
		path := filepath.Join(s.out, name+"-"+part+".txt")
		if err := atomicfile.Write(path, 0o644, func(w io.Writer) error {
			_, err := io.WriteString(w, b.String())
			return err
		}); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "wrote %s: %d rows\n", path, len(rows))
	}
	return nil
}
