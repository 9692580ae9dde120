package data

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestParquetNotImported reads Parquet files in a program that does not
// import package data/parquet (the tests of this package do not): the
// error says which package to import, whether the format comes from the
// file's name or its first bytes.
func TestParquetNotImported(t *testing.T) {
	want := `the file is Parquet, which this program cannot read: a Go program reads Parquet files once it imports github.com/treegen/treegen/data/parquet (import _ "github.com/treegen/treegen/data/parquet")`
	dir := t.TempDir()
	file := "PAR1\x15\x04\x15\x10PAR1"
	for _, name := range []string{"rows.parquet", "rows.bin"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(file), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := ReadFile(path, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Error() != path+": "+want {
			t.Errorf("ReadFile(%s): %v, want %s: %s", name, err, path, want)
		}
		_, err = OpenStream(strings.NewReader(file), name, Options{})
		if err == nil || err.Error() != name+": "+want {
			t.Errorf("OpenStream(%s): %v, want %s: %s", name, err, name, want)
		}
	}
	_, err := Read(strings.NewReader(file), "x", Options{Format: FormatParquet})
	if err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("Read with FormatParquet: %v", err)
	}
}

// TestRegisterFormat checks that only formats read through a registered
// OpenFunc may be registered, once.
func TestRegisterFormat(t *testing.T) {
	panics := func(name string, f func()) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s: no panic", name)
			}
		}()
		f()
	}
	panics("TSV", func() {
		RegisterFormat(FormatTSV, func(r io.ReaderAt, size int64, name string, opts Options) (Source, error) { return nil, nil })
	})
	panics("nil", func() { RegisterFormat(FormatParquet, nil) })
}
