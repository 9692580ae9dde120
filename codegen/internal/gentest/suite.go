package gentest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

var (
	models = flag.Int("models", 0, "number of random models of each kind of the conformance suite (0: the suite's own number, a smaller one with -short)")
	seed   = flag.Uint64("seed", 1, "seed of the random models of the conformance suite")
)

// Precisions returns the two working precisions, in test order: a fresh
// array.
func Precisions() [2]codegen.Precision { return [2]codegen.Precision{codegen.Float64, codegen.Float32} }

// Suite describes a backend to Conformance: how its packages are generated
// and checked, and what to test besides what every backend is tested on.
type Suite struct {
	// Backend names the backend.
	Backend string
	// Options are the backend's own options (nil: its defaults).
	Options codegen.BackendOptions
	// Golden lists model files, relative to the test's folder: the source
	// generated for each in both precisions must equal the golden file
	// testdata/golden/NAME_PRECISION.golden, NAME being the file name
	// without ".json".
	Golden []string
	// Random lists the kinds of random models compared with the
	// interpreter.
	Random []Random
	// LiteralModel, if set, returns the model whose numbers the float
	// literals of the package generated for m in prec may be, in place of
	// the model that the package computes exactly.
	LiteralModel func(m *ir.Model, prec codegen.Precision) *ir.Model
	// Constants, if set, returns the numbers of the backend's own
	// arithmetic that the float literals of the package generated for m
	// with opts in prec may be besides the model's (opts are never nil).
	Constants func(m *ir.Model, opts codegen.BackendOptions, prec codegen.Precision) []float64
	// Cases, if set, returns the backend's own cases (hand-computed
	// models, fixtures), made with s.Case or s.Both, which Conformance
	// builds and compares in the same module as the random models.
	Cases func(t *testing.T, s *Suite) []Case
}

// Random is a kind of random model of a Suite.
type Random struct {
	// Name starts the package names: model 7 of kind "r" makes the
	// packages r00764 and r00732.
	Name string
	// Options are those of randmodel.Model.
	Options randmodel.Options
	// Models is the number of models, and Short the number with -short;
	// the -models flag sets both.
	Models, Short int
	// Rows, if set, returns rows for m besides the 40 of Inputs.
	Rows func(seed uint64, m *ir.Model) [][]float64
}

// allocModels is the number of models of each kind whose packages must not
// allocate (counting takes time).
const allocModels = 3

// options returns the suite's backend options, its defaults when Options
// is nil.
func (s *Suite) options() (codegen.BackendOptions, error) {
	if s.Options != nil {
		return s.Options, nil
	}
	b, err := codegen.LookupBackend(s.Backend)
	if err != nil {
		return nil, err
	}
	return b.NewOptions(), nil
}

// generate returns the files of package pkg generated for m with the
// suite's backend and options in precision prec, with "test" as the source
// and no version in the header.
func (s *Suite) generate(m *ir.Model, pkg string, prec codegen.Precision) ([]codegen.File, error) {
	files, err := codegen.Generate(m, codegen.Options{Package: pkg, Backend: s.Backend, BackendOptions: s.Options,
		Precision: prec, Source: "test", OmitVersion: true})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", pkg, err)
	}
	return files, nil
}

