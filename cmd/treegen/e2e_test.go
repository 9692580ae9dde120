package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainE2E trains a depth-3 E2EDT tree, whose hard oblique splits the
// interpreter runs.
func TestTrainE2E(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "e2e.json")
	_, stderr := succeeds(t, "train", "e2e", "--data", "../../testdata/pmlb/breast_cancer_wisconsin.tsv.gz", "--depth", "3",
		"--epochs", "5", "--finetune-epochs", "10", "--valid-fraction", "0.2", "-o", model)
	if !strings.Contains(stderr, "trained 1 oblique tree on 456 rows") || !strings.Contains(stderr, "valid (validation, 113 rows): accuracy") {
		t.Fatalf("stderr:\n%s", stderr)
	}
	nan := writeFile(t, dir, "nan.csv", "a,b,target\n1,2,0\nNA,4,1\n5,6,0\n7,8,1\n2,NA,0\n6,5,1\n")
	succeeds(t, "train", "e2e", "--quiet", "--impute", "--depth", "2", "--data", nan, "-o", filepath.Join(dir, "imputed.json"))
	out, _ := succeeds(t, "inspect", model)
	if !strings.Contains(out, "oblique") || !strings.Contains(out, "producer     treegen train e2e") {
		t.Errorf("inspect:\n%s", out)
	}
}

// TestTrainE2EBadInput: every bad input is one clear line and no model.
func TestTrainE2EBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	bcw := "../../testdata/pmlb/breast_cancer_wisconsin.tsv.gz"
	one := writeFile(t, dir, "one.csv", "a,b,target\n1,2,1\n3,4,1\n5,6,1\n")
	nan := writeFile(t, dir, "nan.csv", "a,b,target\n1,2,0\nNA,4,1\n5,6,0\n7,8,1\n")
	reg := writeFile(t, dir, "reg.csv", "a,b,target\n1,2,0.5\n3,4,1.25\n5,6,2\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"depth 0", []string{"--data", bcw, "--depth", "0"}, "--depth must be between 1 and 30, got 0"},
		{"negative delta gamma", []string{"--data", bcw, "--delta-gamma", "-0.1"}, "--delta-gamma must be a finite number >= 0, got -0.1"},
		{"features above p", []string{"--data", bcw, "--forest", "--trees", "2", "--features", "31"}, "--features 31: " + bcw + " has only 30 features"},
		{"trees without forest", []string{"--data", bcw, "--trees", "3"}, "--trees and --features are options of a forest: add --forest"},
		{"one class", []string{"--data", one}, "single class"},
		{"missing value", []string{"--data", nan}, "is missing (NaN); use --impute to replace missing values by the training mean"},
		{"regression target", []string{"--data", reg}, "E2E trees are for classification"},
		{"zero lr", []string{"--data", bcw, "--lr", "0"}, "--lr must be a finite number > 0, got 0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fails(t, tc.want, append([]string{"train", "e2e", "--quiet", "-o", out}, tc.args...)...)
			if exists(out) {
				t.Fatal("a refused training wrote its model")
			}
		})
	}
}
