package ir

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func stump(t *testing.T) *Model {
	t.Helper()
	m, err := Load("testdata/stump.json")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRoundTrip(t *testing.T) {
	m := stump(t)
	a, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	m2, err := Decode(a, "x")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Marshal(m2)
	if !bytes.Equal(a, b) {
		t.Fatalf("round trip changed the model:\n%s\n%s", a, b)
	}
	h1, _ := Hash(m)
	h2, _ := Hash(m2)
	if h1 != h2 || len(h1) != 64 {
		t.Fatalf("hashes %s %s", h1, h2)
	}
}

func TestDecodeErrors(t *testing.T) {
	good, err := os.ReadFile("testdata/stump.json")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, input, want string
	}{
		{"empty", "", "m.json: 1:1: invalid JSON: unexpected end of input (truncated file?)"},
		{"truncated", string(good[:200]), "m.json: 9:21: invalid JSON: unexpected end of input (truncated file?)"},
		{"syntax", "{\n  \"a\": 1,,\n}", "m.json: 2:10: invalid JSON: invalid character ',' looking for beginning of object key string"},
		{"trailing data", `{"format_version": "1.0"} {}`, "m.json: 1:26: invalid JSON: data after the top-level value"},
		{"array", `[1, 2]`, "m.json: not a treegen model: the top level is an array, want an object"},
		{"no version", `{"task": "binary"}`, "m.json: not a treegen model: format_version is missing"},
		{"version type", `{"format_version": 1}`, `m.json: format_version: want a string such as "1.0", got a number`},
		{"future major", `{"format_version": "2.0"}`, `m.json: format_version "2.0" is not supported: this treegen reads 1.x`},
		{"bad version", `{"format_version": "one"}`, `m.json: format_version "one" is not MAJOR.MINOR`},
		{"unknown field", strings.Replace(string(good), `"threshold"`, `"treshold"`, 1),
			`m.json: trees[0].nodes[0].treshold: unknown field "treshold" (known: activity, bias, categories, cover, default_left, feature, gain, gamma, indices, kind, left, less_equal, right, softmax, threshold, value, weights)`},
		{"wrong type", strings.Replace(string(good), `"feature": 1`, `"feature": "1"`, 1),
			`m.json: trees[0].nodes[0].feature: want an integer, got a string`},
		{"fraction for int", strings.Replace(string(good), `"feature": 1`, `"feature": 1.5`, 1),
			`m.json: trees[0].nodes[0].feature: want an integer, got 1.5`},
		{"array for number", strings.Replace(string(good), `"threshold": 0.5`, `"threshold": [0.5]`, 1),
			`m.json: trees[0].nodes[0].threshold: want a number, got an array`},
		{"huge number", strings.Replace(string(good), `"threshold": 0.5`, `"threshold": 1e999`, 1),
			`m.json: trees[0].nodes[0].threshold: 1e999 is out of range`},
		{"null threshold", strings.Replace(string(good), `"threshold": 0.5`, `"threshold": null`, 1),
			`m.json: trees[0].nodes[0].threshold: null is not a value: leave an optional field out, or give its value`},
		{"null feature", strings.Replace(string(good), `"feature": 1`, `"feature": null`, 1),
			`m.json: trees[0].nodes[0].feature: null is not a value: leave an optional field out, or give its value`},
		{"null in a value", strings.Replace(string(good), `"value": [1]`, `"value": [null]`, 1),
			`m.json: trees[0].nodes[2].value[0]: null is not a value: leave an optional field out, or give its value`},
		{"null outputs", strings.Replace(string(good), `"num_outputs": 1`, `"num_outputs": null`, 1),
			`m.json: num_outputs: null is not a value: leave an optional field out, or give its value`},
		{"null task", strings.Replace(string(good), `"task": "binary"`, `"task": null`, 1),
			`m.json: task: null is not a value: leave an optional field out, or give its value`},
		{"duplicate key", strings.Replace(string(good), `"task": "binary",`, `"task": "binary", "task": "regression",`, 1),
			`m.json: task: the key "task" appears twice in one object`},
		{"duplicate nested key", strings.Replace(string(good), `"threshold": 0.5`, `"threshold": 0.5, "threshold": 7`, 1),
			`m.json: trees[0].nodes[0].threshold: the key "threshold" appears twice in one object`},
		{"duplicate key in a later node", strings.Replace(string(good), `{"kind": "leaf", "value": [1]}`, `{"kind": "leaf", "value": [1], "kind": "leaf"}`, 1),
			`m.json: trees[0].nodes[2].kind: the key "kind" appears twice in one object`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Decode([]byte(tc.input), "m.json")
			if err == nil || err.Error() != tc.want {
				t.Fatalf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format_version": "1.0", "task": "binary", "num_features": 0}`), 0o644)
	_, err := Load(bad)
	if err == nil || err.Error() != bad+": invalid model: num_features: must be between 1 and 16777216, got 0" {
		t.Fatalf("got %v", err)
	}
	_, err = Load(filepath.Join(dir, "missing.json"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

func TestSaveRefusesInvalidAndKeepsFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "m.json")
	m := stump(t)
	if err := Save(path, m); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	m.NumFeatures = 0
	if err := Save(path, m); err == nil {
		t.Fatal("Save accepted an invalid model")
	}
	after, _ := os.ReadFile(path)
	if !bytes.Equal(before, after) {
		t.Fatal("a failed Save changed the file")
	}
}

func TestValidate(t *testing.T) {
	f := func(x float64) *float64 { return &x }
	nan := func() float64 { var z float64; return z / z }()
	tests := []struct {
		name   string
		mutate func(m *Model)
		want   string
	}{
		{"task", func(m *Model) { m.Task = "ranking" }, `task: unknown task "ranking" (want regression, binary, multiclass or multi_output)`},
		{"features", func(m *Model) { m.NumFeatures = 0 }, "num_features: must be between 1 and 16777216, got 0"},
		{"too many features", func(m *Model) { m.NumFeatures = 100_000_000 }, "num_features: must be between 1 and 16777216, got 100000000"},
		{"most features", func(m *Model) { m.NumFeatures = math.MaxInt64 }, "num_features: must be between 1 and 16777216, got 9223372036854775807"},
		{"too many outputs", func(m *Model) { m.NumOutputs = 1_000_000_000 }, "num_outputs: must be between 1 and 65536, got 1000000000"},
		{"feature names", func(m *Model) { m.FeatureNames = []string{"a"} }, "feature_names: has 1 names for 2 features"},
		{"preprocess length", func(m *Model) { m.Preprocess = &Affine{Shift: []float64{0}, Scale: []float64{1, 1}} }, "preprocess.shift: has 1 values for 2 features"},
		{"preprocess NaN", func(m *Model) { m.Preprocess = &Affine{Shift: []float64{0, nan}, Scale: []float64{1, 1}} }, "preprocess.shift[1]: NaN is not a finite number"},
		{"binary outputs", func(m *Model) { m.NumOutputs = 2 }, "num_outputs: a binary model has one output (the score of the second class), got 2"},
		{"binary classes", func(m *Model) { m.ClassNames = []string{"a", "b", "c"} }, "class_names: a binary model has 2 classes, got 3 names"},
		{"multiclass outputs", func(m *Model) { m.Task = Multiclass; m.ClassNames = nil }, "num_outputs: a multiclass model has one output per class (at least 2), got 1"},
		{"regression classes", func(m *Model) { m.Task = Regression }, "class_names: only binary and multiclass models have classes"},
		{"base score", func(m *Model) { m.BaseScore = []float64{1, 2} }, "base_score: has 2 values for 1 outputs"},
		{"aggregation", func(m *Model) { m.Aggregation = "max" }, `aggregation: unknown aggregation "max" (want sum or mean)`},
		{"link", func(m *Model) { m.Link = "tanh" }, `link: unknown link "tanh" (want identity, sigmoid, softmax or exp)`},
		{"softmax link", func(m *Model) { m.Link = Softmax }, "link: softmax needs at least 2 outputs, got 1"},
		{"tree output", func(m *Model) { m.Trees[0].Output = 1 }, "trees[0].output: output 1 out of range: want -1 (all outputs) or 0..0"},
		{"empty tree", func(m *Model) { m.Trees[0].Nodes = nil }, "trees[0].nodes: a tree needs at least one node"},
		{"node kind", func(m *Model) { m.Trees[0].Nodes[1].Kind = "stump" }, `trees[0].nodes[1].kind: unknown node kind "stump" (want axis, categorical, oblique, soft, leaf or softmax)`},
		{"child out of range", func(m *Model) { m.Trees[0].Nodes[0].Right = 3 }, "trees[0].nodes[0].right: child 3 out of range: the tree has 3 nodes"},
		{"cycle", func(m *Model) { m.Trees[0].Nodes[0].Left = 0 }, "trees[0].nodes[0].left: child 0 does not come after its parent 0: cycle or non-canonical order (children must have higher indices)"},
		{"shared child", func(m *Model) { m.Trees[0].Nodes[0].Right = 1 }, "trees[0].nodes[0].right: child 1 is shared with node 0"},
		{"unreachable", func(m *Model) {
			m.Trees[0].Nodes = append(m.Trees[0].Nodes, Node{Kind: Leaf, Value: []float64{0}})
		}, "trees[0].nodes[3]: unreachable: no node has it as a child"},
		{"feature range", func(m *Model) { m.Trees[0].Nodes[0].Feature = 2 }, "trees[0].nodes[0].feature: feature 2 out of range: the model has 2 features"},
		{"threshold NaN", func(m *Model) { m.Trees[0].Nodes[0].Threshold = nan }, "trees[0].nodes[0].threshold: NaN is not a finite number"},
		{"leaf width", func(m *Model) { m.Trees[0].Nodes[1].Value = []float64{1, 2} }, "trees[0].nodes[1].value: has 2 values, want one value (the tree writes one output)"},
		{"vector leaf width", func(m *Model) {
			m.Task, m.ClassNames, m.NumOutputs, m.Trees[0].Output = MultiOutput, nil, 2, AllOutputs
		}, "trees[0].nodes[1].value: has 1 values, want 2 values (one per output)"},
		{"leaf with feature", func(m *Model) { m.Trees[0].Nodes[1].Feature = 1 }, "trees[0].nodes[1].feature: a leaf node has no feature"},
		{"categorical order", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Categorical, Feature: 1, Categories: []int{3, 3}, Left: 1, Right: 2}
		}, "trees[0].nodes[0].categories[1]: categories must be strictly increasing (3 after 3)"},
		{"categorical negative", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Categorical, Feature: 1, Categories: []int{-1}, Left: 1, Right: 2}
		}, "trees[0].nodes[0].categories[0]: category -1 out of range 0..2147483647"},
		{"categorical threshold", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Categorical, Feature: 1, Threshold: 1, Left: 1, Right: 2}
		}, "trees[0].nodes[0].threshold: a categorical node has no threshold"},
		{"axis with gamma", func(m *Model) { m.Trees[0].Nodes[0].Gamma = 1 }, "trees[0].nodes[0].gamma: a axis node has no gamma"},
		{"oblique lengths", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Oblique, Indices: []int{0, 1}, Weights: []float64{1}, Left: 1, Right: 2}
		}, "trees[0].nodes[0].weights: has 1 weights for 2 indices"},
		{"oblique order", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Oblique, Indices: []int{1, 0}, Weights: []float64{1, 1}, Left: 1, Right: 2}
		}, "trees[0].nodes[0].indices[1]: indices must be strictly increasing (0 after 1)"},
		{"oblique weight Inf", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Oblique, Indices: []int{1}, Weights: []float64{1 / func() float64 { return 0 }()}, Left: 1, Right: 2}
		}, "trees[0].nodes[0].weights[0]: +Inf is not a finite number"},
		{"negative gamma", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Soft, Indices: []int{1}, Weights: []float64{1}, Gamma: -1, Left: 1, Right: 2}
		}, "trees[0].nodes[0].gamma: gamma must be a finite number >= 0, got -1"},
		{"soft less equal", func(m *Model) {
			m.Trees[0].Nodes[0] = Node{Kind: Soft, Indices: []int{1}, Weights: []float64{1}, LessEqual: true, Left: 1, Right: 2}
		}, "trees[0].nodes[0].less_equal: a soft node has no less_equal"},
		{"softmax leaf in single-output tree", func(m *Model) {
			m.Trees[0].Nodes[1] = Node{Kind: SoftmaxLeaf, Softmax: &SoftmaxParams{Classes: []int{0}, Rows: []SparseRow{{}}, Bias: []float64{0}}}
		}, "trees[0].nodes[1].kind: a softmax leaf needs a tree with output -1 (all outputs) that is not latent"},
		{"softmax class range", func(m *Model) {
			m.Trees[0].Output = AllOutputs
			m.Trees[0].Nodes[1] = Node{Kind: SoftmaxLeaf, Softmax: &SoftmaxParams{Classes: []int{1}, Rows: []SparseRow{{}}, Bias: []float64{0}}}
		}, "trees[0].nodes[1].softmax.classes[0]: class 1 out of range: the model has 1 outputs"},
		{"activation outside latent", func(m *Model) { m.Trees[0].Activation = Elu }, "trees[0].activation: only a latent tree has a split activation"},
		{"unknown activation", func(m *Model) { m.Trees[0].Activation = "relu" }, "trees[0].activation: unknown split activation \"relu\": want \"elu\" or none"},
		{"activity outside latent", func(m *Model) { m.Trees[0].Nodes[1].Activity = f(1) }, "trees[0].nodes[1].activity: a node outside a latent tree has no activity"},
		{"latent needs activity", func(m *Model) {
			m.Trees[0].Latent, m.Trees[0].Output = true, AllOutputs
			m.Trees[0].Nodes[1].Value, m.Trees[0].Nodes[2].Value = nil, nil
		}, "trees[0].nodes[0].activity: is missing: every node of a latent tree has an activity"},
		{"latent activity range", func(m *Model) {
			m.Trees[0].Latent, m.Trees[0].Output = true, AllOutputs
			for i := range m.Trees[0].Nodes {
				m.Trees[0].Nodes[i].Activity = f(0.5)
				m.Trees[0].Nodes[i].Value = nil
			}
			m.Trees[0].Nodes[2].Activity = f(2)
		}, "trees[0].nodes[2].activity: activity must be in [0, 1], got 2"},
		{"latent without readout", func(m *Model) {
			m.Trees[0].Latent, m.Trees[0].Output = true, AllOutputs
			for i := range m.Trees[0].Nodes {
				m.Trees[0].Nodes[i].Activity = f(0.5)
				m.Trees[0].Nodes[i].Value = nil
			}
		}, "readout: is missing: the model has latent trees"},
		{"readout width", func(m *Model) {
			m.Trees[0].Latent, m.Trees[0].Output = true, AllOutputs
			for i := range m.Trees[0].Nodes {
				m.Trees[0].Nodes[i].Activity = f(0.5)
				m.Trees[0].Nodes[i].Value = nil
			}
			m.Readout = &Readout{Weights: [][]float64{{1, 2, 3}}, Bias: []float64{0}}
		}, "readout.weights[0]: has 3 values, want 5 (2 features + 3 latent nodes)"},
		{"readout without latent", func(m *Model) { m.Readout = &Readout{} }, "readout: is present but no tree is latent"},
		{"mean over nothing", func(m *Model) {
			m.Task, m.ClassNames, m.Link, m.NumOutputs = MultiOutput, nil, Identity, 2
			m.Aggregation = Mean
		}, "aggregation: mean over no trees: no tree writes output 1"},
		{"too deep", func(m *Model) {
			nodes := []Node{}
			for d := 0; d <= MaxDepth; d++ {
				i := len(nodes)
				nodes = append(nodes, Node{Kind: Axis, Left: i + 1, Right: i + 2}, Node{Kind: Leaf, Value: []float64{0}})
			}
			nodes = append(nodes, Node{Kind: Leaf, Value: []float64{0}})
			// Re-link: node 2d is a split with its leaf at 2d+1 and the next split at 2d+2.
			for i := 0; i+2 < len(nodes); i += 2 {
				nodes[i].Left, nodes[i].Right = i+1, i+2
			}
			m.Trees[0].Nodes = nodes
		}, "trees[0].nodes[200].left: tree deeper than 100"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := stump(t)
			tc.mutate(m)
			err := m.Validate()
			var ve *ValidationError
			if !errors.As(err, &ve) || err.Error() != tc.want {
				t.Fatalf("got  %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestSmoothStep(t *testing.T) {
	tests := []struct{ t, gamma, want float64 }{
		{-1, 1, 0}, {-0.5, 1, 0}, {0.5, 1, 1}, {2, 1, 1}, {0, 1, 0.5},
		{0.25, 1, -2*0.25*0.25*0.25 + 1.5*0.25 + 0.5},
		{0, 0, 0}, {1e-300, 0, 1}, {-1e-300, 0, 0},
	}
	for _, tc := range tests {
		if got := SmoothStep(tc.t, tc.gamma); got != tc.want {
			t.Errorf("S(%v; γ=%v) = %v, want %v", tc.t, tc.gamma, got, tc.want)
		}
	}
	// Continuity at the ends of the cubic region and monotonicity.
	prev := -1.0
	for i := -600; i <= 600; i++ {
		x := float64(i) / 1000
		s := SmoothStep(x, 1)
		if s < prev || s < 0 || s > 1 {
			t.Fatalf("S not monotone in [0,1] at %v: %v after %v", x, s, prev)
		}
		prev = s
	}
}

// TestDecodeNullArray: an array may be null, as encoding/json writes a nil
// slice (a model without trees), and reads back empty.
func TestDecodeNullArray(t *testing.T) {
	good, err := os.ReadFile("testdata/stump.json")
	if err != nil {
		t.Fatal(err)
	}
	in := strings.Replace(string(good), `"feature_names": ["age", "income"]`, `"feature_names": null`, 1)
	m, err := Decode([]byte(in), "m.json")
	if err != nil || m.FeatureNames != nil {
		t.Fatalf("feature_names null: %v, %v", err, m)
	}
}
