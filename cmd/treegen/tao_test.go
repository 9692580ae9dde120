package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainTAO trains an adaptive softmax tree and a flat softmax; the
// interpreter runs their oblique nodes and softmax leaves.
func TestTrainTAO(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "ast.json")
	_, stderr := succeeds(t, "train", "tao", "--data", "../../testdata/pmlb/ecoli.tsv.gz", "--iterations", "3",
		"--expand-iterations", "2", "--max-rounds", "2", "--valid-fraction", "0.2", "-o", model)
	if !strings.Contains(stderr, "trained a softmax tree on 262 rows") || !strings.Contains(stderr, "valid (validation, 65 rows): accuracy") {
		t.Fatalf("stderr:\n%s", stderr)
	}
	succeeds(t, "train", "tao", "--quiet", "--model", "softmax", "--data", "../../testdata/pmlb/ecoli.tsv.gz", "-o", filepath.Join(dir, "flat.json"))
	out, _ := succeeds(t, "inspect", model)
	if !strings.Contains(out, "softmax") || !strings.Contains(out, "producer     treegen train tao") {
		t.Errorf("inspect:\n%s", out)
	}
}

// TestTrainTAOBadInput: every bad input is one clear line and no model.
func TestTrainTAOBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	ecoli := "../../testdata/pmlb/ecoli.tsv.gz"
	one := writeFile(t, dir, "one.csv", "a,b,target\n1,2,1\n3,4,1\n5,6,1\n")
	nan := writeFile(t, dir, "nan.csv", "a,b,target\n1,2,0\nNA,4,1\n5,6,0\n7,8,1\n")
	reg := writeFile(t, dir, "reg.csv", "a,b,target\n1,2,0.5\n3,4,1.25\n5,6,2\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"k 0", []string{"--data", ecoli, "--k", "0"}, "--k must be at least 1, got 0"},
		{"k negative", []string{"--data", ecoli, "--k", "-2"}, "--k must be at least 0, got -2"},
		{"k above classes", []string{"--data", ecoli, "--model", "st", "--k", "6"}, "--k 6: " + ecoli + " has only 5 classes"},
		{"alpha 0", []string{"--data", ecoli, "--alpha", "0"}, "--alpha must be in (0, 1], got 0"},
		{"alpha above 1", []string{"--data", ecoli, "--alpha", "1.5"}, "--alpha must be in (0, 1], got 1.5"},
		{"rho below 1", []string{"--data", ecoli, "--rho", "0.9"}, "--rho must be a finite number >= 1, got 0.9"},
		{"unknown model", []string{"--data", ecoli, "--model", "forest"}, `--model must be ast, st or softmax, got "forest"`},
		{"depth 0 tree", []string{"--data", ecoli, "--model", "st", "--depth", "0"}, "a tree of depth 0 is --model softmax"},
		{"alpha for st", []string{"--data", ecoli, "--model", "st", "--alpha", "0.5"}, "are options of --model ast"},
		{"unknown init", []string{"--data", ecoli, "--init", "random"}, `--init must be kmeans or median, got "random"`},
		{"init for softmax", []string{"--data", ecoli, "--model", "softmax", "--init", "median"}, "--init is an option of a tree"},
		{"negative lambda", []string{"--data", ecoli, "--lambda", "-1"}, "--lambda must be a finite number >= 0, got -1"},
		{"one class", []string{"--data", one}, "single class"},
		{"missing value", []string{"--data", nan}, "is missing (NaN): softmax leaves compute with every feature, so softmax trees need complete rows"},
		{"regression target", []string{"--data", reg}, "softmax trees are for classification"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fails(t, tc.want, append([]string{"train", "tao", "--quiet", "-o", out}, tc.args...)...)
			if exists(out) {
				t.Fatal("a refused training wrote its model")
			}
		})
	}
}
