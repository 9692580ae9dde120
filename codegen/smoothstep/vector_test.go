//go:build goexperiment.simd && amd64

package smoothstep_test

import (
	"bytes"
	"fmt"
	"simd/archsimd"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// model is a model of TestVector, with the options of its package.
type model struct {
	name string
	m    *ir.Model
	opts *smoothstep.Options
}

// TestVector builds, with GOEXPERIMENT=simd, packages whose level groups
// the vector file evaluates (float32 ones: rows in lanes to depth 6, nodes
// in lanes deeper; a float64 package must have no vector file), each as
// generated and as a copy that ignores AVX-512 (gentest.ForceAVX2), and a
// package with nodes in lanes also as a copy whose pool of working memory
// is always empty (forceStack), and compares them bit for bit with the
// interpreter on rows with NaN and ±Inf, more than a block of them, so
// that PredictBatch scores blocks with NaN in the vector code;
// BatchInstructions must name the instructions that the processor has
// (with AVX2 only, "portable" for a package whose vector file has only
// nodes in lanes).
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
	models := []model{
		{"tel6", randmodel.TEL(1, 3, 6, 20, 3, 0.3), nil},
		{"tel4", randmodel.TEL(2, 10, 4, 20, 3, 0.3), nil},
	}
	models = append(models, deepModels()...)
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
				if both.Precision == codegen.Float32 && c.m.NumFeatures <= 256 && shallow(c.m, 6) {
					t.Errorf("%s: no vector file", both.Name)
				}
				cases = append(cases, both)
				continue
			}
			if both.Precision != codegen.Float32 {
				t.Errorf("%s: a vector file in a %s package", both.Name, both.Precision)
			}
			if strings.HasPrefix(c.name, "deep") && !hasCode(both.Files, "nlTrees") {
				t.Errorf("%s: no nodes in lanes", both.Name)
			}
			both.Instructions = wide
			forced := both
			forced.Name += "avx2"
			forced.Files = gentest.ForceAVX2(both.Files)
			forced.Instructions = narrow
			if !hasCode(both.Files, "vectorBlockAVX2") {
				// Only nodes in lanes, which are AVX-512 code: a machine
				// without AVX-512 runs the portable code.
				forced.Instructions = "portable"
				if wide != "AVX-512" {
					both.Instructions = "portable"
				}
			}
			cases = append(cases, both, forced)
			if hasCode(both.Files, "nlTrees") {
				stack := both
				stack.Name += "stack"
				stack.Files = forceStack(t, both.Files)
				cases = append(cases, stack)
			}
		}
	}
	gentest.BuildAndCompare(t, cases)
}

// shallow reports whether every tree of m has depth d at most.
func shallow(m *ir.Model, d int) bool {
	for i := range m.Trees {
		if m.Trees[i].Depth() > d {
			return false
		}
	}
	return true
}

// deepModels are the models of TestVector whose level groups the
// nodes-in-lanes code evaluates: the default direction from a table, all
// left and all right; γ = 1 and not; every output and one per tree.
func deepModels() []model {
	tel8 := randmodel.TEL(21, 3, 8, 20, 3, 0.3)
	left := randmodel.TEL(22, 2, 7, 9, 2, 1)
	right := oneOutputPerTree(randmodel.TEL(23, 4, 7, 12, 3, 0.5), 3)
	for _, m := range []*ir.Model{left, right} {
		for i := range m.Trees {
			for j := range m.Trees[i].Nodes {
				if n := &m.Trees[i].Nodes[j]; n.Kind == ir.Soft {
					n.DefaultLeft = m == left
					n.Gamma = 0.75
				}
			}
		}
	}
	right.Float32Sum = true
	// A depth-9 group after a hard tree and a depth-4 group: nodes in
	// lanes, rows in lanes and row by row in one block.
	mixed := randmodel.TEL(24, 2, 4, 10, 2, 0.5)
	hard := randmodel.TEL(25, 1, 2, 10, 2, 0.5).Trees[0]
	hard.Nodes[0].Gamma = 0
	mixed.Trees = append(mixed.Trees, hard)
	mixed.Trees = append(mixed.Trees, randmodel.TEL(26, 2, 9, 10, 2, 0.4).Trees...)
	return []model{{"deep8", tel8, nil}, {"deepleft", left, nil}, {"deepright", right, nil}, {"deepmixed", mixed, nil}}
}

// hasCode reports whether the vector file among files mentions name.
func hasCode(files []codegen.File, name string) bool {
	for _, f := range files {
		if f.Name == emit.VectorFileName {
			return bytes.Contains(f.Data, []byte(name))
		}
	}
	return false
}

// forceStack returns a copy of files whose nodes-in-lanes code finds its
// pool empty on every call, and so declares its working memory on the
// stack.
func forceStack(t *testing.T, files []codegen.File) []codegen.File {
	out := slices.Clone(files)
	for i, f := range out {
		if f.Name == emit.VectorFileName {
			from := []byte("make(chan struct{}, 8)")
			if !bytes.Contains(f.Data, from) {
				t.Fatalf("forceStack: no %s in the vector file", from)
			}
			out[i].Data = bytes.ReplaceAll(f.Data, from, []byte("make(chan struct{})"))
		}
	}
	return out
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
