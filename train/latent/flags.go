package latent

import (
	"flag"
	"fmt"
	"slices"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/train/internal/optflag"
)

// commandLine holds what the flags of RegisterFlags record beside the
// fields of Options.
type commandLine struct {
	readout string
	cluster bool
	regress string
}

// RegisterFlags defines the flags of "treegen train latent" on fs, bound
// to the fields of o: --loss, --depth, --lambda, --readout, --split,
// --optimizer, --epochs, --batch, --lr, --patience, --early-stopping,
// --cluster, --regress, --seed and --threads. The values of o are the
// flags' defaults (start from DefaultOptions); the fields whose zero the
// command line refuses are first set to DefaultOptions' values (and the
// seed to 1).
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	d := DefaultOptions("")
	optflag.Default(&o.Depth, d.Depth)
	optflag.Default(&o.Split, d.Split)
	optflag.Default(&o.Optimizer, d.Optimizer)
	optflag.Default(&o.Epochs, d.Epochs)
	optflag.Default(&o.BatchSize, d.BatchSize)
	optflag.Default(&o.LearningRate, d.LearningRate)
	optflag.Default(&o.Decay, d.Decay)
	optflag.Default(&o.Seed, 1)
	cl := &commandLine{readout: "linear"}
	o.cl = cl
	s := optflag.New(fs)
	s.Enum((*string)(&o.Loss), "loss", "squarederror (regression), logistic (binary) or softmax (multiclass); default from the target", optflag.Strings(Losses()))
	s.Int(&o.Depth, "depth", "depth D of the complete tree before pruning")
	s.Float(&o.Lambda, "lambda", "weight λ of the pruning penalty ‖η‖∞")
	s.String(&cl.readout, "readout", "the read-out over [x', z]: linear (an MLP read-out is not a model the IR holds)")
	s.Enum((*string)(&o.Split), "split", "split function: linear or linear-elu", optflag.Strings(Splits()))
	s.Enum((*string)(&o.Optimizer), "optimizer", "qhadam (quasi-hyperbolic Adam, the paper's) or adam", optflag.Strings(Optimizers()))
	s.Int(&o.Epochs, "epochs", "most passes over the training rows")
	s.Int(&o.BatchSize, "batch", "rows per minibatch, whose tree program is solved as one")
	s.Float(&o.LearningRate, "lr", "initial learning rate")
	s.Int(&o.Patience, "patience", "epochs without a lower validation loss before the learning rate is divided by 10 (0: never)")
	s.Int(&o.EarlyStopping, "early-stopping", "stop after this many epochs without a lower validation loss, keeping the best (0: off)")
	s.Bool(&cl.cluster, "cluster", "learn a hierarchy by regressing the --regress columns; report dendrogram purity against the target")
	s.String(&cl.regress, "regress", "with --cluster: comma-separated columns to regress from the others")
	s.Uint64(&o.Seed, "seed", "seed of the initial splits, the row order and --valid-fraction")
	s.Int(&o.Threads, "threads", "goroutines of the forward and backward passes (0: all cores); never changes the model")
}

// Cluster reports whether the options ask for a hierarchy (--cluster):
// the tree regresses the --regress columns, and the target only labels
// the rows for DendrogramPurity.
func (o *Options) Cluster() bool {
	return o.cl != nil && o.cl.cluster
}

// Validate refuses the option values a command line may not give, naming
// the flag ("--depth must be between 1 and 12, got 0"): it reads every
// field as RegisterFlags defines it, so a zero that Fit would read as its
// default is refused where the flag's help gives 0 no meaning. An empty
// Loss is valid: Fit's caller infers it (the loss of tel.InferLoss).
func (o *Options) Validate() error {
	cl := o.cl
	if cl == nil {
		cl = &commandLine{readout: "linear"}
	}
	if err := optflag.First(
		optflag.OneOf("readout", cl.readout, "linear"),
		optflag.OneOf("split", o.Split, Linear, LinearElu),
		optflag.OneOf("optimizer", o.Optimizer, QHAdamOptimizer, AdamOptimizer),
		optflag.Between("depth", o.Depth, 1, MaxDepth),
		optflag.NonNegative("lambda", o.Lambda),
		optflag.AtLeast("epochs", o.Epochs, 1),
		optflag.AtLeast("batch", o.BatchSize, 1),
		optflag.Positive("lr", o.LearningRate),
		optflag.AtLeast("patience", o.Patience, 0),
		optflag.AtLeast("early-stopping", o.EarlyStopping, 0),
		optflag.AtLeast("threads", o.Threads, 0),
	); err != nil {
		return err
	}
	if o.Loss != "" {
		if err := optflag.OneOf("loss", o.Loss, SquaredError, Logistic, Softmax); err != nil {
			return err
		}
	}
	switch {
	case cl.cluster && cl.regress == "":
		return fmt.Errorf("--cluster needs --regress: the columns the hierarchy is learnt by regressing")
	case cl.regress != "" && !cl.cluster:
		return fmt.Errorf("--regress names the columns a --cluster tree regresses: add --cluster")
	case cl.cluster && o.Loss != "" && o.Loss != SquaredError:
		return fmt.Errorf("--cluster regresses columns: its loss is squarederror, not %s", o.Loss)
	}
	return nil
}

// Resolve turns --cluster and --regress into the options Fit reads, once
// Validate has accepted them and the training data d is read: the loss
// squarederror and the columns of Regress, each of which d must have.
// Without --cluster it leaves o as it is.
func (o *Options) Resolve(d *data.Dataset) error {
	if !o.Cluster() {
		return nil
	}
	o.Loss, o.Regress = SquaredError, nil
	for _, name := range strings.Split(o.cl.regress, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(d.Features, name) {
			return fmt.Errorf("--regress %s: %s has no column %q (its columns: %s)", o.cl.regress, d.Source, name, strings.Join(d.Features, ", "))
		}
		o.Regress = append(o.Regress, name)
	}
	return nil
}
