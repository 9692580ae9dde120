package codegen

import (
	"bufio"
	"errors"
	"fmt"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/quickscorer"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/codegen/walk"
	"github.com/treegen/treegen/ir"
)

// Precision is the working precision of generated code: the type of its
// inputs, outputs, model values and arithmetic. It implements flag.Value
// (and pflag.Value), so that a command line reads it as it is. In
// [Options] the zero value means the precision the model records.
type Precision = emit.Precision

// The working precisions.
const (
	Float64 = emit.Float64
	Float32 = emit.Float32
)

// ParsePrecision returns the precision named s: "float64" or "float32".
func ParsePrecision(s string) (Precision, error) { return ir.ParsePrecision(s) }

// Backend is a code generator for the trees of a model: its name, a summary,
// what it can compile (Check, with the reason when it cannot), which models
// it is meant for (Suited), its own options (NewOptions) and its code
// (Units, for the driver). [Backends] lists them.
type Backend = emit.Backend

// BackendOptions are a backend's own options: [Backend.NewOptions] makes
// them, RegisterFlags binds them to command-line flags, and
// [Options].BackendOptions passes them to [Generate].
type BackendOptions = emit.Options

// Auto is the backend name that lets [Plan] (and [Generate]) pick the
// backend by the shape of the model ([Choose]); the header of the
// generated files says which backend it picked and why.
const Auto = "auto"

// backends are the backends, ifelse first because it compiles every hard
// tree. Adding a backend is one folder and one line here; auto's rule
// (Choose) names the backends it weighs against each other.
var backends = []Backend{
	ifelse.Backend{},
	quickscorer.Backend{},
	smoothstep.Backend{},
	walk.Backend{},
}

// Backends returns the backends, ifelse first.
func Backends() []Backend { return append([]Backend(nil), backends...) }

// BackendNames returns the names of the backends, in the order of
// [Backends].
func BackendNames() []string {
	names := make([]string, len(backends))
	for i, b := range backends {
		names[i] = b.Name()
	}
	return names
}

// LookupBackend returns the backend named name, or an error listing the
// known ones.
func LookupBackend(name string) (Backend, error) {
	for _, b := range backends {
		if b.Name() == name {
			return b, nil
		}
	}
	return nil, fmt.Errorf("unknown backend %q (known backends: %s, or %s)", name, strings.Join(BackendNames(), ", "), Auto)
}

// AutoBackend returns the backend that Auto picks for the validated model
// m (see [Choose]). The error, when no backend compiles m, gives each
// backend's reason.
func AutoBackend(m *ir.Model) (Backend, error) {
	c, err := Choose(m)
	return c.Backend, err
}

// SuitedBackends returns the backends suited to the validated model m, in
// the order of [Backends].
func SuitedBackends(m *ir.Model) []Backend {
	var bs []Backend
	for _, b := range backends {
		if b.Suited(m) {
			bs = append(bs, b)
		}
	}
	return bs
}

// Options controls code generation.
type Options struct {
	// Package is the name of the generated package (see ValidPackageName).
	Package string
	// Backend names the backend (see BackendNames); "" and Auto pick one
	// by the shape of the model (see Choose).
	Backend string
	// BackendOptions are the backend's own options, made by its NewOptions;
	// nil means their defaults.
	BackendOptions BackendOptions
	// Precision is the working precision; "" means the precision the
	// model records (ir.Model.RecordedPrecision): Float32 for a model whose
	// tests or sums are in float32, as those of XGBoost imports are, so
	// that the code equals the library's predictions, else Float64.
	Precision Precision
	// Source is the model file name shown in the header of every file;
	// empty leaves it out.
	Source string
	// OmitVersion leaves the treegen version out of the header, so that
	// committed generated files do not change with each treegen release.
	OmitVersion bool
	// Measured, for approximate code (see BackendOptions.Effective), says
	// how far its predictions were measured to be from the interpreter's,
	// in a sentence the header shows ("At most 0.002 from the interpreter's
	// predictions on the 303 rows of heart.tsv.").
	Measured string
}

// File is a generated file: a name without directory, and its content.
type File struct {
	Name string
	Data []byte
}

// Generate validates m and returns the files of a Go package that predicts
// with it, sorted by name: [Plan] followed by [PackagePlan.Generate]. The
// result depends only on m and opts: the same model and options give the
// same bytes. Errors name the problem: an invalid model (with the JSON path
// of the culprit), an unknown backend or precision, a bad package name or
// backend option, or a model the backend cannot compile.
func Generate(m *ir.Model, opts Options) ([]File, error) {
	p, err := Plan(m, opts)
	if err != nil {
		return nil, err
	}
	return p.Generate()
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

// WriteDir writes files into the existing directory dir, replacing the
// package of an earlier run, and removes the tree files of that run that the
// new files do not replace (the files named like trees000.go, or
// trees_000.go as treegen named them before, that start with treegen's
// header line). It keeps every other file of dir as it is (the user's
// doc.go, tests and data), and refuses to overwrite a file that was not
// generated by treegen, before writing anything.
//
// Where the system allows it, dir changes in one step: WriteDir builds the
// new directory beside dir, in a hidden folder .NAME.treegen-NNN (the new
// files, hard links to the user's files, copies of the user's symbolic
// links, the same permissions), and exchanges the two (Linux renameat2
// RENAME_EXCHANGE); then it removes the old directory. A process killed at
// any point leaves dir holding the old package or the new one, byte for
// byte, and a write that fails (a full disk) leaves dir unchanged. The go
// command ignores the hidden folder, and the next WriteDir beside it
// removes what an interrupted one left; the user's subfolders of dir, moved
// into the new directory just before the exchange, are put back from there
// if an interruption fell between the two. Processes that have dir itself
// as working directory stay in the old, removed one (WriteDir moves its own
// process to the new one).
//
// Elsewhere (another system, a file system without the exchange, a dir
// that is a mount point or whose parent is not writable, a dir that a
// process this one descends from, such as the shell, has as working
// directory and would lose), WriteDir writes every file beside its final
// name first and renames them into place after: a failed write still
// leaves dir unchanged, but an interruption during the renames leaves
// files of two runs, which do not build together (a generated package
// ties its files together: "undefined: mixedTreegenRuns_regenerate_...")
// until treegen gen runs again.
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
	for _, f := range files {
		if f.Name == "" || f.Name != filepath.Base(f.Name) || f.Name == "." || f.Name == ".." {
			return fmt.Errorf("cannot write %q: not a plain file name", f.Name)
		}
	}
	real, err := filepath.EvalSymlinks(dir)
	if err == nil {
		real, err = filepath.Abs(real)
	}
	if err != nil {
		return fmt.Errorf("output directory %s: %w", dir, err)
	}
	unlock, settle := lockDir(filepath.Dir(real))
	defer unlock()
	if settle {
		if err := recoverLeftovers(real); err != nil {
			return err
		}
	}
	for _, f := range files {
		path := filepath.Join(dir, f.Name)
		generated, err := isGenerated(path)
		switch {
		case errors.Is(err, os.ErrNotExist):
		case err != nil:
			return err
		case !generated:
			return fmt.Errorf("refusing to overwrite %s: it was not generated by treegen", path)
		}
	}
	w := &dirWrite{dir: dir, real: real, files: files}
	if err := w.plan(); err != nil {
		return err
	}
	if done, err := w.replace(); done {
		return err
	}
	return w.inPlace()
}

// isGenerated reports whether the file at path (after symbolic links) is a
// regular file that starts with the header line of a file generated by
// treegen.
func isGenerated(path string) (bool, error) {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false, err // a folder, a pipe (which would block), a device: not ours
	}
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
