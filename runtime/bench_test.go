package runtime

import (
	"fmt"
	"testing"

	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// BenchmarkPredict measures the interpreter on random ensembles; ns/tree is
// the cost per tree and row, the figure ANCHORS.md quotes for other tools.
func BenchmarkPredict(b *testing.B) {
	cases := []struct {
		name string
		opts randmodel.Options
	}{
		{"axis-100x6", randmodel.Options{AxisOnly: true, Trees: 100, MaxDepth: 6, MinDepth: 6, Full: true, Features: 50, Task: ir.Binary}},
		{"axis-1000x6", randmodel.Options{AxisOnly: true, Trees: 1000, MaxDepth: 6, MinDepth: 6, Full: true, Features: 50, Task: ir.Binary}},
		{"oblique-100x6", randmodel.Options{Oblique: 1, Trees: 100, MaxDepth: 6, MinDepth: 6, Full: true, Features: 20, Task: ir.Binary}},
		{"soft-10x8", randmodel.Options{Soft: 1, Trees: 10, MaxDepth: 8, MinDepth: 8, Full: true, Features: 20, Task: ir.Binary}},
	}
	for _, c := range cases {
		m := randmodel.Model(42, c.opts)
		rows := randmodel.Rows(42, 1024, m.NumFeatures)
		p, err := New[float64](m)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]float64, m.NumOutputs)
		b.Run(fmt.Sprintf("%s/interp", c.name), func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				p.Predict(rows[i&1023], out)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(m.Trees)), "ns/tree")
		})
		// The same rows through PredictBatch, with the NaN replaced: a
		// block with a NaN takes another path.
		var flat []float64
		for _, row := range rows {
			for _, v := range row {
				if v != v {
					v = 0
				}
				flat = append(flat, v)
			}
		}
		batch := make([]float64, len(rows)*m.NumOutputs)
		b.Run(fmt.Sprintf("%s/interp-batch", c.name), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				p.PredictBatch(flat, batch, false)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(rows)*len(m.Trees)), "ns/tree")
		})
	}
}
