package latent

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Loss is the loss of the read-out; it fixes the task, the number of
// outputs and the link of the model.
type Loss string

// Losses.
const (
	// SquaredError is regression: the mean squared error of the
	// standardised target (of every regressed column with
	// Options.Regress); identity link.
	SquaredError Loss = "squarederror"
	// Logistic is binary classification: the binary cross-entropy of one
	// output; sigmoid link.
	Logistic Loss = "logistic"
	// Softmax is multiclass classification: the cross-entropy of the
	// softmax of one output per class; softmax link. The paper has
	// regression and binary classification only; this is an extension.
	Softmax Loss = "softmax"
)

// Split is the splitting function s_θ of the branching nodes.
type Split string

// Splits.
const (
	// Linear is s_θ(x) = wᵀx' + b.
	Linear Split = "linear"
	// LinearElu is elu(wᵀx' + b): the same routing (elu keeps the sign),
	// but a left edge's reward 1 - exp(s) saturates at 1. The IR holds it
	// as a latent tree with the "elu" activation.
	LinearElu Split = "linear-elu"
)

// Optimizer is the stochastic gradient method.
type Optimizer string

// Optimizers.
const (
	// QHAdamOptimizer is quasi-hyperbolic Adam with its default
	// parameters, the paper's choice.
	QHAdamOptimizer Optimizer = "qhadam"
	// AdamOptimizer is Adam (β1 = 0.9, β2 = 0.999, ε = 1e-7).
	AdamOptimizer Optimizer = "adam"
)

// MaxDepth is the deepest tree Options.Depth may ask for: a tree of depth
// D has 2^(D+1) - 1 nodes, each a column of the read-out.
const MaxDepth = 12

// Producer is the Provenance.Producer of the models Train returns.
const Producer = "treegen train latent"

// Defaults used by DefaultOptions.
const (
	DefaultDepth        = 4
	DefaultLambda       = 0.01
	DefaultEpochs       = 100
	DefaultBatchSize    = 512
	DefaultLearningRate = 0.001
	DefaultPatience     = 2
	DefaultDecay        = 0.1
	DefaultStop         = 10
)

// Options control Fit and Train. Start from DefaultOptions: every field is
// used as it is (a zero Depth or Epochs is an error), except Split and
// Optimizer, whose zero values mean Linear and QHAdamOptimizer, and Threads,
// whose zero value means every core.
type Options struct {
	// Loss is SquaredError, Logistic or Softmax.
	Loss Loss
	// Regress, with SquaredError, names feature columns to regress from the
	// others instead of the target column: they become the outputs and
	// leave the inputs (the paper's self-supervised hierarchical
	// clustering, §4.2). The data set's own target is then not used.
	Regress []string
	// Depth is D: the tree is a complete binary tree of depth D, 2^D - 1
	// branching nodes and 2^D leaves, 1 to MaxDepth, before pruning.
	Depth int
	// Lambda is λ, the weight of the ‖η‖∞ pruning penalty of Eq. 13 (added
	// to the mean loss of a batch); larger values prune more nodes.
	Lambda float64
	// Split is Linear ("") or LinearElu.
	Split Split
	// Optimizer is QHAdamOptimizer ("") or AdamOptimizer.
	Optimizer Optimizer

	// Epochs is the largest number of passes over the training set.
	Epochs int
	// BatchSize is the number of rows of a minibatch, whose tree program
	// (Eq. 3) is solved as one problem (the last one of an epoch may be
	// smaller).
	BatchSize int
	// LearningRate is the optimiser's initial step size.
	LearningRate float64
	// Patience is the number of epochs without a lower validation loss
	// after which the learning rate is multiplied by Decay (the paper: 2
	// and 0.1); 0 turns the schedule off. Without a validation set it is
	// off.
	Patience int
	// Decay is the factor of the learning-rate schedule, in (0, 1).
	Decay float64
	// EarlyStopping, when > 0, stops after this many epochs without a
	// lower validation loss, and keeps the parameters of the best epoch.
	// Without a validation set it is off.
	EarlyStopping int

	// Seed seeds the initial parameters and the order of the rows.
	Seed uint64
	// Threads is the number of goroutines of the forward and backward
	// passes; 0 means runtime.GOMAXPROCS(0). It never changes the model.
	Threads int
	// Name is the model's name (ir.Model.Name).
	Name string
	// OnEpoch, if not nil, is called after every epoch, from the goroutine
	// that called Fit or Train.
	OnEpoch func(EpochInfo)

	// cl is what RegisterFlags records, nil without it.
	cl *commandLine
}

// DefaultOptions returns the default options for loss: depth 4, λ = 0.01,
// linear splits, QHAdam with learning rate 0.001 decayed tenfold after 2
// epochs without improvement (the paper's schedule), minibatches of 512
// rows, at most 100 epochs, early stopping after 10.
func DefaultOptions(loss Loss) Options {
	return Options{
		Loss:          loss,
		Depth:         DefaultDepth,
		Lambda:        DefaultLambda,
		Split:         Linear,
		Optimizer:     QHAdamOptimizer,
		Epochs:        DefaultEpochs,
		BatchSize:     DefaultBatchSize,
		LearningRate:  DefaultLearningRate,
		Patience:      DefaultPatience,
		Decay:         DefaultDecay,
		EarlyStopping: DefaultStop,
	}
}

