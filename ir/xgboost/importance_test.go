package xgboost

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/treegen/treegen/ir/importance"
)

// TestImportanceXGBoost checks the split statistics of the import against
// XGBoost: the importances that package importance computes from them equal
// Booster.get_score's for the five importance types, recorded by
// testdata/make_importance.py for every model of testdata/models (binary,
// multiclass, ranking, survival, dart, boosted forests, early stopping,
// categorical splits with guards and copied subtrees).
func TestImportanceXGBoost(t *testing.T) {
	files, _ := filepath.Glob("testdata/models/*/importance.json")
	if len(files) < 20 {
		t.Fatalf("%d importance.json files, want one per model", len(files))
	}
	maxErr := 0.0
	for _, file := range files {
		dir := filepath.Dir(file)
		var want map[string]any
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatal(err)
		}
		// get_score counts every tree of the file, best_iteration or not.
		m, err := LoadWith(filepath.Join(dir, "model.json"), Options{AllRounds: true})
		if err != nil {
			t.Fatal(err)
		}
		if !m.HasStats() || m.FormatVersion != "1.3" {
			t.Errorf("%s: no split statistics (format %s)", dir, m.FormatVersion)
		}
		r := importance.Compute(m)
		if !r.Stats || r.MultiFeature != 0 {
			t.Errorf("%s: Stats %v, MultiFeature %d", dir, r.Stats, r.MultiFeature)
		}
		name := func(f importance.Feature) string {
			if f.Name != "" {
				return f.Name
			}
			return fmt.Sprintf("f%d", f.Index)
		}
		for _, typ := range importance.Types() {
			ref := want[typ].(map[string]any)
			got := map[string]float64{}
			for _, f := range r.Features {
				v, err := f.Value(typ)
				if err != nil {
					t.Fatal(err)
				}
				got[name(f)] = v
			}
			if len(got) != len(ref) {
				t.Errorf("%s %s: %d features %v, XGBoost %d %v", dir, typ, len(got), keys(got), len(ref), keys(ref))
				continue
			}
			for k, rv := range ref {
				w := rv.(float64)
				g, ok := got[k]
				// XGBoost sums in float32, split by split: a relative
				// error of a few float32 ulps per hundred terms.
				if ok && math.Abs(g-w) > maxErr*math.Abs(w) {
					maxErr = math.Abs(g-w) / math.Abs(w)
				}
				if !ok || math.Abs(g-w) > 2e-5*math.Abs(w) {
					t.Errorf("%s %s[%s]: %v, XGBoost %v (relative error %.2g)", dir, typ, k, g, w, math.Abs(g-w)/math.Abs(w))
				}
			}
		}
	}
	t.Logf("%d models; largest relative difference %.2g", len(files), maxErr)
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
