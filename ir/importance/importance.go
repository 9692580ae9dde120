// Package importance computes the feature importances of a tree model
// (ir.Model) from its splits, as XGBoost's Booster.get_score defines them:
//
//	weight       the number of splits on the feature
//	total_gain   the sum of those splits' gains (ir.Node.Gain, loss reduction)
//	gain         total_gain / weight
//	total_cover  the sum of those splits' covers (ir.Node.Cover, hessian sum)
//	cover        total_cover / weight
//
// Gain and cover come from the split statistics that producers record in the
// IR (train/gbdt, and the XGBoost and LightGBM importers from their files'
// loss_changes and sum_hessian, split_gain and internal_weight); a model
// without them reports the split count only, and says so (Report.Stats).
// For an imported XGBoost model the numbers are get_score's for the five
// importance types (XGBoost sums in float32, so they agree to float32
// precision); for an imported LightGBM model weight and total_gain are
// feature_importance("split") and ("gain").
//
// It is a package of its own rather than part of package ir because ir is
// the contract between every producer and every consumer of models, and
// holds what a model means; the importances are one reading of a model,
// built on statistics that no prediction depends on, for inspection
// (treegen inspect) and reports.
package importance

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/treegen/treegen/ir"
)

// Feature is the importance of one feature.
type Feature struct {
	// Index is the feature's index in a row; Name its name in the model,
	// "" when the model has none.
	Index int
	Name  string
	// Weight is the number of splits on the feature.
	Weight int
	// TotalGain and TotalCover are the sums of the gains and covers of
	// those splits, Gain and Cover their means (TotalGain / Weight,
	// TotalCover / Weight). All four are 0 when the model has no split
	// statistics (Report.Stats).
	Gain, TotalGain   float64
	Cover, TotalCover float64
}

// Report holds the importances of a model's features.
type Report struct {
	// Stats reports whether the model's splits carry split statistics
	// (ir.Model.HasStats). Without them gain and cover are unknown: only
	// Weight is filled in, and the JSON leaves the others out.
	Stats bool
	// Splits is the number of split nodes counted, over every tree.
	Splits int
	// MultiFeature is the number of oblique and soft splits, which test a
	// combination of features: they are not attributed to any feature and
	// not counted in Splits (nor in WithoutStats).
	MultiFeature int
	// WithoutStats is the number of split nodes left out because they
	// carry no statistics in a model whose other splits do: the guard
	// nodes and subtree copies that importers add when one split of their
	// library takes several IR nodes (its statistics are on one of them),
	// or trees from a producer that records none.
	WithoutStats int
	// Features holds every feature that a counted split tests, ranked: by
	// TotalGain, largest first, when Stats, then by Weight, largest first,
	// then by Index.
	Features []Feature
}

// Compute returns the importances of m's features. m must be valid
// (ir.Model.Validate).
func Compute(m *ir.Model) *Report {
	r := &Report{Stats: m.HasStats()}
	byFeature := map[int]*Feature{}
	for ti := range m.Trees {
		for ni := range m.Trees[ti].Nodes {
			n := &m.Trees[ti].Nodes[ni]
			switch {
			case !n.IsSplit():
				continue
			case n.Kind != ir.Axis && n.Kind != ir.Categorical:
				r.MultiFeature++
				continue
			case r.Stats && !n.HasStats():
				r.WithoutStats++
				continue
			}
			r.Splits++
			f := byFeature[n.Feature]
			if f == nil {
				f = &Feature{Index: n.Feature}
				if n.Feature < len(m.FeatureNames) {
					f.Name = m.FeatureNames[n.Feature]
				}
				byFeature[n.Feature] = f
			}
			f.Weight++
			if r.Stats {
				f.TotalGain += n.Gain
				f.TotalCover += n.Cover
			}
		}
	}
	r.Features = make([]Feature, 0, len(byFeature))
	for _, f := range byFeature {
		if r.Stats {
			f.Gain = f.TotalGain / float64(f.Weight)
			f.Cover = f.TotalCover / float64(f.Weight)
		}
		r.Features = append(r.Features, *f)
	}
	slices.SortFunc(r.Features, func(a, b Feature) int {
		switch {
		case r.Stats && a.TotalGain != b.TotalGain:
			if a.TotalGain > b.TotalGain {
				return -1
			}
			return 1
		case a.Weight != b.Weight:
			return b.Weight - a.Weight
		}
		return a.Index - b.Index
	})
	return r
}

// RankedBy names the order of Features: "total_gain" or "weight".
func (r *Report) RankedBy() string {
	if r.Stats {
		return "total_gain"
	}
	return "weight"
}

// Types returns the importance types of XGBoost's get_score, in the order
// Value takes them: a fresh slice, which the caller may change.
func Types() []string {
	return []string{"weight", "gain", "total_gain", "cover", "total_cover"}
}

// Value returns f's importance of the given type (one of [Types]), as
// XGBoost's get_score(importance_type=typ) names them.
func (f *Feature) Value(typ string) (float64, error) {
	switch typ {
	case "weight":
		return float64(f.Weight), nil
	case "gain":
		return f.Gain, nil
	case "total_gain":
		return f.TotalGain, nil
	case "cover":
		return f.Cover, nil
	case "total_cover":
		return f.TotalCover, nil
	}
	return 0, fmt.Errorf("importance: unknown importance type %q (want weight, gain, total_gain, cover or total_cover)", typ)
}

// jsonFeature is a Feature as JSON: the gain and cover fields are absent
// (nil) when the model has no split statistics.
type jsonFeature struct {
	Index      int      `json:"feature"`
	Name       string   `json:"name,omitempty"`
	Weight     int      `json:"weight"`
	Gain       *float64 `json:"gain,omitempty"`
	TotalGain  *float64 `json:"total_gain,omitempty"`
	Cover      *float64 `json:"cover,omitempty"`
	TotalCover *float64 `json:"total_cover,omitempty"`
}

// MarshalJSON writes the report as
//
//	{"statistics": true, "ranked_by": "total_gain", "splits": N,
//	 "multi_feature_splits": N, "splits_without_statistics": N,
//	 "features": [{"feature": 3, "name": "age", "weight": 12, "gain": ...,
//	   "total_gain": ..., "cover": ..., "total_cover": ...}, ...]}
//
// with the features ranked as in Features; without statistics
// ("statistics": false) each feature has "feature", "name" and "weight"
// only.
func (r Report) MarshalJSON() ([]byte, error) {
	out := struct {
		Stats        bool          `json:"statistics"`
		RankedBy     string        `json:"ranked_by"`
		Splits       int           `json:"splits"`
		MultiFeature int           `json:"multi_feature_splits"`
		WithoutStats int           `json:"splits_without_statistics"`
		Features     []jsonFeature `json:"features"`
	}{r.Stats, r.RankedBy(), r.Splits, r.MultiFeature, r.WithoutStats, make([]jsonFeature, len(r.Features))}
	for i := range r.Features {
		f := &r.Features[i]
		j := jsonFeature{Index: f.Index, Name: f.Name, Weight: f.Weight}
		if r.Stats {
			j.Gain, j.TotalGain, j.Cover, j.TotalCover = &f.Gain, &f.TotalGain, &f.Cover, &f.TotalCover
		}
		out.Features[i] = j
	}
	return json.Marshal(out)
}
