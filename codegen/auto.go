package codegen

import (
	"fmt"
	"strings"

	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/internal/perfect"
	"github.com/treegen/treegen/codegen/quickscorer"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/codegen/walk"
	"github.com/treegen/treegen/ir"
)

// Choice is the backend that [Auto] picks for a model, and why: a sentence
// that the header of every generated file carries.
type Choice struct {
	Backend Backend
	Why     string
}

// The constants of auto's rule (Choose), calibrated by docs/auto-grid on
// gradient-boosted trees of two datasets and on XGBoost models
// (docs/PERFORMANCE.md, "Which backend auto picks").
const (
	// autoMinTrees is the fewest trees for which auto weighs walk and
	// quickscorer against ifelse. With fewer, the nested ifs of ifelse
	// are the fastest one row per call: a few branches per tree in a few
	// KB of code, against the walk's copy of the row.
	autoMinTrees = 8
	// autoWalkDepthPerFeature: walk is picked when the depths of the
	// trees add up to at least this many per feature. Its fixed cost is
	// the copy of the row into its regions (about 1.3 ns per feature),
	// and each tree then costs it about 1 ns per level against 1 to 2.5
	// for ifelse: on 8 features, 8 trees of depth 6 or 16 of depth 4
	// are where walk overtakes ifelse; on 57 features (spambase), 64
	// trees of depth 4.
	autoWalkDepthPerFeature = 8
	// autoScorerMinTrees and autoScorerMaxThresholds: of trees that do
	// not pad cheaply (deep and lopsided ones), quickscorer is picked
	// for at least autoScorerMinTrees trees whose splits number at most
	// autoScorerMaxThresholds per feature; otherwise ifelse. QuickScorer
	// scans, per feature, the thresholds below the row's value: about 3
	// times faster than ifelse on 512 trees with 120 to 130 thresholds
	// per feature, 2 to 6 times slower with 2,000 and more (8
	// features), and a tie at 64 trees.
	autoScorerMinTrees      = 256
	autoScorerMaxThresholds = 256
)

// Choose returns the backend that [Auto] picks for the validated model m,
// the one expected to score one row per call the fastest, by a rule on the
// shape of the model calibrated with treegen bench on a grid of shapes and
// on real models (docs/auto-grid, whose tables docs/PERFORMANCE.md shows):
//
//  1. Soft splits (of nonzero width): smoothstep, the only backend with
//     conditional computation for them.
//  2. Trees that only ifelse compiles (oblique or categorical splits,
//     vector leaves, latent trees): ifelse.
//  3. Fewer than 8 trees of axis splits and constant leaves: ifelse.
//  4. Trees that pad cheaply into perfect trees (walk's Check: at most 12
//     deep, and at most 6 deep or 2^depth at most 4 times the leaves):
//     walk if their depths add up to at least 8 per feature, else ifelse.
//  5. Other trees (deep and lopsided): quickscorer for at least 256 trees
//     with at most 256 splits per feature, else ifelse.
//
// Choose runs each backend's Check at most once. The error, when no
// backend compiles m, gives each backend's reason.
func Choose(m *ir.Model) (Choice, error) { return choose(newChecker(m)) }

// choose is Choose on the model of c, whose results of the backends'
// Check it shares.
func choose(c *checker) (Choice, error) {
	m := c.m
	n := len(m.Trees)
	trees := fmt.Sprintf("%d trees", n)
	if n == 1 {
		trees = "1 tree"
	}
	compiles := func(b Backend) bool { return c.check(b) == nil }
	axis := compiles(quickscorer.Backend{})
	walks := axis && compiles(walk.Backend{})
	depths, splits := 0, 0
	for i := range m.Trees {
		depths += m.Trees[i].Depth()
		splits += len(m.Trees[i].Nodes) - m.Trees[i].NumLeaves()
	}
	p := max(m.NumFeatures, 1)
	switch {
	case softSplits(m) && compiles(smoothstep.Backend{}):
		return Choice{smoothstep.Backend{}, trees + " with soft splits: smoothstep evaluates them with conditional computation, which the other backends lack"}, nil
	case !axis && compiles(ifelse.Backend{}):
		return Choice{ifelse.Backend{}, trees + ", not all of axis splits and constant leaves: ifelse is the backend that compiles them"}, nil
	case axis && n < autoMinTrees:
		return Choice{ifelse.Backend{}, fmt.Sprintf("%s of axis splits and constant leaves (fewer than %d trees): nested ifs are the fastest one row per call", trees, autoMinTrees)}, nil
	case walks && depths >= autoWalkDepthPerFeature*p:
		return Choice{walk.Backend{}, fmt.Sprintf("%s of axis splits and constant leaves that pad cheaply into perfect trees, their depths adding up to %d, at least %d per feature (%d): walking them branch-free is the fastest one row per call", trees, depths, autoWalkDepthPerFeature, m.NumFeatures)}, nil
	case walks:
		return Choice{ifelse.Backend{}, fmt.Sprintf("%s of axis splits and constant leaves, their depths adding up to %d, fewer than %d per feature (%d): nested ifs are faster one row per call than walking them from a copy of the row", trees, depths, autoWalkDepthPerFeature, m.NumFeatures)}, nil
	case axis && n >= autoScorerMinTrees && splits <= autoScorerMaxThresholds*p:
		return Choice{quickscorer.Backend{}, fmt.Sprintf("%s of axis splits and constant leaves, not all of which pad cheaply into perfect trees (%s), with %d splits, at most %d per feature (%d): QuickScorer's bitvectors are the fastest one row per call", trees, unpadded(m), splits, autoScorerMaxThresholds, m.NumFeatures)}, nil
	case axis:
		return Choice{ifelse.Backend{}, fmt.Sprintf("%s of axis splits and constant leaves, not all of which pad cheaply into perfect trees (%s), too few or with too many splits per feature for QuickScorer (%d splits, %d features): nested ifs are the fastest one row per call", trees, unpadded(m), splits, m.NumFeatures)}, nil
	}
	for _, b := range backends {
		if compiles(b) {
			return Choice{b, trees + ": " + b.Name() + " is the one backend that compiles them"}, nil
		}
	}
	var why []string
	for _, b := range backends {
		why = append(why, b.Name()+": "+c.check(b).Error())
	}
	return Choice{}, fmt.Errorf("no backend compiles this model (%s)", strings.Join(why, "; "))
}

// softSplits reports whether m has a soft node of width γ > 0, which only
// smoothstep evaluates with conditional computation (and ifelse does not
// compile).
func softSplits(m *ir.Model) bool {
	for i := range m.Trees {
		for j := range m.Trees[i].Nodes {
			if n := &m.Trees[i].Nodes[j]; n.Kind == ir.Soft && n.Gamma != 0 {
				return true
			}
		}
	}
	return false
}

// unpadded says which tree of m first does not pad cheaply into a perfect
// tree, and why, or "" when they all do.
func unpadded(m *ir.Model) string {
	for i := range m.Trees {
		if why := perfect.WhyNotPaddable(&m.Trees[i]); why != "" {
			return fmt.Sprintf("tree %d: %s", i, why)
		}
	}
	return ""
}
