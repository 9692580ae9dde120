package smoothstep_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// reachable returns the mean number of leaves per tree and row that the
// rows reach with a probability > 0 (in float64).
func reachable(m *ir.Model, rows [][]float64) float64 {
	count := 0
	walkReached(m, rows, func(n *ir.Node) {
		if n.IsLeaf() {
			count++
		}
	})
	return float64(count) / float64(len(rows)*len(m.Trees))
}

// walkReached calls f with every node of every tree that a row of rows
// reaches with a probability other than 0, computed in float64 after the
// model's preprocessing, as the interpreter routes.
func walkReached(m *ir.Model, rows [][]float64, f func(n *ir.Node)) {
	var visit func(t *ir.Tree, i int, p float64, x []float64)
	visit = func(t *ir.Tree, i int, p float64, x []float64) {
		n := &t.Nodes[i]
		f(n)
		if n.IsLeaf() {
			return
		}
		s := n.Bias
		for j, f := range n.Indices {
			s += float64(n.Weights[j] * x[f])
		}
		pl := ir.SmoothStep(s, n.Gamma)
		if s != s {
			pl = 0
			if n.DefaultLeft {
				pl = 1
			}
		}
		if l := p * pl; l != 0 {
			visit(t, n.Left, l, x)
		}
		if r := p * (1 - pl); r != 0 {
			visit(t, n.Right, r, x)
		}
	}
	for _, x := range rows {
		if p := m.Preprocess; p != nil {
			x = slices.Clone(x)
			for j := range x {
				x[j] = (x[j] - p.Shift[j]) * p.Scale[j]
			}
		}
		for i := range m.Trees {
			visit(&m.Trees[i], 0, 1, x)
		}
	}
}

// TestMeasure compares the generated smoothstep packages (float64 and
// float32, and a copy of a package with a vector file whose PredictBatch
// runs the portable code) with the interpreter on a TEL-like model: 10
// perfect soft trees of depth 8, 20 standardised features, dense weights,
// γ = 1, 3 outputs, rows drawn from the standard normal. It is a
// measurement, not a check: it
// runs only with TREEGEN_MEASURE=1 (TREEGEN_BENCHTIME, default 2s, is how
// long each timing runs; TREEGEN_DEPTH, default 8, the depth of the trees;
// and TREEGEN_MEASURE_DIR names an empty directory for the measuring
// module, left in place for profiling).
func TestMeasure(t *testing.T) {
	if os.Getenv("TREEGEN_MEASURE") != "1" {
		t.Skip("set TREEGEN_MEASURE=1 to measure")
	}
	depth := 8
	if d, err := strconv.Atoi(os.Getenv("TREEGEN_DEPTH")); err == nil {
		depth = d
	}
	budget := 2 * time.Second
	if d, err := time.ParseDuration(os.Getenv("TREEGEN_BENCHTIME")); err == nil {
		budget = d
	}
	m := randmodel.TEL(1, 10, depth, 20, 3, 0.3)
	r := rand.New(rand.NewPCG(2, 3))
	rows := make([][]float64, 1000)
	for i := range rows {
		rows[i] = make([]float64, m.NumFeatures)
		for j := range rows[i] {
			rows[i][j] = r.NormFloat64()
		}
	}
	t.Logf("%d trees of depth %d, %d features: %.1f leaves reached per tree and row (of %d)", len(m.Trees), depth, m.NumFeatures, reachable(m, rows), 1<<depth)

	dir := t.TempDir()
	if d := os.Getenv("TREEGEN_MEASURE_DIR"); d != "" {
		dir = d // kept, for profiling
	}
	mod, err := harness.NewModule(dir)
	if err != nil {
		t.Fatal(err)
	}
	size := 0
	type measured struct {
		prec     codegen.Precision
		portable bool // a portable copy follows the package in the results
	}
	var ms []measured
	for _, prec := range gentest.Precisions() {
		files, err := codegen.Generate(m, codegen.Options{Package: "tel", Backend: smoothstep.Name, Precision: prec})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			size += len(f.Data)
		}
		if err := gentest.WritePackage(mod, prec.String(), files); err != nil {
			t.Fatal(err)
		}
		if err := mod.Add(prec.String(), rows, harness.Options{Time: budget}); err != nil {
			t.Fatal(err)
		}
		// The same package with a vector file that picks no instructions,
		// as PredictBatch runs without GOEXPERIMENT=simd.
		portable := slices.Clone(files)
		vector := false
		for i, f := range portable {
			if f.Name == emit.VectorFileName {
				vector = true
				for _, isa := range []string{"archsimd.X86.AVX512()", "archsimd.X86.AVX2()"} {
					portable[i].Data = bytes.ReplaceAll(portable[i].Data, []byte(isa), []byte("false"))
				}
			}
		}
		ms = append(ms, measured{prec, vector})
		if !vector {
			continue
		}
		if err := gentest.WritePackage(mod, prec.String()+"portable", portable); err != nil {
			t.Fatal(err)
		}
		if err := mod.Add(prec.String()+"portable", rows, harness.Options{Time: budget}); err != nil {
			t.Fatal(err)
		}
	}
	res, err := mod.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("generated source: %d bytes (both precisions), built in %v", size, mod.BuildTime.Round(time.Millisecond))
	for _, c := range ms {
		single, batch, err := harness.TimeInterpreter(m, rows, c.prec, budget)
		if err != nil {
			t.Fatal(err)
		}
		g, p := res[0], res[0]
		if g.Instructions == "" {
			g.Instructions = "portable" // no vector file
		}
		res = res[1:]
		if c.portable {
			p, res = res[0], res[1:]
		}
		t.Logf("%s: smoothstep %.0f ns/row (batch %.0f with %s instructions, %.0f portable), interpreter %.0f ns/row (batch %.0f): "+
			"interpreter/smoothstep = %.2f, batch %.2f",
			c.prec, p.NsPerRow, g.NsPerRowBatch, g.Instructions, p.NsPerRowBatch, single, batch, single/p.NsPerRow, batch/g.NsPerRowBatch)
	}
}
