package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
)

func (a *app) genCmd() *cobra.Command {
	var model, backend, pkg, out string
	var df dataFlags
	var rounds int
	var prec codegen.Precision // "": the precision the model records
	var omitVersion, force bool
	var bflags *codegen.BackendFlags
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
				if err := codegen.CheckDir(out, pkg); err != nil {
					return fmt.Errorf("--out %v; choose another --out (--force writes there anyway)", err)
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
			bopts, err := bflags.Options(plan.Backend, cmd.Flags().Changed, plan.Auto)
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
			if err := codegen.MakeDir(out); err != nil {
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

// genSummary prints what gen wrote into dir from plan: the package, its
// files and size, the backend and, when auto picked it, why; whether the
// code is approximate and by how much; and, for a package that runs to
// megabytes, what can make it smaller (codegen.PackagePlan.Advice).
func (a *app) genSummary(plan *codegen.PackagePlan, dir string, files []codegen.File) {
	size := codegen.SourceSize(files)
	what := plan.Backend.Name() + ", " + plan.Precision.String()
	if s := plan.BackendOptions.String(); s != "" {
		what += ", " + s
	}
	fmt.Fprintf(a.stderr, "generated package %s in %s: %s, %s (%s)\n", plan.Package, dir, plural(len(files), "file"), codegen.ByteSize(size), what)
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
	if advice := plan.Advice(size); advice != "" {
		fmt.Fprintf(a.stderr, "large package: %s of Go source in %s: %s\n", codegen.ByteSize(size), plural(len(files), "file"), advice)
	}
}
