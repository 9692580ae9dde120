package golden

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/cart"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// shared is where update mode copies training data from: the PMLB data
// sets committed at the root of the repository.
const shared = "../testdata/pmlb"

// trainedCase describes a model that treegen trains for the golden set.
type trainedCase struct {
	dataset  string // file in shared, copied to train.tsv.gz
	maxRows  int    // keep only the first rows (0: all)
	opts     cart.Options
	classify bool
}

var trained = map[string]trainedCase{
	"cart_binary":     {dataset: "spambase.tsv.gz", opts: cart.Options{MaxDepth: 8, Name: "spambase"}, classify: true},
	"cart_multiclass": {dataset: "vehicle.tsv.gz", opts: cart.Options{MaxDepth: 8, Criterion: cart.Entropy, Name: "vehicle"}, classify: true},
	"cart_regression": {dataset: "537_houses.tsv.gz", maxRows: 3000, opts: cart.Options{MaxDepth: 8, Criterion: cart.MSE, Name: "houses"}},
}

// maxInputs bounds the number of held-out rows in inputs.csv.
const maxInputs = 300

// build returns the files of case name: model.json (unless hand-written),
// inputs.csv, expected.csv, expected32.csv and, for trained models,
// train.tsv.gz.
func build(t *testing.T, name string) map[string][]byte {
	t.Helper()
	dir := Dir(name)
	files := map[string][]byte{}
	var m *ir.Model
	var inputs [][]float64
	var err error
	switch tc, ok := trained[name]; {
	case ok:
		raw := trainingData(t, name, tc)
		files["train.tsv.gz"] = raw
		d, err := data.Read(bytes.NewReader(raw), "train.tsv.gz", data.Options{RequireTarget: true})
		if err != nil {
			t.Fatal(err)
		}
		var trainRows, testRows []int
		if tc.classify {
			_, class, err := data.Classes(d.Y)
			if err != nil {
				t.Fatal(err)
			}
			trainRows, testRows = data.StratifiedSplit(class, 0.3, 1)
		} else {
			trainRows, testRows = data.Split(d.Rows, 0.3, 1)
		}
		m, err = cart.Train(d.Subset(trainRows), tc.opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range testRows[:min(maxInputs, len(testRows))] {
			inputs = append(inputs, d.Row(r))
		}
	case name == "axis100":
		m = randmodel.Model(101, randmodel.Options{AxisOnly: true, Trees: 100, MinDepth: 6, MaxDepth: 6, Full: true, Features: 50, Task: ir.Binary})
		roundModel(m)
		m.Name = "random axis-aligned ensemble: 100 trees of depth 6"
		m.Provenance = &ir.Provenance{Producer: "internal/randmodel", Params: map[string]string{"seed": "101"}}
		inputs = randmodel.Rows(101, maxInputs, m.NumFeatures)
	case name == "oblique100":
		m = randmodel.Model(100, randmodel.Options{Oblique: 1, Trees: 100, MinDepth: 6, MaxDepth: 6, Full: true, Features: 10, Task: ir.Binary})
		roundModel(m)
		m.Name = "random oblique ensemble: 100 trees of depth 6"
		m.Provenance = &ir.Provenance{Producer: "internal/randmodel", Params: map[string]string{"seed": "100"}}
		inputs = randmodel.Rows(100, maxInputs, m.NumFeatures)
	case name == "soft":
		m = softModel(102)
		inputs = randmodel.Rows(102, maxInputs, m.NumFeatures)
	default: // hand-written: the model file is the source
		m, err = ir.Load(filepath.Join(dir, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		inputs = randmodel.Rows(7, maxInputs, m.NumFeatures)
	}
	// Edge rows: everything missing, everything infinite.
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		row := make([]float64, m.NumFeatures)
		for j := range row {
			row[j] = v
		}
		inputs = append(inputs, row)
	}
	if _, ok := trained[name]; ok || strings.HasSuffix(name, "100") || name == "soft" {
		b, err := ir.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		files["model.json"] = b
	}
	files["inputs.csv"] = inputsCSV(m, inputs)
	files["expected.csv"] = expectedCSV[float64](t, m, inputs, 64)
	files["expected32.csv"] = expectedCSV[float32](t, m, inputs, 32)
	return files
}

// softModel returns a model shaped like a trained Tree Ensemble Layer: 10
// perfect soft trees of depth 4 to 6 over 8 preprocessed features, dense
// weights, γ = 1, a leaf value per class (3 classes), softmax link.
func softModel(seed uint64) *ir.Model {
	r := rand.New(rand.NewPCG(seed, 7))
	const p, k = 8, 3
	m := &ir.Model{FormatVersion: ir.FormatVersion, Name: "random soft ensemble: 10 trees of depth 4 to 6 (TEL-shaped)",
		Task: ir.Multiclass, NumFeatures: p, NumOutputs: k, Aggregation: ir.Sum, Link: ir.Softmax,
		Preprocess: &ir.Affine{}, ClassNames: []string{"a", "b", "c"},
		Provenance: &ir.Provenance{Producer: "golden/golden_test.go", Params: map[string]string{"seed": fmt.Sprint(seed)}}}
	for j := 0; j < p; j++ {
		m.Preprocess.Shift = append(m.Preprocess.Shift, math.Round(r.NormFloat64()*1000)/1000)
		m.Preprocess.Scale = append(m.Preprocess.Scale, math.Round((0.5+r.Float64())*1000)/1000)
	}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	for i := 0; i < 10; i++ {
		depth := 4 + r.IntN(3)
		m.Trees = append(m.Trees, randmodel.SoftTree(r, depth, all, k, 0.4))
	}
	roundModel(m)
	return m
}

// roundModel rounds the weights, biases and leaf values of m to three
// decimals, which keeps the committed files small.
func roundModel(m *ir.Model) {
	r := func(v float64) float64 { return math.Round(v*1000) / 1000 }
	for ti := range m.Trees {
		for ni := range m.Trees[ti].Nodes {
			n := &m.Trees[ti].Nodes[ni]
			n.Bias = r(n.Bias)
			for j := range n.Weights {
				n.Weights[j] = r(n.Weights[j])
			}
			for j := range n.Value {
				n.Value[j] = r(n.Value[j])
			}
		}
	}
	for k := range m.BaseScore {
		m.BaseScore[k] = r(m.BaseScore[k])
	}
}

// trainingData returns the gzipped training data of a trained case: in
// update mode from the shared data sets, otherwise the committed copy.
func trainingData(t *testing.T, name string, tc trainedCase) []byte {
	t.Helper()
	if !*update {
		raw, err := os.ReadFile(filepath.Join(Dir(name), "train.tsv.gz"))
		if err != nil {
			t.Fatal(err)
		}
		return raw
	}
	raw, err := os.ReadFile(filepath.Join(shared, tc.dataset))
	if err != nil {
		t.Fatal(err)
	}
	if tc.maxRows == 0 {
		return raw
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	var text bytes.Buffer
	if _, err := text.ReadFrom(zr); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(text.String(), "\n")
	var out bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&out, gzip.BestCompression)
	zw.Write([]byte(strings.Join(lines[:tc.maxRows+1], "")))
	zw.Close()
	return out.Bytes()
}

func inputsCSV(m *ir.Model, rows [][]float64) []byte {
	var b bytes.Buffer
	for j := 0; j < m.NumFeatures; j++ {
		if j > 0 {
			b.WriteByte(',')
		}
		if m.FeatureNames != nil {
			b.WriteString(m.FeatureNames[j])
		} else {
			fmt.Fprintf(&b, "f%d", j)
		}
	}
	b.WriteByte('\n')
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(FormatFloat(v, 64))
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// expectedCSV runs the interpreter in precision F over rows.
func expectedCSV[F runtime.Float](t *testing.T, m *ir.Model, rows [][]float64, bits int) []byte {
	t.Helper()
	p, err := runtime.New[F](m)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	var cols []string
	for k := 0; k < m.NumOutputs; k++ {
		cols = append(cols, fmt.Sprintf("margin_%d", k))
	}
	for k := 0; k < m.NumOutputs; k++ {
		cols = append(cols, fmt.Sprintf("pred_%d", k))
	}
	if m.IsClassifier() {
		cols = append(cols, "class")
	}
	b.WriteString(strings.Join(cols, ",") + "\n")
	x := make([]F, m.NumFeatures)
	out := make([]F, m.NumOutputs)
	for _, r := range rows {
		for j, v := range r {
			x[j] = F(v)
		}
		var vals []string
		p.PredictMargin(x, out)
		for _, v := range out {
			vals = append(vals, FormatFloat(float64(v), bits))
		}
		p.Predict(x, out)
		for _, v := range out {
			vals = append(vals, FormatFloat(float64(v), bits))
		}
		if m.IsClassifier() {
			c, _ := p.PredictClass(x)
			vals = append(vals, fmt.Sprint(c))
		}
		b.WriteString(strings.Join(vals, ",") + "\n")
	}
	return b.Bytes()
}

// TestGolden rebuilds every golden case (retraining the trained models) and
// compares it byte for byte with the committed files; with -update it
// rewrites them.
func TestGolden(t *testing.T) {
	for _, name := range Names() {
		t.Run(name, func(t *testing.T) {
			files := build(t, name)
			for file, want := range files {
				path := filepath.Join(Dir(name), file)
				if *update {
					os.MkdirAll(Dir(name), 0o755)
					if err := os.WriteFile(path, want, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				got, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%v (run: go test ./golden -update)", err)
				}
				if !bytes.Equal(got, want) {
					os.WriteFile(path+".got", want, 0o644)
					t.Errorf("%s differs from what treegen computes now (written to %s.got); if the change is intended run: go test ./golden -update", path, path)
				}
			}
		})
	}
}

// TestLoad reads every case back through the public loader.
func TestLoad(t *testing.T) {
	for _, name := range Names() {
		for _, single := range []bool{false, true} {
			c, err := Load(name, single)
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Inputs) == 0 || len(c.Preds) != len(c.Inputs) || (c.Model.IsClassifier() != (c.Classes != nil)) {
				t.Fatalf("%s: %d inputs, %d predictions, %d classes", name, len(c.Inputs), len(c.Preds), len(c.Classes))
			}
		}
	}
}
