package cart

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/trainset"
)

// Criterion is the impurity measure a tree minimises.
type Criterion string

// Criteria.
const (
	Gini    Criterion = "gini"    // classification: 1 - Σ p_k²
	Entropy Criterion = "entropy" // classification: -Σ p_k log2 p_k
	MSE     Criterion = "mse"     // regression: the variance of the target
)

// Producer is the Provenance.Producer of the models Train returns.
const Producer = "treegen train cart"

// Options control Train. The zero value grows a Gini classification tree
// until its leaves are pure (or ir.MaxDepth is reached).
type Options struct {
	// Criterion is the impurity to minimise; "" means Gini. Gini and Entropy
	// make a classifier (every distinct target value is a class), MSE a
	// regression tree.
	Criterion Criterion
	// MaxDepth is the maximum depth of the tree (the root has depth 0); 0
	// means unlimited. Either way the tree is never deeper than ir.MaxDepth.
	MaxDepth int
	// MinSamplesSplit is the minimum number of training rows a node needs
	// to be split; 0 means 2.
	MinSamplesSplit int
	// MinSamplesLeaf is the minimum number of training rows in each child
	// of a split; 0 means 1.
	MinSamplesLeaf int
	// MinImpurityDecrease is the minimum weighted impurity decrease of a
	// split, as in scikit-learn:
	// N_t/N * (I(t) - N_tR/N_t*I(R) - N_tL/N_t*I(L)) >= MinImpurityDecrease.
	MinImpurityDecrease float64
	// Name is the model's name (ir.Model.Name).
	Name string
}

// settings are Options with the defaults filled in.
type settings struct {
	criterion       Criterion
	maxDepth        int
	minSamplesSplit int
	minSamplesLeaf  int
	minDecrease     float64
}

func (o Options) settings() (settings, error) {
	s := settings{
		criterion:       o.Criterion,
		maxDepth:        o.MaxDepth,
		minSamplesSplit: o.MinSamplesSplit,
		minSamplesLeaf:  o.MinSamplesLeaf,
		minDecrease:     o.MinImpurityDecrease,
	}
	switch s.criterion {
	case "":
		s.criterion = Gini
	case Gini, Entropy, MSE:
	default:
		return s, fmt.Errorf("cart: unknown criterion %q (want gini, entropy or mse)", o.Criterion)
	}
	switch {
	case o.MaxDepth < 0:
		return s, fmt.Errorf("cart: MaxDepth is negative (%d); 0 means unlimited", o.MaxDepth)
	case o.MinSamplesSplit < 0:
		return s, fmt.Errorf("cart: MinSamplesSplit is negative (%d); 0 means 2", o.MinSamplesSplit)
	case o.MinSamplesLeaf < 0:
		return s, fmt.Errorf("cart: MinSamplesLeaf is negative (%d); 0 means 1", o.MinSamplesLeaf)
	case math.IsNaN(o.MinImpurityDecrease) || math.IsInf(o.MinImpurityDecrease, 0) || o.MinImpurityDecrease < 0:
		return s, fmt.Errorf("cart: MinImpurityDecrease must be a finite number >= 0, got %v", o.MinImpurityDecrease)
	}
	if s.maxDepth == 0 || s.maxDepth > ir.MaxDepth {
		s.maxDepth = ir.MaxDepth
	}
	if s.minSamplesSplit == 0 {
		s.minSamplesSplit = 2
	}
	if s.minSamplesLeaf == 0 {
		s.minSamplesLeaf = 1
	}
	return s, nil
}

// params records every option for the model's provenance, with the
// defaults resolved (MaxDepth 0 stays 0: unlimited).
func (o Options) params(s settings) map[string]string {
	return map[string]string{
		"criterion":             string(s.criterion),
		"max_depth":             strconv.Itoa(o.MaxDepth),
		"min_samples_split":     strconv.Itoa(s.minSamplesSplit),
		"min_samples_leaf":      strconv.Itoa(s.minSamplesLeaf),
		"min_impurity_decrease": strconv.FormatFloat(s.minDecrease, 'g', -1, 64),
	}
}

