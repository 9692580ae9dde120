package ir

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// statsStump returns a valid depth-2 tree model whose splits carry split
// statistics.
func statsStump() *Model {
	return &Model{FormatVersion: FormatVersion, Task: Regression, NumFeatures: 3, NumOutputs: 1,
		Aggregation: Sum, Link: Identity, Trees: []Tree{{Output: 0, Nodes: []Node{
			{Kind: Axis, Feature: 2, Threshold: 0.5, Left: 1, Right: 4, Gain: 302.2362060546875, Cover: 84},
			{Kind: Axis, Feature: 0, Threshold: 1, Left: 2, Right: 3, Gain: 18.1143718, Cover: 50.19},
			{Kind: Leaf, Value: []float64{-1}},
			{Kind: Leaf, Value: []float64{0.5}},
			{Kind: Leaf, Value: []float64{1}},
		}}}}
}

// TestSplitStatsFormat checks how the split statistics are written and
// read: on the node's line, as format 1.3, back to the same model and hash;
// a model without them is written byte for byte as before they existed.
func TestSplitStatsFormat(t *testing.T) {
	m := statsStump()
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"format_version": "1.3"`,
		"\n        {\"kind\": \"axis\", \"left\": 1, \"right\": 4, \"feature\": 2, \"threshold\": 0.5, \"gain\": 302.2362060546875, \"cover\": 84},\n",
		"\n        {\"kind\": \"axis\", \"left\": 2, \"right\": 3, \"threshold\": 1, \"gain\": 18.1143718, \"cover\": 50.19},\n",
		"\n        {\"kind\": \"leaf\", \"value\": [-1]},\n",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("Marshal lacks %q:\n%s", want, b)
		}
	}
	back, err := Decode(b, "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.Trees, m.Trees) || back.FormatVersion != "1.3" {
		t.Errorf("read back: version %s, trees %+v", back.FormatVersion, back.Trees)
	}
	h1, _ := Hash(m)
	h2, _ := Hash(back)
	if h1 != h2 {
		t.Errorf("hash %s, read back %s", h1, h2)
	}
	// Without the statistics: the version and bytes of a model that never
	// had them.
	plain := statsStump()
	for i := range plain.Trees[0].Nodes {
		plain.Trees[0].Nodes[i].Gain, plain.Trees[0].Nodes[i].Cover = 0, 0
	}
	p, err := Marshal(plain)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(p, []byte("gain")) || bytes.Contains(p, []byte("cover")) || !bytes.Contains(p, []byte(`"format_version": "1.0"`)) {
		t.Errorf("a model without statistics:\n%s", p)
	}
	// Either statistic alone makes a 1.3 file.
	plain.Trees[0].Nodes[1].Cover = 2
	if v := plain.MinFormatVersion(); v != "1.3" {
		t.Errorf("cover alone: version %s, want 1.3", v)
	}
	// A file whose version predates the fields is refused, naming the
	// first.
	_, err = Decode(bytes.Replace(b, []byte(`"1.3"`), []byte(`"1.2"`), 1), "m.json")
	want := `m.json: trees[0].nodes[0].gain: this field was added in format version 1.3, but the file says format_version "1.2"`
	if errString(err) != want {
		t.Errorf("1.2 with gain: got %v\nwant %s", err, want)
	}
	noGain := bytes.Replace(b, []byte(`"gain": 302.2362060546875, `), nil, 1)
	_, err = Decode(bytes.Replace(noGain, []byte(`"1.3"`), []byte(`"1.0"`), 1), "m.json")
	want = `m.json: trees[0].nodes[0].cover: this field was added in format version 1.3, but the file says format_version "1.0"`
	if errString(err) != want {
		t.Errorf("1.0 with cover: got %v\nwant %s", err, want)
	}
	if _, err := Decode(bytes.Replace(b, []byte(`"1.3"`), []byte(`"1.9"`), 1), "m.json"); err != nil {
		t.Errorf("1.9: %v", err)
	}
}

// TestGoldenUnchanged checks that the committed models, which carry no
// split statistics, are written byte for byte as they are.
func TestGoldenUnchanged(t *testing.T) {
	files, _ := filepath.Glob("../golden/*/model.json")
	n := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Load(f)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Equal(b, data) {
			n++
		} else if !strings.Contains(f, "handwritten") { // hand-written: not in Marshal's layout
			t.Errorf("%s: Marshal does not give the file back", f)
		}
	}
	if n < 4 {
		t.Errorf("only %d of the golden models %v read back byte for byte", n, files)
	}
}

// TestValidateSplitStats checks the rules of the split statistics: split
// nodes only, finite, cover >= 0.
func TestValidateSplitStats(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(nodes []Node)
		want string // "" for a valid model
	}{
		{"valid", func([]Node) {}, ""},
		{"gain only", func(n []Node) { n[0].Cover = 0 }, ""},
		{"cover only", func(n []Node) { n[1].Gain = 0 }, ""},
		{"negative gain", func(n []Node) { n[0].Gain = -0.25 }, ""},
		{"zero cover", func(n []Node) { n[0].Cover = 0 }, ""},
		{"gain on a leaf", func(n []Node) { n[2].Gain = 1 },
			"trees[0].nodes[2].gain: a leaf node has no gain (split statistics belong to split nodes)"},
		{"cover on a leaf", func(n []Node) { n[4].Cover = 3 },
			"trees[0].nodes[4].cover: a leaf node has no cover (split statistics belong to split nodes)"},
		{"negative cover", func(n []Node) { n[1].Cover = -1 },
			"trees[0].nodes[1].cover: cover is a hessian sum, a finite number >= 0, got -1"},
		{"NaN gain", func(n []Node) { n[0].Gain = math.NaN() },
			"trees[0].nodes[0].gain: NaN is not a finite number"},
		{"infinite gain", func(n []Node) { n[1].Gain = math.Inf(-1) },
			"trees[0].nodes[1].gain: -Inf is not a finite number"},
		{"infinite cover", func(n []Node) { n[0].Cover = math.Inf(1) },
			"trees[0].nodes[0].cover: cover is a hessian sum, a finite number >= 0, got +Inf"},
		{"NaN cover", func(n []Node) { n[0].Cover = math.NaN() },
			"trees[0].nodes[0].cover: cover is a hessian sum, a finite number >= 0, got NaN"},
		{"NaN gain on a leaf", func(n []Node) { n[3].Gain = math.NaN() },
			"trees[0].nodes[3].gain: a leaf node has no gain (split statistics belong to split nodes)"},
	} {
		m := statsStump()
		c.edit(m.Trees[0].Nodes)
		if got := errString(m.Validate()); got != c.want {
			t.Errorf("%s: got %q\nwant %q", c.name, got, c.want)
		}
	}
	// Other split kinds carry them too.
	m := statsStump()
	m.Trees[0].Nodes[1] = Node{Kind: Oblique, Left: 2, Right: 3, Indices: []int{0, 1}, Weights: []float64{1, -1}, Gain: 2, Cover: 5}
	if err := m.Validate(); err != nil {
		t.Errorf("oblique with statistics: %v", err)
	}
	m.Trees[0].Nodes[1] = Node{Kind: Categorical, Feature: 1, Categories: []int{0, 3}, Left: 2, Right: 3, Gain: 2, Cover: 5}
	if err := m.Validate(); err != nil {
		t.Errorf("categorical with statistics: %v", err)
	}
}
