package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
)

var genKills = flag.Int("genkills", 10, "how many times TestGenKilled kills treegen gen at a random moment")

// genArgsEnv holds the arguments of the treegen command line that
// TestGenChild runs, one per line.
const genArgsEnv = "TREEGEN_GEN_ARGS"

// TestGenChild runs the treegen command line of $TREEGEN_GEN_ARGS and
// exits: the process that TestGenKilled kills.
func TestGenChild(t *testing.T) {
	args := os.Getenv(genArgsEnv)
	if args == "" {
		t.Skip("the process that TestGenKilled starts")
	}
	os.Exit(run(strings.Split(args, "\n"), os.Stdout, os.Stderr))
}

// childCommand returns the command that runs the treegen command line args
// in a process of its own (the test binary, running TestGenChild).
func childCommand(args []string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^TestGenChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), genArgsEnv+"="+strings.Join(args, "\n"))
	return cmd
}

// stumps writes a model of n stumps whose leaves all hold v, which
// predicts n*v for every row, and returns its path.
func stumps(t *testing.T, dir, name string, n int, v float64) string {
	t.Helper()
	m := &ir.Model{FormatVersion: ir.FormatVersion, Task: ir.Regression, NumFeatures: 3, NumOutputs: 1,
		Aggregation: ir.Sum, Link: ir.Identity}
	for i := 0; i < n; i++ {
		m.Trees = append(m.Trees, ir.Tree{Nodes: []ir.Node{
			{Kind: ir.Axis, Left: 1, Right: 2, Feature: i % 3, Threshold: float64(i % 17)},
			{Kind: ir.Leaf, Value: []float64{v}},
			{Kind: ir.Leaf, Value: []float64{v}},
		}})
	}
	path := filepath.Join(dir, name)
	if err := ir.Save(path, m); err != nil {
		t.Fatal(err)
	}
	return path
}

// contents returns the entries of the folder dir: the content of each file
// and "dir" for a folder.
func contents(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{}
	for _, e := range entries {
		files[e.Name()] = "dir"
		if !e.IsDir() {
			data, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			files[e.Name()] = string(data)
		}
	}
	return files
}

// genFixture holds two models, A (400 stumps, 2 tree files, predicting
// 50,000) and B (1,000 stumps, 5 tree files, predicting 100,000), and a
// package directory made by gen from A, beside the user's doc.go, for
// copies.
type genFixture struct {
	a, b     string // model files
	template string // the package directory
}

