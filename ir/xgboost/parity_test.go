package xgboost

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// fixtures is the folder of the XGBoost fixtures (testdata/xgboost at the
// root of the repository, with their provenance), relative to this
// package.
const fixtures = "../../testdata/xgboost"

// parityCase is a model saved by XGBoost with the rows it was checked on and
// XGBoost's own outputs for them.
type parityCase struct {
	name    string
	dir     string
	model   *ir.Model
	inputs  [][]float64
	margins [][]float32 // XGBoost's predict(output_margin=True)
	preds   [][]float32 // XGBoost's predict(); class ids for multi:softmax
	classes bool        // preds holds class ids
	// bounds holds, per row and output, a bound on the rounding error of
	// XGBoost's float32 sum: 2^-24 times the sum of the magnitudes of its
	// partial sums; predictions, computed from the margin in float64 here
	// and in float32 by XGBoost, may differ by what it allows after the
	// link.
	bounds [][]float64
}

// caseDirs lists the folders holding a model.json: the fixtures
// (which must be there) and testdata/models.
func caseDirs(t *testing.T) []string {
	t.Helper()
	var dirs []string
	for _, root := range []string{fixtures, "testdata/models"} {
		entries, err := os.ReadDir(root)
		if err != nil {
			t.Fatalf("the XGBoost test models are missing: %v", err)
		}
		n := 0
		for _, e := range entries {
			if e.IsDir() {
				if _, err := os.Stat(filepath.Join(root, e.Name(), "model.json")); err == nil {
					dirs = append(dirs, filepath.Join(root, e.Name()))
					n++
				}
			}
		}
		if n == 0 {
			t.Fatalf("%s holds no model", root)
		}
	}
	return dirs
}

// loadCase reads a case folder; model is the model file to import.
func loadCase(t *testing.T, dir, model string) *parityCase {
	t.Helper()
	m, err := Load(model)
	if err != nil {
		t.Fatal(err)
	}
	c := &parityCase{name: filepath.Base(dir), dir: dir, model: m}
	c.classes = m.Provenance.Params["objective"] == "multi:softmax"
	var header []string
	c.inputs, header = readCSV(t, filepath.Join(dir, "inputs.csv"), -1)
	if len(header) != m.NumFeatures {
		t.Fatalf("%s: inputs.csv has %d columns, the model %d features", dir, len(header), m.NumFeatures)
	}
	if m.FeatureNames != nil && strings.Join(header, ",") != strings.Join(m.FeatureNames, ",") {
		t.Errorf("%s: feature names %q, inputs.csv header %q", dir, m.FeatureNames, header)
	}
	c.margins = float32Rows(readCSV(t, filepath.Join(dir, "margin.csv"), m.NumOutputs))
	width := m.NumOutputs
	if c.classes {
		width = 1
	}
	c.preds = float32Rows(readCSV(t, filepath.Join(dir, "pred.csv"), width))
	if len(c.margins) != len(c.inputs) || len(c.preds) != len(c.inputs) {
		t.Fatalf("%s: %d input rows, %d margin rows, %d prediction rows", dir, len(c.inputs), len(c.margins), len(c.preds))
	}
	c.bounds = make([][]float64, len(c.inputs))
	for i, row := range c.inputs {
		c.bounds[i] = sum32(m, row, nil)
	}
	return c
}

// sum32 evaluates m on row as XGBoost does, independently of the
// interpreter: the axis-aligned and categorical trees of an import walked in
// float32, their leaves added to the float32 base margin in tree order. It
// stores the margins in margins if it is not nil, and returns for each
// output the bound of the rounding error of that sum.
func sum32(m *ir.Model, row []float64, margins []float32) (bound []float64) {
	x := make([]float32, len(row))
	for j, v := range row {
		x[j] = float32(v)
	}
	acc := make([]float32, m.NumOutputs)
	bound = make([]float64, m.NumOutputs)
	for k := range acc {
		acc[k] = float32(m.Base(k))
	}
	for _, tree := range m.Trees {
		n := &tree.Nodes[0]
		for n.IsSplit() {
			v := x[n.Feature]
			var left bool
			switch {
			case v != v:
				left = n.DefaultLeft
			case n.Kind == ir.Axis:
				left = v < float32(n.Threshold)
			case n.Kind == ir.Categorical:
				left = v > -1 && v < 1<<31 && slices.Contains(n.Categories, int(v))
			default:
				panic("not an import of XGBoost: " + string(n.Kind))
			}
			if left {
				n = &tree.Nodes[n.Left]
			} else {
				n = &tree.Nodes[n.Right]
			}
		}
		k := tree.Output
		acc[k] += float32(n.Value[0])
		bound[k] += math.Abs(float64(acc[k])) * 0x1p-24
	}
	copy(margins, acc)
	return bound
}

