package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/gbdt"
)

func (a *app) trainGBDTCmd() *cobra.Command {
	f := commonTrainFlags{compact: true}
	var o gbdt.Options
	var objective, valid, weight, monotone, categorical string
	var validFraction float64
	var quiet bool
	cmd := &cobra.Command{
		Use:   "gbdt --data FILE --objective logistic|softmax|squarederror|poisson|gamma|tweedie|pseudohuber|quantile -o MODEL.json",
		Short: "Train a gradient-boosted ensemble (second-order, histogram splits)",
		Long: `gbdt trains gradient-boosted trees with Newton leaf values, L2 regularisation,
shrinkage, quantile histograms of at most 256 bins per feature, learned
default directions for missing values, row and column subsampling, and early
stopping on a validation set (--valid FILE, or --valid-fraction of the
training rows) on the loss or on --eval-metric. --weight COLUMN weighs the
rows by a column of the data files (removed from the features). Progress and
per-round losses go to stderr.
--alpha, --max-delta-step, --colsample-bylevel, --colsample-bynode,
--monotone and --categorical behave as XGBoost's alpha, max_delta_step,
colsample_bylevel, colsample_bynode, monotone_constraints and categorical
features (enable_categorical): see docs/GBDT.md.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(); err != nil {
				return err
			}
			leanGC()
			if objective == "" {
				return fmt.Errorf("--objective is required: logistic (binary), softmax (multiclass) or squarederror (regression); for other regressions poisson, gamma, tweedie, pseudohuber or quantile")
			}
			o.Objective = gbdt.Objective(objective)
			if err := checkGBDTFlags(cmd, &o, objective); err != nil {
				return err
			}
			if o.MaxLeaves > 0 && !cmd.Flags().Changed("max-depth") {
				o.MaxDepth = 0 // leaf-wise growth is limited by --max-leaves alone
			}
			if weight != "" && weight == f.target {
				return fmt.Errorf("--weight names the target column %q", weight)
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if weight != "" {
				// Checked on the whole file, so that errors name its rows.
				if _, _, err := takeWeights(d, weight); err != nil {
					return err
				}
			}
			d, v, err := splitValidation(d, f, valid, validFraction, o.Objective != gbdt.Logistic && o.Objective != gbdt.Softmax, o.Seed)
			if err != nil {
				return err
			}
			if weight != "" {
				if o.Weights, d, err = takeWeights(d, weight); err != nil {
					return err
				}
				if v != nil {
					if o.ValidWeights, v, err = takeWeights(v, weight); err != nil {
						return err
					}
				}
			}
			if o.MonotoneConstraints, err = parseMonotone(monotone, d.Features); err != nil {
				return err
			}
			if o.Categorical, err = featureIndices("categorical", categorical, d.Features); err != nil {
				return err
			}
			o.Name = f.name
			if o.Name == "" {
				o.Name = baseName(f.data)
			}
			rounds := o.Rounds
			if rounds == 0 {
				rounds = gbdt.DefaultRounds
			}
			var done func()
			o.OnRound, done = a.roundReporter(rounds, quiet, o.EvalMetric != "")
			var timing gbdt.Timing
			o.Timing = &timing
			start := time.Now()
			m, err := gbdt.Train(d, v, o)
			done()
			if err != nil {
				return err
			}
			if err := f.save(a, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "trained %d trees on %d rows in %s (prepare %s, boost %s); wrote %s\n",
				len(m.Trees), d.Rows, time.Since(start).Round(time.Millisecond),
				timing.Prepare.Round(time.Millisecond), timing.Boost.Round(time.Millisecond), f.out)
			return a.reportTraining(m, f, d, v)
		},
	}
	f.register(a, cmd)
	post := cmd.PostRunE
	cmd.PostRunE = func(cmd *cobra.Command, args []string) error {
		if weight == "" || f.test == "" || f.model == nil {
			return post(cmd, args)
		}
		// The test file has the weight column too: the model does not.
		d, err := f.read(f.test)
		if err != nil {
			return err
		}
		if _, d, err = takeWeights(d, weight); err != nil {
			return err
		}
		return a.reportScores(f.model, f.test, f.target, "test", d)
	}
	cmd.Flags().StringVar(&objective, "objective", "", "loss: logistic (binary), softmax (multiclass), squarederror (regression), poisson (counts), gamma (positive values), tweedie (values >= 0), pseudohuber (robust regression) or quantile (--quantile-alpha)")
	cmd.Flags().StringVar(&weight, "weight", "", "weigh the rows by this column of the data files, which is then no feature (\"\": every row weighs 1)")
	cmd.Flags().BoolVar(&f.compact, "compact", true, "keep the features in 4 bytes a value when every value of the data files is a short decimal or a float32 (docs/DATA.md); the model is the same")
	cmd.Flags().Float64Var(&o.ScalePosWeight, "scale-pos-weight", 1, "logistic: multiply the weight of the positive rows by this")
	cmd.Flags().Float64Var(&o.TweedieVariancePower, "tweedie-variance-power", gbdt.DefaultTweedieVariancePower, "tweedie: the variance power, in (1, 2)")
	cmd.Flags().Float64Var(&o.HuberSlope, "huber-slope", gbdt.DefaultHuberSlope, "pseudohuber: the slope δ of the loss")
	cmd.Flags().Float64Var(&o.QuantileAlpha, "quantile-alpha", gbdt.DefaultQuantileAlpha, "quantile: the level α of the quantile, in (0, 1)")
	cmd.Flags().StringVar(&o.EvalMetric, "eval-metric", "", "metric of early stopping and of the progress lines: logloss, mlogloss, auc, error, merror, rmse, mae, mphe, quantile, poisson-nloglik, gamma-nloglik, tweedie-nloglik[@ρ] (\"\": the objective's default)")
	cmd.Flags().StringVar(&valid, "valid", "", "validation data, for per-round metrics and early stopping")
	cmd.Flags().Float64Var(&validFraction, "valid-fraction", 0, "hold out this fraction of the training rows as validation data")
	cmd.Flags().IntVar(&o.Rounds, "trees", gbdt.DefaultRounds, "boosting rounds (one tree per class and round for softmax)")
	cmd.Flags().Float64Var(&o.LearningRate, "lr", gbdt.DefaultLearningRate, "learning rate (shrinkage)")
	cmd.Flags().IntVar(&o.MaxDepth, "max-depth", gbdt.DefaultMaxDepth, fmt.Sprintf("maximum depth of a tree (1 to %d)", ir.MaxDepth))
	cmd.Flags().IntVar(&o.MaxLeaves, "max-leaves", 0, "grow trees leaf-wise up to this many leaves (0: depth-wise); without --max-depth their depth is unlimited")
	cmd.Flags().Float64Var(&o.MinChildWeight, "min-child-weight", 1, "minimum hessian sum in a child")
	cmd.Flags().Float64Var(&o.Lambda, "lambda", 1, "L2 regularisation of leaf values")
	cmd.Flags().Float64Var(&o.Gamma, "gamma", 0, "minimum loss reduction of a split")
	cmd.Flags().Float64Var(&o.Alpha, "alpha", 0, "L1 regularisation of leaf values")
	cmd.Flags().Float64Var(&o.MaxDeltaStep, "max-delta-step", 0, "cap on the absolute value of every leaf value before the learning rate (0: none, or 0.7 for poisson)")
	cmd.Flags().Float64Var(&o.Subsample, "subsample", 1, "fraction of rows drawn per round")
	cmd.Flags().Float64Var(&o.ColSample, "colsample", 1, "fraction of features drawn per tree")
	cmd.Flags().Float64Var(&o.ColSampleByLevel, "colsample-bylevel", 1, "fraction of the tree's features drawn per depth")
	cmd.Flags().Float64Var(&o.ColSampleByNode, "colsample-bynode", 1, "fraction of the depth's features drawn per node")
	cmd.Flags().StringVar(&monotone, "monotone", "", `monotone constraints: "name:+1,name:-1" (the prediction only rises, or only falls, as the feature grows), or XGBoost's "(1,0,-1)" with one entry per feature`)
	cmd.Flags().StringVar(&categorical, "categorical", "", "categorical features, by name: name,name (values: integers 0 to 2147483647, at most 256 distinct)")
	cmd.Flags().IntVar(&o.MaxCatToOnehot, "max-cat-to-onehot", gbdt.DefaultMaxCatToOnehot, "a categorical feature with fewer categories splits one category against the rest, one with more a sorted partition")
	cmd.Flags().IntVar(&o.MaxBins, "max-bins", gbdt.DefaultMaxBins, "histogram bins per feature (2 to 256)")
	cmd.Flags().IntVar(&o.EarlyStopping, "early-stopping", 0, "stop after this many rounds without validation improvement (0: off)")
	cmd.Flags().Uint64Var(&o.Seed, "seed", 1, "seed of the sampling and of --valid-fraction")
	cmd.Flags().IntVar(&o.Threads, "threads", 0, "goroutines building histograms (0: all cores); never changes the model")
	cmd.Flags().BoolVar(&quiet, "quiet", false, "no progress output")
	return cmd
}

// roundReporter returns the OnRound callback of the CLI and the function to
// call when training ends (see progress); with metric, the lines end with
// the evaluation metric (on the validation rows, or else the training
// rows).
func (a *app) roundReporter(rounds int, quiet, metric bool) (func(gbdt.RoundInfo), func()) {
	update, done := a.progress(rounds, 10, quiet)
	return func(r gbdt.RoundInfo) {
		s := fmt.Sprintf("round %d/%d train loss %.5f", r.Round, r.Rounds, r.TrainLoss)
		if !math.IsNaN(r.ValidLoss) {
			s += fmt.Sprintf(" valid loss %.5f", r.ValidLoss)
		}
		if !math.IsNaN(r.ValidAUC) {
			s += fmt.Sprintf(" valid auc %.5f", r.ValidAUC)
		}
		if metric && !math.IsNaN(r.ValidMetric) {
			s += fmt.Sprintf(" valid %s %.5f", r.Metric, r.ValidMetric)
		} else if metric {
			s += fmt.Sprintf(" train %s %.5f", r.Metric, r.TrainMetric)
		}
		update(r.Round, s)
	}, done
}

// progress reports the steps of a training of total steps on stderr: a
// progress bar described by the latest line when stderr is a terminal, else
// the line of every every-th step; either way the last step's line at the
// end (done). update takes the 1-based step and its line.
func (a *app) progress(total, every int, quiet bool) (update func(step int, line string), done func()) {
	if quiet {
		return func(int, string) {}, func() {}
	}
	last, lastStep := "", 0
	if !isTerminal(a.stderr) {
		return func(step int, line string) {
				last, lastStep = line, step
				if step%every == 0 {
					fmt.Fprintln(a.stderr, line)
				}
			}, func() {
				if last != "" && lastStep%every != 0 {
					fmt.Fprintln(a.stderr, last)
				}
			}
	}
	bar := &statusLine{w: a.stderr, total: total}
	return func(step int, line string) {
			last = line
			bar.draw(step, line, false)
		}, func() {
			bar.clear()
			if last != "" {
				fmt.Fprintln(a.stderr, last)
			}
		}
}

// statusLine is a progress bar on one terminal line, "[=====>    ] 12/100
// description", redrawn in place at most ten times a second. (A library
// would do, but every module the command imports lands in the go.mod of
// each module that runs it with go tool.)
type statusLine struct {
	w     io.Writer
	total int
	drawn time.Time // when the line was last drawn
	width int       // of the line last drawn, for clear
}

const (
	barWidth   = 20
	lineWidth  = 120 // the description is cut to fit a common terminal
	redrawRate = 100 * time.Millisecond
)

// draw shows step of total with the description, unless the line was drawn
// less than redrawRate ago (the last step is always drawn).
func (s *statusLine) draw(step int, desc string, force bool) {
	now := time.Now()
	if !force && step < s.total && now.Sub(s.drawn) < redrawRate {
		return
	}
	s.drawn = now
	filled := 0
	if s.total > 0 {
		filled = min(barWidth, step*barWidth/s.total)
	}
	bar := strings.Repeat("=", filled)
	if filled < barWidth {
		bar += ">" + strings.Repeat(" ", barWidth-filled-1)
	}
	line := fmt.Sprintf("[%s] %d/%d %s", bar, step, s.total, desc)
	if r := []rune(line); len(r) > lineWidth {
		line = string(r[:lineWidth])
	}
	fmt.Fprintf(s.w, "\r%s\x1b[K", line)
	s.width = len(line)
}

// clear erases the line.
func (s *statusLine) clear() {
	if s.width > 0 {
		fmt.Fprint(s.w, "\r\x1b[K")
		s.width = 0
	}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// checkGBDTFlags refuses the flag values of "train gbdt" that the trainer
// cannot honour, naming the flag: the trainer reads a zero option as its
// default, which on the command line would be a silent surprise.
func checkGBDTFlags(cmd *cobra.Command, o *gbdt.Options, objective string) error {
	depth := intBetween("max-depth", o.MaxDepth, 1, ir.MaxDepth)
	if depth != nil && o.MaxLeaves > 0 {
		depth = fmt.Errorf("%v (with --max-leaves, leave --max-depth out for trees of unlimited depth)", depth)
	}
	if o.MaxLeaves > 0 && !cmd.Flags().Changed("max-depth") {
		depth = nil
	}
	leaves := error(nil)
	if o.MaxLeaves != 0 {
		leaves = atLeast("max-leaves", o.MaxLeaves, 2)
	}
	objectives := []string{string(gbdt.Logistic), string(gbdt.Softmax), string(gbdt.SquaredError), string(gbdt.Poisson),
		string(gbdt.GammaRegression), string(gbdt.Tweedie), string(gbdt.PseudoHuber), string(gbdt.Quantile)}
	return firstError(
		oneOf("objective", objective, objectives...),
		atLeast("trees", o.Rounds, 1),
		positive("lr", o.LearningRate),
		depth,
		leaves,
		offHint(positive("min-child-weight", o.MinChildWeight)),
		offHint(positive("lambda", o.Lambda)),
		nonNegative("gamma", o.Gamma),
		nonNegative("alpha", o.Alpha),
		nonNegative("max-delta-step", o.MaxDeltaStep),
		fraction("subsample", o.Subsample),
		fraction("colsample", o.ColSample),
		fraction("colsample-bylevel", o.ColSampleByLevel),
		fraction("colsample-bynode", o.ColSampleByNode),
		monotoneSyntax(cmd),
		atLeast("max-cat-to-onehot", o.MaxCatToOnehot, 1),
		intBetween("max-bins", o.MaxBins, 2, 256),
		atLeast("early-stopping", o.EarlyStopping, 0),
		atLeast("threads", o.Threads, 0),
		checkObjectiveFlags(cmd, o, objective),
	)
}

// checkObjectiveFlags refuses the values of the flags of the objectives,
// weights and metrics that the trainer cannot honour, and those flags
// with an objective that has no use for them.
func checkObjectiveFlags(cmd *cobra.Command, o *gbdt.Options, objective string) error {
	only := func(flag string, obj gbdt.Objective) error {
		if cmd.Flags().Changed(flag) && objective != string(obj) {
			return fmt.Errorf("--%s is for --objective %s", flag, obj)
		}
		return nil
	}
	open := func(flag string, v, lo, hi float64) error {
		if !(v > lo && v < hi) {
			return fmt.Errorf("--%s must be in (%v, %v), got %v", flag, lo, hi, v)
		}
		return nil
	}
	metric := error(nil)
	if o.EvalMetric != "" {
		if _, err := gbdt.CheckEvalMetric(o.EvalMetric, gbdt.Objective(objective)); err != nil {
			metric = errors.New(strings.Replace(err.Error(), "gbdt: EvalMetric", "--eval-metric", 1))
		}
	}
	return firstError(
		positive("scale-pos-weight", o.ScalePosWeight),
		only("scale-pos-weight", gbdt.Logistic),
		open("tweedie-variance-power", o.TweedieVariancePower, 1, 2),
		only("tweedie-variance-power", gbdt.Tweedie),
		positive("huber-slope", o.HuberSlope),
		only("huber-slope", gbdt.PseudoHuber),
		open("quantile-alpha", o.QuantileAlpha, 0, 1),
		only("quantile-alpha", gbdt.Quantile),
		metric,
	)
}

// leanGC makes the garbage collector run when the heap has grown by a
// quarter rather than doubled, unless GOGC says otherwise. A training set
// lives through training and is mostly arrays of numbers, which the
// collector does not scan, so collecting more often costs little, and the
// peak memory of a million rows of 50 features drops from about 2 to about
// 1.2 times the live data (729 to 625 MB; the same time).
func leanGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(25)
	}
}

