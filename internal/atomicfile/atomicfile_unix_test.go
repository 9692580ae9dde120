//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestWriteThroughLinks: a symbolic link at the path is followed (through a
// chain, to a file that may not exist yet) and stays a link; the file it
// leads to gets the data.
func TestWriteThroughLinks(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.json")
	if err := os.WriteFile(target, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	chain := filepath.Join(dir, "chain.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(link, chain); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, chain} {
		if err := WriteFile(p, []byte("new "+p), 0o644); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Fatalf("%s is no longer a link: %v %v", p, fi, err)
		}
		if got, _ := os.ReadFile(target); string(got) != "new "+p {
			t.Fatalf("writing %s: the target holds %q", p, got)
		}
	}
	dangling := filepath.Join(dir, "dangling.json")
	if err := os.Symlink("sub/../later.json", dangling); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(dir, "sub"), 0o755)
	if err := WriteFile(dangling, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "later.json")); err != nil || string(got) != "x" {
		t.Fatalf("dangling link: %q, %v", got, err)
	}
	loop := filepath.Join(dir, "loop")
	os.Symlink("loop", loop)
	if err := WriteFile(loop, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "symbolic links in a chain") {
		t.Fatalf("a loop of links: %v", err)
	}
}

// TestWriteSpecialFiles: a pipe and a device are written through, never
// replaced by a regular file; a write error of the device is an error; a
// directory is refused.
func TestWriteSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(f)
		f.Close()
		got <- string(b)
	}()
	if err := WriteFile(fifo, []byte("through the pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "through the pipe" {
		t.Fatalf("the pipe's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", fi, err)
	}
	if err := WriteFile(os.DevNull, []byte("x"), 0o644); err != nil {
		t.Fatalf("%s: %v", os.DevNull, err)
	}
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("%s is no longer a device: %v", os.DevNull, fi)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		if err := WriteFile("/dev/full", []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "no space left") {
			t.Fatalf("/dev/full: %v", err)
		}
	}
	if err := WriteFile(dir, []byte("x"), 0o644); err == nil || !strings.Contains(err.Error(), "it is a directory") {
		t.Fatalf("a directory: %v", err)
	}
}
