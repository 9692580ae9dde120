package main

import (
	"fmt"
	"math"
	"slices"
	"strings"
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
	var loss, valid, readout, split, optimizer, regress string
	var validFraction float64
	var cluster, quiet bool
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
			if err := f.check(); err != nil {
				return err
			}
			if err := firstError(
				oneOf("readout", readout, "linear"),
				oneOf("split", split, string(latent.Linear), string(latent.LinearElu)),
				oneOf("optimizer", optimizer, string(latent.QHAdamOptimizer), string(latent.AdamOptimizer)),
				intBetween("depth", o.Depth, 1, latent.MaxDepth),
				nonNegative("lambda", o.Lambda),
				atLeast("epochs", o.Epochs, 1),
				atLeast("batch", o.BatchSize, 1),
				positive("lr", o.LearningRate),
				atLeast("patience", o.Patience, 0),
				atLeast("early-stopping", o.EarlyStopping, 0),
				atLeast("threads", o.Threads, 0),
			); err != nil {
				return err
			}
			if loss != "" {
				if err := oneOf("loss", loss, string(latent.SquaredError), string(latent.Logistic), string(latent.Softmax)); err != nil {
					return err
				}
			}
			switch {
			case cluster && regress == "":
				return fmt.Errorf("--cluster needs --regress: the columns the hierarchy is learnt by regressing")
			case regress != "" && !cluster:
				return fmt.Errorf("--regress names the columns a --cluster tree regresses: add --cluster")
			case cluster && loss != "" && loss != string(latent.SquaredError):
				return fmt.Errorf("--cluster regresses columns: its loss is squarederror, not %s", loss)
			}
			o.Split, o.Optimizer = latent.Split(split), latent.Optimizer(optimizer)
			d, err := f.read(f.data)
			if err != nil {
				return err
			}
			if cluster {
				o.Loss = latent.SquaredError
				for _, name := range strings.Split(regress, ",") {
					name = strings.TrimSpace(name)
					if !slices.Contains(d.Features, name) {
						return fmt.Errorf("--regress %s: %s has no column %q (its columns: %s)", regress, f.data, name, strings.Join(d.Features, ", "))
					}
					o.Regress = append(o.Regress, name)
				}
			} else if o.Loss = latent.Loss(loss); loss == "" {
				l, err := tel.InferLoss(d)
				if err != nil {
					return err
				}
				o.Loss = latent.Loss(l)
				if !quiet {
					fmt.Fprintf(a.stderr, "loss %s (from the target values of %s; --loss to choose)\n", o.Loss, f.data)
				}
			}
			d, v, err := splitValidation(d, f, valid, validFraction, o.Loss == latent.SquaredError, o.Seed)
			if err != nil {
				return err
			}
			o.Name = f.name
			if o.Name == "" {
				o.Name = baseName(f.data)
			}
			update, done := progress.New(a.stderr, o.Epochs, 10, quiet)
			o.OnEpoch = func(e latent.EpochInfo) {
				s := fmt.Sprintf("epoch %d/%d train loss %.5f", e.Epoch, e.Epochs, e.TrainLoss)
				if !math.IsNaN(e.ValidLoss) {
					s += fmt.Sprintf(" valid loss %.5f", e.ValidLoss)
				}
				s += fmt.Sprintf(" active nodes %d lr %g (%s)", e.Active, e.LearningRate, e.Elapsed.Round(time.Millisecond))
				update(e.Epoch, s)
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
			if !cluster {
				return a.reportTraining(m, f, d, v)
			}
			sets := []struct {
				name string
				d    *data.Dataset
			}{{"train", d}, {"valid", v}}
			if f.test != "" {
				test, err := f.read(f.test)
				if err != nil {
					return err
				}
				sets = append(sets, struct {
					name string
					d    *data.Dataset
				}{"test", test})
				f.test = "" // scored here: the model's outputs are the regressed columns, not the target
			}
			for _, s := range sets {
				if s.d == nil {
					continue
				}
				dp, err := latent.DendrogramPurity(m, s.d)
				if err != nil {
					return err
				}
				fmt.Fprintf(a.stderr, "%s: dendrogram purity %.4f over %d rows\n", s.name, dp, s.d.Rows)
			}
			return nil
		},
	}
	f.register(a, cmd)
	fl := cmd.Flags()
	fl.StringVar(&loss, "loss", "", "squarederror (regression), logistic (binary) or softmax (multiclass); default from the target")
	fl.StringVar(&valid, "valid", "", "validation data, for the learning-rate schedule and early stopping")
	fl.Float64Var(&validFraction, "valid-fraction", 0, "hold out this fraction of the training rows as validation data")
	fl.IntVar(&o.Depth, "depth", latent.DefaultDepth, "depth D of the complete tree before pruning")
	fl.Float64Var(&o.Lambda, "lambda", latent.DefaultLambda, "weight λ of the pruning penalty ‖η‖∞")
	fl.StringVar(&readout, "readout", "linear", "the read-out over [x', z]: linear (an MLP read-out is not a model the IR holds)")
	fl.StringVar(&split, "split", string(latent.Linear), "split function: linear or linear-elu")
	fl.StringVar(&optimizer, "optimizer", string(latent.QHAdamOptimizer), "qhadam (quasi-hyperbolic Adam, the paper's) or adam")
	fl.IntVar(&o.Epochs, "epochs", latent.DefaultEpochs, "most passes over the training rows")
	fl.IntVar(&o.BatchSize, "batch", latent.DefaultBatchSize, "rows per minibatch, whose tree program is solved as one")
	fl.Float64Var(&o.LearningRate, "lr", latent.DefaultLearningRate, "initial learning rate")
	fl.IntVar(&o.Patience, "patience", latent.DefaultPatience, "epochs without a lower validation loss before the learning rate is divided by 10 (0: never)")
	fl.IntVar(&o.EarlyStopping, "early-stopping", latent.DefaultStop, "stop after this many epochs without a lower validation loss, keeping the best (0: off)")
	fl.BoolVar(&cluster, "cluster", false, "learn a hierarchy by regressing the --regress columns; report dendrogram purity against the target")
	fl.StringVar(&regress, "regress", "", "with --cluster: comma-separated columns to regress from the others")
	fl.Uint64Var(&o.Seed, "seed", 1, "seed of the initial splits, the row order and --valid-fraction")
	fl.IntVar(&o.Threads, "threads", 0, "goroutines of the forward and backward passes (0: all cores); never changes the model")
	fl.BoolVar(&quiet, "quiet", false, "no progress output")
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