// Train grows one CART tree on every row of d, a classifier for the Gini
// and Entropy criteria and a regression tree for MSE, and returns it as a
// validated model (see the package documentation for its form).
//
// Train does not modify d. It fails when d has no rows, no features or no
// target, when a target value is NaN or infinite, when a classification
// target has a single class, when MSE meets a target of text labels
// (d.Labels set), and when an option is invalid.
func Train(d *data.Dataset, opts Options) (*ir.Model, error) {
	s, err := opts.settings()
	if err != nil {
		return nil, err
	}
	if err := checkData(d); err != nil {
		return nil, err
	}
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Name:          opts.Name,
		NumFeatures:   d.Cols,
		FeatureNames:  slices.Clone(d.Features),
		Aggregation:   ir.Sum,
		Link:          ir.Identity,
		Provenance: &ir.Provenance{
			Producer: Producer,
			Params:   opts.params(s),
			Data:     d.Fingerprint(),
		},
	}
	b := newBuilder(d, s)
	tree := ir.Tree{Output: 0}
	if s.criterion == MSE {
		if err := trainset.CheckRegression(d, "training"); err != nil {
			return nil, fmt.Errorf("cart: %w", err)
		}
		m.Task = ir.Regression
		m.NumOutputs = 1
		b.y = d.Y
	} else {
		labels, index, err := data.Classes(d.Y)
		if err != nil {
			return nil, fmt.Errorf("cart: %w", err)
		}
		if len(labels) < 2 {
			return nil, fmt.Errorf("cart: the target has a single class (%s) in all %d rows: nothing to classify", d.LabelName(labels[0]), d.Rows)
		}
		m.ClassNames = trainset.ClassNames(d, labels)
		m.Task = ir.Multiclass
		m.NumOutputs = len(labels)
		tree.Output = ir.AllOutputs
		if len(labels) == 2 {
			m.Task = ir.Binary
			m.NumOutputs = 1
			tree.Output = 0
		}
		b.setClasses(index, len(labels))
	}
	nodes, err := b.build()
	if err != nil {
		return nil, err
	}
	tree.Nodes = nodes
	m.Trees = []ir.Tree{tree}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("cart: the trained model is invalid: %w", err)
	}
	return m, nil
}

// checkData returns an error unless d is a well-formed data set with a
// finite target.
func checkData(d *data.Dataset) error {
	switch {
	case d == nil:
		return errors.New("cart: no data set")
	case d.Rows <= 0:
		return errors.New("cart: the data set has no rows")
	case d.Cols <= 0:
		return errors.New("cart: the data set has no features")
	case d.Y == nil:
		return errors.New("cart: the data set has no target column")
	case len(d.X) != d.Rows*d.Cols:
		return fmt.Errorf("cart: malformed data set: %d values for %d rows of %d features", len(d.X), d.Rows, d.Cols)
	case len(d.Y) != d.Rows:
		return fmt.Errorf("cart: malformed data set: %d target values for %d rows", len(d.Y), d.Rows)
	case d.Features != nil && len(d.Features) != d.Cols:
		return fmt.Errorf("cart: malformed data set: %d feature names for %d features", len(d.Features), d.Cols)
	case d.Rows > math.MaxInt32:
		return fmt.Errorf("cart: %d rows are more than the %d this trainer handles", d.Rows, math.MaxInt32)
	}
	sum := 0.0
	for r, v := range d.Y {
		if math.IsNaN(v) {
			return fmt.Errorf("cart: the target of row %d (0-based) is missing (NaN)", r)
		}
		if math.IsInf(v, 0) {
			return fmt.Errorf("cart: the target of row %d (0-based) is infinite (%v)", r, v)
		}
		sum += math.Abs(v)
	}
	if math.IsInf(sum, 0) {
		return errors.New("cart: the target values are too large: their sum overflows float64")
	}
	if err := trainset.CheckLabels(d, "training"); err != nil {
		return fmt.Errorf("cart: %w", err)
	}
	return nil
}
