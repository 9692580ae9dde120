package tel

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"
)

// Loss is the function the ensemble minimises; it also fixes the task, the
// number of outputs and the link of the model.
type Loss string

// Losses.
const (
	// Softmax is multiclass classification: the cross-entropy of the
	// softmax of one output per class; softmax link.
	Softmax Loss = "softmax"
	// Logistic is binary classification: the log-loss of the sigmoid of one
	// output; sigmoid link.
	Logistic Loss = "logistic"
	// SquaredError is regression: (T(x) - y)²/2 on the standardised target,
	// one output; identity link.
	SquaredError Loss = "squarederror"
)

// Activation is the routing function S of the internal nodes: a node sends
// a row left with probability S(<w, x'> + b).
type Activation string

// Activations.
const (
	// SmoothStep is the smooth-step of width Gamma of the TEL paper: 0 for
	// t <= -γ/2, 1 for t >= γ/2, a cubic in between. It outputs exact 0s and
	// 1s, which is what makes conditional computation possible, and it is
	// what the IR's soft nodes compute.
	SmoothStep Activation = "smoothstep"
	// LogisticActivation is 1/(1+exp(-t/Alpha)), the routing of classical
	// soft trees. It is never exactly 0 or 1, so every sample reaches every
	// node: it runs in Dense mode only, and the IR cannot express it (Fit
	// trains with it, Train and Ensemble.Model refuse it). It exists to
	// compare with the smooth-step, as the paper does.
	LogisticActivation Activation = "logistic"
)

// Mode is how forward and backward passes are computed.
type Mode string

// Modes.
const (
	// Conditional runs Algorithms 1 and 2 of the paper: every sample visits
	// only the nodes it reaches, and gradients touch only the nodes whose
	// routing is fractional (0 < S < 1).
	Conditional Mode = "conditional"
	// Dense evaluates every node and every leaf for every sample, with
	// matrix products over the minibatch, as public soft-tree code does. It
	// exists to measure what conditional computation saves and to check
	// the conditional passes.
	Dense Mode = "dense"
)

// MaxDepth is the deepest tree Options.Depth may ask for. A tree of depth d
// has 2^d - 1 internal nodes of NumFeatures weights each.
const MaxDepth = 20

// Producer is the Provenance.Producer of the models Train returns.
const Producer = "treegen train tel"

// Defaults used by DefaultOptions.
const (
	DefaultTrees        = 10
	DefaultDepth        = 4
	DefaultGamma        = 1.0
	DefaultEpochs       = 50
	DefaultBatchSize    = 256
	DefaultLearningRate = 0.01
	DefaultAlpha        = 1.0
)

// Options control Fit and Train. Start from DefaultOptions: every field is
// used as it is (a zero Depth, Gamma or Epochs is an error, not a request
// for the default), except Activation and Mode, whose zero values mean
// SmoothStep and Conditional, and Threads, whose zero value means every
// core.
type Options struct {
	// Loss is the loss to minimise: Softmax, Logistic or SquaredError.
	Loss Loss
	// Trees is m, the number of trees (at least 1).
	Trees int
	// Depth is d, the depth of every tree: each is a perfect binary tree
	// with 2^d leaves, 1 to MaxDepth.
	Depth int
	// Gamma is γ, the width of the smooth-step: a margin t with |t| < γ/2
	// routes fractionally, beyond it the routing is hard. It must be > 0;
	// smaller values mean fewer reachable leaves and faster training but
	// more nodes with a zero gradient. The paper tunes it in [1e-4, 1];
	// the inputs are standardised, so 1 is a good start.
	Gamma float64
	// Activation is the routing function; "" means SmoothStep.
	Activation Activation
	// Alpha is the scale of LogisticActivation, S(t) = 1/(1+exp(-t/Alpha)); it
	// must be > 0 when that activation is used, and is ignored otherwise.
	Alpha float64
	// Bias gives every internal node a trainable bias b (initialised to 0):
	// the node routes on <w, x'> + b. The reference implementation has no
	// bias (its hyperplanes pass through the mean of the standardised data).
	Bias bool
	// Mode is Conditional (the default, "") or Dense.
	Mode Mode

	// Epochs is the number of passes over the training set.
	Epochs int
	// BatchSize is the number of rows of a minibatch (the last one of an
	// epoch may be smaller).
	BatchSize int
	// LearningRate is Adam's step size.
	LearningRate float64
	// L2 adds L2 * Σ w² over the node weights W (not the biases, not the
	// leaves) to the mean loss of every minibatch, as Keras's l2
	// regulariser does; 0 means none.
	L2 float64
	// L1 makes the hyperplanes sparse: after every Adam step, each node
	// weight takes the proximal step of the penalty L1·Σ|w| in Adam's
	// metric (it is shrunk towards 0 by L1 times its own step size, and set
	// to exactly 0 when it is within that of 0), and then every node's
	// weight vector is scaled back to the Euclidean norm it had before the
	// proximal step. The penalty thus chooses the features a node uses
	// without shrinking the weights, whose norm (over γ) is the sharpness
	// of the routing: plain proximal steps soften the routing until rows
	// reach most leaves (docs/TEL.md has the figures). The exported soft
	// nodes list only their non-zero weights, which the smoothstep backend
	// compiles into shorter margins. 0 means none; it is not applied to
	// the biases or the leaves.
	L1 float64
	// Project, when > 0, puts a trainable linear projection x' ↦ Ax' + c
	// (a Projection from the standardised features to Project features)
	// before the trees, trained jointly with them; the nodes then route on
	// learned combinations of the features. The exported model folds the
	// projection into the node weights and biases (see Projection), so it
	// is an ordinary model of soft trees. It needs the Conditional mode. 0
	// means none. With L1 too, the zeros are those of the weights over the
	// projected features; the folded weights are dense.
	Project int
	// EarlyStopping, when > 0, stops training after this many epochs
	// without a strictly lower validation loss, and restores the weights of
	// the best epoch. It needs a validation set.
	EarlyStopping int
	// Impute replaces missing feature values (NaN) by the training mean of
	// their feature, in the training and the validation set. Without it a
	// missing value is an error. See the package documentation for what a
	// missing value does at prediction time.
	Impute bool

	// Seed seeds the initial weights and the order of the rows in every
	// epoch.
	Seed uint64
	// Threads is the number of goroutines that compute the gradients of a
	// minibatch; 0 means runtime.GOMAXPROCS(0). It never changes the model.
	Threads int
	// Name is the model's name (ir.Model.Name).
	Name string
	// OnEpoch, if not nil, is called after every epoch, from the goroutine
	// that called Fit or Train.
	OnEpoch func(EpochInfo)
}

