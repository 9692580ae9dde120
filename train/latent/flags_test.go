package latent

import (
	"flag"
	"io"
	"testing"

	"github.com/treegen/treegen/data"
)

// parseFlags parses args with the flags of RegisterFlags on o.
func parseFlags(t *testing.T, o *Options, args ...string) {
	t.Helper()
	fs := flag.NewFlagSet("latent", flag.ContinueOnError)
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
	d := data.Dataset{Rows: 1, Cols: 3, X: make([]float64, 3), Y: []float64{0}, Features: []string{"a", "b", "c"}, Source: "d.tsv"}
	o := DefaultOptions("")
	parseFlags(t, &o, "--depth", "3", "--lambda", "0", "--split", "linear-elu", "--optimizer", "adam", "--patience", "0",
		"--early-stopping", "0", "--cluster", "--regress", "a, c", "--seed", "5")
	if err := o.Validate(); err != nil {
		t.Fatal(err)
	}
	if err := o.Resolve(&d); err != nil {
		t.Fatal(err)
	}
	if !o.Cluster() || o.Loss != SquaredError || len(o.Regress) != 2 || o.Regress[1] != "c" || o.Depth != 3 || o.Lambda != 0 ||
		o.Split != LinearElu || o.Optimizer != AdamOptimizer || o.Patience != 0 || o.EarlyStopping != 0 || o.Seed != 5 {
		t.Errorf("parsed: %+v", o)
	}
	o = DefaultOptions("")
	parseFlags(t, &o, "--cluster", "--regress", "z")
	if err := o.Resolve(&d); err == nil || err.Error() != `--regress z: d.tsv has no column "z" (its columns: a, b, c)` {
		t.Errorf("--regress z: %v", err)
	}
	o = Options{}
	parseFlags(t, &o)
	if o.Depth != DefaultDepth || o.Epochs != DefaultEpochs || o.Split != Linear || o.Optimizer != QHAdamOptimizer || o.Seed != 1 {
		t.Errorf("defaults: %+v", o)
	}
}

func TestValidateFlags(t *testing.T) {
	checkValidate(t, []validateCase{
		{nil, ""},
		{[]string{"--readout", "mlp"}, `--readout must be linear, got "mlp"`},
		{[]string{"--split", "elu"}, `--split must be linear or linear-elu, got "elu"`},
		{[]string{"--optimizer", "sgd"}, `--optimizer must be qhadam or adam, got "sgd"`},
		{[]string{"--depth", "13"}, "--depth must be between 1 and 12, got 13"},
		{[]string{"--patience", "-1"}, "--patience must be at least 0, got -1"},
		{[]string{"--loss", "hinge"}, `--loss must be squarederror, logistic or softmax, got "hinge"`},
		{[]string{"--cluster"}, "--cluster needs --regress: the columns the hierarchy is learnt by regressing"},
		{[]string{"--regress", "a"}, "--regress names the columns a --cluster tree regresses: add --cluster"},
		{[]string{"--cluster", "--regress", "a", "--loss", "softmax"}, "--cluster regresses columns: its loss is squarederror, not softmax"},
	})
}
