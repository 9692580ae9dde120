package main

import (
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/gbdt"
	"github.com/treegen/treegen/train/latent"
	"github.com/treegen/treegen/train/tel"
)

// TestUnknownFlag checks that an unknown flag gets the closest flags of
// its command and the help that lists them.
func TestUnknownFlag(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"typo", []string{"gen", "--modle", "x.json"},
			"unknown flag --modle (did you mean --model?); treegen gen --help lists the flags"},
		{"prefix", []string{"predict", "--prec", "float32"},
			"unknown flag --prec (did you mean --precision?); treegen predict --help lists the flags"},
		{"letter case", []string{"eval", "--JSON"},
			"unknown flag --JSON (did you mean --json?); treegen eval --help lists the flags"},
		{"with a value", []string{"train", "gbdt", "--max-dept=3"},
			"unknown flag --max-dept (did you mean --max-depth?); treegen train gbdt --help lists the flags"},
		{"several", []string{"train", "gbdt", "--colsample-by"},
			"unknown flag --colsample-by (did you mean --colsample-bynode or --colsample-bylevel?); treegen train gbdt --help lists the flags"},
		{"one dash", []string{"gen", "-model", "x.json"},
			"unknown flag -model (did you mean --model?); treegen gen --help lists the flags"},
		{"flag of another command", []string{"gen", "--max-depth", "3"},
			"unknown flag --max-depth; treegen gen --help lists the flags"},
		{"nothing close", []string{"inspect", "--frobnicate"},
			"unknown flag --frobnicate; treegen inspect --help lists the flags"},
		{"backend option", []string{"gen", "--soft-pth", "level"},
			"unknown flag --soft-pth (did you mean --soft-path?); treegen gen --help lists the flags"},
		{"no value", []string{"gen", "--model"}, "--model needs a value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := treegen(t, tc.args...)
			if want := "treegen: " + tc.want + "\n"; code == 0 || stderr != want || stdout != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr\n got  %q\n want %q", tc.args, code, stdout, stderr, want)
			}
		})
	}
}

// TestFlagValueErrors checks the message of a value that is not one of its
// flag's type, for each kind of flag.
func TestFlagValueErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"int", []string{"train", "gbdt", "--max-depth", "four"}, `--max-depth: "four" is not an integer`},
		{"int, a fraction", []string{"train", "cart", "--max-depth", "2.5"}, `--max-depth: 2.5 is not an integer`},
		{"int, an exponent", []string{"train", "gbdt", "--trees", "1e3"}, `--trees: 1e3 is not written as an integer: write 1000`},
		{"int, out of range", []string{"train", "gbdt", "--trees", "1e99"}, `--trees: 1e99 is out of range for an integer`},
		{"int, too many digits", []string{"train", "tel", "--trees", "99999999999999999999"}, `--trees: 99999999999999999999 is out of range for an integer`},
		{"uint, negative", []string{"train", "gbdt", "--seed", "-1"}, `--seed: -1 is negative; want an integer >= 0`},
		{"uint, not a number", []string{"demo", "--seed", "one"}, `--seed: "one" is not an integer >= 0`},
		{"uint, out of range", []string{"train", "tao", "--seed", "18446744073709551616"}, `--seed: 18446744073709551616 is out of range for an integer >= 0`},
		{"float", []string{"train", "gbdt", "--lr", "fast"}, `--lr: "fast" is not a number`},
		{"float, out of range", []string{"train", "tel", "--lr", "1e999"}, `--lr: 1e999 is out of range for a number`},
		{"bool", []string{"eval", "--json=maybe"}, `--json: "maybe" is not a boolean: write --json=true or --json=false`},
		{"duration", []string{"bench", "--time", "2x"}, `--time: "2x" is not a duration, such as 500ms, 2s or 1m30s`},
		{"precision", []string{"gen", "--precision", "f16"}, `--precision: unknown precision "f16" (want float64 or float32)`},
		{"libsvm absent", []string{"predict", "--libsvm-absent", "none"}, `--libsvm-absent: unknown absent value meaning "none" (want zero or missing)`},
		{"libsvm base", []string{"train", "cart", "--libsvm-base", "2"}, `--libsvm-base: unknown index base "2" (want auto, 1 or 0)`},
		{"backend option", []string{"gen", "--prune", "x"}, `--prune: "x" is not a number`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := treegen(t, tc.args...)
			if want := "treegen: " + tc.want + "\n"; code == 0 || stderr != want || stdout != "" {
				t.Errorf("%v: exit %d, stdout %q, stderr\n got  %q\n want %q", tc.args, code, stdout, stderr, want)
			}
		})
	}
}

