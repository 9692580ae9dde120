package generated

import (
	"reflect"
	"testing"

	"github.com/treegen/treegen/generated/axis100"
	"github.com/treegen/treegen/generated/axis100f32"
	"github.com/treegen/treegen/generated/cartbinary"
	"github.com/treegen/treegen/generated/cartbinaryf32"
	"github.com/treegen/treegen/generated/cartmulticlass"
	"github.com/treegen/treegen/generated/cartregression"
	"github.com/treegen/treegen/generated/handwritten"
	"github.com/treegen/treegen/generated/oblique100"
	"github.com/treegen/treegen/generated/oblique100f32"
	"github.com/treegen/treegen/generated/soft"
	"github.com/treegen/treegen/generated/softf32"
	"github.com/treegen/treegen/golden"
	"github.com/treegen/treegen/runtime"
)

// BenchmarkPredict compares, in one run, the generated packages with the
// interpreter on the golden inputs: BenchmarkPredict/<model>/<backend>, one
// row per iteration, with ns/tree the cost per tree and row.
//
//	go test ./generated -run XXX -bench . -benchtime 20000x
func BenchmarkPredict(b *testing.B) {
	b.Run("cart_binary/ifelse", genBench(b, "cart_binary", func(x *[cartbinary.NumFeatures]float64) float64 { return cartbinary.Predict(x)[0] }))
	b.Run("cart_binary/ifelse-f32", genBench(b, "cart_binary", func(x *[cartbinaryf32.NumFeatures]float32) float32 { return cartbinaryf32.Predict(x)[0] }))
	b.Run("cart_binary/interp", interpBench[float64](b, "cart_binary"))
	b.Run("cart_binary/interp-f32", interpBench[float32](b, "cart_binary"))
	b.Run("cart_multiclass/ifelse", genBench(b, "cart_multiclass", func(x *[cartmulticlass.NumFeatures]float64) float64 { return cartmulticlass.Predict(x)[0] }))
	b.Run("cart_multiclass/interp", interpBench[float64](b, "cart_multiclass"))
	b.Run("cart_regression/ifelse", genBench(b, "cart_regression", func(x *[cartregression.NumFeatures]float64) float64 { return cartregression.Predict(x)[0] }))
	b.Run("cart_regression/interp", interpBench[float64](b, "cart_regression"))
	b.Run("handwritten/ifelse", genBench(b, "handwritten", func(x *[handwritten.NumFeatures]float64) float64 { return handwritten.Predict(x)[0] }))
	b.Run("handwritten/interp", interpBench[float64](b, "handwritten"))
	b.Run("axis100/walk", genBench(b, "axis100", func(x *[axis100.NumFeatures]float64) float64 { return axis100.Predict(x)[0] }))
	b.Run("axis100/walk-f32", genBench(b, "axis100", func(x *[axis100f32.NumFeatures]float32) float32 { return axis100f32.Predict(x)[0] }))
	b.Run("axis100/interp", interpBench[float64](b, "axis100"))
	b.Run("axis100/interp-f32", interpBench[float32](b, "axis100"))
	b.Run("oblique100/ifelse", genBench(b, "oblique100", func(x *[oblique100.NumFeatures]float64) float64 { return oblique100.Predict(x)[0] }))
	b.Run("oblique100/ifelse-f32", genBench(b, "oblique100", func(x *[oblique100f32.NumFeatures]float32) float32 { return oblique100f32.Predict(x)[0] }))
	b.Run("oblique100/interp", interpBench[float64](b, "oblique100"))
	b.Run("oblique100/interp-f32", interpBench[float32](b, "oblique100"))
	b.Run("soft/smoothstep", genBench(b, "soft", func(x *[soft.NumFeatures]float64) float64 { return soft.Predict(x)[0] }))
	b.Run("soft/smoothstep-f32", genBench(b, "soft", func(x *[softf32.NumFeatures]float32) float32 { return softf32.Predict(x)[0] }))
	b.Run("soft/interp", interpBench[float64](b, "soft"))
	b.Run("soft/interp-f32", interpBench[float32](b, "soft"))
}

// genBench returns a benchmark of a generated Predict over the golden inputs
// of a case; A is the package's input array type.
func genBench[F runtime.Float, A any](b *testing.B, name string, predict func(*A) F) func(*testing.B) {
	c := load(b, name)
	rows := make([]A, len(c.Inputs))
	for i, in := range c.Inputs {
		fill(&rows[i], in)
	}
	return func(b *testing.B) {
		b.ReportAllocs()
		var sink F
		i := 0
		for b.Loop() {
			sink += predict(&rows[i])
			if i++; i == len(rows) {
				i = 0
			}
		}
		perTree(b, len(c.Model.Trees))
		_ = sink
	}
}

// fill copies in into the array *a, converting to its element type.
func fill[A any](a *A, in []float64) {
	v := reflect.ValueOf(a).Elem()
	for j := 0; j < v.Len(); j++ {
		v.Index(j).SetFloat(in[j])
	}
}

func interpBench[F runtime.Float](b *testing.B, name string) func(*testing.B) {
	c := load(b, name)
	p, err := runtime.New[F](c.Model)
	if err != nil {
		b.Fatal(err)
	}
	rows := make([][]F, len(c.Inputs))
	for i, in := range c.Inputs {
		rows[i] = make([]F, len(in))
		for j, v := range in {
			rows[i][j] = F(v)
		}
	}
	out := make([]F, c.Model.NumOutputs)
	return func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p.Predict(rows[i], out)
			if i++; i == len(rows) {
				i = 0
			}
		}
		perTree(b, len(c.Model.Trees))
	}
}

func load(b *testing.B, name string) *golden.Case {
	c, err := golden.Load(name, false)
	if err != nil {
		b.Fatal(err)
	}
	return c
}

func perTree(b *testing.B, trees int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(trees), "ns/tree")
}
