package pmlb

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadManifest(t *testing.T) {
	dir := t.TempDir()
	write := func(text string) string {
		p := filepath.Join(dir, "MANIFEST.tsv")
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	p := write("name\trows\tfeatures\tclasses\ttask\tsha256_16\nheart_c\t303\t13\t2\tclassification\tx\nhouses\t20640\t8\t0\tregression\ty\n")
	sets, err := ReadManifest(p)
	if err != nil || len(sets) != 2 || sets[0] != (Dataset{"heart_c", 303, 13, 2, "classification"}) {
		t.Fatalf("%+v, %v", sets, err)
	}
	names, err := ClassificationSets(p)
	if err != nil || strings.Join(names, ",") != "heart_c" {
		t.Fatalf("%v, %v", names, err)
	}
	for _, bad := range []struct{ text, want string }{
		{"name\trows\tfeatures\tclasses\n", `:1: no column "task"`},
		{"name\trows\tfeatures\tclasses\ttask\nx\t1\t2\n", ":2: 3 fields, the header has 5"},
		{"name\trows\tfeatures\tclasses\ttask\nx\tmany\t2\t0\tregression\n", ":2: rows: "},
	} {
		if _, err := ReadManifest(write(bad.text)); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("%q: %v, want %q", bad.text, err, bad.want)
		}
	}
}
