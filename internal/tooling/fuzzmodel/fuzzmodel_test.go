package fuzzmodel

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

// check fails t unless cases are what Decode promises: between MinModels
// and MaxModels valid models, rows of the right length, one or two
// precisions.
func check(t *testing.T, data []byte, cases []Case) {
	t.Helper()
	if len(cases) < MinModels || len(cases) > MaxModels {
		t.Fatalf("%q: %d cases", data, len(cases))
	}
	for i, c := range cases {
		if err := c.Model.Validate(); err != nil {
			t.Fatalf("%q: case %d (%s): %v", data, i, c.Name(), err)
		}
		if len(c.Rows) == 0 || len(c.Precisions) == 0 || len(c.Precisions) > 2 {
			t.Fatalf("%q: case %d: %d rows, precisions %v", data, i, len(c.Rows), c.Precisions)
		}
		for _, r := range c.Rows {
			if len(r) != c.Model.NumFeatures {
				t.Fatalf("%q: case %d: a row of %d values for %d features", data, i, len(r), c.Model.NumFeatures)
			}
		}
		if c.Prune < 0 || math.IsNaN(c.Prune) || math.IsInf(c.Prune, 0) {
			t.Fatalf("%q: case %d: prune %v", data, i, c.Prune)
		}
	}
}

// TestDecode decodes edge inputs and random ones: valid models, the same
// cases for the same bytes, MinModels models for short inputs, one per
// chunk for long ones.
func TestDecode(t *testing.T) {
	inputs := [][]byte{nil, {}, {Separator}, bytes.Repeat([]byte{Separator}, 40), bytes.Repeat([]byte{0}, 1000),
		bytes.Repeat([]byte{0xfe}, 1000), []byte("hello")}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		b := make([]byte, r.IntN(300))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		inputs = append(inputs, b)
	}
	for _, data := range inputs {
		cases := Decode(data)
		check(t, data, cases)
		if again := Decode(data); !same(t, cases, again) {
			t.Fatalf("%q: two decodings differ", data)
		}
		chunks := bytes.Count(data, []byte{Separator}) + 1
		if want := min(max(chunks, MinModels), MaxModels); len(cases) != want {
			t.Errorf("%q: %d cases, want %d", data, len(cases), want)
		}
	}
}

// same reports whether a and b are the same cases: the same models, rows
// of the same bits, the same precisions and pruning.
func same(t *testing.T, a, b []Case) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		ma, err := json.Marshal(a[i].Model)
		if err != nil {
			t.Fatal(err)
		}
		mb, err := json.Marshal(b[i].Model)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ma, mb) || len(a[i].Rows) != len(b[i].Rows) || !reflect.DeepEqual(a[i].Precisions, b[i].Precisions) ||
			a[i].Prune != b[i].Prune || a[i].Name() != b[i].Name() {
			return false
		}
		for r, row := range a[i].Rows {
			for j, v := range row {
				if math.Float64bits(v) != math.Float64bits(b[i].Rows[r][j]) {
					return false
				}
			}
		}
	}
	return true
}

// TestCopies checks that the copies of a chunk, which fill an input up to
// MinModels models, are other models of the same profile.
func TestCopies(t *testing.T) {
	cases := Decode([]byte{byte(Categorical), 2, 3})
	for i, c := range cases {
		if c.Profile != Categorical || c.Chunk != 0 || c.Copy != i {
			t.Errorf("case %d: %s", i, c.Name())
		}
	}
	if reflect.DeepEqual(cases[0].Model, cases[1].Model) {
		t.Errorf("the first two copies are the same model")
	}
}

