package cart

import (
	"flag"
	"fmt"
	"io"
	"testing"
)

// parseFlags parses args with the flags of RegisterFlags on fresh Options.
func parseFlags(t *testing.T, args ...string) *Options {
	t.Helper()
	var o Options
	fs := flag.NewFlagSet("cart", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return &o
}

func TestRegisterFlags(t *testing.T) {
	tests := []struct {
		args []string
		want Options
	}{
		{nil, Options{Criterion: Gini, MinSamplesSplit: 2, MinSamplesLeaf: 1}},
		{[]string{"--criterion", "mse", "--max-depth", "3", "--min-samples-split", "5", "--min-samples-leaf", "2", "--min-impurity-decrease", "0.01"},
			Options{Criterion: MSE, MaxDepth: 3, MinSamplesSplit: 5, MinSamplesLeaf: 2, MinImpurityDecrease: 0.01}},
	}
	for _, tt := range tests {
		if got := parseFlags(t, tt.args...); *got != tt.want {
			t.Errorf("%v: %+v, want %+v", tt.args, *got, tt.want)
		}
	}
}

func TestValidate(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"--criterion", "entropy", "--max-depth", "100"}, ""},
		{[]string{"--criterion", "gain"}, `--criterion must be gini, entropy or mse, got "gain"`},
		{[]string{"--max-depth", "-1"}, "--max-depth must be between 0 and 100, got -1"},
		{[]string{"--max-depth", "101"}, "--max-depth must be between 0 and 100, got 101"},
		{[]string{"--min-samples-split", "1"}, "--min-samples-split must be at least 2, got 1"},
		{[]string{"--min-samples-leaf", "0"}, "--min-samples-leaf must be at least 1, got 0"},
		{[]string{"--min-impurity-decrease", "NaN"}, "--min-impurity-decrease must be a finite number >= 0, got NaN"},
	}
	for _, tt := range tests {
		got := ""
		if err := parseFlags(t, tt.args...).Validate(); err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("%v: %q, want %q", tt.args, got, tt.want)
		}
	}
}

func ExampleOptions_RegisterFlags() {
	var o Options
	fs := flag.NewFlagSet("cart", flag.ContinueOnError)
	o.RegisterFlags(fs)
	_ = fs.Parse([]string{"--criterion", "entropy", "--max-depth", "4"})
	fmt.Println(o.Criterion, o.MaxDepth, o.MinSamplesLeaf, o.Validate())

	_ = fs.Parse([]string{"--min-samples-split", "1"})
	fmt.Println(o.Validate())
	// Output:
	// entropy 4 1 <nil>
	// --min-samples-split must be at least 2, got 1
}
