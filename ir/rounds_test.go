package ir

import (
	"bytes"
	"strings"
	"testing"
)

// ensemble returns a valid model of k outputs whose trees write outputs[i]
// (each tree a lone leaf of value i+1).
func ensemble(k int, agg Aggregation, outputs ...int) *Model {
	m := &Model{FormatVersion: FormatVersion, Task: Regression, NumFeatures: 1, NumOutputs: k,
		Aggregation: agg, Link: Identity}
	if k > 1 {
		m.Task = MultiOutput
	}
	for i, o := range outputs {
		v := []float64{float64(i + 1)}
		if o == AllOutputs {
			v = make([]float64, k)
		}
		m.Trees = append(m.Trees, Tree{Output: o, Nodes: []Node{{Kind: Leaf, Value: v}}})
	}
	return m
}

func TestDefaultTreesPerRound(t *testing.T) {
	for _, tc := range []struct {
		name    string
		m       *Model
		size    int
		rounds  int
		invalid bool
	}{
		{"single output", ensemble(1, Sum, 0, 0, 0), 1, 3, false},
		{"no tree", ensemble(3, Sum), 3, 0, false},
		{"cycle", ensemble(3, Sum, 0, 1, 2, 0, 1, 2), 3, 2, false},
		{"partial cycle", ensemble(3, Sum, 0, 1, 2, 0), 1, 4, false},
		{"grouped (forests of 2)", ensemble(3, Sum, 0, 0, 1, 1, 2, 2), 1, 6, false},
		{"out of order", ensemble(2, Sum, 1, 0), 1, 2, false},
		{"vector leaves", ensemble(2, Sum, AllOutputs, AllOutputs), 1, 2, false},
		{"mean", ensemble(2, Mean, 0, 1, 0, 1), 1, 4, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.m.Validate(); err != nil {
				t.Fatal(err)
			}
			if got := tc.m.DefaultTreesPerRound(); got != tc.size {
				t.Errorf("DefaultTreesPerRound = %d, want %d", got, tc.size)
			}
			if got := tc.m.RoundSize(); got != tc.size {
				t.Errorf("RoundSize = %d, want %d", got, tc.size)
			}
			if got := tc.m.Rounds(); got != tc.rounds {
				t.Errorf("Rounds = %d, want %d", got, tc.rounds)
			}
		})
	}
	// An explicit round size wins; latent trees are not counted.
	m := ensemble(3, Sum, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2)
	m.TreesPerRound = 6
	if m.RoundSize() != 6 || m.Rounds() != 2 {
		t.Errorf("TreesPerRound 6: RoundSize %d, Rounds %d", m.RoundSize(), m.Rounds())
	}
}

