package e2e

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"
)

// Producer is the Provenance.Producer of the models Train returns.
const Producer = "treegen train e2e"

// MaxDepth is the deepest tree Options.MaxDepth may ask for.
const MaxDepth = 30

// MaxClasses is the largest number of distinct target values Train
// accepts: a target with more is taken for a regression target.
const MaxClasses = 1000

// Defaults: a zero field of Options means the matching default.
const (
	DefaultTrees        = 1
	DefaultMaxDepth     = 4
	DefaultMaxAttempts  = 5
	DefaultEpochs       = 20
	DefaultDeltaGamma   = 0.1
	DefaultBatchSize    = 1000
	DefaultLearningRate = 1e-3
	// DefaultFinetuneFactor: FinetuneEpochs defaults to this many times
	// Epochs (§3.5 and §3.6 of the paper).
	DefaultFinetuneFactor = 3
)

// Gamma0 is γ₀, the steepness every greedy stump starts from (§3.1).
const Gamma0 = 1.0

// adamEpsilon is Adam's ε (the paper uses PyTorch's defaults).
const adamEpsilon = 1e-8

// Options control Train. The zero value asks for a single E2EDT tree with
// the paper's defaults; every zero field means its documented default.
type Options struct {
	// Trees is T, the number of trees; 0 means 1 (a single tree, E2EDT).
	// More than one makes a decision forest (E2EDF, §2.7): every tree is
	// grown and finetuned on the whole training set with its own random
	// state, and the model averages the trees' leaf distributions (Eq. 20).
	Trees int
	// MaxDepth limits the depth of a tree (the root has depth 0); 0 means
	// DefaultMaxDepth (4), at most MaxDepth.
	MaxDepth int
	// MaxLeaves limits the number of leaves of a tree; 0 means 2^MaxDepth
	// (no limit beyond the depth).
	MaxLeaves int
	// MinSamples is the fewest training rows a node must receive (under
	// deterministic routing) to be split; 0 means 2·K for K classes (two
	// rows per class). A pure node is never split.
	MinSamples int
	// MaxAttempts is the number of stumps tried on a node before it is
	// fixed as a leaf (a stump fails when deterministic routing sends all
	// its rows to one child); 0 means DefaultMaxAttempts (5).
	MaxAttempts int
	// FeaturesPerSplit is the number of features each split sees, drawn
	// uniformly without replacement for every split (§2.7); 0 means every
	// feature for a single tree and ceil(√p) for a forest. Values above p
	// mean p.
	FeaturesPerSplit int

	// Epochs is the number of EM epochs that train every greedy stump;
	// 0 means DefaultEpochs (20, the smallest of the paper's grid).
	Epochs int
	// FinetuneEpochs is the number of EM epochs that train the whole tree
	// after greedy growth; 0 means DefaultFinetuneFactor·Epochs, a negative
	// value means none (the greedy tree is returned).
	FinetuneEpochs int
	// DeltaGamma is Δγ, added to the steepness γ after every epoch; nil
	// means DefaultDeltaGamma (0.1). Point it at 0 to keep γ constant.
	DeltaGamma *float64
	// BatchSize is the number of rows of an Adam minibatch (the last of an
	// epoch may be smaller); 0 means DefaultBatchSize (1000).
	BatchSize int
	// LearningRate is Adam's step size α; 0 means DefaultLearningRate.
	LearningRate float64

	// KeepBest makes finetuning, when Train is given a validation set,
	// keep the tree of the epoch with the highest deterministic validation
	// accuracy (ties: the earlier epoch), as the paper chooses its number
	// of epochs on a validation split; the provenance records the epoch
	// kept ("finetune_epochs_kept", one per tree). Without it the
	// validation set is only reported on.
	KeepBest bool

	// Impute replaces a missing feature value (NaN) of the training and
	// validation rows by the training mean of its feature; without it a
	// missing value is an error. The exported model has no imputation: a
	// missing value follows each split's DefaultLeft, the side that more
	// training rows reach.
	Impute bool

	// Seed seeds the split directions, the feature subsets and the order
	// of the rows in every epoch.
	Seed uint64
	// Threads is the number of goroutines that compute E-steps and
	// gradients; 0 means runtime.GOMAXPROCS(0). It never changes the model.
	Threads int
	// Name is the model's name (ir.Model.Name).
	Name string
	// OnEpoch, if not nil, is called after every EM epoch (of every stump
	// attempt and of every finetuning), from the goroutine that called
	// Train.
	OnEpoch func(EpochInfo)

	// cl is what RegisterFlags records, nil without it.
	cl *commandLine
}

