package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/lightgbm"
	"github.com/treegen/treegen/ir/sniff"
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
	var model, out, link, classNames, positive string
	cmd := &cobra.Command{
		Use:   name + " --model FILE -o MODEL.json",
		Short: "Import " + what,
		Long: "import " + name + " converts " + what + " into treegen's IR.\n\n" + long + `

The model to import is --model FILE, as in every command that reads a
model; "import ` + name + ` FILE" (the file as an argument) is an alias.

--link replaces the link function (from margins to predictions) that the
file implies: identity, sigmoid, softmax or exp. Use it only where the file
is ambiguous; the model then no longer predicts what the library predicts
from the same file, and its provenance records the change.

--class-names a,b,... names the classes, which the file does not: two
names for a binary model (the class scored 0, then the class its output
scores), one per output for a multiclass one. eval then matches labels by
name. --positive CLASS makes CLASS the class whose probability a binary
model outputs: if it is the first class, every leaf and the base score
change sign, so that the model outputs 1 - P exactly where the library
outputs P (the provenance records it).`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			path, err := modelArg(model, args)
			if err != nil {
				return err
			}
			if out == "" {
				return fmt.Errorf("-o/--out is required")
			}
			if link != "" {
				if err := oneOf("link", link, string(ir.Identity), string(ir.Sigmoid), string(ir.Softmax), string(ir.Exp)); err != nil {
					return err
				}
			}
			if err := wrongImporter(name, path, out); err != nil {
				return err
			}
			m, err := load(path)
			if err != nil {
				return err
			}
			if link != "" && ir.Link(link) != m.Link {
				if err := m.SetLink(ir.Link(link), "--link"); err != nil {
					return fmt.Errorf("--link %s: %v", link, err)
				}
				fmt.Fprintf(a.stderr, "link %s (--link; the file implies %s)\n", link, m.Provenance.Params["link_in_file"])
			}
			if err := setClasses(m, classNames, positive); err != nil {
				return err
			}
			if note := xgboost.RoundsLeftOut(m); note != "" {
				fmt.Fprintln(a.stderr, note)
			}
			if err := a.saveModel(out, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "imported %s: %s, %s, %s, %s; wrote %s\n",
				path, m.Task, plural(m.NumFeatures, "feature"), plural(m.NumOutputs, "output"), plural(len(m.Trees), "tree"), out)
			return nil
		},
	}
	cmd.Flags().StringVar(&model, "model", "", name+" model file to import (the positional FILE is an alias)")
	cmd.Flags().StringVarP(&out, "out", "o", "", `output model file (IR JSON; "-": the standard output)`)
	cmd.Flags().StringVar(&link, "link", "", "replace the link the file implies: identity, sigmoid, softmax or exp")
	cmd.Flags().StringVar(&classNames, "class-names", "", "comma-separated class names: 2 for a binary model, one per output for a multiclass one")
	cmd.Flags().StringVar(&positive, "positive", "", "the class whose probability a binary model outputs (its output becomes 1 - P if the file scores the other)")
	return cmd
}

// modelArg returns the model file named by --model or by the one
// positional argument, its alias: exactly one of them.
func modelArg(flag string, args []string) (string, error) {
	switch {
	case flag != "" && len(args) > 0:
		return "", fmt.Errorf("the model is given twice, --model %s and %s: give it once", flag, args[0])
	case flag != "":
		return flag, nil
	case len(args) > 0 && args[0] != "":
		return args[0], nil
	}
	return "", fmt.Errorf("the model file is required: --model FILE (or FILE as the argument)")
}

// wrongImporter returns an error naming the right command when the file at
// path is not a model for the importer name: a treegen IR model, or a
// model of another library. Files it cannot tell are left to the importer.
func wrongImporter(name, path, out string) error {
	k, err := sniff.File(path)
	if err != nil {
		return nil // the importer reports the file's own error
	}
	if k == sniff.IR {
		return fmt.Errorf("%s is already a treegen IR model: use it as it is (treegen gen --model %s ...); there is nothing to import", path, path)
	}
	if imp := k.Importer(); imp != "" && imp != name {
		return fmt.Errorf("%s is %s: import it with treegen import %s %s -o %s", path, k, imp, path, out)
	}
	return nil
}

// setClasses applies --class-names (comma-separated, empty: none) and then
// --positive (empty: none) to m, and records a swap of the classes in its
// provenance.
func setClasses(m *ir.Model, classNames, positive string) error {
	if classNames != "" {
		names := strings.Split(classNames, ",")
		for i := range names {
			names[i] = strings.TrimSpace(names[i])
		}
		if err := m.SetClassNames(names); err != nil {
			return fmt.Errorf("--class-names: %v", err)
		}
	}
	if positive == "" {
		return nil
	}
	if len(m.ClassNames) == 0 && m.Task == ir.Binary {
		return fmt.Errorf("--positive %s: the file names no classes: name them with --class-names (the class scored 0 first)", positive)
	}
	before := slices.Clone(m.ClassNames)
	if err := m.SetPositiveClass(positive); err != nil {
		return fmt.Errorf("--positive %s: %v", positive, err)
	}
	if !slices.Equal(before, m.ClassNames) {
		m.SetParam("positive", positive+" (--positive; the file scores "+before[1]+")")
	}
	return nil
}
