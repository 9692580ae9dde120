// Command gbdt-speed measures how fast treegen's gradient boosting
// (train/gbdt) trains beside XGBoost 1.7 (tree_method "hist", Debian's
// python3-xgboost run by /usr/bin/python3), with the same settings, on the
// same files, at several thread counts, and how much memory each takes.
//
// Run it from the repository root:
//
//	go run ./docs/gbdt-speed -out docs -synthetic-rounds 100
//	go run ./docs/gbdt-speed -out /tmp/gs -rows 20000 -rounds 10 -repeat 1 -threads 1,2 -datasets connect_4,synthetic
//
// The first writes docs/gbdt-speed.csv (every figure) and docs/gbdt-speed.md
// (a Markdown paragraph on the machine and the settings, then a table; the
// table of docs/GBDT.md), and prints the Markdown; on two cores it takes
// about a quarter of an hour, most of it on the synthetic set (about 9
// minutes with -synthetic-rounds 100, as docs/GBDT.md's table was made). The second
// is a quick check of the set-up (a few seconds). Time it on an otherwise
// idle machine: a thread count that needs a core that is busy slows
// XGBoost's OpenMP threads down many times over.
//
// # Data sets
//
// connect_4 (softmax, 3 classes), letter (softmax, 26 classes) and
// 537_houses (squared error) from testdata/pmlb, and "synthetic": -rows
// rows (default 1,000,000) of 50 Gaussian features with a binary target
// (logistic objective), generated from -seed and written once to a TSV file
// in a temporary directory that both libraries read. Features x1..x20 and
// x41..x50 are independent standard normal; x21..x40 are correlated with
// the first twenty: x(20+j) = 0.8·xj + 0.6·z, z standard normal
// (correlation 0.8). The target is 1 when
//
//	x1·x2 + sin(2·x3) + |x4| - 0.8 + 0.5·(x5² - 1) + 0.8·x6·[x7 > 0] + ε > 0,
//
// ε standard normal, else 0 (about half the rows are 1). The values are
// written with four decimals. Other PMLB data sets may be named in
// -datasets; their objective follows the manifest (logistic for two
// classes, softmax for more, squared error for regression).
//
// # Settings
//
// Both libraries get -rounds boosting rounds (default 200; the synthetic
// set gets -synthetic-rounds when that is set), maximum depth 6, learning
// rate 0.1, lambda 1, min_child_weight 1, 256 bins per feature and no row
// or column sampling; XGBoost uses the objectives multi:softprob, binary:logistic and
// reg:squarederror. Both start from the same base margins, treegen's (the
// mean target, the log-odds of the positive fraction, the log class priors;
// XGBoost gets them as the base_margin of its DMatrix), so that their
// models, and so their training losses, agree.
//
// # What is measured
//
// Every configuration (data set, library, thread count, repeat) trains in a
// fresh process, so that its peak memory is its own; the treegen and XGBoost
// runs alternate. For treegen the program runs itself again (os.Executable)
// with a hidden argument: the child reads the file with data.ReadFile
// (load) as "treegen train gbdt" does (data.Options.Compact, and the
// garbage collector at GOGC 25), trains with gbdt.Train, whose Options.Timing splits the time into
// Prepare (checks and quantising the features: the "bin" column) and Boost
// (the rounds), with GOMAXPROCS and Options.Threads set to the thread count,
// and reports its peak resident set size after training. For XGBoost
// xgb_speed.py reads the file (pandas if it can import it, else numpy),
// builds the DMatrix, runs xgboost.train with nthread set to the thread
// count, and reports the same three times and its peak RSS. By default the
// DMatrix is an xgboost.QuantileDMatrix, which quantises the features when
// it is built, as treegen's Prepare does, so that "XGBoost train" and
// "treegen boost" time the same work; with -dmatrix plain it is an
// xgboost.DMatrix, and xgboost.train then also quantises.
//
// The peak RSS is the VmHWM line of /proc/self/status, the high-water mark
// of the process's memory since its exec, read by both sides. (getrusage's
// ru_maxrss would not do: Linux carries it over an exec, and os/exec starts
// a child that shares the parent's memory until it execs, so every child
// would report at least this program's own peak.) The CSV also holds each
// side's peak RSS after reading the file, and XGBoost's before it (the
// interpreter and its imports).
//
// Each configuration runs -repeat times (default 3); each time is the
// fastest of the repeats, each peak RSS the largest. The ratio is treegen
// boost / XGBoost train. On the first repeat both libraries write their
// predictions of the training rows (after the peak RSS is taken), and this
// program computes from them, with the same code for both, the training
// loss of the final models: log-loss (metrics.LogLoss, probabilities
// clipped to [1e-15, 1-1e-15]) for logistic and softmax, RMSE for squared
// error. On features with at most 256 distinct values (connect_4, letter)
// both libraries have the same bins, grow nearly the same trees (XGBoost
// computes in float32, which can tip close splits) and reach nearly the
// same loss; on the others their bin edges differ (treegen's are exact
// quantiles, XGBoost's come from its sketch), and so, slightly, do the
// losses.
//
// When /usr/bin/python3 (-python) cannot import xgboost, the XGBoost
// columns stay empty and the program says so.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/internal/tooling/pmlb"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/gbdt"
)