// readCSV reads a CSV file of numbers; an empty cell is NaN. With width >= 0
// the file has no header and width columns; otherwise its first line is a
// header, returned.
func readCSV(t *testing.T, path string, width int) ([][]float64, []string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<24)
	var header []string
	var rows [][]float64
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimRight(sc.Text(), "\r")
		cells := strings.Split(text, ",")
		if width < 0 && header == nil {
			header = cells
			width = len(cells)
			continue
		}
		if len(cells) != width {
			t.Fatalf("%s:%d: %d cells, want %d", path, line, len(cells), width)
		}
		row := make([]float64, width)
		for j, s := range cells {
			if s == "" {
				row[j] = math.NaN()
				continue
			}
			if row[j], err = strconv.ParseFloat(s, 64); err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows, header
}

// float32Rows converts values printed with %.9g back to the float32s they
// print.
func float32Rows(rows [][]float64, _ []string) [][]float32 {
	out := make([][]float32, len(rows))
	for i, row := range rows {
		out[i] = make([]float32, len(row))
		for j, v := range row {
			out[i][j] = float32(v) // %.9g round-trips a float32 exactly
		}
	}
	return out
}

// sameMargin reports whether a margin is XGBoost's float32 margin, bit for
// bit: imported models accumulate in float32 (ir.Model.Float32Sum), so the
// float64 interpreter and float64 generated code give XGBoost's margins
// widened, exactly.
func (c *parityCase) sameMargin(i, k int, got float64) bool {
	return math.Float64bits(got) == math.Float64bits(float64(c.margins[i][k]))
}

// nearPred reports whether a prediction is within 1e-6 of XGBoost's
// (relative to |want| when |want| > 1), or within what the margins' rounding
// error bound allows after the link: sigmoid and softmax at most double it,
// exp scales it by the prediction.
func (c *parityCase) nearPred(i, k int, got float64) bool {
	want := float64(c.preds[i][k])
	bound := 0.0
	for _, b := range c.bounds[i] {
		bound = math.Max(bound, b)
	}
	tol := math.Max(1e-6, 2*bound) * math.Max(1, math.Abs(want))
	return math.Abs(got-want) <= tol
}

func bits32(f float32) string { return fmt.Sprintf("%v (%08x)", f, math.Float32bits(f)) }

// checkInterpreter checks the interpreter in both precisions against
// XGBoost's outputs: margins bit for bit, float32 predictions bit for bit,
// float64 predictions within what nearPred allows.
func checkInterpreter(t *testing.T, c *parityCase) {
	t.Helper()
	m := c.model
	p32, err := runtime.New[float32](m)
	if err != nil {
		t.Fatal(err)
	}
	p64, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	x32 := make([]float32, m.NumFeatures)
	out32 := make([]float32, m.NumOutputs)
	out64 := make([]float64, m.NumOutputs)
	bad := 0
	report := func(format string, args ...any) {
		bad++
		if bad <= 10 {
			t.Errorf(format, args...)
		}
	}
	for i, row := range c.inputs {
		for j, v := range row {
			x32[j] = float32(v)
		}
		if err := p32.PredictMargin(x32, out32); err != nil {
			t.Fatal(err)
		}
		for k, v := range out32 {
			if math.Float32bits(v) != math.Float32bits(c.margins[i][k]) {
				report("%s: row %d: float32 margin[%d] = %s, XGBoost %s", c.name, i, k, bits32(v), bits32(c.margins[i][k]))
			}
		}
		sum32(m, row, out32)
		for k, v := range out32 {
			if math.Float32bits(v) != math.Float32bits(c.margins[i][k]) {
				report("%s: row %d: float32 margin[%d] of the tests' own evaluator = %s, XGBoost %s", c.name, i, k, bits32(v), bits32(c.margins[i][k]))
			}
		}
		if err := p64.PredictMargin(row, out64); err != nil {
			t.Fatal(err)
		}
		for k, v := range out64 {
			if !c.sameMargin(i, k, v) {
				report("%s: row %d: float64 margin[%d] = %v, XGBoost %s", c.name, i, k, v, bits32(c.margins[i][k]))
			}
		}
		if c.classes {
			want := int(c.preds[i][0])
			if got, _ := p32.PredictClass(x32); got != want {
				report("%s: row %d: float32 class %d, XGBoost %d", c.name, i, got, want)
			}
			if got, _ := p64.PredictClass(row); got != want {
				report("%s: row %d: float64 class %d, XGBoost %d", c.name, i, got, want)
			}
			continue
		}
		if err := p32.Predict(x32, out32); err != nil {
			t.Fatal(err)
		}
		if err := p64.Predict(row, out64); err != nil {
			t.Fatal(err)
		}
		for k := range out64 {
			want := float64(c.preds[i][k])
			if !c.nearPred(i, k, out64[k]) {
				report("%s: row %d: float64 prediction[%d] = %v, XGBoost %v", c.name, i, k, out64[k], want)
			}
			if math.Float32bits(out32[k]) != math.Float32bits(c.preds[i][k]) {
				report("%s: row %d: float32 prediction[%d] = %s, XGBoost %s", c.name, i, k, bits32(out32[k]), bits32(c.preds[i][k]))
			}
		}
	}
	if bad > 10 {
		t.Errorf("%s: %d disagreements in all", c.name, bad)
	}
}

