package codegen_test

import (
	"bytes"
	"flag"
	"fmt"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/ir"
)

// softStump is a model of one soft node of width 1 over two features, with
// weights 1 and 0.25.
func softStump() *ir.Model {
	return &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 2, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Soft, Left: 1, Right: 2, Indices: []int{0, 1}, Weights: []float64{1, 0.25}, Gamma: 1},
			{Kind: ir.Leaf, Value: []float64{2}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}}},
	}
}

// obliqueStump is a model of one oblique split.
func obliqueStump() *ir.Model {
	m := softStump()
	m.Trees[0].Nodes[0] = ir.Node{Kind: ir.Oblique, Left: 1, Right: 2, Indices: []int{0}, Weights: []float64{1}}
	return m
}

// latentModel is m with a latent tree of one node appended, and its
// read-out.
func latentModel(m *ir.Model) *ir.Model {
	act := 0.5
	m.Trees = append(m.Trees, ir.Tree{Output: ir.AllOutputs, Latent: true, Nodes: []ir.Node{{Kind: ir.Leaf, Activity: &act}}})
	m.Readout = &ir.Readout{Weights: [][]float64{{0, 0, 0}}, Bias: []float64{0}}
	return m
}

// TestBackends checks what the backends say of themselves: unique names,
// summaries, defaults that change nothing, and flags that can share one
// command line.
func TestBackends(t *testing.T) {
	seen := map[string]bool{}
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	for _, b := range codegen.Backends() {
		name := b.Name()
		if name == "" || name == codegen.Auto || seen[name] {
			t.Errorf("backend name %q is empty, auto or repeated", name)
		}
		seen[name] = true
		if got, err := codegen.LookupBackend(name); err != nil || got.Name() != name {
			t.Errorf("LookupBackend(%s) = %v, %v", name, got, err)
		}
		if s := b.Summary(); len(s) < 20 || strings.Contains(s, "\n") {
			t.Errorf("%s: summary %q", name, s)
		}
		opts := b.NewOptions()
		if err := opts.Validate(); err != nil {
			t.Errorf("%s: default options invalid: %v", name, err)
		}
		if s := opts.String(); s != "" {
			t.Errorf("%s: default options say %q, want \"\"", name, s)
		}
		m := softStump()
		if eff, approx := opts.Effective(m); eff != m || approx != "" {
			t.Errorf("%s: default options are approximate: %q", name, approx)
		}
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: its flags clash with another backend's: %v", name, r)
				}
			}()
			opts.RegisterFlags(fs)
		}()
	}
	if got := strings.Join(codegen.BackendNames(), " "); got != "ifelse quickscorer smoothstep walk" {
		t.Errorf("BackendNames() = %s", got)
	}
	if _, err := codegen.LookupBackend("llvm"); err == nil ||
		err.Error() != `unknown backend "llvm" (known backends: ifelse, quickscorer, smoothstep, walk, or auto)` {
		t.Errorf("LookupBackend(llvm): %v", err)
	}
}

// deepTrees is a model of p features and n trees of one long branch each,
// depth d: d+1 leaves against the 2^d of a perfect tree.
func deepTrees(n, d, p int) *ir.Model {
	m := manyTrees(0)
	m.NumFeatures = p
	for i := 0; i < n; i++ {
		var nodes []ir.Node
		for l := 0; l < d; l++ {
			k := len(nodes)
			nodes = append(nodes, ir.Node{Kind: ir.Axis, Left: k + 1, Right: k + 2, Feature: l % 3, Threshold: float64(l)},
				ir.Node{Kind: ir.Leaf, Value: []float64{float64(i + l)}})
			nodes[k].Left, nodes[k].Right = k+2, k+1
		}
		nodes = append(nodes, ir.Node{Kind: ir.Leaf, Value: []float64{-1}})
		m.Trees = append(m.Trees, ir.Tree{Output: 0, Nodes: nodes})
	}
	return m
}

