package e2e

import (
	"testing"

	"github.com/treegen/treegen/data"
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
	d := data.Dataset{Rows: 2, Cols: 3, X: make([]float64, 6), Y: []float64{0, 1}, Source: "d.tsv"}
	tests := []struct {
		args         []string
		trees, fine  int
		deltaGamma   float64
		depth, feats int
	}{
		{nil, 1, DefaultFinetuneFactor * DefaultEpochs, DefaultDeltaGamma, DefaultMaxDepth, 0},
		{[]string{"--forest", "--features", "2", "--finetune-epochs", "0", "--delta-gamma", "0", "--depth", "3"}, 10, -1, 0, 3, 2},
		{[]string{"--forest", "--trees", "4"}, 4, DefaultFinetuneFactor * DefaultEpochs, DefaultDeltaGamma, DefaultMaxDepth, 0},
	}
	for _, tt := range tests {
		var o Options
		parseFlags(t, &o, tt.args...)
		if err := o.Validate(); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if err := o.Resolve(&d); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if o.Trees != tt.trees || o.FinetuneEpochs != tt.fine || o.DeltaGamma == nil || *o.DeltaGamma != tt.deltaGamma ||
			o.MaxDepth != tt.depth || o.FeaturesPerSplit != tt.feats || o.Seed != 1 {
			t.Errorf("%v: %+v", tt.args, o)
		}
	}
	var o Options
	parseFlags(t, &o, "--forest", "--features", "4")
	if err := o.Resolve(&d); err == nil || err.Error() != "--features 4: d.tsv has only 3 features" {
		t.Errorf("--features 4 of 3: %v", err)
	}
}

func TestValidateFlags(t *testing.T) {
	optflagtest.CheckValidate(t, newOptions, []optflagtest.Case{
		{Want: ""},
		{Args: []string{"--trees", "3"}, Want: "--trees and --features are options of a forest: add --forest"},
		{Args: []string{"--features", "10"}, Want: "--trees and --features are options of a forest: add --forest"},
		{Args: []string{"--forest", "--trees", "0"}, Want: "--trees must be at least 1, got 0"},
		{Args: []string{"--depth", "31"}, Want: "--depth must be between 1 and 30, got 31"},
		{Args: []string{"--finetune-epochs", "-1"}, Want: "--finetune-epochs must be at least 0, got -1"},
		{Args: []string{"--delta-gamma", "-0.5"}, Want: "--delta-gamma must be a finite number >= 0, got -0.5"},
		{Args: []string{"--lr", "0"}, Want: "--lr must be a finite number > 0, got 0"},
		{Args: []string{"--max-leaves", "1"}, Want: "--max-leaves must be 0 (2^depth) or at least 2, got 1"},
	})
}