// childArg, as the first argument, makes the program the treegen side of
// one configuration: the second argument is the job as JSON.
const childArg = "-gbdt-speed-child"

// syntheticFeatures is the number of features of the synthetic set.
const syntheticFeatures = 50

// job is one training run, as both children read it (the JSON names are
// those xgb_speed.py reads).
type job struct {
	File           string  `json:"file"`
	Objective      string  `json:"objective"` // treegen's name: softmax, logistic or squarederror
	Rounds         int     `json:"rounds"`
	MaxDepth       int     `json:"max_depth"`
	Eta            float64 `json:"eta"`
	Lambda         float64 `json:"lambda"`
	MinChildWeight float64 `json:"min_child_weight"`
	MaxBin         int     `json:"max_bin"`
	Threads        int     `json:"nthread"`
	DMatrix        string  `json:"dmatrix"` // XGBoost only: "quantile" or "plain"
	// Pred, when not empty, is where the child writes its predictions of
	// the training rows: rows × outputs little-endian float64, row by row
	// (the probability of the second class for logistic, of every class
	// for softmax, the prediction for squared error).
	Pred string `json:"pred"`
}

// tgResult is what the treegen child prints.
type tgResult struct {
	Load    float64 `json:"load_seconds"`
	Prepare float64 `json:"prepare_seconds"`
	Boost   float64 `json:"boost_seconds"`
	MaxRSS  int64   `json:"maxrss_kib"`   // 0: unknown
	LoadRSS int64   `json:"load_rss_kib"` // peak RSS after reading the file
	Trees   int     `json:"trees"`
}

// xgbResult is what xgb_speed.py prints.
type xgbResult struct {
	Load      float64 `json:"load_seconds"`
	DMatrix   float64 `json:"dmatrix_seconds"`
	Train     float64 `json:"train_seconds"`
	MaxRSS    int64   `json:"maxrss_kib"`
	ImportRSS int64   `json:"import_rss_kib"` // peak RSS after the imports, before reading
	LoadRSS   int64   `json:"load_rss_kib"`   // peak RSS after reading the file
	Rounds    int     `json:"rounds"`
	Loader    string  `json:"loader"`
}

// xgbInfo is what xgb_speed.py --check prints.
type xgbInfo struct {
	XGBoost string `json:"xgboost"`
	Python  string `json:"python"`
	NumPy   string `json:"numpy"`
	Pandas  string `json:"pandas"` // "" when pandas cannot be imported
}

// set is a data set to train on.
type set struct {
	name, file  string
	obj         gbdt.Objective
	rounds      int
	rows, feats int
	classes     int       // 0 for regression
	y           []float64 // the targets (regression)
	class       []int     // the class of every row (classification)
}

// result is one line of the table: a data set at a thread count, the best
// of the repeats.
type result struct {
	s       *set
	threads int
	tg      tgResult
	xgb     *xgbResult // nil without XGBoost
	// The training losses, NaN when unknown.
	tgMetric, xgbMetric float64
}

