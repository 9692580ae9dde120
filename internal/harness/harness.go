// Package harness builds generated predictor packages for real and runs
// rows through them. The packages sit in a temporary Go module (a [Module])
// beside a driver program that calls them all, built with one run of the go
// command: one package for treegen check and demo ([Run]), hundreds
// for the tests of the backends. The driver returns what each package
// computed, bit for bit, so that callers can compare it with the interpreter
// ([Compare]); on request it also checks that the entry points of a package
// agree with each other and reject bad lengths ([Options].Check), counts heap
// allocations ([Options].Allocs) and times Predict and PredictBatch
// ([Options].Time).
package harness

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/treegen/treegen/ir"
)

// Package describes a generated package, read from its source.
type Package struct {
	Dir        string
	Name       string       // Go package name
	Precision  ir.Precision // of Predict's inputs: *[NumFeatures]float32 or float64
	Classifier bool         // the package has PredictClass
}

// Inspect parses the generated package in dir.
func Inspect(dir string) (*Package, error) {
	fset := token.NewFileSet()
	names, err := goFiles(dir)
	if err != nil {
		return nil, err
	}
	pkg := &Package{Dir: dir}
	found := false
	for _, name := range names {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pkg.Name = f.Name.Name
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			switch fd.Name.Name {
			case "Predict":
				found = true
				pkg.Precision = ir.Float64
				if elemType(fd) == "float32" {
					pkg.Precision = ir.Float32
				}
			case "PredictClass":
				pkg.Classifier = true
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%s holds no generated predictor (no func Predict)", dir)
	}
	return pkg, nil
}

// elemType returns the element type of the one parameter of fd, a pointer
// to an array ("float64" for func Predict(x *[NumFeatures]float64)), or "".
func elemType(fd *ast.FuncDecl) string {
	if len(fd.Type.Params.List) != 1 {
		return ""
	}
	if st, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr); ok {
		if at, ok := st.X.(*ast.ArrayType); ok {
			if id, ok := at.Elt.(*ast.Ident); ok {
				return id.Name
			}
		}
	}
	return ""
}

// goFiles returns the names of the Go files of the package in dir, tests
// left out, sorted.
func goFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if name := e.Name(); !e.IsDir() && strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") {
			names = append(names, name)
		}
	}
	return names, nil
}

// CopyPackage copies the Go files of the package in src, tests left out,
// into the existing folder dst.
func CopyPackage(src, dst string) error {
	names, err := goFiles(src)
	if err != nil {
		return err
	}
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, name), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Result is what a run of a generated package produced.
type Result struct {
	Margins [][]float64 // PredictMargin per row, each value exact (float32 widened)
	Preds   [][]float64 // Predict per row
	Classes []int       // PredictClass per row; nil if not a classifier
	// NsPerRow and NsPerRowBatch are the time per row of Predict and of
	// PredictBatch over all rows (0 unless Options.Time).
	NsPerRow, NsPerRowBatch float64
	// AllocsPerRow is the number of heap allocations per Predict call, and
	// BatchAllocs per PredictBatch call on 130 rows (measured with
	// testing.AllocsPerRun when Options.Allocs or Options.Time is set).
	AllocsPerRow, BatchAllocs float64
	// Problems are what the checks of Options.Check found wrong, one
	// sentence each.
	Problems []string
	// Build is the time the go command took to build the driver (with
	// every package of its module).
	Build time.Duration
}

// Options tunes a run.
type Options struct {
	// Time measures Predict and PredictBatch for at least this long each
	// (0: no timing).
	Time time.Duration
	// Go is the go command (default "go" from PATH).
	Go string
	// Check checks that the entry points of the package agree: PredictSlice
	// and PredictBatch return what Predict returns, on the rows and on at
	// least 150 rows without NaN (so that code scoring blocks of rows runs),
	// and the length errors are ErrFeatureCount and ErrOutputCount. What
	// is wrong goes to Result.Problems.
	Check bool
	// Allocs counts the heap allocations of Predict and PredictBatch with
	// testing.AllocsPerRun.
	Allocs bool
}

// Run builds the package in dir with a driver, feeds it rows and returns
// what it computed. Every row must have the package's NumFeatures values.
func Run(ctx context.Context, dir string, rows [][]float64, opts Options) (*Result, error) {
	if _, err := Inspect(dir); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "treegen-harness-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	mod, err := NewModule(tmp)
	if err != nil {
		return nil, err
	}
	mod.Go = opts.Go
	const name = "gen"
	if err := os.Mkdir(mod.PackageDir(name), 0o755); err != nil {
		return nil, err
	}
	if err := CopyPackage(dir, mod.PackageDir(name)); err != nil {
		return nil, err
	}
	if err := mod.Add(name, rows, opts); err != nil {
		return nil, err
	}
	res, err := mod.Run(ctx)
	if err != nil {
		return nil, fmt.Errorf("the generated package in %s: %w", dir, err)
	}
	return res[0], nil
}

// GoEnv returns the environment for the go command: no workspace, no
// network, no toolchain switch, so that a build never downloads anything.
func GoEnv() []string {
	return append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off")
}

// goCommand returns the go command gocmd, or "go" when it is empty, after
// checking that it can be found.
func goCommand(gocmd string) (string, error) {
	if gocmd == "" {
		gocmd = "go"
	}
	if _, err := exec.LookPath(gocmd); err != nil {
		return "", fmt.Errorf("the go command is needed to build generated packages: %w", err)
	}
	return gocmd, nil
}