// DefaultOptions returns the default options for loss: 10 trees of depth
// 4 (the paper's architecture for its comparison of activations), γ = 1,
// 50 epochs of minibatches of 256 rows, Adam with learning rate 0.01, no
// L2 penalty, no bias, no early stopping.
func DefaultOptions(loss Loss) Options {
	return Options{
		Loss:         loss,
		Trees:        DefaultTrees,
		Depth:        DefaultDepth,
		Gamma:        DefaultGamma,
		Activation:   SmoothStep,
		Alpha:        DefaultAlpha,
		Mode:         Conditional,
		Epochs:       DefaultEpochs,
		BatchSize:    DefaultBatchSize,
		LearningRate: DefaultLearningRate,
	}
}

// EpochInfo reports on one epoch.
type EpochInfo struct {
	Epoch  int // 1-based
	Epochs int // the number of epochs asked for
	// TrainLoss is the mean loss of the epoch's minibatches (each row's
	// loss with the weights of the moment it was used), as Keras reports
	// it: log-loss for Logistic, cross-entropy for Softmax, mean squared
	// error for SquaredError (in the target's units; the L2 penalty is not
	// included). TrainAUC is the AUC of the same scores (macro one-vs-rest
	// for Softmax), NaN for SquaredError.
	TrainLoss, TrainAUC float64
	// ValidLoss and ValidAUC are the loss and AUC on the validation set
	// with the weights at the end of the epoch; NaN without a validation
	// set (and ValidAUC for SquaredError).
	ValidLoss, ValidAUC float64
	// ReachableLeaves is the mean number of leaves a training row reached
	// per tree during the epoch (out of 2^Depth): the extent of
	// conditional computation.
	ReachableLeaves float64
	// ZeroWeights is the fraction of the node weights W that are exactly
	// 0 at the end of the epoch (Options.L1 makes them).
	ZeroWeights float64
	// TrainTime is the time the epoch's minibatch updates took (forward and
	// backward passes and optimiser steps), without the validation pass.
	TrainTime time.Duration
	// Elapsed is the time since training started.
	Elapsed time.Duration
}

