package data_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/pmlb"
)

// datasetsDir holds the shared benchmark data sets, outside this repository.
const datasetsDir = "../testdata/pmlb"

type manifestEntry struct {
	rows, features, classes int
	task                    string
}

func readManifest(t testing.TB) map[string]manifestEntry {
	t.Helper()
	sets, err := pmlb.ReadManifest(filepath.Join(datasetsDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	m := make(map[string]manifestEntry)
	for _, d := range sets {
		m[d.Name] = manifestEntry{d.Rows, d.Features, d.Classes, d.Task}
	}
	return m
}

func TestSharedDatasets(t *testing.T) {
	manifest := readManifest(t)
	files, err := filepath.Glob(filepath.Join(datasetsDir, "*.tsv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no *.tsv.gz files in %s", datasetsDir)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".tsv.gz")
		t.Run(name, func(t *testing.T) {
			want, ok := manifest[name]
			if !ok {
				t.Fatalf("%s is not in MANIFEST.tsv", name)
			}
			d, err := data.ReadFile(path, data.Options{RequireTarget: true})
			if err != nil {
				t.Fatal(err)
			}
			if d.Rows != want.rows || d.Cols != want.features {
				t.Errorf("Rows, Cols = %d, %d, want %d, %d", d.Rows, d.Cols, want.rows, want.features)
			}
			if len(d.X) != d.Rows*d.Cols || len(d.Y) != d.Rows || len(d.Features) != d.Cols {
				t.Errorf("inconsistent shape")
			}
			if want.task == "classification" {
				labels, _, err := data.Classes(d.Y)
				if err != nil {
					t.Fatal(err)
				}
				if len(labels) != want.classes {
					t.Errorf("%d classes, want %d", len(labels), want.classes)
				}
			}
		})
	}
	for name := range manifest {
		if _, err := os.Stat(filepath.Join(datasetsDir, name+".tsv.gz")); err != nil {
			t.Errorf("MANIFEST.tsv lists %s: %v", name, err)
		}
	}
}

func BenchmarkReadSleep(b *testing.B) {
	path := filepath.Join(datasetsDir, "sleep.tsv.gz")
	for b.Loop() {
		if _, err := data.ReadFile(path, data.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
