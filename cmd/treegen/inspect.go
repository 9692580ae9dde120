package main

import (
	"bufio"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/ir/describe"
	"github.com/treegen/treegen/ir/importance"
)

func (a *app) inspectCmd() *cobra.Command {
	var model string
	var dot, asJSON bool
	var top int
	cmd := &cobra.Command{
		Use:   "inspect --model MODEL.json [--dot | --json] [--top N]",
		Short: "Summarise a model with its feature importances, or draw it as Graphviz",
		Long: `inspect prints a summary of a model (task, shape, node kinds, provenance,
sha256) and the importance of its features, or the summary and every
feature's importance as JSON (--json), or its trees in Graphviz dot format
(--dot). The model may also be given as the only argument, "treegen inspect
MODEL.json", in place of --model.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 1 && model != "":
				return fmt.Errorf("give the model once: --model %s, or the argument %s", model, args[0])
			case len(args) == 1:
				model = args[0]
			case model == "":
				return fmt.Errorf("--model is required")
			}
			if dot && asJSON {
				return fmt.Errorf("--dot and --json are exclusive: choose one output")
			}
			if top < 0 {
				return fmt.Errorf("--top must be at least 0 (0: every feature), got %d", top)
			}
			m, err := loadModel(model)
			if err != nil {
				return err
			}
			w := bufio.NewWriter(a.stdout)
			switch {
			case dot:
				err = describe.Dot(w, m)
			case asJSON:
				err = describe.SummaryJSON(w, m)
			default:
				if err = describe.Summary(w, m); err == nil {
					err = describe.Importance(w, importance.Compute(m), top)
				}
			}
			if err != nil {
				return err
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON); the only argument may name it instead")
	cmd.Flags().BoolVar(&dot, "dot", false, "print the trees in Graphviz dot format")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the summary and every feature's importance as JSON")
	cmd.Flags().IntVar(&top, "top", 10, "features in the importance table (0: all)")
	return cmd
}