// EpochInfo reports on one epoch.
type EpochInfo struct {
	Epoch  int // 1-based
	Epochs int // the largest number of epochs
	// TrainLoss is the mean loss of the epoch's minibatches (each with the
	// parameters of the moment), without the penalty: for SquaredError the
	// mean squared error in the target's units (with several regressed
	// columns, the sum of their mean squared errors in standard
	// deviations), the cross-entropy otherwise.
	TrainLoss float64
	// ValidLoss is the same loss on the validation set for the model as it
	// would be exported at the end of the epoch (activities frozen on the
	// training set); NaN without a validation set.
	ValidLoss float64
	// Active is the number of nodes whose activity, frozen on the
	// training set, is not 0, out of 2^(Depth+1) - 1.
	Active int
	// LearningRate is the step size the epoch used.
	LearningRate float64
	// Elapsed is the time since training started.
	Elapsed time.Duration
}

// settings are Options checked, with "" values resolved.
type settings struct {
	loss          Loss
	regress       []string
	depth         int
	lambda        float64
	split         Split
	opt           Optimizer
	epochs, batch int
	lr, decay     float64
	patience      int
	stop          int
	seed          uint64
	threads       int
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (o Options) settings(hasValid bool) (settings, error) {
	s := settings{
		loss: o.Loss, regress: o.Regress, depth: o.Depth, lambda: o.Lambda,
		split: o.Split, opt: o.Optimizer, epochs: o.Epochs, batch: o.BatchSize,
		lr: o.LearningRate, decay: o.Decay, patience: o.Patience, stop: o.EarlyStopping,
		seed: o.Seed, threads: o.Threads,
	}
	switch o.Loss {
	case SquaredError, Logistic, Softmax:
	case "":
		return s, errors.New("latent: no loss: set Options.Loss to squarederror, logistic or softmax (DefaultOptions(loss) fills in the rest)")
	default:
		return s, fmt.Errorf("latent: unknown loss %q (want squarederror, logistic or softmax)", o.Loss)
	}
	if s.split == "" {
		s.split = Linear
	}
	if s.opt == "" {
		s.opt = QHAdamOptimizer
	}
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	switch {
	case len(o.Regress) > 0 && o.Loss != SquaredError:
		return s, fmt.Errorf("latent: Regress names columns to regress, which needs the squarederror loss, not %s", o.Loss)
	case o.Depth < 1 || o.Depth > MaxDepth:
		return s, fmt.Errorf("latent: Depth must be between 1 and %d, got %d", MaxDepth, o.Depth)
	case !(o.Lambda >= 0 && finite(o.Lambda)):
		return s, fmt.Errorf("latent: Lambda must be a finite number >= 0, got %v", o.Lambda)
	case s.split != Linear && s.split != LinearElu:
		return s, fmt.Errorf("latent: unknown split %q (want linear or linear-elu)", o.Split)
	case s.opt != QHAdamOptimizer && s.opt != AdamOptimizer:
		return s, fmt.Errorf("latent: unknown optimizer %q (want qhadam or adam)", o.Optimizer)
	case o.Epochs < 1:
		return s, fmt.Errorf("latent: Epochs must be at least 1, got %d", o.Epochs)
	case o.BatchSize < 1:
		return s, fmt.Errorf("latent: BatchSize must be at least 1, got %d", o.BatchSize)
	case !(o.LearningRate > 0 && finite(o.LearningRate)):
		return s, fmt.Errorf("latent: LearningRate must be a finite number > 0, got %v", o.LearningRate)
	case o.Patience < 0:
		return s, fmt.Errorf("latent: Patience is negative (%d)", o.Patience)
	case o.Patience > 0 && !(o.Decay > 0 && o.Decay < 1):
		return s, fmt.Errorf("latent: Decay must be in (0, 1), got %v", o.Decay)
	case o.EarlyStopping < 0:
		return s, fmt.Errorf("latent: EarlyStopping is negative (%d)", o.EarlyStopping)
	case o.Threads < 0:
		return s, fmt.Errorf("latent: Threads is negative (%d)", o.Threads)
	}
	for i, name := range o.Regress {
		for _, other := range o.Regress[:i] {
			if name == other {
				return s, fmt.Errorf("latent: Regress names column %q twice", name)
			}
		}
	}
	if !hasValid {
		// The schedule and early stopping watch the validation loss.
		s.patience, s.stop = 0, 0
	}
	return s, nil
}

// params records the settings for the model's provenance. Threads is left
// out: it does not change the model.
func (s settings) params() map[string]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	p := map[string]string{
		"loss":           string(s.loss),
		"depth":          strconv.Itoa(s.depth),
		"lambda":         f(s.lambda),
		"split":          string(s.split),
		"optimizer":      string(s.opt),
		"epochs":         strconv.Itoa(s.epochs),
		"batch_size":     strconv.Itoa(s.batch),
		"learning_rate":  f(s.lr),
		"patience":       strconv.Itoa(s.patience),
		"decay":          f(s.decay),
		"early_stopping": strconv.Itoa(s.stop),
		"seed":           strconv.FormatUint(s.seed, 10),
	}
	if len(s.regress) > 0 {
		p["regress"] = strings.Join(s.regress, ",")
	}
	return p
}
