package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTrainLatent trains a latent tree, inspects and draws it, compiles
// nothing (the backends have their own tests) and scores a hierarchy.
func TestTrainLatent(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "lt.json")
	bcw := "../../testdata/pmlb/breast_cancer_wisconsin.tsv.gz"
	_, stderr := succeeds(t, "train", "latent", "--data", bcw, "--depth", "3", "--epochs", "5", "--lr", "0.01",
		"--valid-fraction", "0.2", "--split", "linear-elu", "--test", bcw, "-o", model)
	for _, want := range []string{"loss logistic (from the target values", "trained a latent tree on 456 rows", "valid (validation, 113 rows): accuracy", "test ("} {
		if !strings.Contains(stderr, want) {
			t.Fatalf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	out, _ := succeeds(t, "inspect", model)
	for _, want := range []string{"producer     treegen train latent", "latent       1 trees", "pruned       ", "format       1.2"} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect lacks %q:\n%s", want, out)
		}
	}
	dot, _ := succeeds(t, "inspect", "--dot", model)
	if !strings.Contains(dot, "digraph") || !strings.Contains(dot, "a=1") {
		t.Errorf("inspect --dot:\n%s", dot)
	}

	glass := "../../testdata/pmlb/glass.tsv.gz"
	hier := filepath.Join(dir, "glass.json")
	_, stderr = succeeds(t, "train", "latent", "--quiet", "--data", glass, "--cluster", "--regress", "RI,Na", "--depth", "3",
		"--batch", "8", "--epochs", "5", "--valid-fraction", "0.2", "--test", glass, "-o", hier)
	for _, want := range []string{"train: dendrogram purity 0.", "valid: dendrogram purity 0.", "test: dendrogram purity 0."} {
		if !strings.Contains(stderr, want) {
			t.Fatalf("--cluster stderr lacks %q:\n%s", want, stderr)
		}
	}
	out, _ = succeeds(t, "cluster", "--model", hier, "--data", glass)
	if !strings.Contains(out, "dendrogram purity 0.") || !strings.Contains(out, "over 205 rows of 5 classes") || !strings.Contains(out, "majority class") {
		t.Fatalf("cluster:\n%s", out)
	}
	fails(t, "the model has no latent tree", "cluster", "--model", writeCart(t, dir), "--data", glass)
}

// writeCart trains a small CART model and returns its path.
func writeCart(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "cart.json")
	succeeds(t, "train", "cart", "--data", "../../testdata/pmlb/glass.tsv.gz", "--max-depth", "2", "-o", path)
	return path
}

// TestTrainLatentBadInput: every bad input is one clear line and no model.
func TestTrainLatentBadInput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "m.json")
	glass := "../../testdata/pmlb/glass.tsv.gz"
	one := writeFile(t, dir, "one.csv", "a,b,target\n1,2,1\n3,4,1\n5,6,1\n")
	nan := writeFile(t, dir, "nan.csv", "a,b,target\n1,2,0\nNA,4,1\n5,6,0\n7,8,1\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"depth 0", []string{"--data", glass, "--depth", "0"}, "--depth must be between 1 and 12, got 0"},
		{"depth 13", []string{"--data", glass, "--depth", "13"}, "--depth must be between 1 and 12, got 13"},
		{"negative lambda", []string{"--data", glass, "--lambda", "-1"}, "--lambda must be a finite number >= 0, got -1"},
		{"mlp read-out", []string{"--data", glass, "--readout", "mlp"}, `--readout must be linear, got "mlp"`},
		{"unknown split", []string{"--data", glass, "--split", "relu"}, `--split must be linear or linear-elu, got "relu"`},
		{"unknown loss", []string{"--data", glass, "--loss", "hinge"}, `--loss must be squarederror, logistic or softmax, got "hinge"`},
		{"lr 0", []string{"--data", glass, "--lr", "0"}, "--lr must be a finite number > 0, got 0"},
		{"batch 0", []string{"--data", glass, "--batch", "0"}, "--batch must be at least 1, got 0"},
		{"logistic on 5 classes", []string{"--data", glass, "--loss", "logistic"}, "the logistic loss needs two classes, the target has 5"},
		{"cluster without regress", []string{"--data", glass, "--cluster"}, "--cluster needs --regress"},
		{"regress without cluster", []string{"--data", glass, "--regress", "RI"}, "add --cluster"},
		{"regress unknown column", []string{"--data", glass, "--cluster", "--regress", "RI,Zn"}, `has no column "Zn"`},
		{"one class", []string{"--data", one}, "single value"},
		{"missing value", []string{"--data", nan}, "is missing (NaN)"},
		{"both validations", []string{"--data", glass, "--valid", glass, "--valid-fraction", "0.2"}, "--valid and --valid-fraction exclude each other"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fails(t, tc.want, append([]string{"train", "latent", "--quiet", "-o", out}, tc.args...)...)
			if exists(out) {
				t.Fatal("a refused training wrote its model")
			}
		})
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("a model was written")
	}
}