// badValues are values that a flag of each type refuses.
var badValues = map[string][]string{
	"int":       {"four", "2.5", "1e99", "99999999999999999999", ""},
	"uint64":    {"-1", "one", "1e99", ""},
	"float64":   {"fast", "1e999", ""},
	"bool":      {"maybe", "2"},
	"duration":  {"2x", "1", ""},
	"precision": {"f16", ""},
	"absent":    {"none"},
	"base":      {"2"},
}

// commands returns every command of the tree under root that runs, with
// the path of arguments that reaches it.
func commands(root *cobra.Command) map[string]*cobra.Command {
	found := map[string]*cobra.Command{}
	var walk func(*cobra.Command, []string)
	walk = func(cmd *cobra.Command, path []string) {
		if cmd.Runnable() && !cmd.DisableFlagParsing && !cmd.Hidden {
			found[strings.Join(path, " ")] = cmd
		}
		for _, sub := range cmd.Commands() {
			walk(sub, append(slices.Clone(path), sub.Name()))
		}
	}
	walk(root, nil)
	return found
}

// TestEveryFlagValueError gives every flag of every command each value its
// type refuses, and checks that the error is one line that names the flag
// and shows no strconv error: the flags of every command, those added
// later included.
func TestEveryFlagValueError(t *testing.T) {
	root := newRoot(io.Discard, io.Discard)
	cmds := commands(root)
	paths := slices.Sorted(func(yield func(string) bool) {
		for p := range cmds {
			if !yield(p) {
				return
			}
		}
	})
	kinds := map[string]int{}
	for _, path := range paths {
		cmd := cmds[path]
		var flags []*pflag.Flag
		cmd.Flags().VisitAll(func(f *pflag.Flag) { flags = append(flags, f) })
		cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { flags = append(flags, f) })
		for _, f := range flags {
			typ := f.Value.Type()
			values, ok := badValues[typ]
			if !ok {
				if typ != "string" {
					t.Errorf("treegen %s --%s: no bad value of type %s to test: add some to badValues", path, f.Name, typ)
				}
				continue
			}
			kinds[typ]++
			for _, v := range values {
				args := append(strings.Fields(path), "--"+f.Name+"="+v)
				code, stdout, stderr := treegen(t, args...)
				msg := strings.TrimSuffix(stderr, "\n")
				switch {
				case code == 0:
					t.Errorf("treegen %s: exit 0", strings.Join(args, " "))
				case !strings.HasPrefix(msg, "treegen: --"+f.Name+": "):
					t.Errorf("treegen %s: the error does not start with the flag: %q", strings.Join(args, " "), stderr)
				case strings.Contains(msg, "\n") || stdout != "":
					t.Errorf("treegen %s: more than one line: stdout %q, stderr %q", strings.Join(args, " "), stdout, stderr)
				case strings.Contains(msg, "strconv") || strings.Contains(msg, "invalid argument") || strings.Contains(msg, "parse error") || strings.Contains(msg, "invalid syntax"):
					t.Errorf("treegen %s: the error leaks a parser's: %q", strings.Join(args, " "), msg)
				}
			}
		}
	}
	for typ := range badValues {
		if kinds[typ] == 0 {
			t.Errorf("no flag of type %s: badValues tests nothing with it", typ)
		}
	}
}