// TestCoverage decodes random inputs and checks that together they reach
// every feature of the IR that the fuzzing is meant to reach.
func TestCoverage(t *testing.T) {
	seen := map[string]int{}
	r := rand.New(rand.NewPCG(3, 4))
	for range 100 {
		b := make([]byte, r.IntN(64))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		for _, c := range Decode(b) {
			for _, f := range features(c) {
				seen[f]++
			}
		}
	}
	var missing []string
	for _, f := range allFeatures {
		if seen[f] == 0 {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		t.Errorf("no decoded model has %s", strings.Join(missing, ", "))
	}
	t.Logf("%v", seen)
}

// allFeatures are the features of models and rows that TestCoverage looks
// for.
var allFeatures = []string{
	"axis", "oblique", "soft", "soft γ=0", "categorical", "leaf", "softmax", "vector", "latent", "elu", "readout",
	"regression", "binary", "multiclass", "multi_output", "identity", "sigmoid", "softmax link", "exp", "mean",
	"float32 compare", "float32 sum", "preprocess", "base", "no trees", "trees per round", "depth>6", "le", "default left",
	"float64", "float32", "prune", "row NaN", "row +Inf", "row -Inf", "row -0", "row subnormal", "row threshold", "row category",
	"row next to threshold",
}

// features lists the features of allFeatures that case c has.
func features(c Case) []string {
	m := c.Model
	var fs []string
	add := func(ok bool, f string) {
		if ok {
			fs = append(fs, f)
		}
	}
	thresholds := map[float64]bool{}
	next := map[float64]bool{}
	cats := map[float64]bool{}
	for i := range m.Trees {
		t := &m.Trees[i]
		add(t.Latent, "latent")
		add(t.Activation == ir.Elu, "elu")
		add(t.Output == ir.AllOutputs && !t.Latent, "vector")
		add(t.Depth() > 6, "depth>6")
		for _, n := range t.Nodes {
			add(n.Kind == ir.Axis, "axis")
			add(n.Kind == ir.Oblique, "oblique")
			add(n.Kind == ir.Soft, "soft")
			add(n.Kind == ir.Soft && n.Gamma == 0, "soft γ=0")
			add(n.Kind == ir.Categorical, "categorical")
			add(n.Kind == ir.Leaf && !t.Latent, "leaf")
			add(n.Kind == ir.SoftmaxLeaf, "softmax")
			add(n.LessEqual, "le")
			add(n.DefaultLeft, "default left")
			if n.Kind == ir.Axis && m.Preprocess == nil {
				thresholds[n.Threshold] = true
				next[math.Nextafter(n.Threshold, 1e300)] = true
			}
			if n.Kind == ir.Categorical && m.Preprocess == nil {
				for _, c := range n.Categories {
					cats[float64(c)] = true
				}
			}
		}
	}
	add(m.Readout != nil, "readout")
	add(true, string(m.Task))
	add(m.Link != ir.Softmax, string(m.Link))
	add(m.Link == ir.Softmax, "softmax link")
	add(m.Aggregation == ir.Mean, "mean")
	add(m.Float32Compare, "float32 compare")
	add(m.Float32Sum, "float32 sum")
	add(m.Preprocess != nil, "preprocess")
	add(m.BaseScore != nil, "base")
	add(len(m.Trees) == 0, "no trees")
	add(m.TreesPerRound != 0, "trees per round")
	for _, p := range c.Precisions {
		add(true, string(p))
	}
	add(c.Prune > 0, "prune")
	for _, r := range c.Rows {
		for _, v := range r {
			add(math.IsNaN(v), "row NaN")
			add(math.IsInf(v, 1), "row +Inf")
			add(math.IsInf(v, -1), "row -Inf")
			add(v == 0 && math.Signbit(v), "row -0")
			add(v != 0 && math.Abs(v) < 2.2250738585072014e-308, "row subnormal")
			add(thresholds[v], "row threshold")
			add(next[v], "row next to threshold")
			add(cats[v], "row category")
		}
	}
	return fs
}

// TestSeeds checks that the seed corpus of FuzzBackends, in
// codegen/testdata/fuzz/FuzzBackends, decodes into models of every
// profile and reaches every feature of allFeatures.
func TestSeeds(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "codegen", "testdata", "fuzz", "FuzzBackends")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	profiles := map[Profile]bool{}
	for _, e := range entries {
		data, err := readCorpusFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		cases := Decode(data)
		check(t, data, cases)
		for _, c := range cases {
			profiles[c.Profile] = true
			for _, f := range features(c) {
				seen[f] = true
			}
		}
	}
	for p := Profile(0); p < numProfiles; p++ {
		if !profiles[p] {
			t.Errorf("no seed has a model of profile %s", p)
		}
	}
	for _, f := range allFeatures {
		if !seen[f] {
			t.Errorf("no seed has %s", f)
		}
	}
}

// readCorpusFile reads a file of the fuzzing corpus of a []byte argument:
// the line "go test fuzz v1", then []byte("...").
func readCorpusFile(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.SplitN(strings.TrimSpace(string(data)), "\n", 2)
	if len(lines) != 2 || lines[0] != "go test fuzz v1" {
		return nil, os.ErrInvalid
	}
	lit, ok := strings.CutPrefix(lines[1], "[]byte(")
	if !ok || !strings.HasSuffix(lit, ")") {
		return nil, os.ErrInvalid
	}
	s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
	return []byte(s), err
}

// FuzzDecode checks that every input decodes into valid cases.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{byte(Latent), 1, 2, Separator, byte(TEL)})
	f.Fuzz(func(t *testing.T, data []byte) {
		check(t, data, Decode(data))
	})
}
