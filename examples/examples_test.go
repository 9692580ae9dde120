package examples

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoGenerate copies examples/gogenerate into a temporary directory,
// points its replace directive at this repository, and runs go generate, go
// vet and go test there, as a downstream build would. The regenerated files
// must equal the committed ones.
func TestGoGenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go command on a separate module")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	src := "gogenerate"
	dst := t.TempDir()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	mod := filepath.Join(dst, "go.mod")
	data, err := os.ReadFile(mod)
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.Replace(data, []byte("=> ../.."), []byte("=> "+root), 1)
	if err := os.WriteFile(mod, data, 0o644); err != nil {
		t.Fatal(err)
	}
	// Generated files are removed first, so go generate must recreate them.
	for _, f := range []string{"predict.go", "trees_000.go"} {
		os.Remove(filepath.Join(dst, "heart", f))
	}
	for _, args := range [][]string{{"generate", "./..."}, {"vet", "./..."}, {"test", "./..."}, {"run", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dst
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly") // a stale go.mod or go.sum fails
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "run" && !strings.Contains(string(out), "predicted class") {
			t.Fatalf("go run printed %q", out)
		}
	}
	for _, f := range []string{"predict.go", "trees_000.go"} {
		want, err := os.ReadFile(filepath.Join(src, "heart", f))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dst, "heart", f))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("examples/gogenerate/heart/%s is stale; run go generate ./... in examples/gogenerate", f)
		}
	}
}
