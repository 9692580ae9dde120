package harness_test

import (
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
)

// stump is x1 < 0.5 (NaN left) ? -1.25 : 2, base -0.5, sigmoid link.
func stump() *ir.Model {
	return &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Binary, NumFeatures: 2, NumOutputs: 1,
		BaseScore: []float64{-0.5}, Aggregation: ir.Sum, Link: ir.Sigmoid,
		Trees: []ir.Tree{{Output: 0, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 1, Threshold: 0.5, DefaultLeft: true, Left: 1, Right: 2},
			{Kind: ir.Leaf, Value: []float64{-1.25}},
			{Kind: ir.Leaf, Value: []float64{2}},
		}}}}
}

// writeStump generates the package stump for stump() in precision prec
// into the existing folder dir.
func writeStump(t *testing.T, dir string, prec codegen.Precision) {
	t.Helper()
	files, err := codegen.Generate(stump(), codegen.Options{Package: "stump", Precision: prec})
	if err == nil {
		err = codegen.WriteDir(dir, files)
	}
	if err != nil {
		t.Fatal(err)
	}
}

func skipIfNoGo(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
}

// TestRun builds a generated package alone, as treegen check does, and
// compares it with the interpreter.
func TestRun(t *testing.T) {
	skipIfNoGo(t)
	m := stump()
	dir := t.TempDir()
	writeStump(t, dir, codegen.Float32)
	pkg, err := harness.Inspect(dir)
	if err != nil {
		t.Fatal(err)
	}
	if pkg.Name != "stump" || !pkg.Precision.Is32() || !pkg.Classifier {
		t.Errorf("Inspect = %+v, want package stump, float32, classifier", pkg)
	}
	rows := [][]float64{{0, 0.4}, {0, 0.5}, {0, math.NaN()}, {1, math.Inf(1)}}
	res, err := harness.Run(context.Background(), dir, rows, harness.Options{Time: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	diffs, err := harness.Compare(m, rows, res, ir.Float32)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diffs {
		t.Error(d)
	}
	if want := []int{0, 1, 0, 1}; len(res.Classes) != 4 || res.Classes[1] != want[1] || res.Classes[2] != want[2] {
		t.Errorf("classes %v, want %v", res.Classes, want)
	}
	if res.NsPerRow <= 0 || res.NsPerRowBatch <= 0 || res.AllocsPerRow != 0 || res.Build <= 0 {
		t.Errorf("timing %v and %v ns/row, %v allocations per row, build %v: want times > 0 and no allocation",
			res.NsPerRow, res.NsPerRowBatch, res.AllocsPerRow, res.Build)
	}
	if _, err := harness.Run(context.Background(), dir, [][]float64{{1}}, harness.Options{}); err == nil || !strings.Contains(err.Error(), "row has 1 values, want 2") {
		t.Errorf("a short row: error %v", err)
	}
	if _, err := harness.Inspect(t.TempDir()); err == nil {
		t.Error("Inspect finds a predictor in an empty folder")
	}
}

// fake is a hand-written package with the API of a generated one, one
// feature and one output, whose entry points disagree: PredictSlice adds 1,
// PredictBatch accepts any length, and Predict allocates.
const fake = `package fake

import "errors"

const NumFeatures = 1

const NumOutputs = 1

var ErrFeatureCount = errors.New("fake: features")

var ErrOutputCount = errors.New("fake: outputs")

var sink []float64

func PredictMargin(x *[NumFeatures]float64) [NumOutputs]float64 { return [NumOutputs]float64{2 * x[0]} }

func Predict(x *[NumFeatures]float64) [NumOutputs]float64 {
	sink = make([]float64, 8)
	return PredictMargin(x)
}

func PredictSlice(x []float64) ([NumOutputs]float64, error) {
	if len(x) != NumFeatures {
		return [NumOutputs]float64{}, ErrFeatureCount
	}
	return [NumOutputs]float64{2*x[0] + 1}, nil
}

func PredictBatch(x, out []float64) error {
	for i := range x {
		if i < len(out) {
			out[i] = 2 * x[i]
		}
	}
	return nil
}
`

// TestModule builds a generated package and a faulty one in one module,
// and checks that the driver's checks and counts see the faults.
func TestModule(t *testing.T) {
	skipIfNoGo(t)
	mod, err := harness.NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mod.Vet = true
	for _, name := range []string{"good", "fake"} {
		if err := os.Mkdir(mod.PackageDir(name), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	writeStump(t, mod.PackageDir("good"), codegen.Float64)
	if err := os.WriteFile(filepath.Join(mod.PackageDir("fake"), "fake.go"), []byte(fake), 0o644); err != nil {
		t.Fatal(err)
	}
	rows := [][]float64{{0, 1}, {math.NaN(), 0.25}}
	if err := mod.Add("good", rows, harness.Options{Check: true, Allocs: true}); err != nil {
		t.Fatal(err)
	}
	if err := mod.Add("fake", [][]float64{{1}, {math.NaN()}}, harness.Options{Check: true, Allocs: true}); err != nil {
		t.Fatal(err)
	}
	if err := mod.Gofmt(); err != nil {
		t.Error(err)
	}
	res, err := mod.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	good, bad := res[0], res[1]
	if len(good.Problems) > 0 || good.AllocsPerRow != 0 || good.BatchAllocs != 0 {
		t.Errorf("generated package: problems %q, %v and %v allocations", good.Problems, good.AllocsPerRow, good.BatchAllocs)
	}
	if diffs, err := harness.Compare(stump(), rows, good, ir.Float64); err != nil || len(diffs) > 0 {
		t.Errorf("generated package differs from the interpreter: %v %v", diffs, err)
	}
	want := []string{"PredictSlice returns", "PredictBatch of 2 rows into 3 outputs"}
	if len(bad.Problems) != len(want) {
		t.Fatalf("faulty package: problems %q, want %d", bad.Problems, len(want))
	}
	for i, w := range want {
		if !strings.Contains(bad.Problems[i], w) {
			t.Errorf("faulty package: problem %q, want one about %q", bad.Problems[i], w)
		}
	}
	if bad.AllocsPerRow != 1 || bad.Classes != nil || bad.Margins[0][0] != 2 {
		t.Errorf("faulty package: %v allocations per row, classes %v, margins %v", bad.AllocsPerRow, bad.Classes, bad.Margins)
	}
}

func TestDifferences(t *testing.T) {
	nan := math.NaN()
	got := &harness.Result{Margins: [][]float64{{1, nan}, {math.Copysign(0, -1)}}, Preds: [][]float64{{1}, {2}}, Classes: []int{1, 0}}
	want := &harness.Result{Margins: [][]float64{{1, nan}, {0}}, Classes: []int{1, 1}}
	diffs := harness.Differences(got, want)
	if len(diffs) != 2 || diffs[0].What != "margin[0]" || diffs[0].Row != 1 || diffs[1].What != "class" {
		t.Errorf("Differences = %v, want margin[0] and class of row 1", diffs)
	}
	if !harness.Same(nan, -nan) || harness.Same(0, math.Copysign(0, -1)) {
		t.Error("Same: NaN must equal NaN, and 0 differ from -0")
	}
}
