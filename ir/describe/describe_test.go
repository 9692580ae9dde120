package describe

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/importance"
)

func model() *ir.Model {
	return &ir.Model{
		FormatVersion: "1.0", Name: "m", Task: ir.Regression, NumFeatures: 2, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity, BaseScore: []float64{-0.0},
		Trees: []ir.Tree{{Output: -1, Nodes: []ir.Node{
			{Kind: ir.Oblique, Indices: []int{0, 1}, Weights: []float64{1, -2}, Bias: 0.5, Left: 1, Right: 2, LessEqual: true},
			{Kind: ir.Leaf, Value: []float64{3}},
			{Kind: ir.Leaf, Value: []float64{4}},
		}}},
	}
}

// TestEscapes: strings from a model file reach the summary and the dot
// graph escaped, so that a model cannot clear the screen, rewrite a line
// or forge one.
func TestEscapes(t *testing.T) {
	const evil = "x\x1b[2J\rforged line\x00\u202e"
	m := model()
	m.Name = evil
	m.FeatureNames = []string{"a" + evil, "b"}
	m.Provenance = &ir.Provenance{Producer: evil, Params: map[string]string{"k" + evil: evil}, Data: map[string]string{"d": evil}}
	tests := []struct {
		name  string
		write func(*strings.Builder) error
		want  string
	}{
		{"summary", func(b *strings.Builder) error { return Summary(b, m) }, `producer     "x\x1b[2J\rforged line\x00\u202e"`},
		{"dot", func(b *strings.Builder) error { return Dot(b, m) }, `digraph "x\\x1b[2J\\rforged line\\x00\\u202e"`},
		{"dot feature", func(b *strings.Builder) error { return Dot(b, m) }, `1·ax\\x1b[2J\\rforged line\\x00\\u202e + -2·b + 0.5 <= 0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			if err := tc.write(&b); err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{"\x1b", "\r", "\x00", "\u202e"} {
				if strings.Contains(b.String(), bad) {
					t.Errorf("writes %q raw:\n%s", bad, b.String())
				}
			}
			if !strings.Contains(b.String(), tc.want) {
				t.Errorf("no %s in\n%s", tc.want, b.String())
			}
		})
	}
}

func TestSummaryJSON(t *testing.T) {
	var b strings.Builder
	if err := SummaryJSON(&b, model()); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Task       string         `json:"task"`
		Trees      int            `json:"trees"`
		MaxDepth   int            `json:"max_depth"`
		Leaves     int            `json:"leaves"`
		Nodes      map[string]int `json:"nodes"`
		SHA256     string         `json:"sha256"`
		Importance struct {
			MultiFeature int `json:"multi_feature_splits"`
		} `json:"importance"`
	}
	if err := json.Unmarshal([]byte(b.String()), &got); err != nil {
		t.Fatal(err)
	}
	if got.Task != "regression" || got.Trees != 1 || got.MaxDepth != 1 || got.Leaves != 2 || got.Nodes["oblique"] != 1 || got.Nodes["leaf"] != 2 || len(got.SHA256) != 64 {
		t.Errorf("%+v\n%s", got, b.String())
	}
}

func TestImportanceTable(t *testing.T) {
	tests := []struct {
		name string
		m    *ir.Model
		top  int
		want string
	}{
		{"no single-feature split", model(), 10, "importance   no split tests a single feature\n"},
	}
	for _, tc := range tests {
		var b strings.Builder
		if err := Importance(&b, importance.Compute(tc.m), tc.top); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("%s:\n%q\nwant\n%q", tc.name, b.String(), tc.want)
		}
	}
}

// failing fails every write.
type failing struct{}

func (failing) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestWriteErrors(t *testing.T) {
	m := model()
	for name, write := range map[string]func() error{
		"summary":    func() error { return Summary(failing{}, m) },
		"json":       func() error { return SummaryJSON(failing{}, m) },
		"dot":        func() error { return Dot(failing{}, m) },
		"importance": func() error { return Importance(failing{}, importance.Compute(m), 0) },
	} {
		if err := write(); err == nil || err.Error() != "disk full" {
			t.Errorf("%s: error %v", name, err)
		}
	}
}
