package gentest

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
)

// update is the -update flag of every test binary that imports gentest.
var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Golden compares got with the golden file at path. With -update it writes
// got there instead. On a mismatch it writes got to path+".got" and reports
// the first line that differs; a match removes a .got file left by an
// earlier mismatch.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Errorf("%v (go test -update writes it)", err)
		return
	}
	if bytes.Equal(got, want) {
		os.Remove(path + ".got")
		return
	}
	if err := os.WriteFile(path+".got", got, 0o644); err != nil {
		t.Fatal(err)
	}
	line, g, w := firstDiff(got, want)
	t.Errorf("%s differs from what the test made, first at line %d:\n got: %s\nwant: %s\n(diff %s %s.got; go test -update rewrites the golden file)",
		path, line, g, w, path, path)
}

// firstDiff returns the 1-based number of the first line where a and b
// differ, and the two lines ("<end of file>" past the end of one).
func firstDiff(a, b []byte) (int, string, string) {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	line := func(ls []string, i int) string {
		if i < len(ls) {
			return ls[i]
		}
		return "<end of file>"
	}
	for i := 0; i < len(la) || i < len(lb); i++ {
		if x, y := line(la, i), line(lb, i); x != y {
			return i + 1, x, y
		}
	}
	return 0, "", ""
}

// Source returns the files of a generated package as one text, each file
// after a line "==== NAME": what golden files of generated source hold.
func Source(files []codegen.File) []byte {
	var b bytes.Buffer
	for _, f := range files {
		fmt.Fprintf(&b, "==== %s\n%s", f.Name, f.Data)
	}
	return b.Bytes()
}
