package direxchange_test

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/treegen/treegen/internal/direxchange"
)

// mkdir makes the folder dir holding the file name with content data.
func mkdir(t *testing.T, dir, name, data string) {
	t.Helper()
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestExchange(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	mkdir(t, a, "old.go", "old")
	mkdir(t, b, "new.go", "new")
	if err := direxchange.Exchange(a, b); err != nil {
		if errors.Is(err, syscall.EINVAL) {
			t.Skipf("the file system of %s has no exchange: %v", root, err)
		}
		t.Fatal(err)
	}
	for _, tc := range []struct{ dir, name, data string }{{a, "new.go", "new"}, {b, "old.go", "old"}} {
		got, err := os.ReadFile(filepath.Join(tc.dir, tc.name))
		if err != nil || string(got) != tc.data {
			t.Errorf("after the exchange, %s holds %q, %v; want %q", filepath.Join(tc.dir, tc.name), got, err, tc.data)
		}
	}
}

func TestExchangeErrors(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a")
	mkdir(t, a, "f", "x")
	for _, tc := range []struct {
		name, a, b string
		want       error
	}{
		{"missing first", filepath.Join(root, "none"), a, fs.ErrNotExist},
		{"missing second", a, filepath.Join(root, "none"), fs.ErrNotExist},
		{"NUL in the name", a, "b\x00c", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := direxchange.Exchange(tc.a, tc.b)
			var le *os.LinkError
			if !errors.As(err, &le) || le.Old != tc.a || le.New != tc.b {
				t.Fatalf("Exchange(%q, %q) = %v, want an *os.LinkError naming both", tc.a, tc.b, err)
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Errorf("Exchange(%q, %q) = %v, want %v", tc.a, tc.b, err, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(a, "f")); err != nil {
		t.Errorf("a failed exchange changed %s: %v", a, err)
	}
}

// The environment of the process that TestCanReplaceAncestor starts.
const childDirEnv = "DIREXCHANGE_CHILD_DIR"

// TestCanReplaceChild is the process that TestCanReplaceAncestor starts:
// it exits with status 3 when CanReplace refuses the directory, 0 when it
// accepts it.
func TestCanReplaceChild(t *testing.T) {
	dir := os.Getenv(childDirEnv)
	if dir == "" {
		t.Skip("the process that TestCanReplaceAncestor starts")
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !direxchange.CanReplace(dir, fi) {
		os.Exit(3)
	}
}

// TestCanReplaceAncestor checks that CanReplace refuses a directory that
// the process's parent works in (a shell after cd), and accepts it when
// the parent works elsewhere.
func TestCanReplaceAncestor(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name     string
		parentIn string
		refused  bool
	}{
		{"parent elsewhere", t.TempDir(), false},
		{"parent in it", dir, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Chdir(tc.parentIn)
			cmd := exec.Command(os.Args[0], "-test.run=^TestCanReplaceChild$", "-test.count=1")
			cmd.Dir = t.TempDir()
			cmd.Env = append(os.Environ(), childDirEnv+"="+dir)
			out, err := cmd.CombinedOutput()
			var exit *exec.ExitError
			refused := errors.As(err, &exit) && exit.ExitCode() == 3
			if err != nil && !refused {
				t.Fatalf("%v\n%s", err, out)
			}
			if refused != tc.refused {
				t.Errorf("CanReplace refused %v, want %v", refused, tc.refused)
			}
		})
	}
}

func TestCanReplaceReadOnly(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes into read-only folders")
	}
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if direxchange.CanReplace(dir, fi) {
		t.Error("CanReplace accepts a read-only folder")
	}
}

// TestLock checks that a second lock on the folder waits for the first and
// reports it busy, and that the folder is free again once unlocked.
func TestLock(t *testing.T) {
	dir := t.TempDir()
	unlock, busy := direxchange.Lock(dir, time.Second)
	if busy {
		t.Fatal("a free folder is busy")
	}
	start := time.Now()
	unlock2, busy := direxchange.Lock(dir, 30*time.Millisecond)
	unlock2()
	if !busy {
		t.Error("a locked folder is not busy")
	}
	if waited := time.Since(start); waited < 30*time.Millisecond {
		t.Errorf("Lock gave up after %v, before the 30ms it was given", waited)
	}
	unlock()
	unlock3, busy := direxchange.Lock(dir, 0)
	defer unlock3()
	if busy {
		t.Error("the folder is busy after unlock")
	}
}