// complete runs cobra's completion of args and returns the values offered
// and the directive.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	code, stdout, stderr := treegen(t, append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %v: exit %d: %s", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, ":") {
		t.Fatalf("__complete %v: no directive: %q", args, stdout)
	}
	var values []string
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, last
}

// names turns values of a string type into strings.
func names[T ~string](values []T) []string {
	s := make([]string, len(values))
	for i, v := range values {
		s[i] = string(v)
	}
	return s
}

// The directives of cobra's completion, as __complete prints them.
var (
	noFiles = ":" + strconv.Itoa(int(cobra.ShellCompDirectiveNoFileComp))
	files   = ":" + strconv.Itoa(int(cobra.ShellCompDirectiveDefault))
	dirs    = ":" + strconv.Itoa(int(cobra.ShellCompDirectiveFilterDirs))
	list    = ":" + strconv.Itoa(int(cobra.ShellCompDirectiveNoFileComp|cobra.ShellCompDirectiveNoSpace))
)

// TestCompletion checks that the flags that take one of a fixed set offer
// it, from the package that takes the values, and that file and directory
// flags complete files and directories.
func TestCompletion(t *testing.T) {
	backends := append(codegen.BackendNames(), codegen.Auto)
	for _, tc := range []struct {
		args      []string
		want      []string
		directive string
	}{
		{[]string{"gen", "--backend", ""}, backends, noFiles},
		{[]string{"gen", "--backend", "q"}, []string{"quickscorer"}, noFiles},
		{[]string{"gen", "--precision", ""}, names(ir.Precisions()), noFiles},
		{[]string{"predict", "--precision", "float3"}, []string{"float32"}, noFiles},
		{[]string{"gen", "--soft-path", ""}, smoothstep.Paths(), noFiles},
		{[]string{"train", "gbdt", "--objective", ""}, names(gbdt.Objectives()), noFiles},
		{[]string{"train", "gbdt", "--eval-metric", ""}, gbdt.EvalMetrics(), noFiles},
		{[]string{"train", "tel", "--loss", ""}, names(tel.Losses()), noFiles},
		{[]string{"train", "latent", "--loss", ""}, names(latent.Losses()), noFiles},
		{[]string{"train", "latent", "--split", ""}, names(latent.Splits()), noFiles},
		{[]string{"import", "xgboost", "--link", ""}, names(ir.Links()), noFiles},
		{[]string{"predict", "--libsvm-absent", ""}, []string{"zero", "missing"}, noFiles},
		{[]string{"train", "cart", "--libsvm-base", ""}, []string{"auto", "1", "0"}, noFiles},
		{[]string{"bench", "--backends", "ifelse,"}, []string{"ifelse,quickscorer"}, list},
		{[]string{"bench", "--backends", "ifelse,quickscorer,i"}, nil, list},
		{[]string{"gen", "--model", ""}, nil, files},
		{[]string{"predict", "--data", ""}, nil, files},
		{[]string{"train", "cart", "-o", ""}, nil, files},
		{[]string{"predict", "-o", ""}, nil, files},
		{[]string{"gen", "--out", ""}, nil, dirs},
		{[]string{"check", "--dir", ""}, nil, dirs},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			got, directive := complete(t, tc.args...)
			if directive != tc.directive {
				t.Errorf("directive %s, want %s", directive, tc.directive)
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("offers %v, not %q", got, w)
				}
			}
			if tc.want == nil && len(got) > 0 {
				t.Errorf("offers %v, want file names from the shell", got)
			}
		})
	}
}

