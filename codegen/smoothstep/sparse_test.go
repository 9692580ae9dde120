package smoothstep_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// randomSparse returns a copy of m whose soft nodes keep a random subset of
// their weights, of a random size from none to all, drawn with seed: the
// nodes of one tree then differ in their number of weights, as an L1
// penalty leaves them.
func randomSparse(m *ir.Model, seed uint64) *ir.Model {
	r := rand.New(rand.NewPCG(seed, 5))
	return editSoft(m, func(n *ir.Node) {
		var idx []int
		var ws []float64
		keep := r.IntN(len(n.Weights) + 1)
		for k, o := range r.Perm(len(n.Weights)) {
			if o < keep {
				idx, ws = append(idx, n.Indices[k]), append(ws, n.Weights[k])
			}
		}
		n.Indices, n.Weights = idx, ws
	})
}

// editSoft returns a copy of m (sharing what edit does not replace) in
// which edit has changed every soft node, in tree and node order.
func editSoft(m *ir.Model, edit func(n *ir.Node)) *ir.Model {
	c := *m
	c.Trees = make([]ir.Tree, len(m.Trees))
	for i := range m.Trees {
		c.Trees[i] = m.Trees[i]
		c.Trees[i].Nodes = slices.Clone(m.Trees[i].Nodes)
		for j := range c.Trees[i].Nodes {
			if n := &c.Trees[i].Nodes[j]; n.Kind == ir.Soft {
				edit(n)
			}
		}
	}
	return &c
}

// edgeRows returns rows for a model of p features that put each of NaN,
// +Inf, -Inf and -0 in turn into features spread over the row (listed by
// some nodes of a sparse model and not by others), the other features
// standard normal, and a row of -0 everywhere.
func edgeRows(seed uint64, p int) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 9))
	negZero := math.Copysign(0, -1)
	var rows [][]float64
	for j := 0; j < p; j += max(1, p/6) {
		for _, v := range []float64{nan, inf, -inf, negZero} {
			row := make([]float64, p)
			for k := range row {
				row[k] = r.NormFloat64()
			}
			row[j] = v
			rows = append(rows, row)
		}
	}
	zeros := make([]float64, p)
	for k := range zeros {
		zeros[k] = negZero
	}
	return append(rows, zeros)
}

// pathOptions returns the smoothstep options that force path, with Prune
// set to prune.
func pathOptions(path string, prune float64) *smoothstep.Options {
	return &smoothstep.Options{Path: path, Prune: prune}
}

// sparseModels returns perfect soft trees whose nodes weigh only some of
// the features, named: the sparse level groups and their unrolled
// counterparts.
func sparseModels() (names []string, ms []*ir.Model) {
	add := func(name string, m *ir.Model) {
		names, ms = append(names, name), append(ms, m)
	}
	add("top30", sparsify(randmodel.TEL(21, 3, 3, 8, 3, 0.5), 0.3))
	add("random", randomSparse(randmodel.TEL(22, 4, 4, 12, 2, 0.5), 22)) // nodes of 0 to 12 weights
	add("few", randmodel.TEL(23, 2, 3, 3, 2, 1))                         // every feature of 3: below filterMinWeights
	wide := sparsify(randmodel.TEL(24, 10, 7, 6, 2, 0.3), 0.5)           // frontiers that outgrow their arrays
	for i := range wide.Trees {
		for j := range wide.Trees[i].Nodes {
			if n := &wide.Trees[i].Nodes[j]; n.Kind == ir.Soft && i%2 == 0 {
				n.Gamma = 100
			}
		}
	}
	add("wide", wide)
	scalar := oneOutputPerTree(randomSparse(randmodel.TEL(25, 5, 3, 9, 3, 0.5), 25), 3) // mean, Float32Sum
	scalar.Aggregation, scalar.Float32Sum = ir.Mean, true
	add("scalar", scalar)
	// Listed zero weights: 0·NaN and 0·Inf make the margin NaN in both
	// paths, as in the interpreter; and a tree of another depth, which
	// starts a group of its own.
	zeros := sparsify(randmodel.TEL(26, 3, 2, 7, 2, 0.5), 0.5)
	for i := range zeros.Trees {
		for j := range zeros.Trees[i].Nodes {
			if n := &zeros.Trees[i].Nodes[j]; n.Kind == ir.Soft && j%2 == 0 {
				n.Weights[0] = 0
			}
		}
	}
	zeros.Trees = append(zeros.Trees, sparsify(randmodel.TEL(27, 1, 4, 7, 2, 0.5), 0.3).Trees...)
	add("zeros", zeros)
	add("many", sparsify(randmodel.TEL(29, 2, 2, 300, 2, 0.2), 0.02)) // features past 255: lvI of uint16
	return names, ms
}

// sparseCases are the sparse models of sparseModels and a pruned dense
// model, compiled with both paths: each package must equal the interpreter
// bit for bit, NaN, ±Inf and -0 in listed and unlisted features included.
func sparseCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	var cases []gentest.Case
	names, ms := sparseModels()
	for i, m := range ms {
		seed := uint64(4000 + i)
		rows := append(rowsFor(seed, m), edgeRows(seed, m.NumFeatures)...)
		for _, path := range []string{smoothstep.PathLevel, smoothstep.PathUnrolled} {
			p := *s
			p.Options = pathOptions(path, 0)
			cases = append(cases, allocs(p.Both(t, m, fmt.Sprintf("sparse%s%s_", names[i], path[:1]), rows), i < 2)...)
		}
	}
	// Pruning a dense model makes it sparse.
	m := randmodel.TEL(28, 4, 3, 10, 2, 0.5)
	rows := append(rowsFor(28, m), edgeRows(28, m.NumFeatures)...)
	for _, path := range []string{smoothstep.PathLevel, smoothstep.PathUnrolled} {
		p := *s
		p.Options = pathOptions(path, 0.3)
		cases = append(cases, p.Both(t, m, "sparseprune"+path[:1]+"_", rows)...)
	}
	return cases
}
