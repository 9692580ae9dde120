package lightgbm

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/harness"
)

// TestGeneratedCode compiles every imported test model with the default
// backend, runs the generated package on many rows and compares it with
// the interpreter, bit for bit.
func TestGeneratedCode(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages with the go command")
	}
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data := readTestdata(t, name)
			m, err := Decode(data, name)
			if err != nil {
				t.Fatal(err)
			}
			gen, err := codegen.Generate(m, codegen.Options{Package: "x"})
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			if err := codegen.WriteDir(dir, gen); err != nil {
				t.Fatal(err)
			}
			rows := testRows(parseRef(t, data), m.NumFeatures, 3000, 7)
			if _, err := harness.Verify(context.Background(), dir, m, rows, codegen.Float64, harness.Options{}); err != nil {
				t.Error(err)
			}
		})
	}
}
