package importance

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

// model returns a valid model of two trees over 4 features: splits on
// features 2 (twice), 0 and 3, with the statistics given, an oblique split
// and, when guard, a split without statistics (an importer's guard).
func model(stats, guard bool) *ir.Model {
	leaf := ir.Node{Kind: ir.Leaf, Value: []float64{1}}
	s := func(n ir.Node, gain, cover float64) ir.Node {
		if stats {
			n.Gain, n.Cover = gain, cover
		}
		return n
	}
	t0 := []ir.Node{
		s(ir.Node{Kind: ir.Axis, Feature: 2, Threshold: 1, Left: 1, Right: 4}, 10, 100),
		s(ir.Node{Kind: ir.Axis, Feature: 0, Threshold: 1, Left: 2, Right: 3}, 3, 60),
		leaf, leaf,
		{Kind: ir.Oblique, Indices: []int{0, 1}, Weights: []float64{1, 1}, Left: 5, Right: 6},
		leaf, leaf,
	}
	t1 := []ir.Node{
		s(ir.Node{Kind: ir.Categorical, Feature: 2, Categories: []int{1}, Left: 1, Right: 2}, 4, 80),
		leaf,
		s(ir.Node{Kind: ir.Axis, Feature: 3, Threshold: 1, Left: 3, Right: 4}, 14, 30),
		leaf, leaf,
	}
	if guard {
		t1[1] = ir.Node{Kind: ir.Axis, Feature: 1, Left: 5, Right: 6}
		t1 = append(t1, leaf, leaf)
	}
	return &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 4, NumOutputs: 1,
		FeatureNames: []string{"a", "b", "c", "d"}, Aggregation: ir.Sum, Link: ir.Identity,
		Trees: []ir.Tree{{Output: 0, Nodes: t0}, {Output: 0, Nodes: t1}}}
}

func TestCompute(t *testing.T) {
	m := model(true, true)
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	r := Compute(m)
	want := &Report{Stats: true, Splits: 4, MultiFeature: 1, WithoutStats: 1, Features: []Feature{
		{Index: 2, Name: "c", Weight: 2, Gain: 7, TotalGain: 14, Cover: 90, TotalCover: 180}, // ties with d: more splits
		{Index: 3, Name: "d", Weight: 1, Gain: 14, TotalGain: 14, Cover: 30, TotalCover: 30},
		{Index: 0, Name: "a", Weight: 1, Gain: 3, TotalGain: 3, Cover: 60, TotalCover: 60},
	}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("got  %+v\nwant %+v", r, want)
	}
	for i, typ := range Types() {
		v, err := r.Features[0].Value(typ)
		if wantV := []float64{2, 7, 14, 90, 180}[i]; err != nil || v != wantV {
			t.Errorf("Value(%q) = %v, %v; want %v", typ, v, err, wantV)
		}
	}
	if _, err := r.Features[0].Value("frequency"); err == nil || !strings.Contains(err.Error(), `unknown importance type "frequency"`) {
		t.Errorf("Value(frequency): %v", err)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `{"statistics":true,"ranked_by":"total_gain","splits":4,"multi_feature_splits":1,"splits_without_statistics":1,"features":[` +
		`{"feature":2,"name":"c","weight":2,"gain":7,"total_gain":14,"cover":90,"total_cover":180},` +
		`{"feature":3,"name":"d","weight":1,"gain":14,"total_gain":14,"cover":30,"total_cover":30},` +
		`{"feature":0,"name":"a","weight":1,"gain":3,"total_gain":3,"cover":60,"total_cover":60}]}`
	if string(b) != wantJSON {
		t.Errorf("JSON\n got %s\nwant %s", b, wantJSON)
	}
}

// TestComputeWithoutStats: a model without split statistics reports the
// split counts only, every split node counted (the guard too), ranked by
// count; the JSON has no gain or cover.
func TestComputeWithoutStats(t *testing.T) {
	m := model(false, true)
	m.FeatureNames = nil
	r := Compute(m)
	want := &Report{Stats: false, Splits: 5, MultiFeature: 1, Features: []Feature{
		{Index: 2, Weight: 2}, {Index: 0, Weight: 1}, {Index: 1, Weight: 1}, {Index: 3, Weight: 1},
	}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("got  %+v\nwant %+v", r, want)
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	wantJSON := `{"statistics":false,"ranked_by":"weight","splits":5,"multi_feature_splits":1,"splits_without_statistics":0,"features":[` +
		`{"feature":2,"weight":2},{"feature":0,"weight":1},{"feature":1,"weight":1},{"feature":3,"weight":1}]}`
	if string(b) != wantJSON {
		t.Errorf("JSON\n got %s\nwant %s", b, wantJSON)
	}
	// A lone leaf: no features, an empty list.
	m.Trees = m.Trees[:0]
	if b, _ := json.Marshal(Compute(m)); !strings.HasSuffix(string(b), `"features":[]}`) {
		t.Errorf("no splits: %s", b)
	}
}
