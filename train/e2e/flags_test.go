package e2e

import (
	"flag"
	"io"
	"testing"

	"github.com/treegen/treegen/data"
)

// parseFlags parses args with the flags of RegisterFlags on o.
func parseFlags(t *testing.T, o *Options, args ...string) {
	t.Helper()
	fs := flag.NewFlagSet("e2e", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// validateCase is a command line and the error Validate gives it ("": none).
type validateCase struct {
	args []string
	want string
}

func checkValidate(t *testing.T, tests []validateCase) {
	t.Helper()
	for _, tt := range tests {
		var o Options
		parseFlags(t, &o, tt.args...)
		got := ""
		if err := o.Validate(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%v:\n got %q\nwant %q", tt.args, got, tt.want)
		}
	}
}

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
	checkValidate(t, []validateCase{
		{nil, ""},
		{[]string{"--trees", "3"}, "--trees and --features are options of a forest: add --forest"},
		{[]string{"--features", "10"}, "--trees and --features are options of a forest: add --forest"},
		{[]string{"--forest", "--trees", "0"}, "--trees must be at least 1, got 0"},
		{[]string{"--depth", "31"}, "--depth must be between 1 and 30, got 31"},
		{[]string{"--finetune-epochs", "-1"}, "--finetune-epochs must be at least 0, got -1"},
		{[]string{"--delta-gamma", "-0.5"}, "--delta-gamma must be a finite number >= 0, got -0.5"},
		{[]string{"--lr", "0"}, "--lr must be a finite number > 0, got 0"},
		{[]string{"--max-leaves", "1"}, "--max-leaves must be 0 (2^depth) or at least 2, got 1"},
	})
}