type config struct {
	out, dir, python, script string
	datasets                 []string
	threads                  []int
	rounds, synthRounds      int
	rows                     int
	seed                     uint64
	repeat                   int
	depth, maxBin            int
	eta, lambda, minChild    float64
	dmatrix                  string
}

func main() {
	if len(os.Args) == 3 && os.Args[1] == childArg {
		if err := child(os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "gbdt-speed (treegen run):", err)
			os.Exit(1)
		}
		return
	}
	var c config
	flag.StringVar(&c.out, "out", "docs", "directory for gbdt-speed.csv and gbdt-speed.md (empty: none)")
	flag.StringVar(&c.dir, "data", "testdata/pmlb", "directory holding MANIFEST.tsv and the PMLB data sets")
	flag.StringVar(&c.python, "python", "/usr/bin/python3", "Python interpreter with xgboost")
	flag.StringVar(&c.script, "script", "docs/gbdt-speed/xgb_speed.py", "the XGBoost side of the measurement")
	datasets := flag.String("datasets", "connect_4,letter,537_houses,synthetic", "comma-separated data sets: PMLB names and synthetic")
	threads := flag.String("threads", "", "comma-separated thread counts (default: 1, 2 and the number of CPUs)")
	flag.IntVar(&c.rounds, "rounds", 200, "boosting rounds on the PMLB data sets")
	flag.IntVar(&c.synthRounds, "synthetic-rounds", 0, "boosting rounds on the synthetic set (0: -rounds)")
	flag.IntVar(&c.rows, "rows", 1_000_000, "rows of the synthetic set")
	flag.Uint64Var(&c.seed, "seed", 1, "seed of the synthetic set")
	flag.IntVar(&c.repeat, "repeat", 3, "runs of every configuration; the fastest counts")
	flag.IntVar(&c.depth, "depth", 6, "maximum tree depth")
	flag.Float64Var(&c.eta, "eta", 0.1, "learning rate")
	flag.Float64Var(&c.lambda, "lambda", 1, "L2 penalty on leaf values")
	flag.Float64Var(&c.minChild, "min-child-weight", 1, "minimum hessian sum of a child")
	flag.IntVar(&c.maxBin, "max-bin", 256, "histogram bins per feature")
	flag.StringVar(&c.dmatrix, "dmatrix", "quantile", "XGBoost's data: quantile (QuantileDMatrix, quantised when built) or plain (DMatrix, quantised by xgboost.train)")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("gbdt-speed: ")
	if flag.NArg() > 0 {
		log.Fatalf("unexpected arguments %q", flag.Args())
	}
	var err error
	if c.threads, err = parseThreads(*threads); err != nil {
		log.Fatal(err)
	}
	for _, name := range strings.Split(*datasets, ",") {
		if name = strings.TrimSpace(name); name != "" {
			c.datasets = append(c.datasets, name)
		}
	}
	switch {
	case len(c.datasets) == 0:
		log.Fatal("-datasets names no data set")
	case c.rounds < 1 || c.synthRounds < 0:
		log.Fatal("-rounds must be at least 1, -synthetic-rounds at least 0")
	case c.repeat < 1:
		log.Fatal("-repeat must be at least 1")
	case c.rows < 2:
		log.Fatal("-rows must be at least 2")
	case c.dmatrix != "quantile" && c.dmatrix != "plain":
		log.Fatalf("-dmatrix is %q; want quantile or plain", c.dmatrix)
	}
	if c.synthRounds == 0 {
		c.synthRounds = c.rounds
	}
	if err := run(c); err != nil {
		log.Fatal(err)
	}
}

// parseThreads parses -threads; "" gives 1, 2 and runtime.NumCPU(). The
// counts are sorted and without duplicates.
func parseThreads(s string) ([]int, error) {
	var ts []int
	if strings.TrimSpace(s) == "" {
		ts = []int{1, 2, goruntime.NumCPU()}
	} else {
		for _, f := range strings.Split(s, ",") {
			t, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || t < 1 {
				return nil, fmt.Errorf("-threads: %q is not a thread count", f)
			}
			ts = append(ts, t)
		}
	}
	slices.Sort(ts)
	return slices.Compact(ts), nil
}

