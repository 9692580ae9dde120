package main

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
)

func (a *app) genCmd() *cobra.Command {
	var model, backend, pkg, out string
	var df dataFlags
	var rounds int
	prec := codegen.Float64
	var omitVersion, force bool
	var bflags *backendFlags
	cmd := &cobra.Command{
		Use:   "gen --model MODEL.json --out DIR [--package NAME] [--backend NAME]",
		Short: "Generate a dependency-free Go package from a model",
		Long: `gen compiles a model into a Go package in DIR: Predict, PredictMargin,
PredictSlice, PredictBatch (and PredictClass for classifiers), importing only
the standard library and allocating nothing per prediction. The package name
defaults to the base name of DIR. DIR is created if its parent exists.
Files of an earlier run that the new one no longer needs are removed; other
files in DIR are never touched. A DIR that holds Go files of another package
is refused (two packages in one directory break the build) unless --force.

DIR changes in one step: gen builds the new DIR beside it, in a hidden folder
.DIR.treegen-NNN that the go command ignores, and exchanges the two, so that
an interrupted gen (killed, out of disk space) leaves the old package or the
new one, never a mix; the next gen removes what it left. Where that cannot be
done (not Linux, or the shell that runs gen works in DIR itself, which would
leave it in the removed old folder) gen writes every file first and renames
them after: a mix of two runs, left by an interruption between the renames,
fails to build ("undefined: mixedTreegenRuns_regenerate_...") until gen runs
again.

--backend picks the code generator (` + strings.Join(codegen.BackendNames(), ", ") + `);
auto, the default, picks the one expected to be the fastest one row per call,
by a rule on the shape of the model (trees, depths, splits, features; soft,
oblique and latent nodes) calibrated on a grid of models (docs/PERFORMANCE.md),
and the header of every generated file says which backend it picked and why.
A backend's own options are flags of its own; giving one of another backend is
an error. Options that make the code approximate (it no longer equals the
interpreter bit for bit) are said so in the file headers; with --data, gen
measures how far the predictions are from the interpreter's on the rows of
FILE, prints it and writes it into the headers.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" {
				return fmt.Errorf("--model is required")
			}
			if out == "" {
				return fmt.Errorf("--out is required")
			}
			if pkg == "" {
				abs, err := filepath.Abs(out)
				if err != nil {
					return err
				}
				pkg = filepath.Base(abs)
				if err := codegen.ValidPackageName(pkg); err != nil {
					return fmt.Errorf("--package: the default, the name of the output directory %s, is no Go package name: %v; name the package with --package", out, err)
				}
			} else if err := codegen.ValidPackageName(pkg); err != nil {
				return fmt.Errorf("--package %q: %v", pkg, err)
			}
			if !force {
				if err := otherPackage(out, pkg); err != nil {
					return err
				}
			}
			m, err := loadModelRounds(model, rounds)
			if err != nil {
				return err
			}
			b, err := chooseBackend(m, backend)
			if err != nil {
				return err
			}
			bopts, err := bflags.options(cmd, b, backend == codegen.Auto || backend == "")
			if err != nil {
				return err
			}
			var measured string
			eff, approx := bopts.Effective(m)
			switch {
			case approx != "" && df.path != "":
				if measured, err = a.measureApproximation(m, eff, &df, prec); err != nil {
					return err
				}
			case df.path != "":
				fmt.Fprintf(a.stderr, "--data %s is not read: the code is exact\n", df.path)
			}
			files, err := codegen.Generate(m, codegen.Options{
				Package:        pkg,
				Backend:        b.Name(),
				BackendOptions: bopts,
				Precision:      prec,
				Source:         filepath.Base(model),
				OmitVersion:    omitVersion,
				Measured:       measured,
			})
			if err != nil {
				return err
			}
			if err := ensureDir(out); err != nil {
				return err
			}
			if err := codegen.WriteDir(out, files); err != nil {
				return err
			}
			size := 0
			for _, f := range files {
				size += len(f.Data)
			}
			what := b.Name() + ", " + prec.String()
			if s := bopts.String(); s != "" {
				what += ", " + s
			}
			fmt.Fprintf(a.stderr, "generated package %s in %s: %d files, %d bytes (%s)\n", pkg, out, len(files), size, what)
			if approx != "" {
				fmt.Fprintf(a.stderr, "approximate: %s\n", approx)
				if measured != "" {
					fmt.Fprintf(a.stderr, "measured: %s\n", measured)
				} else {
					fmt.Fprintf(a.stderr, "not measured: add --data FILE (rows with the model's features) to measure how far predictions are from the interpreter's and record it in the headers\n")
				}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	cmd.Flags().StringVar(&backend, "backend", codegen.Auto, "code generator: "+strings.Join(codegen.BackendNames(), ", ")+", or "+codegen.Auto+" (picked by the shape of the model; the headers say which and why)")
	cmd.Flags().StringVar(&pkg, "package", "", "Go package name (default: base name of --out)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "output directory")
	cmd.Flags().Var(&prec, "precision", "working precision of the generated code: float64 or float32")
	df.register(cmd, "for approximate code: rows on which to measure how far predictions are from the interpreter's", true)
	cmd.Flags().BoolVar(&omitVersion, "omit-version", false, "leave the treegen version out of the file headers (for committed files)")
	cmd.Flags().BoolVar(&force, "force", false, "write into --out even if it holds Go files of another package")
	bflags = addBackendFlags(cmd)
	return cmd
}

// chooseBackend returns the backend named name, or for codegen.Auto the one
// that Auto picks for the validated model m.
func chooseBackend(m *ir.Model, name string) (codegen.Backend, error) {
	if name == codegen.Auto || name == "" {
		return codegen.AutoBackend(m)
	}
	return codegen.LookupBackend(name)
}

// otherPackage returns an error if dir holds a Go file, among those the go
// command would build on this platform, of a package other than pkg (or its
// external test package pkg_test). A missing dir holds nothing.
func otherPackage(dir, pkg string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil // ensureDir reports what is wrong with dir
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
			continue // not Go the build would see either way
		}
		if got := f.Name.Name; got != pkg && got != pkg+"_test" {
			return fmt.Errorf("--out %s holds package %s (%s): generating package %s there would put two packages in one directory and break the build; choose another --out (--force writes there anyway)",
				dir, got, name, pkg)
		}
	}
	return nil
}

// ensureDir creates dir if it does not exist and its parent does.
func ensureDir(dir string) error {
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

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
