package main

import (
	"fmt"
	"go/build"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/quickscorer"
	"github.com/treegen/treegen/codegen/walk"
)

func (a *app) genCmd() *cobra.Command {
	var model, backend, pkg, out string
	var df dataFlags
	var rounds int
	var prec codegen.Precision // "": the precision the model records
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
and the header of every generated file and the summary on stderr say which
backend it picked and why. The summary also gives the number of files and the
size of the source, and suggests how to make a package of megabytes smaller.
A backend's own options are flags of its own; giving one of another backend is
an error. Options that make the code approximate (it no longer equals the
interpreter bit for bit) are said so in the file headers; with --data, gen
measures how far the predictions are from the interpreter's on the rows of
FILE, prints it and writes it into the headers.

--precision defaults to the precision the model records: float32 for a model
whose tests or sums are in float32 (XGBoost imports), so that the package
equals the library's predictions bit for bit, else float64.`,
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
			plan, err := codegen.Plan(m, codegen.Options{
				Package:     pkg,
				Backend:     backend,
				Precision:   prec,
				Source:      filepath.Base(model),
				OmitVersion: omitVersion,
			})
			if err != nil {
				return err
			}
			bopts, err := bflags.options(cmd, plan.Backend, plan.Auto)
			if err != nil {
				return err
			}
			if err := plan.SetBackendOptions(bopts); err != nil {
				return err
			}
			switch {
			case plan.Approximation != "" && df.path != "":
				if plan.Measured, err = a.measureApproximation(plan.Model, plan.Effective, &df, plan.Precision); err != nil {
					return err
				}
			case df.path != "":
				fmt.Fprintf(a.stderr, "--data %s is not read: the code is exact\n", df.path)
			}
			files, err := plan.Generate()
			if err != nil {
				return err
			}
			if err := ensureDir(out); err != nil {
				return err
			}
			if err := codegen.WriteDir(out, files); err != nil {
				return err
			}
			a.genSummary(plan, out, files)
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	cmd.Flags().StringVar(&backend, "backend", codegen.Auto, "code generator: "+strings.Join(codegen.BackendNames(), ", ")+", or "+codegen.Auto+" (picked by the shape of the model; the headers say which and why)")
	cmd.Flags().StringVar(&pkg, "package", "", "Go package name (default: base name of --out)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "output directory")
	cmd.Flags().Var(&prec, "precision", "working precision of the generated code: float64 or float32 (default: the precision the model records, float32 for XGBoost imports, else float64)")
	cmd.Flags().Lookup("precision").DefValue = "" // the model's, said in the help
	df.register(cmd, "for approximate code: rows on which to measure how far predictions are from the interpreter's", true)
	cmd.Flags().BoolVar(&omitVersion, "omit-version", false, "leave the treegen version out of the file headers (for committed files)")
	cmd.Flags().BoolVar(&force, "force", false, "write into --out even if it holds Go files of another package")
	bflags = addBackendFlags(cmd)
	return cmd
}

// largePackage is the size of generated source, in bytes, from which gen
// warns that the package is large and says what can make it smaller.
const largePackage = 1_000_000

// tableBackends are the backends that hold trees in tables of thresholds
// and leaves rather than in code, in the order gen suggests them.
var tableBackends = []string{walk.Name, quickscorer.Name}

// genSummary prints what gen wrote into dir from plan: the package, its
// files and size, the backend and, when auto picked it, why; whether the
// code is approximate and by how much; and, for a package that runs to
// megabytes, what can make it smaller.
func (a *app) genSummary(plan *codegen.PackagePlan, dir string, files []codegen.File) {
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	what := plan.Backend.Name() + ", " + plan.Precision.String()
	if s := plan.BackendOptions.String(); s != "" {
		what += ", " + s
	}
	fmt.Fprintf(a.stderr, "generated package %s in %s: %s, %s (%s)\n", plan.Package, dir, plural(len(files), "file"), byteSize(size), what)
	if plan.Auto {
		fmt.Fprintf(a.stderr, "picked by auto: %s\n", plan.Why)
	}
	if plan.Approximation != "" {
		fmt.Fprintf(a.stderr, "approximate: %s\n", plan.Approximation)
		if plan.Measured != "" {
			fmt.Fprintf(a.stderr, "measured: %s\n", plan.Measured)
		} else {
			fmt.Fprintf(a.stderr, "not measured: add --data FILE (rows with the model's features) to measure how far predictions are from the interpreter's and record it in the headers\n")
		}
	}
	if size >= largePackage {
		fmt.Fprintf(a.stderr, "large package: %s of Go source in %s: %s\n", byteSize(size), plural(len(files), "file"), smaller(plan))
	}
}

// smaller says what can make the package of plan smaller: another backend
// that holds the trees in tables and compiles the model (in treegen's
// measurements, 200 trees of depth 8 made 3.3 MB of ifelse source that
// built in 12 s into a 5.1 MB binary, and 3.8 MB of walk tables that built
// in 4.5 s into 2.9 MB), or fewer trees.
func smaller(plan *codegen.PackagePlan) string {
	fewer := "fewer trees make it smaller (--iterations N keeps the first N rounds of a boosted model)"
	name := plan.Backend.Name()
	var others []string
	for _, t := range tableBackends {
		if t == name {
			return "the tables of " + name + "; " + fewer
		}
		if b, err := codegen.LookupBackend(t); err == nil && plan.Check(b) == nil {
			others = append(others, t)
		}
	}
	if len(others) == 0 {
		return "the code of " + name + " for every node of every tree, and no backend that holds trees in tables compiles this model; " + fewer
	}
	return "the code of " + name + " for every node of every tree; --backend " + strings.Join(others, " or --backend ") +
		" also compiles this model, holding the trees in tables, which usually builds faster into a smaller binary (treegen bench --backends " +
		name + "," + strings.Join(others, ",") + " compares their speed, build time and source size)"
}

// byteSize writes n bytes in decimal units, rounded to a tenth below 10
// and to a unit above: "812 B", "5.3 kB", "14 MB".
func byteSize(n int) string {
	if n < 1000 {
		return strconv.Itoa(n) + " B"
	}
	v := float64(n)
	units := []string{"kB", "MB", "GB", "TB", "PB"}
	for _, unit := range units {
		v /= 1000
		switch {
		case v < 9.95:
			return strconv.FormatFloat(v, 'f', 1, 64) + " " + unit
		case v < 999.5:
			return strconv.FormatFloat(v, 'f', 0, 64) + " " + unit
		}
	}
	return strconv.FormatFloat(v/1000, 'f', 1, 64) + " EB" // an int holds at most 9.2 EB
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
