package codegen

import (
	"bufio"
	"errors"
	"fmt"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/quickscorer"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/internal/version"
	"github.com/treegen/treegen/ir"
)

// Precision is the working precision of generated code: the type of its
// inputs, outputs, model values and arithmetic.
type Precision string

// Precisions.
const (
	Float64 Precision = "float64"
	Float32 Precision = "float32"
)

// DefaultBackend is the backend used when Options.Backend is empty.
const DefaultBackend = ifelse.Name

// backends maps the name of each backend to its constructor.
var backends = map[string]func() emit.Backend{
	ifelse.Name:      ifelse.New,
	quickscorer.Name: quickscorer.New,
	smoothstep.Name:  smoothstep.New,
}

// Backends returns the names of the known backends, sorted.
func Backends() []string {
	names := make([]string, 0, len(backends))
	for name := range backends {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// Options controls code generation.
type Options struct {
	// Package is the name of the generated package (see ValidPackageName).
	Package string
	// Backend names the backend: "ifelse" (the default when empty),
	// "quickscorer" or "smoothstep" (see Backends).
	Backend string
	// Precision is the working precision; empty means Float64.
	Precision Precision
	// Source is the model file name shown in the header of every file;
	// empty leaves it out.
	Source string
	// OmitVersion leaves the treegen version out of the header, so that
	// committed generated files do not change with each treegen release.
	OmitVersion bool
	// Prune, when > 0, makes the smoothstep backend leave out of the margin
	// of every soft node the weights w with |w| <= Prune. This changes the
	// predictions (the generated code no longer equals the interpreter bit
	// for bit): the margin loses the dropped terms, and a NaN or ±Inf in a
	// dropped feature no longer makes the margin NaN. 0, the default, keeps
	// every weight, exact zeros included: 0·x is NaN for x = NaN or ±Inf, so
	// even a zero weight can decide where a row goes. Other backends refuse
	// a Prune other than 0; a negative or NaN Prune is an error.
	Prune float64
}

// File is a generated file: a name without directory, and its content.
type File struct {
	Name string
	Data []byte
}

// Generate validates m and returns the files of a Go package that predicts
// with it, sorted by name. The result depends only on m and opts: the same
// model and options give the same bytes. Errors name the problem: an invalid
// model (with the JSON path of the culprit), an unknown backend or precision,
// a bad package name or prune threshold, or a model the backend cannot
// compile.
func Generate(m *ir.Model, opts Options) ([]File, error) {
	if err := ValidPackageName(opts.Package); err != nil {
		return nil, err
	}
	name := opts.Backend
	if name == "" {
		name = DefaultBackend
	}
	newBackend, ok := backends[name]
	if !ok {
		return nil, fmt.Errorf("unknown backend %q (known backends: %s)", opts.Backend, strings.Join(Backends(), ", "))
	}
	prec := opts.Precision
	switch prec {
	case "":
		prec = Float64
	case Float64, Float32:
	default:
		return nil, fmt.Errorf("unknown precision %q (want float64 or float32)", opts.Precision)
	}
	switch {
	case !(opts.Prune >= 0) || math.IsInf(opts.Prune, 1):
		return nil, fmt.Errorf("prune threshold %v: want a finite number >= 0", opts.Prune)
	case opts.Prune != 0 && name != smoothstep.Name:
		return nil, fmt.Errorf("prune threshold %v: the %s backend does not prune weights (only smoothstep does)", opts.Prune, name)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("invalid model: %w", err)
	}
	cfg := emit.Config{
		Package:   opts.Package,
		Precision: string(prec),
		Source:    opts.Source,
		Backend:   name,
		Prune:     opts.Prune,
	}
	if !opts.OmitVersion {
		cfg.Version = version.Version
	}
	files, err := emit.Generate(m, newBackend(), cfg)
	if err != nil {
		return nil, fmt.Errorf("%s backend: %w", name, err)
	}
	out := make([]File, len(files))
	for i, f := range files {
		out[i] = File{Name: f.Name, Data: f.Data}
	}
	return out, nil
}

// ValidPackageName returns nil if name can name a generated package: a Go
// identifier that is not a keyword, not the blank identifier, not "main" (a
// generated package is a library) and not "init" (which cannot be imported
// under its own name). The error reads well on its own, for
// instance: package name "1abc" is not a Go identifier.
func ValidPackageName(name string) error {
	switch {
	case name == "":
		return errors.New("package name is empty")
	case token.IsKeyword(name):
		return fmt.Errorf("package name %q is a Go keyword", name)
	case name == "_":
		return errors.New(`package name "_" is the blank identifier`)
	case !token.IsIdentifier(name):
		return fmt.Errorf("package name %q is not a Go identifier", name)
	case name == "main":
		return errors.New(`package name "main" is for commands: a generated predictor is a library package`)
	case name == "init":
		return errors.New(`package name "init" cannot be imported without renaming: init is reserved for init functions`)
	}
	return nil
}

// WriteDir writes files into the existing directory dir, each one
// atomically (a temporary file renamed over the old one), and then removes
// the tree files of an earlier run that the new files do not replace (the
// files named like trees_000.go that start with treegen's header line). It
// touches no other file: it refuses to overwrite a file that was not
// generated by treegen, before writing anything.
func WriteDir(dir string, files []File) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("output directory %s does not exist", dir)
	case err != nil:
		return fmt.Errorf("output directory %s: %w", dir, err)
	case !fi.IsDir():
		return fmt.Errorf("output directory %s is not a directory", dir)
	}
	keep := make(map[string]bool, len(files))
	for _, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." {
			return fmt.Errorf("cannot write %q: not a plain file name", f.Name)
		}
		path := filepath.Join(dir, f.Name)
		generated, err := isGenerated(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return err
		case !generated:
			return fmt.Errorf("refusing to overwrite %s: it was not generated by treegen", path)
		}
		keep[f.Name] = true
	}
	for _, f := range files {
		if err := atomicfile.WriteFile(filepath.Join(dir, f.Name), f.Data, 0o644); err != nil {
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries { // sorted by name
		if keep[e.Name()] || !e.Type().IsRegular() || !emit.IsTreeFileName(e.Name()) {
			continue
		}
		path := filepath.Join(dir, e.Name())
		generated, err := isGenerated(path)
		if err != nil {
			return err
		}
		if generated {
			if err := os.Remove(path); err != nil {
				return fmt.Errorf("removing stale %s: %w", path, err)
			}
		}
	}
	return nil
}

// isGenerated reports whether the file at path starts with the header line
// of a file generated by treegen.
func isGenerated(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	line, err := r.ReadString('\n')
	if err != nil && line == "" {
		return false, nil // empty or unreadable as text: not ours
	}
	return emit.IsHeader(strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")), nil
}
