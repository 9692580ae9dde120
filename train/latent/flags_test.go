package latent

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
	optflagtest.CheckValidate(t, newOptions, []optflagtest.Case{
		{Want: ""},
		{Args: []string{"--readout", "mlp"}, Want: `--readout must be linear, got "mlp"`},
		{Args: []string{"--split", "elu"}, Want: `--split must be linear or linear-elu, got "elu"`},
		{Args: []string{"--optimizer", "sgd"}, Want: `--optimizer must be qhadam or adam, got "sgd"`},
		{Args: []string{"--depth", "13"}, Want: "--depth must be between 1 and 12, got 13"},
		{Args: []string{"--patience", "-1"}, Want: "--patience must be at least 0, got -1"},
		{Args: []string{"--loss", "hinge"}, Want: `--loss must be squarederror, logistic or softmax, got "hinge"`},
		{Args: []string{"--cluster"}, Want: "--cluster needs --regress: the columns the hierarchy is learnt by regressing"},
		{Args: []string{"--regress", "a"}, Want: "--regress names the columns a --cluster tree regresses: add --cluster"},
		{Args: []string{"--cluster", "--regress", "a", "--loss", "softmax"}, Want: "--cluster regresses columns: its loss is squarederror, not softmax"},
	})
}