// Generate is generate, with an error failing t.
func (s *Suite) Generate(t testing.TB, m *ir.Model, pkg string, prec codegen.Precision) []codegen.File {
	t.Helper()
	files, err := s.generate(m, pkg, prec)
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// makeCase makes the case of Case. When the package cannot be generated,
// the case has no files; when its source fails a check, the case comes with
// the error.
func (s *Suite) makeCase(m *ir.Model, name string, prec codegen.Precision, rows [][]float64) (Case, error) {
	files, err := s.generate(m, name, prec)
	if err != nil {
		return Case{}, err
	}
	opts, err := s.options()
	if err != nil {
		return Case{}, err
	}
	eff, _ := opts.Effective(m)
	lits := eff
	if s.LiteralModel != nil {
		lits = s.LiteralModel(m, prec)
	}
	var extra []float64
	if s.Constants != nil {
		extra = s.Constants(m, opts, prec)
	}
	var bad []error
	if _, err := CheckLiterals(files, lits, prec, extra); err != nil {
		bad = append(bad, fmt.Errorf("%s: %w", name, err))
	}
	if err := CheckImports(files); err != nil {
		bad = append(bad, fmt.Errorf("%s: %w", name, err))
	}
	return Case{Name: name, Files: files, Precision: prec, Model: eff, Rows: rows}, errors.Join(bad...)
}

// report fails t for err, the error of makeCase: at once when c has no
// files.
func report(t testing.TB, c Case, err error) {
	t.Helper()
	switch {
	case err != nil && c.Files == nil:
		t.Fatal(err)
	case err != nil:
		t.Error(err)
	}
}

// Case generates the package name for m in precision prec, checks its
// imports and float literals, and returns the case that compares it with
// the interpreter on rows (the interpreter runs the model that the package
// computes exactly: m, or what the backend options make of it).
func (s *Suite) Case(t testing.TB, m *ir.Model, name string, prec codegen.Precision, rows [][]float64) Case {
	t.Helper()
	c, err := s.makeCase(m, name, prec, rows)
	report(t, c, err)
	return c
}

// Both validates m and returns s.Case for m in both precisions, named
// name64 and name32, made concurrently.
func (s *Suite) Both(t testing.TB, m *ir.Model, name string, rows [][]float64) []Case {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s.all(t, 1, func(int) (*ir.Model, string, [][]float64) { return m, name, rows })
}

// all makes the cases of n models in both precisions, concurrently: model
// i, its name and rows are those that def returns for i. The cases come in
// the order of the models, float64 first.
func (s *Suite) all(t testing.TB, n int, def func(i int) (*ir.Model, string, [][]float64)) []Case {
	t.Helper()
	type result struct {
		c   Case
		err error
	}
	res := make([]result, n*len(Precisions()))
	parallel.For(len(res), runtime.GOMAXPROCS(0), func(u int) {
		m, name, rows := def(u / len(Precisions()))
		prec := Precisions()[u%len(Precisions())]
		r := &res[u]
		r.c, r.err = s.makeCase(m, name+suffix(prec), prec, rows)
	})
	cases := make([]Case, len(res))
	for i, r := range res {
		report(t, r.c, r.err)
		cases[i] = r.c
	}
	return cases
}

// Conformance runs the tests that every backend passes, as s describes the
// backend:
//
//   - golden: the source generated for each model of s.Golden, in both
//     precisions, equals its golden file (go test -update rewrites them);
//   - deterministic: generating a package twice gives the same bytes;
//   - packages: random models of each kind of s.Random and the cases of
//     s.Cases, in both precisions, built in one module: each package
//     imports only math, math/bits and errors, writes only the model's
//     numbers (and s.Constants) as float literals, passes gofmt and go vet,
//     computes exactly what the interpreter computes (and what a case
//     expects) on rows with NaN and ±Inf, has entry points that agree with
//     each other, and, for the first models of each kind and the cases
//     that ask, allocates nothing.
func Conformance(t *testing.T, s Suite) {
	t.Run("golden", func(t *testing.T) {
		for _, path := range s.Golden {
			m, err := ir.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(path), ".json")
			for _, prec := range Precisions() {
				files := s.Generate(t, m, "golden", prec)
				Golden(t, filepath.Join(filepath.Dir(path), "golden", name+"_"+prec.String()+".golden"), Source(files))
			}
		}
	})
	t.Run("deterministic", func(t *testing.T) {
		for k, kind := range s.Random {
			for i := 0; i < min(5, kind.count()); i++ {
				m := randmodel.Model(modelSeed(k, i), kind.Options)
				for _, prec := range Precisions() {
					a := s.Generate(t, m, "p", prec)
					b := s.Generate(t, m, "p", prec)
					if !bytes.Equal(Source(a), Source(b)) {
						t.Errorf("%s model %d %s: two runs generate different source", kind.Name, i, prec)
					}
				}
			}
		}
	})
	t.Run("packages", func(t *testing.T) {
		SkipIfNoGo(t)
		var cases []Case
		if s.Cases != nil {
			cases = s.Cases(t, &s)
		}
		for k, kind := range s.Random {
			random := s.all(t, kind.count(), func(i int) (*ir.Model, string, [][]float64) {
				seed := modelSeed(k, i)
				m := randmodel.Model(seed, kind.Options)
				rows := Inputs(seed, m, 40)
				if kind.Rows != nil {
					rows = append(rows, kind.Rows(seed, m)...)
				}
				return m, fmt.Sprintf("%s%03d", kind.Name, i), rows
			})
			for i := range random {
				random[i].Allocs = i < allocModels*len(Precisions())
			}
			cases = append(cases, random...)
		}
		if t.Failed() {
			return
		}
		BuildAndCompare(t, WithAVX2(cases))
	})
}

// WithAVX2 returns cases and, when this build has vector files (GOEXPERIMENT=simd
// on amd64), a copy of each case that has one, named with the suffix "avx2",
// whose vector file ignores AVX-512 (ForceAVX2): the vector code of both
// instruction sets is then tested on a processor that has both.
func WithAVX2(cases []Case) []Case {
	if !VectorBuilt() {
		return cases
	}
	out := cases
	for _, c := range cases {
		for _, f := range c.Files {
			if f.Name == emit.VectorFileName {
				c.Name += "avx2"
				c.Files = ForceAVX2(c.Files)
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// VectorBuilt reports whether the go command builds the vector files of
// generated packages in this process's configuration: GOEXPERIMENT=simd on
// amd64.
func VectorBuilt() bool {
	return builds([]byte("//go:build " + emit.VectorBuild + "\n\npackage p\n"))
}

// count returns the number of models of the kind in this run.
func (r *Random) count() int {
	switch {
	case *models > 0:
		return *models
	case testing.Short():
		return r.Short
	}
	return r.Models
}

// modelSeed returns the seed of model i of kind k.
func modelSeed(k, i int) uint64 {
	return *seed*1_000_000 + uint64(k)*10_000 + uint64(i)
}
