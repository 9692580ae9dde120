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
	var allRounds bool
	xgb := a.importerCmd("xgboost", "an XGBoost model: JSON (.json) or UBJSON (.ubj), XGBoost 1.x to 3.x",
		`A model trained with early stopping records its best iteration; like
XGBoost's scikit-learn predict, the import keeps the rounds up to it and says
so. --all-rounds keeps every tree, as Booster.predict does.`,
		func(path string) (*ir.Model, error) {
			return xgboost.LoadWith(path, xgboost.Options{AllRounds: allRounds})
		})
	xgb.Flags().BoolVar(&allRounds, "all-rounds", false, "keep every round, ignoring the best iteration that early stopping recorded")
	lgb := a.importerCmd("lightgbm", "a LightGBM text model (model.txt, as saved by save_model)",
		`The link comes from the objective in the file. A random-forest model
(boosting=rf) written by LightGBM before 2.2.3 got no sigmoid from LightGBM,
but its file cannot be told from a newer one, which does; if your LightGBM
predicts raw averages for it, import with --link identity.`,
		lightgbm.Load)
	cmd.AddCommand(xgb, lgb)
	refuseUnknown(cmd, "importer")
	return cmd
}

// importerCmd is the subcommand of import for one library.
func (a *app) importerCmd(name, what, long string, load func(string) (*ir.Model, error)) *cobra.Command {
	var out, link string
	cmd := &cobra.Command{
		Use:   name + " FILE -o MODEL.json",
		Short: "Import " + what,
		Long: "import " + name + " converts " + what + " into treegen's IR.\n\n" + long + `

--link replaces the link function (from margins to predictions) that the
file implies: identity, sigmoid, softmax or exp. Use it only where the file
is ambiguous; the model then no longer predicts what the library predicts
from the same file, and its provenance records the change.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("-o/--out is required")
			}
			if link != "" {
				if err := oneOf("link", link, string(ir.Identity), string(ir.Sigmoid), string(ir.Softmax), string(ir.Exp)); err != nil {
					return err
				}
			}
			if modelKind(args[0]) == "ir" {
				return fmt.Errorf("%s is already a treegen IR model: use it as it is (treegen gen --model %s ...); there is nothing to import", args[0], args[0])
			}
			m, err := load(args[0])
			if err != nil {
				return err
			}
			if link != "" && ir.Link(link) != m.Link {
				if err := overrideLink(m, ir.Link(link)); err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "link %s (--link; the file implies %s)\n", link, m.Provenance.Params["link_in_file"])
			}
			a.reportRounds(m)
			if err := a.saveModel(out, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "imported %s: %s, %d features, %d outputs, %d trees; wrote %s\n",
				args[0], m.Task, m.NumFeatures, m.NumOutputs, len(m.Trees), out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", `output model file (IR JSON; "-": the standard output)`)
	cmd.Flags().StringVar(&link, "link", "", "replace the link the file implies: identity, sigmoid, softmax or exp")
	return cmd
}

// overrideLink sets m's link, records the change in its provenance and
// checks that the model is still valid (softmax needs several outputs).
func overrideLink(m *ir.Model, link ir.Link) error {
	if m.Provenance == nil {
		m.Provenance = &ir.Provenance{}
	}
	if m.Provenance.Params == nil {
		m.Provenance.Params = map[string]string{}
	}
	m.Provenance.Params["link_in_file"] = string(m.Link)
	m.Provenance.Params["link"] = string(link) + " (--link)"
	m.Link = link
	if err := m.Validate(); err != nil {
		return fmt.Errorf("--link %s: %v", link, err)
	}
	return nil
}

// reportRounds says when an import kept fewer rounds than its file holds.
func (a *app) reportRounds(m *ir.Model) {
	if m.Provenance == nil {
		return
	}
	p := m.Provenance.Params
	kept, saved, best := p["rounds_kept"], p["rounds_saved"], p["best_iteration"]
	if best != "" && kept != saved {
		fmt.Fprintf(a.stderr, "kept the first %s of %s rounds: the file records best_iteration %s, which XGBoost's scikit-learn predict uses (--all-rounds keeps them all)\n", kept, saved, best)
	}
}