func run(c config) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "gbdt-speed")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)

	info, xgbErr := checkXGBoost(c.python, c.script)
	if xgbErr != nil {
		log.Printf("XGBoost is not available (%v): its columns stay empty", xgbErr)
	} else {
		log.Printf("XGBoost %s, Python %s, numpy %s, pandas %s", info.XGBoost, info.Python, info.NumPy, orNone(info.Pandas))
	}
	manifest, err := pmlb.ReadManifest(filepath.Join(c.dir, "MANIFEST.tsv"))
	if err != nil {
		return err
	}

	var results []result
	for _, name := range c.datasets {
		s, err := loadSet(c, name, manifest, tmp)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		for _, th := range c.threads {
			r, err := measure(c, s, th, self, tmp, xgbErr == nil)
			if err != nil {
				return fmt.Errorf("%s, threads %d: %w", name, th, err)
			}
			results = append(results, r)
		}
		if s.name == "synthetic" {
			// Its file is large; the remaining sets do not need it.
			os.Remove(s.file)
		}
	}

	md := markdown(c, results, info, xgbErr)
	fmt.Print(md)
	if c.out == "" {
		return nil
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(c.out, "gbdt-speed.csv"), 0o644, func(w io.Writer) error {
		return csv.NewWriter(w).WriteAll(table(c, results))
	}); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(c.out, "gbdt-speed.md"), []byte(md), 0o644)
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// checkXGBoost runs xgb_speed.py --check, which fails unless the
// interpreter can import xgboost and numpy.
func checkXGBoost(python, script string) (xgbInfo, error) {
	cmd := exec.Command(python, script, "--check")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
			msg = msg[i+1:]
		}
		if msg != "" {
			err = fmt.Errorf("%s %s: %w: %s", python, script, err, msg)
		} else {
			err = fmt.Errorf("%s %s: %w", python, script, err)
		}
		return xgbInfo{}, err
	}
	var info xgbInfo
	if err := json.Unmarshal(out, &info); err != nil {
		return xgbInfo{}, fmt.Errorf("%s --check printed %q: %w", script, out, err)
	}
	return info, nil
}

// loadSet prepares a data set: the synthetic one is generated and written
// to tmp, a PMLB one is read (for its size and targets only; the children
// read the file themselves).
func loadSet(c config, name string, manifest []pmlb.Dataset, tmp string) (*set, error) {
	if name == "synthetic" {
		start := time.Now()
		s, err := writeSynthetic(filepath.Join(tmp, "synthetic.tsv"), c.rows, c.seed)
		if err != nil {
			return nil, err
		}
		s.rounds = c.synthRounds
		log.Printf("synthetic: %d rows × %d features written in %.1fs", s.rows, s.feats, time.Since(start).Seconds())
		return s, nil
	}
	i := slices.IndexFunc(manifest, func(m pmlb.Dataset) bool { return m.Name == name })
	if i < 0 {
		return nil, errors.New("not in the manifest (nor synthetic)")
	}
	m := manifest[i]
	s := &set{name: name, file: filepath.Join(c.dir, name+".tsv.gz"), rounds: c.rounds}
	d, err := data.ReadFile(s.file, data.Options{RequireTarget: true})
	if err != nil {
		return nil, err
	}
	s.rows, s.feats = d.Rows, d.Cols
	if m.Task == "regression" {
		s.obj, s.y = gbdt.SquaredError, d.Y
		return s, nil
	}
	labels, class, err := data.Classes(d.Y)
	if err != nil {
		return nil, err
	}
	s.classes, s.class = len(labels), class
	s.obj = gbdt.Softmax
	if s.classes == 2 {
		s.obj = gbdt.Logistic
	}
	return s, nil
}

