package gbdt

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// parseFlags parses args with the flags of RegisterFlags on fresh Options.
func parseFlags(t *testing.T, args ...string) *Options {
	t.Helper()
	var o Options
	fs := flag.NewFlagSet("gbdt", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return &o
}

func TestRegisterFlags(t *testing.T) {
	o := parseFlags(t)
	if o.Objective != "" || o.Rounds != DefaultRounds || o.LearningRate != DefaultLearningRate || o.MaxDepth != DefaultMaxDepth ||
		o.MaxBins != DefaultMaxBins || o.MaxCatToOnehot != DefaultMaxCatToOnehot || o.Lambda != 1 || o.MinChildWeight != 1 ||
		o.ScalePosWeight != 1 || o.Subsample != 1 || o.ColSample != 1 || o.ColSampleByLevel != 1 || o.ColSampleByNode != 1 ||
		o.TweedieVariancePower != DefaultTweedieVariancePower || o.HuberSlope != DefaultHuberSlope ||
		o.QuantileAlpha != DefaultQuantileAlpha || o.Seed != 1 || o.Threads != 0 || o.MaxLeaves != 0 {
		t.Errorf("defaults: %+v", *o)
	}
	o = parseFlags(t, "--objective", "softmax", "--trees", "7", "--lr", "0.1", "--max-depth", "3", "--max-leaves", "8",
		"--min-child-weight", "2", "--lambda", "3", "--gamma", "0.5", "--alpha", "0.25", "--max-delta-step", "1",
		"--subsample", "0.5", "--colsample", "0.6", "--colsample-bylevel", "0.7", "--colsample-bynode", "0.8",
		"--max-cat-to-onehot", "2", "--max-bins", "16", "--early-stopping", "4", "--eval-metric", "merror",
		"--seed", "9", "--threads", "2")
	got := []float64{float64(o.Rounds), o.LearningRate, float64(o.MaxDepth), float64(o.MaxLeaves), o.MinChildWeight, o.Lambda,
		o.Gamma, o.Alpha, o.MaxDeltaStep, o.Subsample, o.ColSample, o.ColSampleByLevel, o.ColSampleByNode,
		float64(o.MaxCatToOnehot), float64(o.MaxBins), float64(o.EarlyStopping), float64(o.Seed), float64(o.Threads)}
	want := []float64{7, 0.1, 3, 8, 2, 3, 0.5, 0.25, 1, 0.5, 0.6, 0.7, 0.8, 2, 16, 4, 9, 2}
	if o.Objective != Softmax || o.EvalMetric != "merror" || !slices.Equal(got, want) {
		t.Errorf("%s %s %v, want softmax merror %v", o.Objective, o.EvalMetric, got, want)
	}
	if err := o.Validate(); err != nil {
		t.Error(err)
	}
}

func TestValidateFlags(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--objective", "logistic"}, ""},
		{nil, "--objective is required: logistic (binary), softmax (multiclass) or squarederror (regression); for other regressions poisson, gamma, tweedie, pseudohuber or quantile"},
		{[]string{"--objective", "hinge"}, `--objective must be logistic, softmax, squarederror, poisson, gamma, tweedie, pseudohuber or quantile, got "hinge"`},
		{[]string{"--objective", "logistic", "--trees", "0"}, "--trees must be at least 1, got 0"},
		{[]string{"--objective", "logistic", "--max-depth", "0"}, "--max-depth must be between 1 and 100, got 0"},
		{[]string{"--objective", "logistic", "--max-leaves", "4"}, ""},
		{[]string{"--objective", "logistic", "--max-leaves", "4", "--max-depth", "0"}, "--max-depth must be between 1 and 100, got 0 (with --max-leaves, leave --max-depth out for trees of unlimited depth)"},
		{[]string{"--objective", "logistic", "--max-leaves", "1"}, "--max-leaves must be at least 2, got 1"},
		{[]string{"--objective", "logistic", "--lambda", "0"}, "--lambda must be a finite number > 0, got 0 (a tiny value such as 1e-300 turns it off)"},
		{[]string{"--objective", "logistic", "--colsample-bynode", "0"}, "--colsample-bynode must be in (0, 1], got 0"},
		{[]string{"--objective", "logistic", "--monotone", "a"}, `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got "a"`},
		{[]string{"--objective", "logistic", "--max-bins", "1"}, "--max-bins must be between 2 and 256, got 1"},
		{[]string{"--objective", "logistic", "--scale-pos-weight", "1"}, ""},
		{[]string{"--objective", "squarederror", "--scale-pos-weight", "1"}, "--scale-pos-weight is for --objective logistic"},
		{[]string{"--objective", "tweedie", "--tweedie-variance-power", "2"}, "--tweedie-variance-power must be in (1, 2), got 2"},
		{[]string{"--objective", "logistic", "--huber-slope", "2"}, "--huber-slope is for --objective pseudohuber"},
		{[]string{"--objective", "quantile", "--quantile-alpha", "0.9"}, ""},
		{[]string{"--objective", "logistic", "--eval-metric", "rmse"}, `--eval-metric "rmse" is for regression, and the logistic objective is a classification`},
	}
	for _, tt := range tests {
		got := ""
		if err := parseFlags(t, tt.args...).Validate(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%v:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

func TestResolveFlags(t *testing.T) {
	d := newData([][]float64{{1, 0, 2}, {2, 1, 0}, {3, 0, 1}, {4, 1, 1}}, []float64{0, 1, 0, 1})
	d.Features = []string{"x", "c", "w"}
	tests := []struct {
		args       []string
		depth      int
		monotone   []int
		categories []int
		weights    []float64
		want       string
	}{
		{[]string{"--objective", "logistic"}, DefaultMaxDepth, nil, nil, nil, ""},
		{[]string{"--objective", "logistic", "--max-leaves", "4"}, 0, nil, nil, nil, ""},
		{[]string{"--objective", "logistic", "--max-leaves", "4", "--max-depth", "6"}, 6, nil, nil, nil, ""},
		{[]string{"--objective", "logistic", "--monotone", "x:-1", "--categorical", "c", "--weight", "w"}, DefaultMaxDepth, []int{-1, 0}, []int{1}, []float64{2, 0, 1, 1}, ""},
		{[]string{"--objective", "logistic", "--weight", "v"}, 0, nil, nil, nil, `has no column "v" for --weight`},
		{[]string{"--objective", "logistic", "--categorical", "z"}, 0, nil, nil, nil, `--categorical`},
	}
	for _, tt := range tests {
		o := parseFlags(t, tt.args...)
		train, _, err := o.Resolve(d, nil)
		if tt.want != "" {
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%v: error %v, want one with %q", tt.args, err, tt.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%v: %v", tt.args, err)
			continue
		}
		if o.MaxDepth != tt.depth || !slices.Equal(o.MonotoneConstraints, tt.monotone) || !slices.Equal(o.Categorical, tt.categories) || !slices.Equal(o.Weights, tt.weights) {
			t.Errorf("%v: depth %d monotone %v categorical %v weights %v", tt.args, o.MaxDepth, o.MonotoneConstraints, o.Categorical, o.Weights)
		}
		if wantCols := 3 - len(tt.weights)/4; train.Cols != wantCols {
			t.Errorf("%v: %d columns, want %d", tt.args, train.Cols, wantCols)
		}
	}
}

func ExampleOptions_Validate() {
	var o Options
	fs := flag.NewFlagSet("gbdt", flag.ContinueOnError)
	o.RegisterFlags(fs)
	_ = fs.Parse([]string{"--objective", "squarederror", "--huber-slope", "2"})
	fmt.Println(o.Validate())
	// Output:
	// --huber-slope is for --objective pseudohuber
}