// takeWeights returns the column named name of d as row weights, and d
// without that column. It refuses a missing column and a weight that is
// missing, negative or infinite, naming the file, the row (1-based, as
// the data lines count) and the column.
func takeWeights(d *data.Dataset, name string) ([]float64, *data.Dataset, error) {
	j := slices.Index(d.Features, name)
	if j < 0 {
		return nil, nil, fmt.Errorf("%s has no column %q for --weight", d.Source, name)
	}
	w := make([]float64, d.Rows)
	sum := 0.0
	for r := range d.Rows {
		v := d.At(r, j)
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("%s: row %d: the weight (column %q) is %v; weights must be finite numbers >= 0", d.Source, r+1, name, v)
		}
		w[r] = v
		sum += v
	}
	if !(sum > 0) {
		return nil, nil, fmt.Errorf("%s: the weights (column %q) are all 0", d.Source, name)
	}
	out := *d
	out.Features = slices.Delete(slices.Clone(d.Features), j, j+1)
	out.Cols = d.Cols - 1
	out.X, out.XC = dropColumn(d.X, d.Cols, j), dropColumn(d.XC, d.Cols, j)
	return w, &out, nil
}

// dropColumn returns a copy of the rows of x, cols values each, without
// column j; nil if x is nil.
func dropColumn[F any](x []F, cols, j int) []F {
	if x == nil {
		return nil
	}
	out := make([]F, 0, len(x)/cols*(cols-1))
	for lo := 0; lo < len(x); lo += cols {
		out = append(append(out, x[lo:lo+j]...), x[lo+j+1:lo+cols]...)
	}
	return out
}