// writeSynthetic writes the synthetic set (see the package documentation)
// to path as TSV and returns it without its features.
func writeSynthetic(path string, rows int, seed uint64) (*set, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 1<<20)
	const p = syntheticFeatures
	for j := range p {
		fmt.Fprintf(w, "x%d\t", j+1)
	}
	w.WriteString("target\n")

	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	s := &set{name: "synthetic", file: path, obj: gbdt.Logistic, rows: rows, feats: p, classes: 2, class: make([]int, rows)}
	x := make([]float64, p)
	var buf []byte
	for r := range rows {
		for j := range p {
			x[j] = rng.NormFloat64()
		}
		for j := 20; j < 40; j++ {
			x[j] = 0.8*x[j-20] + 0.6*x[j]
		}
		f := x[0]*x[1] + math.Sin(2*x[2]) + math.Abs(x[3]) - 0.8 + 0.5*(x[4]*x[4]-1)
		if x[6] > 0 {
			f += 0.8 * x[5]
		}
		if f+rng.NormFloat64() > 0 {
			s.class[r] = 1
		}
		buf = buf[:0]
		for _, v := range x {
			buf = strconv.AppendFloat(buf, v, 'f', 4, 64)
			buf = append(buf, '\t')
		}
		buf = strconv.AppendInt(buf, int64(s.class[r]), 10)
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return nil, err
		}
	}
	if err := w.Flush(); err != nil {
		return nil, err
	}
	return s, f.Close()
}

// measure runs one data set at one thread count c.repeat times, both
// libraries alternating, and returns the fastest times.
func measure(c config, s *set, threads int, self, tmp string, withXGB bool) (result, error) {
	j := job{
		File:           s.file,
		Objective:      string(s.obj),
		Rounds:         s.rounds,
		MaxDepth:       c.depth,
		Eta:            c.eta,
		Lambda:         c.lambda,
		MinChildWeight: c.minChild,
		MaxBin:         c.maxBin,
		Threads:        threads,
		DMatrix:        c.dmatrix,
	}
	inf := math.Inf(1)
	r := result{s: s, threads: threads, tg: tgResult{Load: inf, Prepare: inf, Boost: inf}, tgMetric: math.NaN(), xgbMetric: math.NaN()}
	if withXGB {
		r.xgb = &xgbResult{Load: inf, DMatrix: inf, Train: inf}
	}
	tgPred := filepath.Join(tmp, "treegen.pred")
	xgbPred := filepath.Join(tmp, "xgboost.pred")
	for rep := range c.repeat {
		jt, jx := j, j
		if rep == 0 {
			jt.Pred, jx.Pred = tgPred, xgbPred
		}
		t, err := runTreegen(self, jt)
		if err != nil {
			return r, err
		}
		r.tg.Load = min(r.tg.Load, t.Load)
		r.tg.Prepare = min(r.tg.Prepare, t.Prepare)
		r.tg.Boost = min(r.tg.Boost, t.Boost)
		r.tg.MaxRSS = max(r.tg.MaxRSS, t.MaxRSS)
		r.tg.LoadRSS = max(r.tg.LoadRSS, t.LoadRSS)
		r.tg.Trees = t.Trees
		line := fmt.Sprintf("%s, threads %d, run %d: treegen load %.3fs bin %.3fs boost %.3fs, %.0f MiB",
			s.name, threads, rep+1, t.Load, t.Prepare, t.Boost, mib(t.MaxRSS))
		if rep == 0 {
			if r.tgMetric, err = trainMetric(s, tgPred); err != nil {
				return r, fmt.Errorf("treegen's predictions: %w", err)
			}
		}
		if withXGB {
			x, err := runXGBoost(c.python, c.script, jx)
			if err != nil {
				return r, err
			}
			r.xgb.Load = min(r.xgb.Load, x.Load)
			r.xgb.DMatrix = min(r.xgb.DMatrix, x.DMatrix)
			r.xgb.Train = min(r.xgb.Train, x.Train)
			r.xgb.MaxRSS = max(r.xgb.MaxRSS, x.MaxRSS)
			r.xgb.ImportRSS = max(r.xgb.ImportRSS, x.ImportRSS)
			r.xgb.LoadRSS = max(r.xgb.LoadRSS, x.LoadRSS)
			r.xgb.Rounds, r.xgb.Loader = x.Rounds, x.Loader
			line += fmt.Sprintf("; XGBoost load %.3fs DMatrix %.3fs train %.3fs, %.0f MiB",
				x.Load, x.DMatrix, x.Train, mib(x.MaxRSS))
			if rep == 0 {
				if r.xgbMetric, err = trainMetric(s, xgbPred); err != nil {
					return r, fmt.Errorf("XGBoost's predictions: %w", err)
				}
			}
		}
		log.Print(line)
	}
	os.Remove(tgPred)
	os.Remove(xgbPred)
	return r, nil
}

