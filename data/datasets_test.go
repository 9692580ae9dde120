package data_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
)

// datasetsDir holds the shared benchmark data sets, outside this repository.
const datasetsDir = "../../shared/datasets"

type manifestEntry struct {
	rows, features, classes int
	task                    string
}

func readManifest(t testing.TB) map[string]manifestEntry {
	t.Helper()
	if _, err := os.Stat(datasetsDir); os.IsNotExist(err) {
		t.Skipf("%s does not exist", datasetsDir)
	}
	f, err := os.Open(filepath.Join(datasetsDir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m := make(map[string]manifestEntry)
	sc := bufio.NewScanner(f)
	var col map[string]int
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if col == nil {
			col = make(map[string]int)
			for i, name := range fields {
				col[name] = i
			}
			for _, name := range []string{"name", "rows", "features", "classes", "task"} {
				if _, ok := col[name]; !ok {
					t.Fatalf("MANIFEST.tsv has no column %q", name)
				}
			}
			continue
		}
		if len(fields) != len(col) {
			t.Fatalf("MANIFEST.tsv: bad line %q", sc.Text())
		}
		num := func(name string) int {
			n, err := strconv.Atoi(fields[col[name]])
			if err != nil {
				t.Fatalf("MANIFEST.tsv: %v", err)
			}
			return n
		}
		m[fields[col["name"]]] = manifestEntry{num("rows"), num("features"), num("classes"), fields[col["task"]]}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
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
	if _, err := os.Stat(path); err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := data.ReadFile(path, data.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