// offHint tells how to turn off a regulariser that must be > 0.
func offHint(err error) error {
	if err != nil {
		return fmt.Errorf("%v (a tiny value such as 1e-300 turns it off)", err)
	}
	return nil
}

// monotoneSyntax checks the form of --monotone, before the data gives the
// feature names.
func monotoneSyntax(cmd *cobra.Command) error {
	spec, _ := cmd.Flags().GetString("monotone")
	_, err := parseMonotone(spec, nil)
	return err
}

// parseMonotone reads --monotone: "name:+1,name:-1,..." (directions +1,
// 1, -1 or 0) or XGBoost's "(1,0,-1)", one entry per feature. It returns
// the constraints per feature of features, nil for an empty spec. With
// features nil it checks the form only.
func parseMonotone(spec string, features []string) ([]int, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	bad := fmt.Errorf(`--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got %q`, spec)
	direction := func(s string) (int, bool) {
		switch strings.TrimSpace(s) {
		case "1", "+1":
			return 1, true
		case "-1":
			return -1, true
		case "0":
			return 0, true
		}
		return 0, false
	}
	if strings.HasPrefix(spec, "(") {
		if !strings.HasSuffix(spec, ")") {
			return nil, bad
		}
		var cs []int
		for _, s := range strings.Split(spec[1:len(spec)-1], ",") {
			c, ok := direction(s)
			if !ok {
				return nil, bad
			}
			cs = append(cs, c)
		}
		return cs, nil
	}
	cs := make([]int, len(features))
	for _, item := range strings.Split(spec, ",") {
		i := strings.LastIndex(item, ":")
		if i < 0 {
			return nil, bad
		}
		c, ok := direction(item[i+1:])
		name := strings.TrimSpace(item[:i])
		if !ok || name == "" {
			return nil, bad
		}
		if features == nil {
			continue
		}
		f, err := featureIndex("monotone", name, features)
		if err != nil {
			return nil, err
		}
		cs[f] = c
	}
	return cs, nil
}

// featureIndices returns the indices in features of the comma-separated
// names of the flag's value spec, nil for an empty spec.
func featureIndices(flag, spec string, features []string) ([]int, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	var fs []int
	for _, name := range strings.Split(spec, ",") {
		f, err := featureIndex(flag, strings.TrimSpace(name), features)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// featureIndex returns the index of the feature name in features.
func featureIndex(flag, name string, features []string) (int, error) {
	for f, n := range features {
		if n == name {
			return f, nil
		}
	}
	return 0, fmt.Errorf("--%s names the feature %q, which the data lacks (its features: %s)", flag, name, strings.Join(features, ", "))
}
