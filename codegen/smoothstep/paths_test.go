package smoothstep_test

import (
	"bytes"
	"flag"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// compiledPaths returns how the package generated for m with opts
// evaluates its soft trees: "level" (dense level groups), "sparse" (level
// groups of sparse trees), "unrolled" (one function per tree), or several
// of them joined by "+", in that order.
func compiledPaths(t *testing.T, m *ir.Model, opts *smoothstep.Options) string {
	t.Helper()
	files, err := codegen.Generate(m, codegen.Options{Package: "p", Backend: smoothstep.Name, BackendOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range files {
		src = append(src, f.Data...)
	}
	var paths []string
	if bytes.Contains(src, []byte("func lvDot8(")) {
		paths = append(paths, "level")
	}
	if bytes.Contains(src, []byte("\nvar lvI")) {
		paths = append(paths, "sparse")
	}
	if bytes.Contains(src, []byte("\nfunc tree")) {
		paths = append(paths, "unrolled")
	}
	return strings.Join(paths, "+")
}

// TestPaths checks which path the cost model picks (Options.Path auto) and
// that the option forces one: dense TEL models take the level path
// whatever their shape, as they did before sparse level groups; sparse
// trees are unrolled while their code is small (TestDensity measured
// unrolled code 1.3 to 2 times faster there, on trained models and their
// rows) and evaluated level by level once it is not (depth 8: 1.4 to 2.6
// times faster).
func TestPaths(t *testing.T) {
	auto, level, unrolled := &smoothstep.Options{}, &smoothstep.Options{Path: smoothstep.PathLevel}, &smoothstep.Options{Path: smoothstep.PathUnrolled}
	telD4P20 := randmodel.TEL(31, 10, 4, 20, 3, 0.3)
	telD4P57 := randmodel.TEL(32, 10, 4, 57, 2, 0.3)
	telD8P20 := randmodel.TEL(33, 10, 8, 20, 3, 0.3)
	many := randmodel.TEL(34, 30, 4, 57, 2, 0.3)
	mixed := sparsify(randmodel.TEL(35, 3, 4, 20, 3, 0.3), 0.15) // a dense group between sparse ones
	mixed.Trees = append(append(mixed.Trees[:2:2], randmodel.TEL(36, 2, 4, 20, 3, 0.3).Trees...), mixed.Trees[2])
	for _, tc := range []struct {
		name string
		m    *ir.Model
		opts *smoothstep.Options
		want string
	}{
		{"dense depth 4, 20 features", telD4P20, auto, "level"},
		{"dense depth 4, 57 features", telD4P57, auto, "level"},
		{"dense depth 8", telD8P20, auto, "level"},
		{"dense, 3 features", randmodel.TEL(37, 10, 4, 3, 3, 0.3), auto, "unrolled"}, // not dense below filterMinWeights features
		{"15% of 57 features, depth 4", sparsify(telD4P57, 0.15), auto, "unrolled"},
		{"5% of 20 features, depth 4", sparsify(telD4P20, 0.05), auto, "unrolled"},
		{"50% of 20 features, depth 4", sparsify(telD4P20, 0.5), auto, "unrolled"},
		{"50% of 57 features, depth 4", sparsify(telD4P57, 0.5), auto, "sparse"},
		{"15% of 20 features, depth 8", sparsify(telD8P20, 0.15), auto, "sparse"},
		{"5% of 20 features, depth 8", sparsify(telD8P20, 0.05), auto, "sparse"},
		{"30% of 57 features, 30 trees of depth 4", sparsify(many, 0.3), auto, "sparse"},
		{"5% of 57 features, 30 trees of depth 4", sparsify(many, 0.05), auto, "unrolled"},
		{"pruned", telD8P20, &smoothstep.Options{Prune: 0.3}, "sparse"},
		{"dense and sparse runs", mixed, auto, "level+unrolled"},
		{"level forced, sparse", sparsify(telD4P57, 0.15), level, "sparse"},
		{"level forced, dense", telD4P20, level, "level"},
		{"level forced, 3 features", randmodel.TEL(37, 10, 4, 3, 3, 0.3), level, "sparse"},
		{"level forced, dense and sparse runs", mixed, level, "level+sparse"},
		{"unrolled forced, dense", telD8P20, unrolled, "unrolled"},
		{"unrolled forced, sparse", sparsify(telD8P20, 0.15), unrolled, "unrolled"},
	} {
		if err := tc.m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := compiledPaths(t, tc.m, tc.opts); got != tc.want {
			t.Errorf("%s, path %q: compiled %s, want %s", tc.name, tc.opts.Path, got, tc.want)
		}
	}
}

// TestOptions checks the options' validation, String and flags.
func TestOptions(t *testing.T) {
	for _, tc := range []struct {
		opts smoothstep.Options
		str  string
		err  string
	}{
		{smoothstep.Options{}, "", ""},
		{smoothstep.Options{Path: smoothstep.PathAuto}, "", ""},
		{smoothstep.Options{Path: smoothstep.PathLevel}, "soft-path level", ""},
		{smoothstep.Options{Path: smoothstep.PathUnrolled}, "soft-path unrolled", ""},
		{smoothstep.Options{Prune: 0.05, Path: smoothstep.PathLevel}, "prune 0.05, soft-path level", ""},
		{smoothstep.Options{Prune: 0.05}, "prune 0.05", ""},
		{smoothstep.Options{Path: "fast"}, "soft-path fast", `--soft-path "fast": want one of auto, level, unrolled`},
		{smoothstep.Options{Path: "Level"}, "soft-path Level", `--soft-path "Level": want one of auto, level, unrolled`},
		{smoothstep.Options{Prune: -1, Path: smoothstep.PathLevel}, "prune -1, soft-path level", "--prune -1: want a finite number >= 0"},
		{smoothstep.Options{Prune: math.NaN(), Path: "x"}, "prune NaN, soft-path x", "--prune NaN: want a finite number >= 0"},
	} {
		if got := tc.opts.String(); got != tc.str {
			t.Errorf("%+v: String() = %q, want %q", tc.opts, got, tc.str)
		}
		err := tc.opts.Validate()
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.err {
				t.Errorf("%+v: Validate() = %q, want %q", tc.opts, got, tc.err)
			}
		} else if tc.err != "" {
			t.Errorf("%+v: Validate() = nil, want %q", tc.opts, tc.err)
		}
	}
	for _, tc := range []struct {
		args []string
		str  string
		err  string
	}{
		{nil, "", ""},
		{[]string{"--soft-path", "auto"}, "", ""},
		{[]string{"--soft-path", "unrolled"}, "soft-path unrolled", ""},
		{[]string{"--soft-path=level", "--prune", "0.5"}, "prune 0.5, soft-path level", ""},
		{[]string{"--soft-path", "fastest"}, "soft-path fastest", `--soft-path "fastest": want one of auto, level, unrolled`},
	} {
		b, err := codegen.LookupBackend(smoothstep.Name)
		if err != nil {
			t.Fatal(err)
		}
		opts := b.NewOptions()
		fs := flag.NewFlagSet("gen", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		opts.RegisterFlags(fs)
		if def := fs.Lookup("soft-path").DefValue; def != smoothstep.PathAuto {
			t.Errorf("--soft-path defaults to %q, want %q", def, smoothstep.PathAuto)
		}
		if err := fs.Parse(tc.args); err != nil {
			t.Fatalf("%v: %v", tc.args, err)
		}
		if got := opts.String(); got != tc.str {
			t.Errorf("%v: String() = %q, want %q", tc.args, got, tc.str)
		}
		got := ""
		if err := opts.Validate(); err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%v: Validate() = %q, want %q", tc.args, got, tc.err)
		}
	}
	// Generate refuses an invalid path, and says a forced one in the
	// header.
	if _, err := codegen.Generate(softModel(false), codegen.Options{Package: "p", Backend: smoothstep.Name,
		BackendOptions: &smoothstep.Options{Path: "fast"}}); err == nil || err.Error() != `--soft-path "fast": want one of auto, level, unrolled` {
		t.Errorf("Generate with path fast: %v", err)
	}
	files, err := codegen.Generate(softModel(false), codegen.Options{Package: "p", Backend: smoothstep.Name,
		BackendOptions: &smoothstep.Options{Path: smoothstep.PathUnrolled}})
	if err != nil {
		t.Fatal(err)
	}
	if header := strings.SplitN(string(files[0].Data), "\n", 3); header[1] != "// Backend smoothstep, float64, soft-path unrolled: exact, equal bit for bit to the treegen interpreter." {
		t.Errorf("header %q", header[1])
	}
}
