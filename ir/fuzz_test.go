package ir

import (
	"os"
	"testing"
)

// FuzzDecode feeds arbitrary bytes to Decode and Validate: they must return
// an error or a model, never panic, and a model that validates must survive
// a Marshal/Decode round trip unchanged.
func FuzzDecode(f *testing.F) {
	seed, err := os.ReadFile("testdata/stump.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add([]byte(`{"format_version": "1.0"}`))
	f.Add([]byte(`{"format_version": "1.0", "task": "regression", "num_features": 1, "num_outputs": 1, "aggregation": "sum", "link": "identity", "trees": [{"output": 0, "nodes": [{"kind": "leaf", "value": [1]}]}]}`))
	f.Add([]byte(`{"format_version": "1.3", "task": "regression", "num_features": 2, "num_outputs": 1, "aggregation": "sum", "link": "identity", "trees": [{"output": 0, "nodes": [{"kind": "axis", "left": 1, "right": 2, "feature": 1, "threshold": 0.5, "gain": 2.5, "cover": 10}, {"kind": "leaf", "value": [1]}, {"kind": "leaf", "value": [2]}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, "fuzz.json")
		if err != nil {
			return
		}
		if m.Validate() != nil {
			return
		}
		a, err := Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		m2, err := Decode(a, "again.json")
		if err != nil {
			t.Fatalf("a valid model does not decode after Marshal: %v", err)
		}
		b, _ := Marshal(m2)
		if string(a) != string(b) {
			t.Fatalf("round trip changed the model")
		}
	})
}
