package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

// TestOutputTargets: -o - writes the model to the standard output; a link
// at -o is written through and stays a link; a device is written in place
// and a write error of it fails the command; nothing is replaced by a
// regular file.
func TestOutputTargets(t *testing.T) {
	dir := t.TempDir()
	heart := "../../testdata/pmlb/heart_c.tsv.gz"
	stdout, stderr := succeeds(t, "train", "cart", "--data", heart, "--max-depth", "2", "-o", "-", "--test", heart)
	m, err := ir.Decode([]byte(stdout), "stdout")
	if err != nil || m.Validate() != nil || !strings.Contains(stderr, "test (heart_c.tsv.gz, 303 rows)") {
		t.Fatalf("-o -: %v\nstderr: %s", err, stderr)
	}

	real := filepath.Join(dir, "real.json")
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink("real.json", link); err != nil {
		t.Fatal(err)
	}
	succeeds(t, "train", "cart", "--data", heart, "--max-depth", "2", "-o", link)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("-o LINK replaced the link: %v %v", fi, err)
	}
	if _, err := ir.Load(real); err != nil {
		t.Fatalf("-o LINK did not write the file it leads to: %v", err)
	}

	succeeds(t, "train", "cart", "--data", heart, "--max-depth", "2", "-o", os.DevNull)
	if fi, err := os.Lstat(os.DevNull); err != nil || fi.Mode()&os.ModeDevice == 0 {
		t.Fatalf("-o %s replaced the device: %v", os.DevNull, fi)
	}
	if _, err := os.Stat("/dev/full"); err == nil {
		fails(t, "cannot write /dev/full: no space left on device", "import", "xgboost", "../../testdata/xgboost/bcw_binary_d4/model.json", "-o", "/dev/full")
	}
}

// TestStdoutErrors: a command whose standard output cannot be written
// fails, with the reason.
func TestStdoutErrors(t *testing.T) {
	for _, args := range [][]string{
		{"inspect", "../../ir/testdata/stump.json"},
		{"eval", "--model", "../../ir/testdata/stump.json", "--data", writeFile(t, t.TempDir(), "d.csv", "age,income,target\n1,2,yes\n3,0,no\n"), "--json"},
	} {
		var stderr bytes.Buffer
		code := run(args, failingWriter{}, &stderr)
		if code == 0 || !strings.Contains(stderr.String(), "no room") {
			t.Errorf("treegen %s with a failing stdout: exit %d, stderr %q", strings.Join(args, " "), code, stderr.String())
		}
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no room") }
