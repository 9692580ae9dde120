package codegen_test

import (
	"context"
	"go/build"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/harness"
)

// distList returns the GOOS/GOARCH pairs that the go command knows.
func distList(t *testing.T) [][2]string {
	t.Helper()
	out, err := exec.Command("go", "tool", "dist", "list").Output()
	if err != nil {
		t.Skipf("go tool dist list: %v", err)
	}
	var pairs [][2]string
	for _, line := range strings.Fields(string(out)) {
		goos, goarch, ok := strings.Cut(line, "/")
		if !ok {
			t.Fatalf("go tool dist list: %q", line)
		}
		pairs = append(pairs, [2]string{goos, goarch})
	}
	if len(pairs) < 20 {
		t.Fatalf("go tool dist list lists %d targets", len(pairs))
	}
	return pairs
}

// TestTreeFileNamesCarryNoConstraint checks that no tree file name, for
// packages of 1 to 100,000 files, is read by the go command as a build
// constraint for any GOOS/GOARCH it knows (trees_386.go builds only for
// 386; trees_arm.go only for arm) or as a test file.
func TestTreeFileNamesCarryNoConstraint(t *testing.T) {
	pairs := distList(t)
	contexts := make([]build.Context, len(pairs))
	words := map[string]bool{"test": true}
	for i, p := range pairs {
		c := build.Default
		c.GOOS, c.GOARCH = p[0], p[1]
		c.CgoEnabled = false
		c.OpenFile = func(string) (io.ReadCloser, error) { return io.NopCloser(strings.NewReader("package p\n")), nil }
		contexts[i] = c
		words[p[0]], words[p[1]] = true, true
	}
	var names []string
	for _, n := range []int{1, 387, 1001, 100000} {
		for i := 0; i < n; i += 1 + i/500 {
			names = append(names, codegen.TreeFileName(i, n))
		}
		names = append(names, codegen.TreeFileName(n-1, n))
	}
	names = append(names, codegen.MainFile)
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			t.Errorf("%s is a test file name", name)
		}
		stem := strings.TrimSuffix(name, ".go")
		for _, part := range strings.Split(stem, "_")[1:] {
			if words[part] {
				t.Errorf("%s ends in a GOOS, GOARCH or test word: %s", name, part)
			}
		}
		for i := range contexts {
			ok, err := contexts[i].MatchFile("gen", name)
			if err != nil {
				t.Fatal(err)
			}
			if !ok {
				t.Errorf("%s does not build for %s/%s", name, pairs[i][0], pairs[i][1])
				break
			}
		}
		if name != codegen.MainFile && !codegen.IsTreeFileName(name) {
			t.Errorf("IsTreeFileName(%s) = false", name)
		}
	}
	for _, name := range []string{"trees.go", "trees_.go", "trees01a.go", "predict.go", "trees000.go.bak", "trees000_test.go"} {
		if codegen.IsTreeFileName(name) {
			t.Errorf("IsTreeFileName(%s) = true", name)
		}
	}
	if !codegen.IsTreeFileName("trees_386.go") {
		t.Error("IsTreeFileName does not recognise the names of earlier versions (trees_386.go), which WriteDir must remove")
	}
}

// TestThousandFiles generates packages of 500 and 1,001 tree files (one
// stump per file), builds them for the host (linux/amd64 in CI) with the go
// command, and checks that they predict exactly what the interpreter does.
// With trees_NNN.go names a package of 387 to 1,000 files held
// trees_386.go, which builds only for GOARCH=386, and failed to build with
// "undefined: addTrees386".
func TestThousandFiles(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	if testing.Short() {
		t.Skip("builds packages of 501 and 1,002 files")
	}
	restore := codegen.SetFileLimits(1, 1)
	defer restore()
	for _, tc := range []struct {
		trees int
		names []string
	}{
		{500, []string{"trees000.go", "trees386.go", "trees499.go"}},
		{1001, []string{"trees0000.go", "trees0386.go", "trees1000.go"}},
	} {
		m := manyTrees(tc.trees)
		files, err := codegen.Generate(m, codegen.Options{Package: "many", Backend: "ifelse"})
		if err != nil {
			t.Fatal(err)
		}
		if len(files) != tc.trees+3 { // and the vector files
			t.Fatalf("%d trees: %d files, want %d", tc.trees, len(files), tc.trees+3)
		}
		names := map[string]bool{}
		for _, f := range files {
			names[f.Name] = true
		}
		for _, want := range append(tc.names, codegen.MainFile) {
			if !names[want] {
				t.Errorf("%d trees: no file %s", tc.trees, want)
			}
		}
		dir := filepath.Join(t.TempDir(), "many")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := codegen.WriteDir(dir, files); err != nil {
			t.Fatal(err)
		}
		var rows [][]float64
		for v := -2.0; v < 1005; v += 3.5 {
			rows = append(rows, []float64{v, v / 2, 1000 - v})
		}
		rows = append(rows, []float64{math.NaN(), 0, 386}, []float64{386, 386, 386})
		res, err := harness.Verify(context.Background(), dir, m, rows, codegen.Float64, harness.Options{})
		if err != nil {
			t.Fatalf("%d trees: %v", tc.trees, err)
		}
		t.Logf("%d files built in %v", len(files), res.Build)
	}
}

// TestOldTreeFilesRemoved checks that WriteDir removes the tree files that
// an earlier treegen named trees_000.go when a new run writes trees000.go.
func TestOldTreeFilesRemoved(t *testing.T) {
	dir := t.TempDir()
	files, err := codegen.Generate(manyTrees(3), codegen.Options{Package: "many"})
	if err != nil {
		t.Fatal(err)
	}
	old := "// Code generated by treegen from m.json (sha256 00). DO NOT EDIT.\n\npackage many\n"
	for _, name := range []string{"trees_000.go", "trees_386.go"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := codegen.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != "predict.go trees000.go" {
		t.Errorf("files after WriteDir: %v, want predict.go trees000.go", got)
	}
}
