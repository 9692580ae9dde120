package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileModels: model files that declare sizes no real model has, or
// trees deeper than the IR allows, end in one clear line naming the field,
// before anything is sized by them, whichever command reads them.
func TestHostileModels(t *testing.T) {
	dir := t.TempDir()
	stump := func(features, outputs string) string {
		return fmt.Sprintf(`{"format_version": "1.0", "task": "regression", "num_features": %s, "num_outputs": %s,
"aggregation": "sum", "link": "identity", "trees": [{"output": 0, "nodes": [
{"kind": "axis", "feature": 0, "threshold": 0.5, "left": 1, "right": 2},
{"kind": "leaf", "value": [1]}, {"kind": "leaf", "value": [2]}]}]}`, features, outputs)
	}
	var chain strings.Builder
	chain.WriteString(`{"format_version": "1.0", "task": "regression", "num_features": 1, "num_outputs": 1, "aggregation": "sum", "link": "identity", "trees": [{"output": 0, "nodes": [`)
	const depth = 10000
	for d := range depth {
		fmt.Fprintf(&chain, `{"kind": "axis", "feature": 0, "threshold": %d, "left": %d, "right": %d}, {"kind": "leaf", "value": [%d]}, `, d, 2*d+2, 2*d+1, d)
	}
	chain.WriteString(`{"kind": "leaf", "value": [0]}]}]}`)
	cases := []struct {
		name, model, want string
	}{
		{"1e8 features", stump("100000000", "1"), "num_features: must be between 1 and 16777216, got 100000000"},
		{"MaxInt64 features", stump("9223372036854775807", "1"), "num_features: must be between 1 and 16777216, got 9223372036854775807"},
		{"1e9 outputs", stump("1", "1000000000"), "num_outputs: must be between 1 and 65536, got 1000000000"},
		{"1e12 outputs", stump("1", "1000000000000"), "num_outputs: must be between 1 and 65536, got 1000000000000"},
		{"10,000-deep chain", chain.String(), "tree deeper than 100"},
	}
	data := writeFile(t, dir, "rows.csv", "a,target\n1,2\n")
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			model := writeFile(t, dir, strings.ReplaceAll(c.name, " ", "_")+".json", c.model)
			out := filepath.Join(dir, "pkg")
			for _, args := range [][]string{
				{"inspect", model},
				{"gen", "--model", model, "--out", out},
				{"predict", "--model", model, "--data", data},
			} {
				fails(t, c.want, args...)
			}
		})
	}
}