// Phase names the stage of training an epoch belongs to.
type Phase string

// Phases.
const (
	Greedy   Phase = "greedy"   // training a stump on one node's rows (§2.5)
	Finetune Phase = "finetune" // training the whole tree jointly (§2.3)
)

// EpochInfo reports on one EM epoch.
type EpochInfo struct {
	Tree  int   // 0-based index of the tree in the forest
	Phase Phase // Greedy or Finetune
	// Node is the node the stump is trained for (Greedy; -1 in Finetune),
	// Attempt the 1-based attempt at it (0 in Finetune), and Rows the
	// number of training rows the EM runs on.
	Node, Attempt, Rows int
	Epoch               int // 1-based, within this EM run
	Epochs              int // the epochs of this EM run
	// Gamma is the steepness γ used in the epoch (Δγ is added after it).
	Gamma float64
	// LogLikelihood is the mean log p(y|x) (Eqs. 2 and 4) of the rows at the
	// end of the epoch's split updates, before the leaf update.
	LogLikelihood float64
	// TrainAccuracy and ValidAccuracy are, in Finetune, the accuracy of the
	// tree with deterministic routing on the training and the validation
	// set; NaN in Greedy and, for ValidAccuracy, without a validation set.
	TrainAccuracy, ValidAccuracy float64
	// ValidProbAccuracy is, in Finetune with a validation set, the accuracy
	// of the probabilistic tree (Eq. 2, steepness Gamma) on the validation
	// set, whose gap to ValidAccuracy annealing closes; NaN otherwise.
	ValidProbAccuracy float64
	// Elapsed is the time since training started.
	Elapsed time.Duration
}

