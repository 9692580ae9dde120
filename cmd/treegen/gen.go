package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
)

func (a *app) genCmd() *cobra.Command {
	var model, backend, pkg, out, precision string
	var omitVersion bool
	var prune float64
	_ = prune
	cmd := &cobra.Command{
		Use:   "gen --model MODEL.json --out DIR [--package NAME]",
		Short: "Generate a dependency-free Go package from a model",
		Long: `gen compiles a model into a Go package in DIR: Predict, PredictMargin,
PredictSlice, PredictBatch (and PredictClass for classifiers), importing only
the standard library and allocating nothing per prediction. The package name
defaults to the base name of DIR. DIR is created if its parent exists.
Files of an earlier run that the new one no longer needs are removed; other
files in DIR are never touched.`,
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
			}
			if err := codegen.ValidPackageName(pkg); err != nil {
				return fmt.Errorf("%v (set --package)", err)
			}
			m, err := ir.Load(model)
			if err != nil {
				return err
			}
			files, err := codegen.Generate(m, codegen.Options{
				Package:     pkg,
				Backend:     backend,
				Precision:   codegen.Precision(precision),
				Source:      filepath.Base(model),
				OmitVersion: omitVersion,
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
			fmt.Fprintf(a.stderr, "generated package %s in %s: %d files, %d bytes (%s, %s)\n",
				pkg, out, len(files), size, backendName(backend), precisionName(precision))
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	cmd.Flags().StringVar(&backend, "backend", "ifelse", "code generator: "+strings.Join(codegen.BackendNames(), ", "))
	cmd.Flags().StringVar(&pkg, "package", "", "Go package name (default: base name of --out)")
	cmd.Flags().StringVarP(&out, "out", "o", "", "output directory")
	cmd.Flags().StringVar(&precision, "precision", "float64", "working precision of the generated code: float64 or float32")
	cmd.Flags().Float64Var(&prune, "prune", 0, "smoothstep: leave out soft-node weights with |w| <= this (0 keeps all; > 0 changes predictions)")
	cmd.Flags().BoolVar(&omitVersion, "omit-version", false, "leave the treegen version out of the file headers (for committed files)")
	return cmd
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

func backendName(b string) string {
	if b == "" {
		return "ifelse"
	}
	return b
}

func precisionName(p string) string {
	if p == "" {
		return "float64"
	}
	return p
}
