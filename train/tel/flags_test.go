package tel

import (
	"testing"

	"github.com/treegen/treegen/train/internal/optflag/optflagtest"
)

// parseFlags parses args with the flags of RegisterFlags on o.
func parseFlags(t *testing.T, o *Options, args ...string) {
	t.Helper()
	optflagtest.Parse(t, o, args...)
}

// newOptions returns options to parse a command line into.
func newOptions() *Options { return new(Options) }

func TestRegisterFlags(t *testing.T) {
	var o Options
	parseFlags(t, &o)
	if o.Trees != DefaultTrees || o.Depth != DefaultDepth || o.Gamma != DefaultGamma || o.Epochs != DefaultEpochs ||
		o.BatchSize != DefaultBatchSize || o.LearningRate != DefaultLearningRate || o.Seed != 1 || o.Loss != "" {
		t.Errorf("defaults: %+v", o)
	}
	o = Options{}
	parseFlags(t, &o, "--loss", "softmax", "--trees", "3", "--depth", "2", "--gamma", "0.5", "--epochs", "4", "--batch", "8",
		"--lr", "0.1", "--l2", "0.01", "--l1", "0.02", "--project", "2", "--bias", "--early-stopping", "3", "--impute", "--seed", "7", "--threads", "2")
	if o.Loss != Softmax || o.Trees != 3 || o.Depth != 2 || o.Gamma != 0.5 || o.Epochs != 4 || o.BatchSize != 8 || o.LearningRate != 0.1 ||
		o.L2 != 0.01 || o.L1 != 0.02 || o.Project != 2 || !o.Bias || o.EarlyStopping != 3 || !o.Impute || o.Seed != 7 || o.Threads != 2 {
		t.Errorf("parsed: %+v", o)
	}
}

func TestValidateFlags(t *testing.T) {
	optflagtest.CheckValidate(t, newOptions, []optflagtest.Case{
		{Want: ""},
		{Args: []string{"--loss", "hinge"}, Want: `--loss must be logistic, softmax or squarederror, got "hinge"`},
		{Args: []string{"--trees", "0"}, Want: "--trees must be at least 1, got 0"},
		{Args: []string{"--depth", "0"}, Want: "--depth must be between 1 and 20, got 0"},
		{Args: []string{"--gamma", "0"}, Want: "--gamma must be a finite number > 0, got 0 (the smooth-step of width 0 is a hard step, whose gradient is 0 wherever it exists, so the nodes could not learn; 1 is a good start)"},
		{Args: []string{"--gamma", "-1"}, Want: "--gamma must be a finite number > 0, got -1"},
		{Args: []string{"--batch", "0"}, Want: "--batch must be at least 1, got 0"},
		{Args: []string{"--l1", "-1"}, Want: "--l1 must be a finite number >= 0, got -1"},
		{Args: []string{"--threads", "-1"}, Want: "--threads must be at least 0, got -1"},
	})
}