// settings are Options checked, with defaults resolved.
type settings struct {
	trees, depth, leaves, minSamples, attempts, featsPerSplit int
	epochs, finetune, batch                                   int
	deltaGamma, lr                                            float64
	seed                                                      uint64
	threads                                                   int
	impute, keepBest                                          bool
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// settings checks o and resolves its defaults for p features and k
// classes.
func (o Options) settings(p, k int) (settings, error) {
	s := settings{
		trees:      cmp.Or(o.Trees, DefaultTrees),
		depth:      cmp.Or(o.MaxDepth, DefaultMaxDepth),
		minSamples: cmp.Or(o.MinSamples, 2*k),
		attempts:   cmp.Or(o.MaxAttempts, DefaultMaxAttempts),
		epochs:     cmp.Or(o.Epochs, DefaultEpochs),
		batch:      cmp.Or(o.BatchSize, DefaultBatchSize),
		lr:         o.LearningRate,
		deltaGamma: DefaultDeltaGamma,
		seed:       o.Seed,
		threads:    o.Threads,
		impute:     o.Impute,
		keepBest:   o.KeepBest,
	}
	if o.DeltaGamma != nil {
		s.deltaGamma = *o.DeltaGamma
	}
	if s.lr == 0 {
		s.lr = DefaultLearningRate
	}
	if s.threads == 0 {
		s.threads = runtime.GOMAXPROCS(0)
	}
	switch {
	case o.Trees < 0:
		return s, fmt.Errorf("e2e: Trees is negative (%d)", o.Trees)
	case o.MaxDepth < 0 || o.MaxDepth > MaxDepth:
		return s, fmt.Errorf("e2e: MaxDepth must be between 1 and %d (0 for the default), got %d", MaxDepth, o.MaxDepth)
	case o.MaxLeaves < 0:
		return s, fmt.Errorf("e2e: MaxLeaves is negative (%d)", o.MaxLeaves)
	case o.MinSamples < 0:
		return s, fmt.Errorf("e2e: MinSamples is negative (%d)", o.MinSamples)
	case o.MaxAttempts < 0:
		return s, fmt.Errorf("e2e: MaxAttempts is negative (%d)", o.MaxAttempts)
	case o.FeaturesPerSplit < 0:
		return s, fmt.Errorf("e2e: FeaturesPerSplit is negative (%d)", o.FeaturesPerSplit)
	case o.Epochs < 0:
		return s, fmt.Errorf("e2e: Epochs is negative (%d)", o.Epochs)
	case o.BatchSize < 0:
		return s, fmt.Errorf("e2e: BatchSize is negative (%d)", o.BatchSize)
	case !(s.lr > 0 && finite(s.lr)):
		return s, fmt.Errorf("e2e: LearningRate must be a finite number > 0, got %v", o.LearningRate)
	case !(s.deltaGamma >= 0 && finite(s.deltaGamma)):
		return s, fmt.Errorf("e2e: DeltaGamma must be a finite number >= 0, got %v", s.deltaGamma)
	case o.Threads < 0:
		return s, fmt.Errorf("e2e: Threads is negative (%d)", o.Threads)
	case p < 1:
		return s, errors.New("e2e: the training set has no features")
	}
	s.leaves = o.MaxLeaves
	if s.leaves == 0 || s.leaves > 1<<s.depth {
		s.leaves = 1 << s.depth
	}
	s.minSamples = max(s.minSamples, 2)
	switch {
	case o.FinetuneEpochs < 0:
		s.finetune = 0
	case o.FinetuneEpochs == 0:
		s.finetune = DefaultFinetuneFactor * s.epochs
	default:
		s.finetune = o.FinetuneEpochs
	}
	s.featsPerSplit = o.FeaturesPerSplit
	if s.featsPerSplit == 0 {
		s.featsPerSplit = p
		if s.trees > 1 {
			s.featsPerSplit = int(math.Ceil(math.Sqrt(float64(p))))
		}
	}
	s.featsPerSplit = min(s.featsPerSplit, p)
	return s, nil
}

// params records the settings for the model's provenance. Threads is left
// out: it does not change the model.
func (s settings) params() map[string]string {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return map[string]string{
		"trees":              strconv.Itoa(s.trees),
		"max_depth":          strconv.Itoa(s.depth),
		"max_leaves":         strconv.Itoa(s.leaves),
		"min_samples":        strconv.Itoa(s.minSamples),
		"max_attempts":       strconv.Itoa(s.attempts),
		"features_per_split": strconv.Itoa(s.featsPerSplit),
		"epochs":             strconv.Itoa(s.epochs),
		"finetune_epochs":    strconv.Itoa(s.finetune),
		"gamma0":             f(Gamma0),
		"delta_gamma":        f(s.deltaGamma),
		"final_gamma":        f(s.finalGamma()),
		"batch_size":         strconv.Itoa(s.batch),
		"learning_rate":      f(s.lr),
		"adam_epsilon":       f(adamEpsilon),
		"seed":               strconv.FormatUint(s.seed, 10),
		"impute":             strconv.FormatBool(s.impute),
		"keep_best":          strconv.FormatBool(s.keepBest),
	}
}

// finalGamma is γ after the last finetuning epoch: finetuning continues
// from the steepness the stumps reached.
func (s settings) finalGamma() float64 {
	g := Gamma0
	for range s.epochs + s.finetune {
		g += s.deltaGamma
	}
	return g
}
