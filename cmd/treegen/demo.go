package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/internal/tooling/demo"
)

func (a *app) demoCmd() *cobra.Command {
	o := demo.Options{Precision: codegen.Float64}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Run the whole pipeline on an embedded data set",
		Long: `demo trains a CART classifier on the embedded Breast Cancer Wisconsin data
(70/30 stratified split), writes the model as IR JSON, generates a Go package
from it, builds that package with the go command, runs it on the held-out rows
beside the interpreter, and reports accuracy, bit-for-bit equality and the
time per row of generated code and interpreter.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.Report = func(step, line string) { fmt.Fprintf(a.stdout, "%-9s %s\n", step, line) }
			return demo.Run(cmd.Context(), o)
		},
	}
	cmd.Flags().StringVar(&o.Dir, "dir", "", "keep the model and generated package in this directory (default: a temporary one, removed)")
	cmd.Flags().Var(&o.Precision, "precision", "precision of the generated code and the interpreter: float64 or float32")
	cmd.Flags().IntVar(&o.MaxDepth, "max-depth", 6, "maximum depth of the tree")
	cmd.Flags().Uint64Var(&o.Seed, "seed", 1, "seed of the train/test split")
	return cmd
}