// TestCompletionOfValuers checks that every flag of every command whose
// value lists its values (a Values method) completes them: flags added
// later take part without more.
func TestCompletionOfValuers(t *testing.T) {
	root := newRoot(io.Discard, io.Discard)
	cmds := commands(root)
	n := 0
	for path, cmd := range cmds {
		cmd.Flags().VisitAll(func(f *pflag.Flag) {
			v, ok := f.Value.(valuer)
			if !ok {
				return
			}
			n++
			got, directive := complete(t, append(strings.Fields(path), "--"+f.Name, "")...)
			if want := v.Values(); !slices.Equal(got, want) || directive != noFiles {
				t.Errorf("treegen %s --%s: offers %v (%s), want %v (%s)", path, f.Name, got, directive, want, noFiles)
			}
		})
	}
	if n < 10 {
		t.Errorf("only %d flags list their values", n)
	}
}

// TestOutputStreams checks where the commands write: results on stdout (or
// the file -o names), summaries of what was written and notes on stderr.
func TestOutputStreams(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "m.json")
	preds := filepath.Join(dir, "p.csv")
	type stream int
	const (
		empty stream = iota
		some
	)
	steps := []struct {
		args           []string
		stdout, stderr stream
		stdoutHas      string
	}{
		{[]string{"train", "cart", "--data", "testdata/small.tsv", "-o", model}, empty, some, ""},
		{[]string{"train", "cart", "--data", "testdata/small.tsv", "--test", "testdata/small.tsv", "-o", model}, empty, some, ""},
		{[]string{"train", "gbdt", "--data", "testdata/small.tsv", "--objective", "logistic", "--trees", "3", "-o", filepath.Join(dir, "g.json")}, empty, some, ""},
		{[]string{"train", "cart", "--data", "testdata/small.tsv", "-o", "-"}, some, some, `"format_version"`},
		{[]string{"predict", "--model", model, "--data", "testdata/small.tsv"}, some, empty, "p_1,class"},
		{[]string{"predict", "--model", model, "--data", "testdata/small.tsv", "-o", preds}, empty, empty, ""},
		{[]string{"eval", "--model", model, "--data", "testdata/small.tsv"}, some, empty, "accuracy"},
		{[]string{"eval", "--model", model, "--data", "testdata/small.tsv", "--json"}, some, empty, `"rows"`},
		{[]string{"inspect", model}, some, empty, "task"},
		{[]string{"inspect", "--json", model}, some, empty, "{"},
		{[]string{"gen", "--model", model, "--out", filepath.Join(dir, "small")}, empty, some, ""},
	}
	if !testing.Short() {
		steps = append(steps, struct {
			args           []string
			stdout, stderr stream
			stdoutHas      string
		}{[]string{"check", "--model", model, "--dir", filepath.Join(dir, "small"), "--data", "testdata/small.tsv", "--expect", preds}, some, empty, "ok: "})
	}
	for _, s := range steps {
		code, stdout, stderr := treegen(t, s.args...)
		name := "treegen " + strings.Join(s.args, " ")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", name, code, stderr)
		}
		for _, c := range []struct {
			what, text string
			want       stream
		}{{"stdout", stdout, s.stdout}, {"stderr", stderr, s.stderr}} {
			if (c.text == "") != (c.want == empty) {
				t.Errorf("%s: %s %q, want it %s", name, c.what, c.text, map[stream]string{empty: "empty", some: "not empty"}[c.want])
			}
		}
		if !strings.Contains(stdout, s.stdoutHas) {
			t.Errorf("%s: stdout %q lacks %q", name, stdout, s.stdoutHas)
		}
	}
	if _, err := os.Stat(preds); err != nil {
		t.Error(err)
	}
}

// TestRootHelpSaysWhereOutputGoes keeps the rule in the root's help.
func TestRootHelpSaysWhereOutputGoes(t *testing.T) {
	code, stdout, _ := treegen(t, "--help")
	for _, want := range []string{"Where output goes", "standard output", "standard error", "treegen completion"} {
		if code != 0 || !strings.Contains(stdout, want) {
			t.Errorf("treegen --help lacks %q:\n%s", want, stdout)
		}
	}
}
