package e2e

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/optflag"
)

// commandLine holds what the flags of RegisterFlags record beside the
// fields of Options.
type commandLine struct {
	set        *optflag.Set
	forest     bool
	deltaGamma float64
}

// RegisterFlags defines the flags of "treegen train e2e" on fs, bound to
// the fields of o: --depth, --max-leaves, --epochs, --finetune-epochs,
// --delta-gamma, --batch, --lr, --forest, --trees, --features,
// --keep-best, --impute, --seed and --threads. It first fills in the
// defaults of the fields left at zero (10 trees for --forest, 1 for the
// seed), so that every flag's default is explicit; [Options.Resolve] turns
// the flags into the options Train reads.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	optflag.Default(&o.MaxDepth, DefaultMaxDepth)
	optflag.Default(&o.Epochs, DefaultEpochs)
	optflag.Default(&o.FinetuneEpochs, DefaultFinetuneFactor*DefaultEpochs)
	optflag.Default(&o.BatchSize, DefaultBatchSize)
	optflag.Default(&o.LearningRate, DefaultLearningRate)
	optflag.Default(&o.Trees, 10)
	optflag.Default(&o.Seed, 1)
	cl := &commandLine{set: optflag.New(fs), deltaGamma: DefaultDeltaGamma}
	if o.DeltaGamma != nil {
		cl.deltaGamma = *o.DeltaGamma
	}
	o.cl = cl
	s := cl.set
	s.Int(&o.MaxDepth, "depth", fmt.Sprintf("maximum depth of a tree (1 to %d)", MaxDepth))
	s.Int(&o.MaxLeaves, "max-leaves", "maximum leaves of a tree (0: 2^depth)")
	s.Int(&o.Epochs, "epochs", "EM epochs of every greedy stump")
	s.Int(&o.FinetuneEpochs, "finetune-epochs", "EM epochs of the whole tree after greedy growth (0: none)")
	s.Float(&cl.deltaGamma, "delta-gamma", "Δγ added to the steepness γ after every epoch (0: constant γ = 1)")
	s.Int(&o.BatchSize, "batch", "rows per Adam minibatch")
	s.Float(&o.LearningRate, "lr", "Adam learning rate")
	s.Bool(&cl.forest, "forest", "train a forest (E2EDF) of --trees trees")
	s.Int(&o.Trees, "trees", "trees of the forest (with --forest)")
	s.Int(&o.FeaturesPerSplit, "features", "features each split sees, drawn at random (0: all for a tree, ceil(√p) for a forest)")
	s.Bool(&o.KeepBest, "keep-best", "with validation data, keep the finetuning epoch of best validation accuracy")
	s.Bool(&o.Impute, "impute", "replace missing values by the training mean (else they are an error)")
	s.Uint64(&o.Seed, "seed", "seed of the split directions, feature subsets, row order and --valid-fraction")
	s.Int(&o.Threads, "threads", "goroutines computing E-steps and gradients (0: all cores); never changes the model")
}

// forest reports whether the options ask for a forest: --forest, or
// without flags more than one tree.
func (o *Options) forest() bool {
	if o.cl == nil {
		return o.Trees > 1
	}
	return o.cl.forest
}

// Validate refuses the option values a command line may not give, naming
// the flag ("--depth must be between 1 and 30, got 0"): it reads every
// field as RegisterFlags defines it, so a zero that Train would read as
// its default is refused where the flag's help gives 0 no meaning. It
// also refuses --trees and --features without --forest.
func (o *Options) Validate() error {
	forest := o.forest()
	if !forest && o.cl != nil && (o.cl.set.Given("trees") || o.cl.set.Given("features")) {
		return fmt.Errorf("--trees and --features are options of a forest: add --forest")
	}
	deltaGamma := 0.0
	if o.cl != nil {
		deltaGamma = o.cl.deltaGamma
	} else if o.DeltaGamma != nil {
		deltaGamma = *o.DeltaGamma
	}
	trees := error(nil)
	if forest {
		trees = optflag.AtLeast("trees", o.Trees, 1)
	}
	if err := optflag.First(
		optflag.Between("depth", o.MaxDepth, 1, MaxDepth),
		optflag.AtLeast("max-leaves", o.MaxLeaves, 0),
		optflag.AtLeast("epochs", o.Epochs, 1),
		optflag.AtLeast("finetune-epochs", o.FinetuneEpochs, 0),
		optflag.NonNegative("delta-gamma", deltaGamma),
		optflag.AtLeast("batch", o.BatchSize, 1),
		optflag.Positive("lr", o.LearningRate),
		trees,
		optflag.AtLeast("features", o.FeaturesPerSplit, 0),
		optflag.AtLeast("threads", o.Threads, 0),
	); err != nil {
		return err
	}
	if o.MaxLeaves == 1 {
		return fmt.Errorf("--max-leaves must be 0 (2^depth) or at least 2, got 1")
	}
	return nil
}

// Resolve turns the flags of RegisterFlags into the options Train reads,
// once Validate has accepted them and the training data d is read: one
// tree without --forest, --delta-gamma as DeltaGamma, --finetune-epochs 0
// as no finetuning. It refuses more --features than d has. Call it once.
func (o *Options) Resolve(d *data.Dataset) error {
	if o.FeaturesPerSplit > d.Cols {
		return fmt.Errorf("--features %d: %s has only %d features", o.FeaturesPerSplit, d.Source, d.Cols)
	}
	if o.cl == nil {
		return nil
	}
	if !o.cl.forest {
		o.Trees = 1
	}
	dg := o.cl.deltaGamma
	o.DeltaGamma = &dg
	if o.FinetuneEpochs == 0 {
		o.FinetuneEpochs = -1 // none
	}
	return nil
}

// SplitEvaluations returns the mean number of split evaluations per
// training row that Train records in the provenance of m
// ("split_evaluations_per_row"), and whether m records one.
func SplitEvaluations(m *ir.Model) (float64, bool) {
	if m.Provenance == nil {
		return 0, false
	}
	s, ok := m.Provenance.Params["split_evaluations_per_row"]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}
