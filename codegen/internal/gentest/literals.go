package gentest

import (
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/ir"
)

// stdImporter type-checks the standard library packages generated code
// imports; shared because it caches them, and locked because CheckLiterals
// may run on several goroutines.
var stdImporter = &lockedImporter{imp: importer.ForCompiler(token.NewFileSet(), "source", nil)}

// lockedImporter is an importer that imports one package at a time.
type lockedImporter struct {
	mu  sync.Mutex
	imp types.Importer
}

// Import imports the package path.
func (l *lockedImporter) Import(path string) (*types.Package, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.imp.Import(path)
}

// CheckLiterals parses and type-checks the generated package and checks
// every number literal that has a floating-point type (untyped constants
// included, with the type they take in their context): it must equal, bit
// for bit, a number of the model (emit.ModelValues) rounded to the
// package's precision prec (or to float32 for axis thresholds under
// Float32Compare and for margins under Float32Sum), one of the numbers extra
// (the constants of a backend's own arithmetic, such as those of the
// smooth-step), rounded likewise, or one of the few numbers of the fixed
// code: 0, 1 (sigmoid), 0.5 (binary class threshold) and the tree counts
// that divide under mean aggregation. The declaration of negZero,
// math.Copysign(0, -1), and the category helpers (inCategories,
// inSortedCategories: range checks -1, 2^31, 64) and the portable exp (exp,
// pow2: its constants) are the exceptions.
//
// It returns the number of literals checked.
func CheckLiterals(files []codegen.File, m *ir.Model, prec codegen.Precision, extra []float64) (int, error) {
	fset := token.NewFileSet()
	var parsed []*ast.File
	for _, f := range files {
		if !builds(f.Data) {
			continue
		}
		af, err := parser.ParseFile(fset, f.Name, f.Data, parser.ParseComments)
		if err != nil {
			return 0, err
		}
		parsed = append(parsed, af)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}}
	conf := types.Config{Importer: stdImporter}
	if _, err := conf.Check("gen", fset, parsed, info); err != nil {
		return 0, fmt.Errorf("type-checking the generated package: %w", err)
	}

	allowed := map[uint64]bool{}
	add := func(v float64, bits int) {
		if bits == 32 {
			v = float64(float32(v))
		}
		allowed[math.Float64bits(v)] = true
	}
	bits := prec.BitSize()
	for _, v := range emit.ModelValues(m) {
		add(v, bits)
		if m.Float32Compare || m.Float32Sum {
			add(v, 32)
		}
		if m.Float32Sum {
			add(float64(float32(v)), bits) // the float32 base score in a float64 package
		}
	}
	for _, v := range []float64{0, 1, 0.5} {
		add(v, bits)
	}
	for _, v := range extra {
		add(v, bits)
	}
	for _, n := range m.TreesPerOutput() {
		add(float64(n), bits)
	}

	checked := 0
	var bad error
	for _, af := range parsed {
		ast.Inspect(af, func(n ast.Node) bool {
			if bad != nil {
				return false
			}
			if vs, ok := n.(*ast.ValueSpec); ok && len(vs.Names) == 1 && vs.Names[0].Name == "negZero" {
				return false
			}
			if fd, ok := n.(*ast.FuncDecl); ok && (fd.Name.Name == "inCategories" || fd.Name.Name == "inSortedCategories" || fd.Name.Name == "exp" || fd.Name.Name == "expf" || fd.Name.Name == "pow2") {
				return false
			}
			// The type of -lit is recorded on the unary expression.
			var expr ast.Expr
			neg := false
			if u, ok := n.(*ast.UnaryExpr); ok && u.Op == token.SUB {
				if l, ok := u.X.(*ast.BasicLit); ok {
					n, expr, neg = l, u, true
				}
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || (lit.Kind != token.FLOAT && lit.Kind != token.INT) {
				return true
			}
			if expr == nil {
				expr = lit
			}
			tv, ok := info.Types[expr]
			if !ok {
				return true
			}
			basic, ok := tv.Type.Underlying().(*types.Basic)
			if !ok || basic.Info()&types.IsFloat == 0 {
				return true
			}
			size := 64
			if basic.Kind() == types.Float32 {
				size = 32
			}
			v, err := strconv.ParseFloat(lit.Value, size)
			if err != nil {
				bad = fmt.Errorf("%s: literal %s: %v", fset.Position(lit.Pos()), lit.Value, err)
				return false
			}
			if strconv.FormatFloat(v, 'g', -1, size) != lit.Value {
				bad = fmt.Errorf("%s: literal %s is not the shortest form of its value", fset.Position(lit.Pos()), lit.Value)
				return false
			}
			if neg {
				v = -v
			}
			if !allowed[math.Float64bits(v)] {
				bad = fmt.Errorf("%s: literal %s (%s, negated: %v) is not a value of the model", fset.Position(lit.Pos()), lit.Value, basic.Name(), neg)
				return false
			}
			checked++
			return false
		})
	}
	return checked, bad
}

// allowedImports are the only packages generated code may import.
var allowedImports = map[string]bool{"math": true, "math/bits": true, "errors": true}

// vectorImport is the one more package that the vector file may import.
const vectorImport = "simd/archsimd"

// CheckImports checks that the generated files import nothing but math,
// math/bits and errors (and simd/archsimd in the vector file, which then
// has the vector build constraint), and that each file's imports are used
// (go vet and the compiler check the latter too; this names the file).
func CheckImports(files []codegen.File) error {
	for _, f := range files {
		af, err := parser.ParseFile(token.NewFileSet(), f.Name, f.Data, parser.ImportsOnly|parser.ParseComments)
		if err != nil {
			return err
		}
		vector := f.Name == emit.VectorFileName
		want := ""
		switch f.Name {
		case emit.VectorFileName:
			want = emit.VectorBuild
		case emit.NoVectorFileName:
			want = "!(" + emit.VectorBuild + ")"
		}
		if got := buildConstraint(f.Data); got != want {
			return fmt.Errorf("%s has the build constraint %q, want %q", f.Name, got, want)
		}
		for _, imp := range af.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if !allowedImports[path] && !(vector && path == vectorImport) {
				return fmt.Errorf("%s imports %q", f.Name, path)
			}
			if imp.Name != nil {
				return fmt.Errorf("%s renames the import of %q", f.Name, path)
			}
		}
	}
	return nil
}

// buildConstraint returns the expression of the //go:build line of a Go
// file, or "".
func buildConstraint(src []byte) string {
	for _, line := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(line, "package ") {
			break
		}
		if constraint.IsGoBuild(line) {
			return strings.TrimSpace(strings.TrimPrefix(line, "//go:build"))
		}
	}
	return ""
}

// builds reports whether a Go file builds in the configuration of this
// process: its build constraint, if any, holds for GOOS, GOARCH and the
// go command's tags (goexperiment.simd with GOEXPERIMENT=simd).
func builds(src []byte) bool {
	expr := buildConstraint(src)
	if expr == "" {
		return true
	}
	x, err := constraint.Parse("//go:build " + expr)
	if err != nil {
		return true // the type-check then reports the file
	}
	ctx := build.Default
	return x.Eval(func(tag string) bool {
		return tag == ctx.GOOS || tag == ctx.GOARCH || slices.Contains(ctx.ToolTags, tag) || slices.Contains(ctx.ReleaseTags, tag)
	})
}
