package codegen_test

import (
	"bufio"
	"context"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
)

// TestGeneratedExpf checks the exp that float32 generated code emits
// against glibc's expf itself: the inputs and outputs that
// internal/fmath/testdata/expf.txt took from libm (make_expf.py), among
// them hundreds where rounding the float64 exp to float32 is wrong. A
// model whose one tree has each finite input as a leaf, read out through
// the exp link, makes Predict return expf of it.
func TestGeneratedExpf(t *testing.T) {
	gentest.SkipIfNoGo(t)
	if testing.Short() {
		t.Skip("builds generated code")
	}
	f, err := os.Open("../internal/fmath/testdata/expf.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var in, want []float32
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		xs, ys, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		x, errX := strconv.ParseUint(xs, 16, 32)
		y, errY := strconv.ParseUint(ys, 16, 32)
		if !ok || errX != nil || errY != nil {
			t.Fatalf("expf.txt: bad line %q", sc.Text())
		}
		v := math.Float32frombits(uint32(x))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			continue // no leaf holds them
		}
		in, want = append(in, v), append(want, math.Float32frombits(uint32(y)))
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(in) < 1000 {
		t.Fatalf("expf.txt: only %d finite inputs", len(in))
	}
	// Leaf i is reached by x = i: a balanced tree of splits x < i + 0.5.
	var nodes []ir.Node
	var grow func(lo, hi int) int
	grow = func(lo, hi int) int {
		at := len(nodes)
		if hi-lo == 1 {
			nodes = append(nodes, ir.Node{Kind: ir.Leaf, Value: []float64{float64(in[lo])}})
			return at
		}
		mid := (lo + hi) / 2
		nodes = append(nodes, ir.Node{Kind: ir.Axis, Feature: 0, Threshold: float64(mid) - 0.5})
		l := grow(lo, mid)
		r := grow(mid, hi)
		nodes[at].Left, nodes[at].Right = l, r
		return at
	}
	grow(0, len(in))
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: ir.Regression,
		NumFeatures: 1, NumOutputs: 1, Aggregation: ir.Sum, Link: ir.Exp,
		Trees: []ir.Tree{{Output: 0, Nodes: nodes}},
	}
	files, err := codegen.Generate(m, codegen.Options{Package: "expf", Backend: "ifelse", Precision: codegen.Float32})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := codegen.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	rows := make([][]float64, len(in))
	for i := range rows {
		rows[i] = []float64{float64(i)}
	}
	res, err := harness.Run(context.Background(), dir, rows, harness.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for i, w := range want {
		if got := float32(res.Preds[i][0]); math.Float32bits(got) != math.Float32bits(w) {
			if bad++; bad <= 10 {
				t.Errorf("expf(%g) [%08x] = %g [%08x] in generated code, glibc %g [%08x]",
					in[i], math.Float32bits(in[i]), got, math.Float32bits(got), w, math.Float32bits(w))
			}
		}
	}
	if bad > 10 {
		t.Errorf("%d of %d values differ", bad, len(want))
	}
}
