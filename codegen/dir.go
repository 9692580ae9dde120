package codegen

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
)

// OtherPackageError is the error of [CheckDir]: Dir holds File, a Go file
// of package Found, where package Package was to be generated.
type OtherPackageError struct {
	Dir, File, Found, Package string
}

func (e *OtherPackageError) Error() string {
	return fmt.Sprintf("%s holds package %s (%s): generating package %s there would put two packages in one directory and break the build",
		e.Dir, e.Found, e.File, e.Package)
}

// CheckDir returns an [*OtherPackageError] if dir holds a Go file, among
// those the go command would build on this platform, of a package other
// than pkg (or its external test package pkg_test). A missing or
// unreadable dir holds nothing ([MakeDir] and [WriteDir] report what is
// wrong with it), and a file whose package clause does not parse is not
// Go the build would see either way.
func CheckDir(dir, pkg string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") {
			continue
		}
		if ok, err := build.Default.MatchFile(dir, name); err != nil || !ok {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.PackageClauseOnly)
		if err != nil {
			continue
		}
		if got := f.Name.Name; got != pkg && got != pkg+"_test" {
			return &OtherPackageError{Dir: dir, File: name, Found: got, Package: pkg}
		}
	}
	return nil
}

// MakeDir creates the output directory dir, as [WriteDir] needs it, if it
// does not exist and its parent does; an existing dir must be a
// directory.
func MakeDir(dir string) error {
	fi, err := os.Stat(dir)
	if err == nil {
		if !fi.IsDir() {
			return fmt.Errorf("output %s is not a directory", dir)
		}
		return nil
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if pfi, perr := os.Stat(parent); perr != nil || !pfi.IsDir() {
		return fmt.Errorf("output directory %s cannot be created: %s does not exist", dir, parent)
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return fmt.Errorf("output directory %s cannot be created: %v", dir, unwrapPath(err))
	}
	return nil
}
