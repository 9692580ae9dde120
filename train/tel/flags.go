package tel

import (
	"flag"
	"fmt"

	"github.com/treegen/treegen/train/internal/optflag"
)

// RegisterFlags defines the flags of "treegen train tel" on fs, bound to
// the fields of o: --loss, --trees, --depth, --gamma, --epochs, --batch,
// --lr, --l2, --project, --l1, --bias, --early-stopping, --impute, --seed
// and --threads. It first fills in the defaults of DefaultOptions in the
// fields left at zero (and 1 for the seed), so that every flag's default
// is explicit.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	d := DefaultOptions("")
	optflag.Default(&o.Trees, d.Trees)
	optflag.Default(&o.Depth, d.Depth)
	optflag.Default(&o.Gamma, d.Gamma)
	optflag.Default(&o.Epochs, d.Epochs)
	optflag.Default(&o.BatchSize, d.BatchSize)
	optflag.Default(&o.LearningRate, d.LearningRate)
	optflag.Default(&o.Seed, 1)
	s := optflag.New(fs)
	s.Enum((*string)(&o.Loss), "loss", "logistic (binary), softmax (multiclass) or squarederror (regression); default from the target", optflag.Strings(Losses()))
	s.Int(&o.Trees, "trees", "number of trees")
	s.Int(&o.Depth, "depth", fmt.Sprintf("depth of every tree (1 to %d)", MaxDepth))
	s.Float(&o.Gamma, "gamma", "width γ of the smooth-step (> 0); smaller routes more rows hard")
	s.Int(&o.Epochs, "epochs", "passes over the training data")
	s.Int(&o.BatchSize, "batch", "rows per minibatch")
	s.Float(&o.LearningRate, "lr", "Adam learning rate")
	s.Float(&o.L2, "l2", "L2 penalty on the node weights")
	s.Int(&o.Project, "project", "train a linear projection to this many features jointly with the trees (folded into the exported nodes; 0: none)")
	s.Float(&o.L1, "l1", "L1 penalty on the node weights, by proximal steps: exact zeros, sparse hyperplanes, faster generated code")
	s.Bool(&o.Bias, "bias", "give every node a trainable bias")
	s.Int(&o.EarlyStopping, "early-stopping", "stop after this many epochs without a lower validation loss, keeping the best (0: off)")
	s.Bool(&o.Impute, "impute", "replace missing feature values by their training mean (else they are an error)")
	s.Uint64(&o.Seed, "seed", "seed of the initial weights, the row order and --valid-fraction")
	s.Int(&o.Threads, "threads", "goroutines computing gradients (0: all cores); never changes the model")
}

// Validate refuses the option values a command line may not give, naming
// the flag ("--depth must be between 1 and 10, got 0"): it reads every
// field as RegisterFlags defines it, so a zero that Train would read as
// its default is refused where the flag's help gives 0 no meaning. An
// empty Loss is valid: Train's caller infers it (InferLoss).
func (o *Options) Validate() error {
	var loss error
	if o.Loss != "" {
		loss = optflag.OneOf("loss", o.Loss, Logistic, Softmax, SquaredError)
	}
	return optflag.First(
		loss,
		optflag.AtLeast("trees", o.Trees, 1),
		optflag.Between("depth", o.Depth, 1, MaxDepth),
		gammaHint(optflag.Positive("gamma", o.Gamma), o.Gamma),
		optflag.AtLeast("epochs", o.Epochs, 1),
		optflag.AtLeast("batch", o.BatchSize, 1),
		optflag.Positive("lr", o.LearningRate),
		optflag.NonNegative("l2", o.L2),
		optflag.NonNegative("l1", o.L1),
		optflag.AtLeast("project", o.Project, 0),
		optflag.AtLeast("early-stopping", o.EarlyStopping, 0),
		optflag.AtLeast("threads", o.Threads, 0),
	)
}

// gammaHint explains why --gamma 0 is refused.
func gammaHint(err error, gamma float64) error {
	if err != nil && gamma == 0 {
		return fmt.Errorf("%v (the smooth-step of width 0 is a hard step, whose gradient is 0 wherever it exists, so the nodes could not learn; 1 is a good start)", err)
	}
	return err
}
