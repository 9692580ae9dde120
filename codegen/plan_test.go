package codegen_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/ir"
)

// float32Model is m with its tests or its sums in float32, as XGBoost
// imports record them.
func float32Model(m *ir.Model, compare, sum bool) *ir.Model {
	m.Float32Compare, m.Float32Sum = compare, sum
	return m
}

// TestPlan checks what Plan decides: the backend, whether auto picked it
// and why, the options, the precision and the effective model, or the
// error that names the problem; and that each backend's Check runs at most
// once.
func TestPlan(t *testing.T) {
	for _, tc := range []struct {
		name    string
		m       *ir.Model
		opts    codegen.Options
		backend string // "" for an error
		why     string // the start of Why; "" when the backend was named
		prec    codegen.Precision
		approx  string // a part of Approximation; "" for exact code
		err     string
	}{
		{name: "auto, few trees", m: manyTrees(3), backend: "ifelse", prec: codegen.Float64,
			why: "3 trees of axis splits and constant leaves (fewer than 8 trees): nested ifs"},
		{name: "auto, walk", m: manyTrees(24), opts: codegen.Options{Backend: codegen.Auto}, backend: "walk", prec: codegen.Float64,
			why: "24 trees of axis splits and constant leaves that pad cheaply into perfect trees"},
		{name: "auto, soft", m: softStump(), backend: "smoothstep", prec: codegen.Float64,
			why: "1 tree with soft splits: smoothstep"},
		{name: "auto, soft, prune", m: softStump(), opts: codegen.Options{BackendOptions: &smoothstep.Options{Prune: 0.5}},
			backend: "smoothstep", prec: codegen.Float64, why: "1 tree with soft splits", approx: "weights with |w| <= 0.5 are left out"},
		{name: "named", m: manyTrees(24), opts: codegen.Options{Backend: "quickscorer"}, backend: "quickscorer", prec: codegen.Float64},
		{name: "named, prune", m: softStump(), opts: codegen.Options{Backend: "smoothstep", BackendOptions: &smoothstep.Options{Prune: 0.5}},
			backend: "smoothstep", prec: codegen.Float64, approx: "(1 of 2 weights)"},
		{name: "precision recorded by Float32Compare", m: float32Model(manyTrees(3), true, false), backend: "ifelse", prec: codegen.Float32,
			why: "3 trees"},
		{name: "precision recorded by Float32Sum", m: float32Model(manyTrees(3), false, true), opts: codegen.Options{Backend: "ifelse"},
			backend: "ifelse", prec: codegen.Float32},
		{name: "explicit precision overrides the recorded one", m: float32Model(manyTrees(3), true, true),
			opts: codegen.Options{Backend: "ifelse", Precision: codegen.Float64}, backend: "ifelse", prec: codegen.Float64},
		{name: "explicit float32", m: manyTrees(3), opts: codegen.Options{Precision: codegen.Float32}, backend: "ifelse", prec: codegen.Float32,
			why: "3 trees"},

		{name: "options of another backend", m: manyTrees(3), opts: codegen.Options{Backend: "ifelse", BackendOptions: &smoothstep.Options{}},
			err: "options of type *smoothstep.Options are not those of the ifelse backend (emit.NoOptions)"},
		{name: "options of another backend than auto's", m: manyTrees(3), opts: codegen.Options{BackendOptions: &smoothstep.Options{}},
			err: "options of type *smoothstep.Options are not those of the ifelse backend (emit.NoOptions), which auto picked for this model"},
		{name: "invalid options", m: softStump(), opts: codegen.Options{Backend: "smoothstep", BackendOptions: &smoothstep.Options{Prune: -1}},
			err: "--prune -1: want a finite number >= 0"},
		{name: "latent trees, smoothstep", m: latentModel(obliqueStump()), opts: codegen.Options{Backend: "smoothstep"},
			err: "smoothstep backend: tree 1 is latent: use the ifelse backend (smoothstep does not compile latent trees)"},
		{name: "lopsided trees, walk", m: deepTrees(8, 8, 3), opts: codegen.Options{Backend: "walk"},
			err: "walk backend: tree 0 is not for walk (9 leaves, too few for its depth 8: a perfect tree of that depth has 256, more than 4 times as many): use the quickscorer backend"},
		{name: "soft splits, ifelse", m: softStump(), opts: codegen.Options{Backend: "ifelse"}, err: "ifelse backend: tree 0"},
		{name: "no backend", m: latentModel(softStump()), err: "no backend compiles this model (ifelse: "},
		{name: "unknown backend", m: manyTrees(3), opts: codegen.Options{Backend: "llvm"}, err: `unknown backend "llvm"`},
		{name: "unknown precision", m: manyTrees(3), opts: codegen.Options{Precision: "float16"}, err: `unknown precision "float16" (want float64 or float32)`},
		{name: "package name", m: manyTrees(3), opts: codegen.Options{Package: "func"}, err: `package name "func" is a Go keyword`},
		{name: "invalid model", m: float32Model(deepTrees(1, 2, 1), false, false), err: "invalid model: trees[0].nodes[2].feature: feature 1 out of range: the model has 1 features"},
		{name: "no model", err: "invalid model: no model"},
	} {
		if tc.opts.Package == "" {
			tc.opts.Package = "p"
		}
		calls := map[string]int{}
		restore := codegen.CountChecks(calls)
		p, err := codegen.Plan(tc.m, tc.opts)
		restore()
		for name, n := range calls {
			if n > 1 {
				t.Errorf("%s: the %s backend's Check ran %d times", tc.name, name, n)
			}
		}
		if tc.err != "" {
			if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q...", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		switch {
		case p.Model != tc.m:
			t.Errorf("%s: the plan's model is not the model given", tc.name)
		case p.Backend.Name() != tc.backend:
			t.Errorf("%s: backend %s, want %s", tc.name, p.Backend.Name(), tc.backend)
		case p.Auto != (tc.why != "") || !strings.HasPrefix(p.Why, tc.why) || p.Auto != (p.Why != ""):
			t.Errorf("%s: auto %v, why %q; want %q...", tc.name, p.Auto, p.Why, tc.why)
		case p.Precision != tc.prec:
			t.Errorf("%s: precision %q, want %q", tc.name, p.Precision, tc.prec)
		case p.BackendOptions == nil || p.BackendOptions.Validate() != nil:
			t.Errorf("%s: backend options %v", tc.name, p.BackendOptions)
		case tc.approx == "" && (p.Approximation != "" || p.Effective != p.Model):
			t.Errorf("%s: exact code has approximation %q", tc.name, p.Approximation)
		case tc.approx != "" && (!strings.Contains(p.Approximation, tc.approx) || p.Effective == p.Model):
			t.Errorf("%s: approximation %q, want it to say %q, with its own effective model", tc.name, p.Approximation, tc.approx)
		case p.Package != tc.opts.Package:
			t.Errorf("%s: package %q", tc.name, p.Package)
		}
	}
}

