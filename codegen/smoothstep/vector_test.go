//go:build goexperiment.simd && amd64

package smoothstep_test

import (
	"fmt"
	"simd/archsimd"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/randmodel"
	"github.com/treegen/treegen/ir"
)

// TestVector builds, with GOEXPERIMENT=simd, packages whose level groups
// the vector file evaluates (float32 ones of depth 6 at most; a float64
// package must have no vector file), each as generated and as a copy that ignores
// AVX-512 (gentest.ForceAVX2), and compares them bit for bit with the
// interpreter on rows with NaN and ±Inf, more than a block of them, so that
// PredictBatch scores blocks with NaN in the vector code; BatchInstructions
// must name the instructions that the processor has.
func TestVector(t *testing.T) {
	gentest.SkipIfNoGo(t)
	if !gentest.VectorBuilt() {
		t.Skip("the go command does not build vector files here")
	}
	wide, narrow := "portable", "portable"
	if archsimd.X86.AVX2() {
		wide, narrow = "AVX2", "AVX2"
	}
	if archsimd.X86.AVX512() {
		wide = "AVX-512"
	}
	type model struct {
		name string
		m    *ir.Model
		opts *smoothstep.Options
	}
	models := []model{
		{"tel6", randmodel.TEL(1, 3, 6, 20, 3, 0.3), nil},
		{"tel4", randmodel.TEL(2, 10, 4, 20, 3, 0.3), nil},
	}
	for i, m := range levelModels() {
		models = append(models, model{fmt.Sprintf("level%d", i), m, nil})
	}
	names, sparse := sparseModels()
	for i, m := range sparse {
		models = append(models, model{"sparse" + names[i], m, pathOptions(smoothstep.PathLevel, 0)})
	}
	pre := randmodel.TEL(3, 4, 3, 5, 2, 0.5)
	pre.Preprocess = &ir.Affine{Shift: []float64{1, -2, 0, 0.5, 3}, Scale: []float64{2, 0.5, 1, -1, 1e-3}}
	models = append(models, model{"preprocess", pre, pathOptions(smoothstep.PathLevel, 0)})

	var cases []gentest.Case
	for i, c := range models {
		s := suite
		if c.opts != nil {
			s.Options = c.opts
		}
		seed := uint64(5000 + i)
		rows := append(rowsFor(seed, c.m), edgeRows(seed, c.m.NumFeatures)...)
		for _, both := range s.Both(t, c.m, c.name+"_", rows) {
			if !hasVectorFile(both.Files) {
				// A float64 package has no vector file, nor a model of
				// more than 256 features, which has no blocks of rows,
				// nor one whose level groups are all deeper than 6.
				if both.Precision == codegen.Float32 && c.m.NumFeatures <= 256 && shallow(c.m) {
					t.Errorf("%s: no vector file", both.Name)
				}
				cases = append(cases, both)
				continue
			}
			if both.Precision != codegen.Float32 {
				t.Errorf("%s: a vector file in a %s package", both.Name, both.Precision)
			}
			both.Instructions = wide
			forced := both
			forced.Name += "avx2"
			forced.Files = gentest.ForceAVX2(both.Files)
			forced.Instructions = narrow
			cases = append(cases, both, forced)
		}
	}
	gentest.BuildAndCompare(t, cases)
}

// shallow reports whether every tree of m has depth 6 at most, so that the
// vector code evaluates its level groups.
func shallow(m *ir.Model) bool {
	for i := range m.Trees {
		if m.Trees[i].Depth() > 6 {
			return false
		}
	}
	return true
}

// hasVectorFile reports whether the files of a package include the vector
// file.
func hasVectorFile(files []codegen.File) bool {
	for _, f := range files {
		if f.Name == emit.VectorFileName {
			return true
		}
	}
	return false
}
