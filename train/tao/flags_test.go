package tao

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
	d := data.Dataset{Rows: 3, Cols: 1, X: make([]float64, 3), Y: []float64{0, 1, 2}, Source: "d.tsv"}
	var o Options
	parseFlags(t, &o, "--model", "st", "--depth", "3", "--k", "2", "--lambda", "0", "--mu", "0.5", "--init", "median", "--iterations", "5", "--strict")
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := o.Resolve(&d); err != nil {
		t.Fatal(err)
	}
	if o.Kind != ST || o.Depth != 3 || o.K != 2 || *o.Lambda != 0 || *o.Mu != 0.5 || o.Init != Median || o.Iterations != 5 ||
		!o.Strict || o.Alpha != DefaultAlpha || o.Rho != DefaultRho || o.Seed != 1 || o.TotalIterations() != 5 {
		t.Errorf("parsed: %+v", o)
	}
	o = Options{}
	parseFlags(t, &o, "--k", "4")
	if err := o.Resolve(&d); err == nil || err.Error() != "--k 4: d.tsv has only 3 classes" {
		t.Errorf("--k 4 of 3 classes: %v", err)
	}
	if o.Kind != AST || o.TotalIterations() != DefaultASTIterations {
		t.Errorf("default kind %s, %d iterations", o.Kind, o.TotalIterations())
	}
}

func TestValidateFlags(t *testing.T) {
	optflagtest.CheckValidate(t, newOptions, []optflagtest.Case{
		{Want: ""},
		{Args: []string{"--model", "tree"}, Want: `--model must be ast, st or softmax, got "tree"`},
		{Args: []string{"--init", "random"}, Want: `--init must be kmeans or median, got "random"`},
		{Args: []string{"--alpha", "0"}, Want: "--alpha must be in (0, 1], got 0"},
		{Args: []string{"--mu", "-1"}, Want: "--mu must be a finite number >= 0, got -1"},
		{Args: []string{"--rho", "0.9"}, Want: "--rho must be a finite number >= 1, got 0.9"},
		{Args: []string{"--k", "0"}, Want: "--k must be at least 1, got 0"},
		{Args: []string{"--depth", "0"}, Want: "--depth must be at least 1 for --model ast (a tree of depth 0 is --model softmax), got 0"},
		{Args: []string{"--model", "softmax", "--depth", "0"}, Want: ""},
		{Args: []string{"--model", "softmax", "--k", "2"}, Want: "--depth and --k are options of a tree: --model softmax has one leaf over every class"},
		{Args: []string{"--model", "softmax", "--init", "kmeans"}, Want: "--init is an option of a tree: --model softmax has no splits"},
		{Args: []string{"--model", "st", "--rho", "1.2"}, Want: "--alpha, --rho, --expand-iterations and --max-rounds are options of --model ast"},
	})
}
