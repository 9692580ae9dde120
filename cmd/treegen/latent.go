package main

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/progress"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/train/latent"
	"github.com/treegen/treegen/train/tel"
)

func (a *app) trainLatentCmd() *cobra.Command {
	var f commonTrainFlags
	o := latent.DefaultOptions("")
	cmd := &cobra.Command{
		Use:   "latent --data FILE [--depth D] [--lambda λ] [--split linear|linear-elu] -o MODEL.json",
		Short: "Train a latent binary tree by sparse relaxation and argmin differentiation",
		Long: `latent trains a latent binary tree as Zantedeschi, Kusner and Niculae do
("Learning Binary Trees via Sparse Relaxation"): a complete tree of depth
--depth whose nodes split on w·x' + b (--split linear-elu: elu of it) over
standardised features, a quadratic tree program that routes every row and
prunes nodes (solved exactly by a tree pool-adjacent-violators algorithm and
differentiated in closed form), and a linear read-out over [x', z], learnt
together by quasi-hyperbolic Adam on the loss + --lambda·‖η‖∞. Larger
--lambda prunes more. The learning rate is divided by 10 after --patience
epochs without a lower validation loss, and training stops after
--early-stopping such epochs, keeping the best (both need --valid or
--valid-fraction). Without --loss, a target of two values is logistic,
labels or integers softmax, anything else squarederror.

--cluster --regress A,B learns a hierarchy instead (the paper's
self-supervised hierarchical clustering): the tree regresses the named
columns from the others, and the target column, not learnt, labels the rows
for the dendrogram purity reported on the training, validation and --test
rows. "treegen cluster" scores a model so trained on other data.

"treegen gen" compiles the model with the ifelse backend; "treegen inspect"
shows the pruned tree and draws it with --dot.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := firstError(f.check(), o.Validate()); err != nil {
				return err
			}
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if err := o.Resolve(d); err != nil {
				return err
			}
			if o.Loss == "" {
				l, err := tel.InferLoss(d)
				if err != nil {
					return err
				}
				if o.Loss = latent.Loss(l); !f.quiet {
					fmt.Fprintf(a.stderr, "loss %s (from the target values of %s; --loss to choose)\n", o.Loss, f.data)
				}
			}
			d, v, err := f.split(d, o.Loss == latent.SquaredError, o.Seed)
			if err != nil {
				return err
			}
			o.Name = f.modelName()
			update, done := progress.New(a.stderr, o.Epochs, 10, f.quiet)
			o.OnEpoch = func(e latent.EpochInfo) {
				s := fmt.Sprintf("epoch %d/%d train loss %.5f", e.Epoch, e.Epochs, e.TrainLoss)
				if !math.IsNaN(e.ValidLoss) {
					s += fmt.Sprintf(" valid loss %.5f", e.ValidLoss)
				}
				update(e.Epoch, s+fmt.Sprintf(" active nodes %d lr %g (%s)", e.Active, e.LearningRate, e.Elapsed.Round(time.Millisecond)))
			}
			start := time.Now()
			t, err := latent.Fit(d, v, o)
			done()
			if err != nil {
				return err
			}
			m, err := t.Model()
			if err != nil {
				return err
			}
			if err := f.save(a, m); err != nil {
				return err
			}
			fmt.Fprintf(a.stderr, "trained a latent tree on %d rows in %s (best epoch %d of %d): %d of %d nodes active, %d in the model; wrote %s\n",
				d.Rows, time.Since(start).Round(time.Millisecond), t.BestEpoch(), len(t.History()), t.Active(), len(t.Activities()), len(m.Trees[0].Nodes), f.out)
			if !o.Cluster() {
				return a.reportTraining(m, f, d, v)
			}
			var test *data.Dataset
			if f.test != "" {
				if test, err = f.read(f.test); err != nil {
					return err
				}
				f.test = "" // scored here: the model's outputs are the regressed columns, not the target
			}
			for i, s := range []*data.Dataset{d, v, test} {
				if s == nil {
					continue
				}
				dp, err := latent.DendrogramPurity(m, s)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "%s: dendrogram purity %.4f over %d rows\n", []string{"train", "valid", "test"}[i], dp, s.Rows)
			}
			return nil
		},
	}
	f.register(a, cmd)
	f.registerValidation(cmd, "validation data, for the learning-rate schedule and early stopping")
	addTrainerFlags(cmd, o.RegisterFlags)
	return cmd
}

func (a *app) clusterCmd() *cobra.Command {
	var modelPath, dataPath, target string
	cmd := &cobra.Command{
		Use:   "cluster --model MODEL.json --data FILE [--target COLUMN]",
		Short: "Score the hierarchy of a latent tree: dendrogram purity against labelled rows",
		Long: `cluster reads a model with a latent tree (such as "treegen train latent
--cluster") and rows labelled by --target, sends every row down the tree
(a row belongs to every node whose traversal z is positive, a path from the
root), and reports the dendrogram purity of that hierarchy (Kobren et al.
2017): over all pairs of rows of one class, the share of that class among
the rows under their least common ancestor, averaged; 1 is perfect. It
lists the deepest clusters with their size and majority class. The model's
features are looked up by name among the file's columns.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if modelPath == "" || dataPath == "" {
				return fmt.Errorf("cluster needs --model and --data")
			}
			m, err := ir.Load(modelPath)
			if err != nil {
				return err
			}
			d, err := readDataWith(dataPath, data.Options{Target: target, RequireTarget: true})
			if err != nil {
				return err
			}
			paths, err := latent.Paths(m, d)
			if err != nil {
				return fmt.Errorf("%s: %w", dataPath, err)
			}
			_, class, err := data.Classes(d.Y)
			if err != nil {
				return fmt.Errorf("%s: %w", dataPath, err)
			}
			fmt.Fprintf(a.stdout, "dendrogram purity %.4f over %d rows of %d classes\n", metrics.DendrogramPurity(paths, class), d.Rows, len(slices.Compact(slices.Sorted(slices.Values(class)))))
			return a.printClusters(paths, class, d)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&modelPath, "model", "", "model file (IR JSON) with a latent tree")
	fl.StringVar(&dataPath, "data", "", "labelled rows: TSV/CSV (optionally gzipped) with a header, or LibSVM")
	fl.StringVar(&target, "target", "target", "name of the column of class labels")
	return cmd
}

// printClusters lists the deepest node of every row's path: its rows and
// its majority class.
func (a *app) printClusters(paths [][]int, class []int, d *data.Dataset) error {
	labels, _, _ := data.Classes(d.Y)
	fmt.Fprintf(a.stdout, "%-6s %-6s %-6s %s\n", "node", "depth", "rows", "majority class (share)")
	for _, c := range latent.Clusters(paths, class) {
		fmt.Fprintf(a.stdout, "%-6d %-6d %-6d %s (%.2f)\n", c.Node, c.Depth, c.Rows, d.LabelName(labels[c.Majority]), c.Share)
	}
	return nil
}