func TestValidateTreesPerRound(t *testing.T) {
	m := ensemble(1, Sum, 0, 0, 0, 0)
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, ""}, {1, ""}, {2, ""}, {4, ""},
		{-1, "trees_per_round: must be >= 0 (0 means the default round size), got -1"},
		{3, "trees_per_round: the model's 4 trees (not counting latent ones) are not a whole number of rounds of 3 trees"},
		{8, "trees_per_round: the model's 4 trees (not counting latent ones) are not a whole number of rounds of 8 trees"},
	} {
		m.TreesPerRound = tc.n
		err := m.Validate()
		if got := errString(err); got != tc.want {
			t.Errorf("TreesPerRound %d: got %q, want %q", tc.n, got, tc.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestFormatVersionStamp checks that the writer stamps the lowest version
// that can represent a model, and that readers take both.
func TestFormatVersionStamp(t *testing.T) {
	m := ensemble(1, Sum, 0, 0, 0, 0)
	plain, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	h0, _ := Hash(m)
	if !bytes.Contains(plain, []byte(`"format_version": "1.0"`)) || bytes.Contains(plain, []byte("trees_per_round")) {
		t.Fatalf("a model without trees_per_round is not written as 1.0:\n%s", plain)
	}
	// Whatever version the model says, a 1.x model is written as the
	// lowest version that holds it: a 1.1 or 1.7 file without the field
	// reads back as 1.0 with the same hash.
	for _, v := range []string{"1.1", "1.7"} {
		c := *m
		c.FormatVersion = v
		b, _ := Marshal(&c)
		h, _ := Hash(&c)
		if !bytes.Equal(b, plain) || h != h0 {
			t.Errorf("version %s: not written as 1.0", v)
		}
	}

	m.TreesPerRound = 2
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"format_version": "1.1"`)) || !bytes.Contains(b, []byte(`"trees_per_round": 2`)) {
		t.Fatalf("a model with trees_per_round is not written as 1.1:\n%s", b)
	}
	if m.FormatVersion != FormatVersion {
		t.Errorf("Marshal changed the model's FormatVersion to %s", m.FormatVersion)
	}
	back, err := Decode(b, "m.json")
	if err != nil {
		t.Fatal(err)
	}
	if back.FormatVersion != "1.1" || back.TreesPerRound != 2 || back.Validate() != nil {
		t.Fatalf("read back: version %s, trees_per_round %d, %v", back.FormatVersion, back.TreesPerRound, back.Validate())
	}
	h1, _ := Hash(m)
	h2, _ := Hash(back)
	if h1 != h2 || h1 == h0 {
		t.Errorf("hashes: model %s, read back %s, without the field %s", h1, h2, h0)
	}
	// A file may say a later minor version; one that says 1.0 cannot hold
	// the field.
	if _, err := Decode(bytes.Replace(b, []byte(`"1.1"`), []byte(`"1.4"`), 1), "m.json"); err != nil {
		t.Errorf("1.4: %v", err)
	}
	_, err = Decode(bytes.Replace(b, []byte(`"1.1"`), []byte(`"1.0"`), 1), "m.json")
	want := `m.json: trees_per_round: this field was added in format version 1.1, but the file says format_version "1.0"`
	if errString(err) != want {
		t.Errorf("1.0 with trees_per_round: got %v\nwant %s", err, want)
	}
	_, err = Decode(bytes.Replace(b, []byte(`"trees_per_round": 2`), []byte(`"trees_per_round": "2"`), 1), "m.json")
	if want := "m.json: trees_per_round: want an integer, got a string"; errString(err) != want {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestFirstRounds(t *testing.T) {
	m := ensemble(3, Sum, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2, 0, 0, 1, 1, 2, 2)
	m.TreesPerRound = 6
	m.FeatureNames = []string{"x"}
	m.BaseScore = []float64{1, 2, 3}
	m.Provenance = &Provenance{Producer: "test", Params: map[string]string{"a": "b"}}
	c, err := m.FirstRounds(2)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Trees) != 12 || c.Rounds() != 2 || c.TreesPerRound != 6 || c.Trees[11].Nodes[0].Value[0] != 12 {
		t.Fatalf("FirstRounds(2): %d trees, %d rounds", len(c.Trees), c.Rounds())
	}
	// The copy's slices and maps are its own: appending a tree, changing a
	// base score or recording provenance leaves m alone.
	c.Trees = append(c.Trees, Tree{Output: 0, Nodes: []Node{{Kind: Leaf, Value: []float64{-1}}}})
	c.Trees[0].Output = 2
	c.BaseScore[0] = 10
	c.FeatureNames[0] = "y"
	c.Provenance.Params["rounds"] = "2"
	if m.Trees[12].Nodes[0].Value[0] != 13 || m.Trees[0].Output != 0 || m.BaseScore[0] != 1 || m.FeatureNames[0] != "x" || len(m.Provenance.Params) != 1 {
		t.Fatal("changing the copy changed the model")
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	all, err := m.FirstRounds(3)
	if err != nil || len(all.Trees) != len(m.Trees) {
		t.Fatalf("FirstRounds(3): %v", err)
	}

	for _, n := range []int{0, -1, 4} {
		_, err := m.FirstRounds(n)
		want := "out of range: the model has 3 rounds of 6 trees (18 trees), so n must be in 1..3"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("FirstRounds(%d): %v", n, err)
		}
	}
	// Mean: the divisor counts the trees kept.
	mean := ensemble(1, Mean, 0, 0, 0, 0)
	c, err = mean.FirstRounds(2)
	if err != nil || len(c.Trees) != 2 || c.TreesPerOutput()[0] != 2 {
		t.Fatalf("mean: %v", err)
	}
	// Latent trees have no rounds.
	a := 0.5
	lat := ensemble(1, Sum, 0)
	lat.Trees = append(lat.Trees, Tree{Output: AllOutputs, Latent: true, Nodes: []Node{{Kind: Leaf, Activity: &a}}})
	lat.Readout = &Readout{Weights: [][]float64{{0, 1}}, Bias: []float64{0}}
	if err := lat.Validate(); err != nil {
		t.Fatal(err)
	}
	if lat.Rounds() != 1 {
		t.Errorf("latent: Rounds %d, want 1 (latent trees not counted)", lat.Rounds())
	}
	_, err = lat.FirstRounds(1)
	if want := "FirstRounds(1): the model has latent trees and a read-out fitted to all of them, not boosting rounds"; errString(err) != want {
		t.Errorf("latent: got %v", err)
	}
}

// TestActivationVersion: a latent tree with a split activation is written
// as format version 1.2, read back, and refused in a file that says 1.1.
func TestActivationVersion(t *testing.T) {
	a := 1.0
	m := &Model{
		FormatVersion: FormatVersion, Task: Regression, NumFeatures: 1, NumOutputs: 1,
		Aggregation: Sum, Link: Identity,
		Trees: []Tree{{Output: AllOutputs, Latent: true, Activation: Elu, Nodes: []Node{
			{Kind: Oblique, Left: 1, Right: 2, Indices: []int{0}, Weights: []float64{1}, Activity: &a},
			{Kind: Leaf, Activity: &a}, {Kind: Leaf, Activity: &a},
		}}},
		Readout: &Readout{Weights: [][]float64{{1, 1, 1, 1}}, Bias: []float64{0}},
	}
	b, err := Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"format_version": "1.2"`)) {
		t.Fatalf("a tree with an activation is not written as 1.2:\n%s", b)
	}
	back, err := Decode(b, "m.json")
	if err != nil || back.Trees[0].Activation != Elu {
		t.Fatalf("read back: %v, activation %q", err, back.Trees[0].Activation)
	}
	old := bytes.Replace(b, []byte(`"format_version": "1.2"`), []byte(`"format_version": "1.1"`), 1)
	if _, err := Decode(old, "m.json"); err == nil || !strings.Contains(err.Error(), "trees[0].activation: this field was added in format version 1.2") {
		t.Fatalf("a 1.1 file with an activation: %v", err)
	}
}
