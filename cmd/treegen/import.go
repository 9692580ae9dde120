package main

import (
	"fmt"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/lightgbm"
	"github.com/treegen/treegen/ir/xgboost"
)

func (a *app) importCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "import",
		Short: "Convert an XGBoost or LightGBM model into treegen's IR",
	}
	for _, lib := range []struct {
		name, what string
		load       func(string) (*ir.Model, error)
	}{
		{"xgboost", "an XGBoost model: JSON (.json) or UBJSON (.ubj), XGBoost 1.x to 3.x", xgboost.Load},
		{"lightgbm", "a LightGBM text model (model.txt, as saved by save_model)", lightgbm.Load},
	} {
		var out string
		sub := &cobra.Command{
			Use:   lib.name + " FILE -o MODEL.json",
			Short: "Import " + lib.what,
			Args:  cobra.ExactArgs(1),
			RunE: func(cmd *cobra.Command, args []string) error {
				if out == "" {
					return fmt.Errorf("-o/--out is required")
				}
				m, err := lib.load(args[0])
				if err != nil {
					return err
				}
				if err := ir.Save(out, m); err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "imported %s: %s, %d features, %d outputs, %d trees; wrote %s\n",
					args[0], m.Task, m.NumFeatures, m.NumOutputs, len(m.Trees), out)
				return nil
			},
		}
		sub.Flags().StringVarP(&out, "out", "o", "", "output model file (IR JSON)")
		cmd.AddCommand(sub)
	}
	refuseUnknown(cmd, "importer")
	return cmd
}
