package gentest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
)

// Case is a generated package to build and run, with what its outputs must
// equal.
type Case struct {
	// Name is the package's folder in the module, and its name in messages.
	Name string
	// Files are the generated files.
	Files []codegen.File
	// Precision is the working precision of the package.
	Precision codegen.Precision
	// Model is the model that the interpreter runs for the comparison: the
	// one the package computes exactly (see codegen.BackendOptions).
	Model *ir.Model
	// Rows are the inputs.
	Rows [][]float64
	// Allocs asks for Predict and PredictBatch to allocate nothing.
	Allocs bool
	// Margins and Classes, if set, are expected margins and classes
	// besides the interpreter's: hand computed, or those of the library
	// the model comes from.
	Margins [][]float64
	Classes []int
	// Instructions, if set, is what the package's BatchInstructions must
	// return.
	Instructions string
}

// BuildAndCompare builds the cases in one module (gofmt, go vet, one go
// build, with -trimpath so that packages built by an earlier run come from
// the go command's cache), runs them with the checks of
// harness.Options.Check, and reports with t.Errorf what a package got
// wrong: a check, an allocation of a case with Allocs, and the first rows
// whose margins, predictions or classes differ, bit for bit, from the
// interpreter's or from the expected ones. A failing model is logged when
// it is small.
func BuildAndCompare(t *testing.T, cases []Case) {
	t.Helper()
	mod, err := harness.NewModule(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mod.Vet, mod.Trimpath = true, true
	for _, c := range cases {
		if err := WritePackage(mod, c.Name, c.Files); err != nil {
			t.Fatal(err)
		}
		if err := mod.Add(c.Name, c.Rows, harness.Options{Check: true, Allocs: c.Allocs}); err != nil {
			t.Fatal(err)
		}
	}
	if err := mod.Gofmt(); err != nil {
		t.Error(err)
	}
	results, err := mod.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ms := func(d time.Duration) time.Duration { return d.Round(time.Millisecond) }
	t.Logf("%d packages: go vet %v, go build %v, run %v", len(cases), ms(mod.VetTime), ms(mod.BuildTime), ms(mod.RunTime))
	for i, c := range cases {
		compare(t, c, results[i])
	}
}

// compare reports what res, the outputs of case c, gets wrong.
func compare(t *testing.T, c Case, res *harness.Result) {
	t.Helper()
	for _, p := range res.Problems {
		t.Errorf("%s: %s", c.Name, p)
	}
	if c.Instructions != "" && res.Instructions != c.Instructions {
		t.Errorf("%s: BatchInstructions returns %q, want %q", c.Name, res.Instructions, c.Instructions)
	}
	if c.Allocs && (res.AllocsPerRow != 0 || res.BatchAllocs != 0) {
		t.Errorf("%s: Predict allocates %v times, PredictBatch %v times; want 0", c.Name, res.AllocsPerRow, res.BatchAllocs)
	}
	type oracle struct {
		name string
		want *harness.Result
	}
	want, err := harness.Interpret(c.Model, c.Rows, c.Precision)
	if err != nil {
		t.Fatalf("%s: %v", c.Name, err)
	}
	oracles := []oracle{{"expected", &harness.Result{Margins: c.Margins, Classes: c.Classes}}, {"interpreter", want}}
	fails := len(res.Problems)
	for _, o := range oracles {
		diffs := harness.Differences(res, o.want)
		for i, d := range diffs {
			if i == 4 {
				t.Errorf("%s: %d differences from the %s values in all", c.Name, len(diffs), o.name)
				break
			}
			t.Errorf("%s row %d %v: %s = %v, %s %v", c.Name, d.Row, c.Rows[d.Row], d.What, d.Got, o.name, d.Want)
		}
		fails += len(diffs)
	}
	if fails > 0 {
		if data, _ := ir.Marshal(c.Model); len(data) < 20000 {
			t.Logf("%s model:\n%s", c.Name, data)
		}
	}
}

// WritePackage writes files, a generated package, into the new folder name
// of mod.
func WritePackage(mod *harness.Module, name string, files []codegen.File) error {
	dir := mod.PackageDir(name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	return codegen.WriteDir(dir, files)
}

// SkipIfNoGo skips t when the go command is not available.
func SkipIfNoGo(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
}

// suffix returns the suffix of a package name for precision p: "64" or
// "32".
func suffix(p codegen.Precision) string {
	return fmt.Sprint(p.BitSize())
}

// ForceAVX2 returns files with the vector file, if any, changed to ignore
// AVX-512: its init then picks the AVX2 code on a processor that has both,
// so that a test covers both. Nothing else changes.
func ForceAVX2(files []codegen.File) []codegen.File {
	out := make([]codegen.File, len(files))
	copy(out, files)
	for i, f := range out {
		if f.Name == emit.VectorFileName {
			out[i].Data = bytes.ReplaceAll(f.Data, []byte("archsimd.X86.AVX512()"), []byte("false"))
		}
	}
	return out
}