func mib(kib int64) float64 { return float64(kib) / 1024 }

// runTreegen runs the treegen side of a job in a child process.
func runTreegen(self string, j job) (tgResult, error) {
	js, err := json.Marshal(j)
	if err != nil {
		return tgResult{}, err
	}
	var res tgResult
	if err := runJSON(exec.Command(self, childArg, string(js)), &res); err != nil {
		return tgResult{}, fmt.Errorf("treegen run: %w", err)
	}
	return res, nil
}

// runXGBoost runs xgb_speed.py on a job.
func runXGBoost(python, script string, j job) (xgbResult, error) {
	js, err := json.Marshal(j)
	if err != nil {
		return xgbResult{}, err
	}
	var res xgbResult
	if err := runJSON(exec.Command(python, script, string(js)), &res); err != nil {
		return xgbResult{}, fmt.Errorf("%s: %w", script, err)
	}
	return res, nil
}

// runJSON runs cmd, its standard error going to ours, and decodes what it
// prints into v.
func runJSON(cmd *exec.Cmd, v any) error {
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return err
	}
	if err := json.Unmarshal(out, v); err != nil {
		return fmt.Errorf("printed %q: %w", out, err)
	}
	return nil
}

// trainMetric reads the predictions a child wrote to path and returns the
// training loss: log-loss for the classifications, RMSE for regression.
func trainMetric(s *set, path string) (float64, error) {
	k := 1
	if s.obj == gbdt.Softmax {
		k = s.classes
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	os.Remove(path)
	if len(b) != 8*s.rows*k {
		return 0, fmt.Errorf("%d bytes, want %d (%d rows × %d outputs × 8)", len(b), 8*s.rows*k, s.rows, k)
	}
	pred := make([]float64, s.rows*k)
	for i := range pred {
		pred[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	switch s.obj {
	case gbdt.SquaredError:
		return math.Sqrt(metrics.MSE(s.y, pred)), nil
	case gbdt.Logistic:
		probs := make([]float64, 2*s.rows)
		for i, p := range pred {
			probs[2*i], probs[2*i+1] = 1-p, p
		}
		return metrics.LogLoss(s.class, probs, 2), nil
	default:
		return metrics.LogLoss(s.class, pred, k), nil
	}
}

// metricName names the training loss of an objective (as XGBoost does).
func metricName(obj gbdt.Objective) string {
	switch obj {
	case gbdt.SquaredError:
		return "rmse"
	case gbdt.Logistic:
		return "logloss"
	}
	return "mlogloss"
}

// child is the treegen side of one job: read, train, report.
func child(spec string) error {
	var j job
	if err := json.Unmarshal([]byte(spec), &j); err != nil {
		return err
	}
	goruntime.GOMAXPROCS(j.Threads)
	debug.SetGCPercent(25) // as treegen train gbdt does
	start := time.Now()
	d, err := data.ReadFile(j.File, data.Options{RequireTarget: true, Compact: true})
	if err != nil {
		return err
	}
	load := time.Since(start)
	loadRSS := peakRSS()
	var tm gbdt.Timing
	m, err := gbdt.Train(d, nil, gbdt.Options{
		Objective:      gbdt.Objective(j.Objective),
		Rounds:         j.Rounds,
		LearningRate:   j.Eta,
		MaxDepth:       j.MaxDepth,
		MinChildWeight: j.MinChildWeight,
		Lambda:         j.Lambda,
		MaxBins:        j.MaxBin,
		Threads:        j.Threads,
		Name:           filepath.Base(j.File),
		Timing:         &tm,
	})
	if err != nil {
		return err
	}
	res := tgResult{
		Load:    load.Seconds(),
		Prepare: tm.Prepare.Seconds(),
		Boost:   tm.Boost.Seconds(),
		MaxRSS:  peakRSS(),
		LoadRSS: loadRSS,
		Trees:   len(m.Trees),
	}
	if j.Pred != "" {
		p, err := runtime.New[float64](m)
		if err != nil {
			return err
		}
		out := make([]float64, d.Rows*m.NumOutputs)
		if err := p.PredictBatch(d.Block(0, d.Rows, nil), out, false); err != nil {
			return err
		}
		b := make([]byte, 8*len(out))
		for i, v := range out {
			binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
		}
		if err := os.WriteFile(j.Pred, b, 0o644); err != nil {
			return err
		}
	}
	return json.NewEncoder(os.Stdout).Encode(res)
}

// seconds formats a time for the table and the CSV.
func seconds(v float64) string { return strconv.FormatFloat(v, 'f', 3, 64) }

// optional formats v with f, or "" when x is false.
func optional(x bool, v float64, f func(float64) string) string {
	if !x || math.IsNaN(v) {
		return ""
	}
	return f(v)
}

func metricString(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', 5, 64)
}

func mibString(kib float64) string {
	if kib <= 0 {
		return ""
	}
	return strconv.FormatFloat(kib/1024, 'f', 0, 64)
}

func ratio(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// table returns the CSV records: a header, then one line per result.
func table(c config, rs []result) [][]string {
	t := [][]string{{"dataset", "rows", "features", "classes", "objective", "rounds", "threads", "repeats",
		"treegen_load_s", "treegen_bin_s", "treegen_boost_s", "treegen_load_rss_mib", "treegen_peak_rss_mib", "treegen_trees",
		"xgboost_dmatrix", "xgboost_loader", "xgboost_load_s", "xgboost_dmatrix_s", "xgboost_train_s",
		"xgboost_import_rss_mib", "xgboost_load_rss_mib", "xgboost_peak_rss_mib", "xgboost_rounds",
		"boost_ratio", "metric", "treegen_metric", "xgboost_metric"}}
	for _, r := range rs {
		x := r.xgb != nil
		var xr xgbResult
		if x {
			xr = *r.xgb
		}
		t = append(t, []string{r.s.name, strconv.Itoa(r.s.rows), strconv.Itoa(r.s.feats), strconv.Itoa(r.s.classes),
			string(r.s.obj), strconv.Itoa(r.s.rounds), strconv.Itoa(r.threads), strconv.Itoa(c.repeat),
			seconds(r.tg.Load), seconds(r.tg.Prepare), seconds(r.tg.Boost),
			mibString(float64(r.tg.LoadRSS)), mibString(float64(r.tg.MaxRSS)), strconv.Itoa(r.tg.Trees),
			cond(x, c.dmatrix), cond(x, xr.Loader),
			optional(x, xr.Load, seconds), optional(x, xr.DMatrix, seconds), optional(x, xr.Train, seconds),
			mibString(float64(xr.ImportRSS)), mibString(float64(xr.LoadRSS)), mibString(float64(xr.MaxRSS)), cond(x, strconv.Itoa(xr.Rounds)),
			optional(x, r.tg.Boost/xr.Train, ratio), metricName(r.s.obj), metricString(r.tgMetric), metricString(r.xgbMetric)})
	}
	return t
}

func cond(x bool, s string) string {
	if !x {
		return ""
	}
	return s
}

// markdown returns the paragraph on the machine and the settings, and the
// table.
func markdown(c config, rs []result, info xgbInfo, xgbErr error) string {
	var b strings.Builder
	rounds := fmt.Sprintf("%d boosting rounds", c.rounds)
	if slices.Contains(c.datasets, "synthetic") && c.synthRounds != c.rounds {
		if slices.ContainsFunc(c.datasets, func(n string) bool { return n != "synthetic" }) {
			rounds += fmt.Sprintf(" (%d on synthetic)", c.synthRounds)
		} else {
			rounds = fmt.Sprintf("%d boosting rounds", c.synthRounds)
		}
	}
	cmd := strings.Join(append([]string{"go run ./docs/gbdt-speed"}, os.Args[1:]...), " ")
	fmt.Fprintf(&b, "Measured on %s with `%s` on %s, %d cores (%s/%s), Go %s",
		time.Now().Format("2006-01-02"), cmd, repro.CPUModel(), goruntime.NumCPU(), goruntime.GOOS, goruntime.GOARCH,
		strings.TrimPrefix(goruntime.Version(), "go"))
	if xgbErr == nil {
		fmt.Fprintf(&b, ", XGBoost %s (Python %s, numpy %s, pandas %s)", info.XGBoost, info.Python, info.NumPy, orNone(info.Pandas))
	}
	fmt.Fprintf(&b, ". Both libraries: %s, max depth %d, learning rate %g, lambda %g, min_child_weight %g, %d bins, no sampling, the same base margins",
		rounds, c.depth, c.eta, c.lambda, c.minChild, c.maxBin)
	if xgbErr == nil {
		if c.dmatrix == "plain" {
			b.WriteString("; XGBoost: tree_method hist on a DMatrix, which xgboost.train quantises (so XGBoost train includes quantising, treegen boost does not)")
		} else {
			b.WriteString("; XGBoost: tree_method hist on a QuantileDMatrix, which quantises the features when it is built, as treegen's bin step does")
		}
	}
	b.WriteString(". ")
	if slices.Contains(c.datasets, "synthetic") {
		fmt.Fprintf(&b, "synthetic: %d rows × %d Gaussian features (20 correlated with 20 others), a binary target from a noisy nonlinear function of 7 of them (seed %d). ",
			c.rows, syntheticFeatures, c.seed)
	}
	runs := "one run per library, in a fresh process"
	if c.repeat > 1 {
		runs = fmt.Sprintf("the fastest of %d runs per library, each in a fresh process, the libraries alternating", c.repeat)
	}
	fmt.Fprintf(&b, "Times in seconds, %s: "+
		"treegen load = data.ReadFile (compact, GOGC 25, as treegen train gbdt), bin = Timing.Prepare (checks, quantising), boost = Timing.Boost; "+
		"XGBoost DMatrix = building it from the arrays read, train = xgboost.train; ratio = treegen boost / XGBoost train. "+
		"Threads: GOMAXPROCS and Options.Threads (treegen), nthread (XGBoost). "+
		"Peak RSS: the process's peak resident set size after training (VmHWM), reading the file included", runs)
	if xgbErr == nil {
		imp := 0.0
		for _, r := range rs {
			if r.xgb != nil {
				imp = max(imp, mib(r.xgb.ImportRSS))
			}
		}
		fmt.Fprintf(&b, " (for XGBoost, the Python interpreter and its imports too: %.0f MiB)", imp)
	}
	b.WriteString(". Train metric: the final model's log-loss (logistic, softmax) or RMSE (squarederror) on the training rows, computed by the same code from each library's predictions " +
		"(they differ slightly where features have more than 256 distinct values, as the two libraries' bin edges differ).")
	if xgbErr != nil {
		fmt.Fprintf(&b, " XGBoost was not available (%v): its columns are empty.", xgbErr)
	}
	b.WriteString("\n\n")
	b.WriteString("| data set | rows | features | objective | threads | treegen load s | treegen bin s | treegen boost s | XGBoost DMatrix s | XGBoost train s | ratio | treegen peak RSS MiB | XGBoost peak RSS MiB | treegen train metric | XGBoost train metric |\n")
	b.WriteString("| --- | ---: | ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
	for _, r := range rs {
		x := r.xgb != nil
		var xr xgbResult
		if x {
			xr = *r.xgb
		}
		obj := string(r.s.obj)
		if r.s.obj == gbdt.Softmax {
			obj = fmt.Sprintf("softmax (%d classes)", r.s.classes)
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.s.name, r.s.rows, r.s.feats, obj, r.threads,
			seconds(r.tg.Load), seconds(r.tg.Prepare), seconds(r.tg.Boost),
			optional(x, xr.DMatrix, seconds), optional(x, xr.Train, seconds), optional(x, r.tg.Boost/xr.Train, ratio),
			mibString(float64(r.tg.MaxRSS)), mibString(float64(xr.MaxRSS)),
			metricString(r.tgMetric), metricString(r.xgbMetric))
	}
	return b.String()
}