// TestPlanGenerate checks that a plan generates the same bytes each time,
// the bytes of Generate with the same options, with the backend, the
// precision and auto's reason in the header.
func TestPlanGenerate(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *ir.Model
		opts codegen.Options
		head []string
	}{
		{"auto", manyTrees(24), codegen.Options{}, []string{"// Backend walk, float64: exact", "// Picked by auto: 24 trees"}},
		{"recorded float32", float32Model(manyTrees(3), true, false), codegen.Options{Backend: "quickscorer"}, []string{"// Backend quickscorer, float32: exact"}},
		{"approximate", softStump(), codegen.Options{BackendOptions: &smoothstep.Options{Prune: 0.5}, Measured: "Measured: at most 1 off."},
			[]string{"// Backend smoothstep, float64, prune 0.5: approximate.", "Measured: at most 1 off.", "// Picked by auto: 1 tree with soft splits"}},
	} {
		tc.opts.Package, tc.opts.OmitVersion = "p", true
		p, err := codegen.Plan(tc.m, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		a, err := p.Generate()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		b, err := p.Generate()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		c, err := codegen.Generate(tc.m, tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(a) != len(b) || len(a) != len(c) {
			t.Fatalf("%s: %d, %d and %d files", tc.name, len(a), len(b), len(c))
		}
		for i := range a {
			if a[i].Name != b[i].Name || !bytes.Equal(a[i].Data, b[i].Data) {
				t.Errorf("%s: %s differs between two calls of Generate", tc.name, a[i].Name)
			}
			if a[i].Name != c[i].Name || !bytes.Equal(a[i].Data, c[i].Data) {
				t.Errorf("%s: %s differs from codegen.Generate's", tc.name, a[i].Name)
			}
			head, _, _ := strings.Cut(string(a[i].Data), "\n\n")
			for _, want := range tc.head {
				if !strings.Contains(head, want) {
					t.Errorf("%s: %s: the header lacks %q:\n%s", tc.name, a[i].Name, want, head)
				}
			}
		}
	}
}

// TestPlanSetBackendOptions checks options set after planning, as a
// command line sets those of the backend that auto picked.
func TestPlanSetBackendOptions(t *testing.T) {
	p, err := codegen.Plan(softStump(), codegen.Options{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if p.Approximation != "" || p.Effective != p.Model || p.BackendOptions.String() != "" {
		t.Fatalf("default options: %q, %q", p.BackendOptions, p.Approximation)
	}
	for _, tc := range []struct {
		name   string
		opts   codegen.BackendOptions
		approx string
		err    string
	}{
		{"prune", &smoothstep.Options{Prune: 0.5}, "(1 of 2 weights)", ""},
		{"invalid", &smoothstep.Options{Prune: -1}, "(1 of 2 weights)", "--prune -1: want a finite number >= 0"},
		{"another backend's", codegen.Backends()[0].NewOptions(), "(1 of 2 weights)",
			"options of type emit.NoOptions are not those of the smoothstep backend (*smoothstep.Options), which auto picked for this model"},
		{"defaults", nil, "", ""},
	} {
		err := p.SetBackendOptions(tc.opts)
		switch {
		case tc.err == "" && err != nil, tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		case tc.approx == "" && (p.Approximation != "" || p.Effective != p.Model):
			t.Errorf("%s: approximation %q", tc.name, p.Approximation)
		case tc.approx != "" && (!strings.Contains(p.Approximation, tc.approx) || p.Effective == p.Model):
			t.Errorf("%s: approximation %q, want it to say %q", tc.name, p.Approximation, tc.approx)
		}
	}
}

// TestPlanChanged checks that Generate refuses a plan whose decisions were
// changed behind its back, and one that Plan did not make.
func TestPlanChanged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(p *codegen.PackagePlan)
		err    string
	}{
		{"backend", func(p *codegen.PackagePlan) { p.Backend = codegen.Backends()[2] }, "codegen: the plan's model, backend or backend options changed after Plan"},
		{"model", func(p *codegen.PackagePlan) { p.Model = manyTrees(3) }, "codegen: the plan's model, backend or backend options changed after Plan"},
		{"options", func(p *codegen.PackagePlan) { p.BackendOptions = &smoothstep.Options{} }, "codegen: the plan's model, backend or backend options changed after Plan"},
		{"package", func(p *codegen.PackagePlan) { p.Package = "main" }, `package name "main" is for commands`},
		{"not planned", func(p *codegen.PackagePlan) { *p = codegen.PackagePlan{} }, "codegen: a PackagePlan must be made by codegen.Plan"},
	} {
		p, err := codegen.Plan(manyTrees(24), codegen.Options{Package: "p"})
		if err != nil {
			t.Fatal(err)
		}
		tc.change(p)
		if _, err := p.Generate(); err == nil || !strings.HasPrefix(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q...", tc.name, err, tc.err)
		}
	}
	var p codegen.PackagePlan
	if err := p.SetBackendOptions(nil); err == nil {
		t.Error("SetBackendOptions accepts a plan that Plan did not make")
	}
	if err := p.Check(codegen.Backends()[0]); err == nil {
		t.Error("Check accepts a plan that Plan did not make")
	}
}

// TestPlanCheck checks that the plan says which backends compile its
// model, running each one's Check once in all.
func TestPlanCheck(t *testing.T) {
	calls := map[string]int{}
	defer codegen.CountChecks(calls)()
	p, err := codegen.Plan(deepTrees(8, 8, 3), codegen.Options{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	var compile []string
	for range 2 {
		compile = compile[:0]
		for _, b := range codegen.Backends() {
			if p.Check(b) == nil {
				compile = append(compile, b.Name())
			}
		}
	}
	if got := strings.Join(compile, " "); got != "ifelse quickscorer smoothstep" {
		t.Errorf("backends that compile the model: %s", got)
	}
	for _, b := range codegen.Backends() {
		if calls[b.Name()] != 1 {
			t.Errorf("the %s backend's Check ran %d times, want 1", b.Name(), calls[b.Name()])
		}
	}
}
