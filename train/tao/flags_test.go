package tao

import (
	"flag"
	"io"
	"testing"

	"github.com/treegen/treegen/data"
)

// parseFlags parses args with the flags of RegisterFlags on o.
func parseFlags(t *testing.T, o *Options, args ...string) {
	t.Helper()
	fs := flag.NewFlagSet("tao", flag.ContinueOnError)
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
	checkValidate(t, []validateCase{
		{nil, ""},
		{[]string{"--model", "tree"}, `--model must be ast, st or softmax, got "tree"`},
		{[]string{"--init", "random"}, `--init must be kmeans or median, got "random"`},
		{[]string{"--alpha", "0"}, "--alpha must be in (0, 1], got 0"},
		{[]string{"--mu", "-1"}, "--mu must be a finite number >= 0, got -1"},
		{[]string{"--rho", "0.9"}, "--rho must be a finite number >= 1, got 0.9"},
		{[]string{"--k", "0"}, "--k must be at least 1, got 0"},
		{[]string{"--depth", "0"}, "--depth must be at least 1 for --model ast (a tree of depth 0 is --model softmax), got 0"},
		{[]string{"--model", "softmax", "--depth", "0"}, ""},
		{[]string{"--model", "softmax", "--k", "2"}, "--depth and --k are options of a tree: --model softmax has one leaf over every class"},
		{[]string{"--model", "softmax", "--init", "kmeans"}, "--init is an option of a tree: --model softmax has no splits"},
		{[]string{"--model", "st", "--rho", "1.2"}, "--alpha, --rho, --expand-iterations and --max-rounds are options of --model ast"},
	})
}