// settings are Options checked, with "" values resolved.
type settings struct {
	loss          Loss
	trees, depth  int
	gamma         float64
	act           Activation
	alpha         float64
	bias          bool
	mode          Mode
	epochs, batch int
	lr, l2, l1    float64
	earlyStopping int
	project       int
	impute        bool
	seed          uint64
	threads       int
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (o Options) settings(hasValid bool) (settings, error) {
	s := settings{
		loss: o.Loss, trees: o.Trees, depth: o.Depth, gamma: o.Gamma,
		act: o.Activation, alpha: o.Alpha, bias: o.Bias, mode: o.Mode,
		epochs: o.Epochs, batch: o.BatchSize, lr: o.LearningRate, l2: o.L2, l1: o.L1,
		earlyStopping: o.EarlyStopping, project: o.Project, impute: o.Impute, seed: o.Seed, threads: o.Threads,
	}
	switch o.Loss {
	case Softmax, Logistic, SquaredError:
	case "":
		return s, errors.New("tel: no loss: set Options.Loss to softmax, logistic or squarederror (DefaultOptions(loss) fills in the rest)")
	default:
		return s, fmt.Errorf("tel: unknown loss %q (want softmax, logistic or squarederror)", o.Loss)
	}
	if s.act == "" {
		s.act = SmoothStep
	}
	if s.mode == "" {
		s.mode = Conditional
	}
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	switch {
	case o.Trees < 1:
		return s, fmt.Errorf("tel: Trees must be at least 1, got %d", o.Trees)
	case o.Depth < 1 || o.Depth > MaxDepth:
		return s, fmt.Errorf("tel: Depth must be between 1 and %d, got %d", MaxDepth, o.Depth)
	case s.act != SmoothStep && s.act != LogisticActivation:
		return s, fmt.Errorf("tel: unknown activation %q (want smoothstep or logistic)", o.Activation)
	case s.mode != Conditional && s.mode != Dense:
		return s, fmt.Errorf("tel: unknown mode %q (want conditional or dense)", o.Mode)
	case s.act == SmoothStep && o.Gamma == 0:
		return s, errors.New("tel: Gamma is 0: the smooth-step of width 0 is a hard step, whose gradient is 0 wherever it exists, so the nodes cannot learn; use a Gamma > 0 (1 is a good start on standardised inputs)")
	case s.act == SmoothStep && !(o.Gamma > 0 && finite(o.Gamma)):
		return s, fmt.Errorf("tel: Gamma must be a finite number > 0, got %v", o.Gamma)
	case s.act == LogisticActivation && !(o.Alpha > 0 && finite(o.Alpha)):
		return s, fmt.Errorf("tel: Alpha (the scale of the logistic activation) must be a finite number > 0, got %v", o.Alpha)
	case s.act == LogisticActivation && s.mode == Conditional:
		return s, errors.New("tel: the logistic activation is never exactly 0 or 1, so every row reaches every node and there is nothing to skip: set Options.Mode to dense")
	case o.Epochs < 1:
		return s, fmt.Errorf("tel: Epochs must be at least 1, got %d", o.Epochs)
	case o.BatchSize < 1:
		return s, fmt.Errorf("tel: BatchSize must be at least 1, got %d", o.BatchSize)
	case !(o.LearningRate > 0 && finite(o.LearningRate)):
		return s, fmt.Errorf("tel: LearningRate must be a finite number > 0, got %v", o.LearningRate)
	case !(o.L2 >= 0 && finite(o.L2)):
		return s, fmt.Errorf("tel: L2 must be a finite number >= 0, got %v", o.L2)
	case !(o.L1 >= 0 && finite(o.L1)):
		return s, fmt.Errorf("tel: L1 must be a finite number >= 0, got %v", o.L1)
	case o.Project < 0:
		return s, fmt.Errorf("tel: Project is negative (%d)", o.Project)
	case o.Project > 0 && s.mode == Dense:
		return s, errors.New("tel: Project needs the conditional mode")
	case o.EarlyStopping < 0:
		return s, fmt.Errorf("tel: EarlyStopping is negative (%d)", o.EarlyStopping)
	case o.EarlyStopping > 0 && !hasValid:
		return s, errors.New("tel: EarlyStopping needs a validation set")
	case o.Threads < 0:
		return s, fmt.Errorf("tel: Threads is negative (%d)", o.Threads)
	}
	if s.act == LogisticActivation {
		s.gamma = 0
	} else {
		s.alpha = 0
	}
	return s, nil
}

// params records the settings for the model's provenance. Threads is left
// out: it does not change the model.
func (s settings) params() map[string]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	p := map[string]string{
		"loss":           string(s.loss),
		"trees":          strconv.Itoa(s.trees),
		"depth":          strconv.Itoa(s.depth),
		"activation":     string(s.act),
		"bias":           strconv.FormatBool(s.bias),
		"mode":           string(s.mode),
		"epochs":         strconv.Itoa(s.epochs),
		"batch_size":     strconv.Itoa(s.batch),
		"learning_rate":  f(s.lr),
		"l2":             f(s.l2),
		"early_stopping": strconv.Itoa(s.earlyStopping),
		"impute":         strconv.FormatBool(s.impute),
		"seed":           strconv.FormatUint(s.seed, 10),
	}
	if s.project > 0 {
		p["project"] = strconv.Itoa(s.project)
	}
	if s.l1 > 0 {
		p["l1"] = f(s.l1) // only when set: models without it keep their provenance
	}
	if s.act == LogisticActivation {
		p["alpha"] = f(s.alpha)
	} else {
		p["gamma"] = f(s.gamma)
	}
	return p
}
