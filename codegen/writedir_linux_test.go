package codegen_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/harness"
)

// The environment of the process that TestWriteDirKilled starts: the
// directory, and "STEP TREES INPLACE".
const (
	childDirEnv  = "TREEGEN_WRITEDIR_DIR"
	childSpecEnv = "TREEGEN_WRITEDIR_SPEC"
)

// TestWriteDirChild is the process that TestWriteDirKilled starts: it
// writes the package of TREES trees into the directory and kills itself
// (SIGKILL) at step STEP of WriteDir (never for -1).
func TestWriteDirChild(t *testing.T) {
	dir := os.Getenv(childDirEnv)
	if dir == "" {
		t.Skip("the process that TestWriteDirKilled starts")
	}
	var step, trees int
	var inPlace bool
	if _, err := fmt.Sscan(os.Getenv(childSpecEnv), &step, &trees, &inPlace); err != nil {
		t.Fatal(err)
	}
	files := generated(t, trees)
	defer codegen.SetInPlaceOnly(inPlace)()
	n := 0
	defer codegen.SetWriteHook(func(string) error {
		if n == step {
			syscall.Kill(os.Getpid(), syscall.SIGKILL)
			time.Sleep(time.Minute)
		}
		n++
		return nil
	})()
	if err := codegen.WriteDir(dir, files); err != nil {
		t.Fatal(err)
	}
}

// writeChild runs TestWriteDirChild, which writes the package of trees
// trees into dir and kills itself at step; it reports whether it was
// killed.
func writeChild(t *testing.T, dir string, step, trees int, inPlace bool) (killed bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestWriteDirChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir, fmt.Sprintf("%s=%d %d %t", childSpecEnv, step, trees, inPlace))
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
			return true
		}
	}
	if err != nil {
		t.Fatalf("writing %d trees into %s, to be killed at step %d: %v\n%s", trees, dir, step, err, out)
	}
	return false
}

// TestWriteDirKilled kills a process (SIGKILL) at every step of WriteDir
// in turn, from a package of 2 tree files to one of 5 and back, and checks
// that the directory holds the old package or the new one, byte for byte,
// the user's files the same files, with nothing visible beside it (a
// staging folder is hidden); in place, it may also hold files of both runs,
// which do not build. For the first kill that leaves a staging folder
// beside the old package, and beside the new one, and the first mix, it
// builds the package with the go command: the old or new package predicts
// what the interpreter does, the mix fails to build on the guard. The next
// WriteDir leaves the new package and nothing else.
func TestWriteDirKilled(t *testing.T) {
	modes(t, func(t *testing.T, inPlace bool) {
		builds := map[string]bool{}
		for _, tc := range [][2]int{{2, 5}, {5, 2}} {
			from, to := generated(t, tc[0]), generated(t, tc[1])
			old, new := states(t, from, to)
			steps := 0
			dir := filepath.Join(t.TempDir(), "many")
			setup(t, dir, from)
			restore := codegen.SetWriteHook(func(string) error { steps++; return nil })
			err := codegen.WriteDir(dir, to)
			restore()
			if err != nil {
				t.Fatal(err)
			}
			seen := map[string]int{}
			for k := 0; k <= steps; k++ {
				dir := filepath.Join(t.TempDir(), "many")
				setup(t, dir, from)
				doc, err := os.Stat(filepath.Join(dir, "doc.go"))
				if err != nil {
					t.Fatal(err)
				}
				if killed := writeChild(t, dir, k, tc[1], inPlace); killed != (k < steps) {
					t.Fatalf("step %d of %d: killed %v", k, steps, killed)
				}
				state := classify(t, dir, old, new, inPlace)
				hidden := 0
				for _, name := range leftovers(t, dir) {
					if !strings.HasPrefix(name, ".") {
						t.Fatalf("killed at step %d: %s visible beside %s", k, name, dir)
					}
					hidden++
				}
				if hidden > 0 {
					state += " (staging folder left)"
				}
				seen[state]++
				if fi, err := os.Stat(filepath.Join(dir, "doc.go")); err != nil || !os.SameFile(fi, doc) {
					t.Fatalf("killed at step %d: doc.go is not the same file any more", k)
				}
				if (hidden > 0 || state == "mixed") && !strings.HasPrefix(state, "moving") && !builds[state] && !testing.Short() {
					builds[state] = true
					trees := tc[0]
					if strings.HasPrefix(state, "new") {
						trees = tc[1]
					}
					checkBuild(t, dir, state, trees)
				}
				if err := codegen.WriteDir(dir, to); err != nil {
					t.Fatalf("after a kill at step %d: %v", k, err)
				}
				settled(t, dir, new)
			}
			t.Logf("%d tree files to %d: killed at each of %d steps: %v", tc[0], tc[1], steps, seen)
		}
	})
}

// checkBuild builds the package in dir, killed in state, with the go
// command: the old or new package (of trees trees) predicts what the
// interpreter does; files of two runs fail to build, and the compiler
// names the guard.
func checkBuild(t *testing.T, dir, state string, trees int) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	rows := [][]float64{{0, 1, 2}, {5, -1, 3}, {2, 7, 0.5}}
	if !strings.HasPrefix(state, "mixed") {
		if _, err := harness.Verify(context.Background(), dir, manyTrees(trees), rows, codegen.Float64, harness.Options{}); err != nil {
			t.Fatalf("killed, %s: %v", state, err)
		}
		return
	}
	mod, err := harness.NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pkg := mod.PackageDir("many")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := harness.CopyPackage(dir, pkg); err != nil {
		t.Fatal(err)
	}
	// With GOEXPERIMENT=simd the build takes vector.go too, which a mix
	// may hold from the other run.
	out, err := mod.GoCmdEnv([]string{"GOEXPERIMENT=simd"}, "build", "./...")
	if err == nil || !strings.Contains(string(out)+err.Error(), "undefined: "+codegen.GuardPrefix) {
		t.Errorf("killed, %s: go build: %v\n%s", state, err, out)
	}
}

// TestWriteDirWorkingDirectory checks that a WriteDir whose own process
// works in the directory exchanges it and moves the process into the new
// one, and that a WriteDir whose parent process works there (a shell after
// cd) writes in place, so that the parent is not left in the removed
// directory.
func TestWriteDirWorkingDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "many")
	setup(t, dir, generated(t, 7))
	before, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	if err := codegen.WriteDir(".", generated(t, 3)); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Error("WriteDir did not exchange the directory")
	}
	if cwd, err := os.Stat("."); err != nil || !os.SameFile(cwd, after) {
		t.Errorf("the process works in the old directory: %v", err)
	}
	if writeChild(t, dir, -1, 7, false) {
		t.Fatal("killed")
	}
	if fi, err := os.Stat(dir); err != nil || !os.SameFile(fi, after) {
		t.Errorf("WriteDir exchanged the directory that its parent process works in: %v", err)
	}
	_, want := states(t, generated(t, 3), generated(t, 7))
	if diff := differences(snapshot(t, dir), want); len(diff) > 0 {
		t.Errorf("written in place: %v differ", diff)
	}
}