func newGenFixture(t *testing.T) *genFixture {
	models := t.TempDir()
	f := &genFixture{a: stumps(t, models, "a.json", 400, 125), b: stumps(t, models, "b.json", 1000, 100)}
	f.template = filepath.Join(t.TempDir(), "pkg")
	if code, _, stderr := treegen(t, "gen", "--model", f.a, "--out", f.template); code != 0 {
		t.Fatal(stderr)
	}
	if err := os.WriteFile(filepath.Join(f.template, "doc.go"), []byte("// Package pkg predicts.\npackage pkg\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// copy returns a new copy of the package directory, in a folder of its own.
func (f *genFixture) copy(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "pkg")
	if err := os.CopyFS(dir, os.DirFS(f.template)); err != nil {
		t.Fatal(err)
	}
	return dir
}

// genRun is a run of gen of model B into dir, in a process of its own.
type genRun struct {
	dir   string
	cmd   *exec.Cmd
	began time.Time
	done  chan struct{} // closed when the process has ended
}

// start starts gen of model B into dir in a process of its own.
func (f *genFixture) start(t *testing.T, dir string) *genRun {
	t.Helper()
	r := &genRun{dir: dir, cmd: childCommand(f.genB(dir)), done: make(chan struct{})}
	r.began = time.Now()
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.cmd.Wait()
		close(r.done)
	}()
	return r
}

// ended reports whether the process has ended.
func (r *genRun) ended() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

// staging waits until a staging folder appears beside the directory, and
// returns when it did after the start; false if the process ended first.
func (r *genRun) staging() (time.Duration, bool) {
	for !r.ended() {
		if entries, _ := os.ReadDir(filepath.Dir(r.dir)); len(entries) > 1 {
			return time.Since(r.began), true
		}
	}
	return 0, false
}

// genB returns the arguments of gen for model B into dir.
func (f *genFixture) genB(dir string) []string {
	return []string{"gen", "--model", f.b, "--out", dir}
}

// TestGenKilled starts treegen gen of model B over a package of model A
// and kills it (SIGKILL) -genkills times: half of the times after a random
// delay, the others at a random moment after a staging folder appears
// beside the directory (the write; gen polls nothing, the test does): the
// directory holds A's package or B's, byte for byte, beside the user's
// doc.go, with nothing visible beside it; the next gen leaves B's package
// and nothing else. The first kills that leave a staging folder beside A's
// package and beside B's build the package, which predicts 50,000 or
// 100,000.
func TestGenKilled(t *testing.T) {
	f := newGenFixture(t)
	old := contents(t, f.template)
	dir := f.copy(t)
	if code, _, stderr := treegen(t, f.genB(dir)...); code != 0 {
		t.Fatal(stderr)
	}
	new := contents(t, dir)
	whole := time.Hour
	for range 2 { // the first run may find cold caches
		r := f.start(t, f.copy(t))
		<-r.done
		whole = min(whole, time.Since(r.began))
	}
	r := f.start(t, f.copy(t))
	opened, _ := r.staging()
	for {
		if entries, _ := os.ReadDir(filepath.Dir(r.dir)); len(entries) == 1 || r.ended() {
			break
		}
	}
	window := time.Since(r.began) - opened
	<-r.done
	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 0))
	seen, built := map[string]int{}, map[string]bool{}
	for i := 0; i < *genKills; i++ {
		dir := f.copy(t)
		r := f.start(t, dir)
		if i%2 == 0 { // anywhere
			time.Sleep(time.Duration(rng.Int64N(int64(whole) * 6 / 5)))
		} else if _, ok := r.staging(); ok { // in the write
			time.Sleep(time.Duration(rng.Int64N(int64(window)*6/5 + 1)))
		}
		r.cmd.Process.Kill()
		<-r.done
		cmd := r.cmd
		got := contents(t, dir)
		var state string
		switch {
		case maps.Equal(got, old):
			state = "A"
		case maps.Equal(got, new):
			state = "B"
		default:
			t.Fatalf("kill %d (seed %d): %s holds neither package: %d files", i, seed, dir, len(got))
		}
		entries, err := os.ReadDir(filepath.Dir(dir))
		if err != nil {
			t.Fatal(err)
		}
		staging := len(entries) > 1
		for _, e := range entries {
			if e.Name() != "pkg" && !strings.HasPrefix(e.Name(), ".") {
				t.Fatalf("kill %d (seed %d): %s visible beside %s", i, seed, e.Name(), dir)
			}
		}
		switch {
		case staging:
			state += ", killed mid-write (staging folder left)"
		case cmd.ProcessState.Success():
			state += ", finished"
		case state == "A":
			state += ", killed before writing"
		default:
			state += ", killed after writing"
		}
		seen[state]++
		if staging && !built[state] && !testing.Short() {
			built[state] = true
			want := map[string]float64{"A": 50000, "B": 100000}[state[:1]]
			res, err := harness.Run(context.Background(), dir, [][]float64{{0, 1, 2}, {20, -3, 9.5}}, harness.Options{})
			if err != nil {
				t.Fatalf("kill %d, %s: %v", i, state, err)
			}
			for _, p := range res.Preds {
				if p[0] != want {
					t.Errorf("kill %d, %s: predicts %v, want %v", i, state, p[0], want)
				}
			}
		}
		if code, _, stderr := treegen(t, f.genB(dir)...); code != 0 {
			t.Fatalf("gen after kill %d: %s", i, stderr)
		}
		if got := contents(t, dir); !maps.Equal(got, new) {
			t.Fatalf("gen after kill %d did not leave B's package", i)
		}
		if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
			t.Fatalf("gen after kill %d left %d entries beside the package", i, len(entries)-1)
		}
	}
	t.Logf("gen runs %v, writes for %v; %d kills, at random in the first %v or in the %v after the staging folder appears (seed %d): %v",
		whole.Round(time.Millisecond), window.Round(time.Microsecond), *genKills, (whole * 6 / 5).Round(time.Millisecond), (window * 6 / 5).Round(time.Microsecond), seed, seen)
}

// TestGenFullDisk runs gen of model B over a package of model A on a tmpfs
// too small for both: gen fails, saying that the disk is full and that the
// directory is unchanged, which it is, with nothing left beside it. It
// needs to mount a tmpfs (root, CAP_SYS_ADMIN) and skips otherwise.
func TestGenFullDisk(t *testing.T) {
	f := newGenFixture(t)
	size := func(dir string) int {
		n := 0
		for _, data := range contents(t, dir) {
			n += (len(data) + 4095) / 4096 * 4096
		}
		return n
	}
	scratch := f.copy(t)
	a := size(scratch)
	if code, _, stderr := treegen(t, f.genB(scratch)...); code != 0 {
		t.Fatal(stderr)
	}
	b := size(scratch)
	mnt := t.TempDir()
	if err := syscall.Mount("tmpfs", mnt, "tmpfs", 0, fmt.Sprintf("size=%d", a+b/2)); err != nil {
		t.Skipf("cannot mount a tmpfs (this needs root and CAP_SYS_ADMIN): %v", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(mnt, 0); err != nil {
			t.Errorf("unmounting %s: %v", mnt, err)
		}
	})
	dir := filepath.Join(mnt, "pkg")
	if err := os.CopyFS(dir, os.DirFS(f.template)); err != nil {
		t.Fatal(err)
	}
	before := contents(t, dir)
	code, _, stderr := treegen(t, f.genB(dir)...)
	want := fmt.Sprintf(": no space left on device (%s is unchanged)\n", dir)
	if code == 0 || !strings.HasPrefix(stderr, "treegen: cannot write "+dir+"/") || !strings.HasSuffix(stderr, want) {
		t.Errorf("gen on a full disk: exit status %d, stderr %q, want \"treegen: cannot write %s/...%s\"", code, stderr, dir, want)
	}
	if !maps.Equal(contents(t, dir), before) {
		t.Error("gen on a full disk changed the package")
	}
	if entries, _ := os.ReadDir(mnt); len(entries) != 1 {
		t.Errorf("gen on a full disk left %d entries beside the package", len(entries)-1)
	}
	t.Logf("tmpfs of %d bytes (A's package %d, B's %d): %s", a+b/2, a, b, strings.TrimSpace(stderr))
}