// TestAuto checks which backends are suited to which models, what auto
// picks, and the reason it gives.
func TestAuto(t *testing.T) {
	for _, tc := range []struct {
		name      string
		m         *ir.Model
		suited    string
		pick, why string
	}{
		{"few axis trees", manyTrees(3), "ifelse quickscorer walk", "ifelse", "3 trees of axis splits and constant leaves (fewer than 8 trees): nested ifs"},
		{"one axis tree", manyTrees(1), "ifelse quickscorer walk", "ifelse", "1 tree of axis splits"},
		{"shallow ensemble", manyTrees(23), "ifelse quickscorer walk", "ifelse", "23 trees of axis splits and constant leaves, their depths adding up to 23, fewer than 8 per feature (3): nested ifs"},
		{"axis ensemble", manyTrees(24), "ifelse quickscorer walk", "walk", "24 trees of axis splits and constant leaves that pad cheaply into perfect trees, their depths adding up to 24, at least 8 per feature (3): walking"},
		{"lopsided shallow ensemble", deepTrees(8, 6, 3), "ifelse quickscorer walk", "walk", "8 trees of axis splits and constant leaves that pad cheaply"},
		{"lopsided deep ensemble", deepTrees(8, 8, 3), "ifelse quickscorer", "ifelse", "8 trees of axis splits and constant leaves, not all of which pad cheaply into perfect trees (tree 0: 9 leaves, too few for its depth 8: a perfect tree of that depth has 256, more than 4 times as many), too few or with too many splits per feature for QuickScorer (64 splits, 3 features): nested ifs"},
		{"large lopsided ensemble", deepTrees(256, 8, 8), "ifelse quickscorer", "quickscorer", "256 trees of axis splits and constant leaves, not all of which pad cheaply into perfect trees (tree 0: 9 leaves, too few for its depth 8: a perfect tree of that depth has 256, more than 4 times as many), with 2048 splits, at most 256 per feature (8): QuickScorer"},
		{"large lopsided ensemble, few features", deepTrees(256, 8, 7), "ifelse quickscorer", "ifelse", "256 trees of axis splits and constant leaves, not all of which pad cheaply into perfect trees (tree 0: 9 leaves, too few for its depth 8: a perfect tree of that depth has 256, more than 4 times as many), too few or with too many splits per feature for QuickScorer (2048 splits, 7 features)"},
		{"oblique", obliqueStump(), "ifelse", "ifelse", "1 tree, not all of axis splits and constant leaves: ifelse"},
		{"soft", softStump(), "smoothstep", "smoothstep", "1 tree with soft splits: smoothstep"},
		{"latent", latentModel(obliqueStump()), "ifelse", "ifelse", "2 trees, not all of axis splits"},
		// ifelse compiles no soft node of width γ > 0, smoothstep no
		// latent tree.
		{"soft and latent", latentModel(softStump()), "", "", ""},
	} {
		if err := tc.m.Validate(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var names []string
		for _, b := range codegen.SuitedBackends(tc.m) {
			names = append(names, b.Name())
		}
		if got := strings.Join(names, " "); got != tc.suited {
			t.Errorf("%s: suited backends %q, want %q", tc.name, got, tc.suited)
		}
		c, err := codegen.Choose(tc.m)
		switch {
		case tc.pick == "":
			if err == nil || !strings.HasPrefix(err.Error(), "no backend compiles this model (ifelse: ") ||
				!strings.Contains(err.Error(), "; smoothstep: tree 1 is latent") {
				t.Errorf("%s: auto: %v", tc.name, err)
			}
			continue
		case err != nil:
			t.Errorf("%s: auto: %v", tc.name, err)
			continue
		case c.Backend.Name() != tc.pick:
			t.Errorf("%s: auto picks %s, want %s", tc.name, c.Backend.Name(), tc.pick)
		case !strings.HasPrefix(c.Why, tc.why):
			t.Errorf("%s: auto's reason %q, want it to start %q", tc.name, c.Why, tc.why)
		}
		if b, err := codegen.AutoBackend(tc.m); err != nil || b.Name() != tc.pick {
			t.Errorf("%s: AutoBackend = %v, %v, want %s", tc.name, b, err, tc.pick)
		}
		// The header says what auto picked and why; naming the backend
		// gives the same code without that.
		auto, err := codegen.Generate(tc.m, codegen.Options{Package: "p", OmitVersion: true})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		named, err := codegen.Generate(tc.m, codegen.Options{Package: "p", Backend: tc.pick, OmitVersion: true})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		head := string(auto[0].Data[:strings.Index(string(auto[0].Data), "\n\n")])
		if !strings.Contains(head, "\n// Backend "+tc.pick+", float64: exact") || !strings.Contains(strings.ReplaceAll(head, "\n//", ""), "Picked by auto: "+tc.why) {
			t.Errorf("%s: header\n%s", tc.name, head)
		}
		if len(auto) != len(named) {
			t.Fatalf("%s: auto gives %d files, %s %d", tc.name, len(auto), tc.pick, len(named))
		}
		for i := range auto {
			if got, want := codegen.StripAutoLines(auto[i].Data), codegen.StripAutoLines(named[i].Data); !bytes.Equal(got, want) {
				t.Errorf("%s: %s differs from %s's beyond the lines on auto", tc.name, auto[i].Name, tc.pick)
			}
		}
	}
}

// TestBackendOptions checks the errors of options given to the wrong
// backend or with bad values, and the headers of approximate code.
func TestBackendOptions(t *testing.T) {
	for _, tc := range []struct {
		name string
		opts codegen.Options
		want string
	}{
		{"wrong backend", codegen.Options{Backend: "ifelse", BackendOptions: &smoothstep.Options{Prune: 0.5}},
			"options of type *smoothstep.Options are not those of the ifelse backend (emit.NoOptions)"},
		{"negative prune", codegen.Options{Backend: "smoothstep", BackendOptions: &smoothstep.Options{Prune: -1}},
			"--prune -1: want a finite number >= 0"},
		{"precision", codegen.Options{Precision: "float16"}, `unknown precision "float16" (want float64 or float32)`},
	} {
		tc.opts.Package = "p"
		_, err := codegen.Generate(softStump(), tc.opts)
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}

	m := softStump()
	opts := &smoothstep.Options{Prune: 0.25}
	eff, approx := opts.Effective(m)
	if err := eff.Validate(); err != nil {
		t.Fatalf("the pruned model is invalid: %v", err)
	}
	if n := eff.Trees[0].Nodes[0]; len(n.Weights) != 1 || len(m.Trees[0].Nodes[0].Weights) != 2 {
		t.Errorf("pruned weights %v; the model's %v", n.Weights, m.Trees[0].Nodes[0].Weights)
	}
	files, err := codegen.Generate(m, codegen.Options{Package: "p", Backend: "smoothstep", BackendOptions: opts,
		Precision: codegen.Float32, OmitVersion: true, Measured: "Measured: at most 0.1 off."})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		lines := strings.Split(string(f.Data), "\n")
		header := strings.Join(lines[1:5], " ")
		if !strings.HasPrefix(lines[1], "// Backend smoothstep, float32, prune 0.25: approximate.") ||
			!strings.Contains(header, "(1 of 2 weights)") || !strings.Contains(header, "Measured: at most 0.1 off.") {
			t.Errorf("%s: header\n%s", f.Name, strings.Join(lines[:6], "\n"))
		}
	}
	doc := strings.ReplaceAll(strings.Join(strings.Fields(string(files[0].Data)), " "), " // ", " ")
	if !strings.Contains(doc, "but the code is approximate. "+approx) ||
		strings.Contains(doc, "exactly as the treegen interpreter") {
		t.Errorf("the package doc of approximate code does not say so:\n%s", fmt.Sprint(doc[:900]))
	}
}