// checkGenerated builds the generated code in both precisions and checks it
// against XGBoost's outputs: margins bit for bit in both precisions, and
// float32 predictions bit for bit.
func checkGenerated(t *testing.T, c *parityCase) {
	t.Helper()
	for _, prec := range []codegen.Precision{codegen.Float32, codegen.Float64} {
		files, err := codegen.Generate(c.model, codegen.Options{Package: "x", Precision: prec})
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := codegen.WriteDir(dir, files); err != nil {
			t.Fatal(err)
		}
		// Check: PredictBatch (blocks of rows, with SIMD instructions when
		// the go command builds with GOEXPERIMENT=simd) equals Predict.
		res, err := harness.Run(context.Background(), dir, c.inputs, harness.Options{Check: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Problems {
			t.Errorf("%s: generated %s: %s", c.name, prec, p)
		}
		bad := 0
		for i := range c.inputs {
			for k, v := range res.Margins[i] {
				want := c.margins[i][k]
				if !c.sameMargin(i, k, v) {
					bad++
					if bad <= 10 {
						t.Errorf("%s: generated %s: row %d: margin[%d] = %v, XGBoost %s", c.name, prec, i, k, v, bits32(want))
					}
				}
			}
			for k, v := range res.Preds[i] {
				// float32 predictions are XGBoost's bit for bit.
				if prec == codegen.Float32 && !c.classes && math.Float64bits(v) != math.Float64bits(float64(c.preds[i][k])) {
					bad++
					if bad <= 10 {
						t.Errorf("%s: generated %s: row %d: prediction[%d] = %v, XGBoost %s", c.name, prec, i, k, v, bits32(c.preds[i][k]))
					}
				}
			}
			if c.classes && res.Classes[i] != int(c.preds[i][0]) {
				bad++
				t.Errorf("%s: generated %s: row %d: class %d, XGBoost %v", c.name, prec, i, res.Classes[i], c.preds[i][0])
			}
		}
		if bad > 10 {
			t.Errorf("%s: generated %s: %d disagreements in all", c.name, prec, bad)
		}
	}
}

// TestParity imports every model saved by XGBoost (the fixtures and
// testdata/models) and checks the interpreter and the generated code against
// XGBoost's own margins and predictions.
func TestParity(t *testing.T) {
	for _, dir := range caseDirs(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			c := loadCase(t, dir, filepath.Join(dir, "model.json"))
			checkInterpreter(t, c)
			if testing.Short() {
				t.Log("generated code not checked in -short mode")
				return
			}
			checkGenerated(t, c)
		})
	}
}

// TestUBJSON checks that the UBJSON file of a model, where there is one,
// imports to the same IR as its JSON file, byte for byte.
func TestUBJSON(t *testing.T) {
	n := 0
	for _, dir := range caseDirs(t) {
		ubj := filepath.Join(dir, "model.ubj")
		if _, err := os.Stat(ubj); err != nil {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			sameIR(t, filepath.Join(dir, "model.json"), ubj)
			c := loadCase(t, dir, ubj)
			checkInterpreter(t, c)
		})
	}
	if n < 3 {
		t.Fatalf("only %d models have a UBJSON file", n)
	}
}

// sameIR checks that two model files import to byte-identical IR.
func sameIR(t *testing.T, a, b string) {
	t.Helper()
	var out [2][]byte
	for i, path := range []string{a, b} {
		m, err := Load(path)
		if err != nil {
			t.Fatal(err)
		}
		if out[i], err = ir.Marshal(m); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(out[0], out[1]) {
		t.Errorf("%s and %s import differently:\n%s", a, b, firstDiff(out[0], out[1]))
	}
}

// firstDiff shows the first line where two texts differ.
func firstDiff(a, b []byte) string {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d:\n  %s\n  %s", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("%d lines, %d lines", len(la), len(lb))
}
