package main

import (
	"encoding/json"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

// TestInspectEscapes: strings from a model file reach the terminal and the
// dot graph escaped, so that a model cannot clear the screen, rewrite a
// line or forge one.
func TestInspectEscapes(t *testing.T) {
	m, err := ir.Load("../../ir/testdata/stump.json")
	if err != nil {
		t.Fatal(err)
	}
	const evil = "x\x1b[2J\rforged line\x00\u202e"
	m.Name = evil
	m.FeatureNames = []string{"age" + evil, "income" + evil} // income is split on: the importance table names it
	m.Provenance = &ir.Provenance{Producer: evil, Params: map[string]string{"k" + evil: evil}, Data: map[string]string{"d": evil}}
	path := filepath.Join(t.TempDir(), "evil.json")
	if err := ir.Save(path, m); err != nil {
		t.Fatal(err)
	}
	out, _ := succeeds(t, "inspect", path)
	dot, _ := succeeds(t, "inspect", "--dot", path)
	for name, text := range map[string]string{"inspect": out, "inspect --dot": dot} {
		for _, bad := range []string{"\x1b", "\r", "\x00", "\u202e"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s writes %q raw:\n%s", name, bad, text)
			}
		}
	}
	if !strings.Contains(out, `producer     "x\x1b[2J\rforged line\x00\u202e"`) {
		t.Errorf("inspect does not quote the producer:\n%s", out)
	}
	if !strings.Contains(dot, `x\\x1b[2J\\rforged line\\x00\\u202e`) {
		t.Errorf("inspect --dot does not escape the name:\n%s", dot)
	}
}

// TestInspectImportance checks the importance table and the JSON of
// inspect: gain and cover by feature for a model with split statistics
// (XGBoost's numbers), split counts only for one without.
func TestInspectImportance(t *testing.T) {
	dir := t.TempDir()
	model := filepath.Join(dir, "crx.json")
	succeeds(t, "import", "xgboost", "../../ir/xgboost/testdata/models/crx_categorical/model.json", "-o", model)
	out, _ := succeeds(t, "inspect", "--top", "3", model)
	for _, want := range []string{
		"importance   top 3 of 11 features by total gain",
		"split nodes without statistics (guards, copied subtrees) are not counted",
		"  feature   weight   total_gain         gain  total_cover        cover\n",
		// XGBoost's get_score for A9: weight 8, gain 79.245224,
		// total_gain 633.96179, cover 90.237549, total_cover 721.90039.
		"  A9             8      633.962      79.2452        721.9      90.2375\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("inspect lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out[strings.Index(out, "  feature"):], "\n"); n != 4 {
		t.Errorf("--top 3 prints %d lines of table:\n%s", n, out)
	}
	js, _ := succeeds(t, "inspect", "--json", model)
	var got struct {
		FormatVersion string `json:"format_version"`
		Trees         int    `json:"trees"`
		Importance    struct {
			Stats    bool   `json:"statistics"`
			RankedBy string `json:"ranked_by"`
			Features []struct {
				Name      string   `json:"name"`
				Weight    int      `json:"weight"`
				TotalGain *float64 `json:"total_gain"`
			} `json:"features"`
		} `json:"importance"`
	}
	if err := json.Unmarshal([]byte(js), &got); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	imp := got.Importance
	if got.FormatVersion != "1.3" || got.Trees != 8 || !imp.Stats || imp.RankedBy != "total_gain" || len(imp.Features) != 11 ||
		imp.Features[0].Name != "A9" || imp.Features[0].Weight != 8 || imp.Features[0].TotalGain == nil ||
		math.Abs(*imp.Features[0].TotalGain-633.9617834091187) > 1e-9 {
		t.Errorf("inspect --json:\n%s", js)
	}

	// Without statistics: counts only, said so.
	out, _ = succeeds(t, "inspect", "../../ir/testdata/stump.json")
	if !strings.HasSuffix(out, "importance   1 feature by split count; gain and cover unknown: the model's splits record no statistics\n  feature   weight\n  income         1\n") {
		t.Errorf("inspect without statistics:\n%s", out)
	}
	js, _ = succeeds(t, "inspect", "--json", "../../ir/testdata/stump.json")
	if !strings.Contains(js, `"statistics": false`) || !strings.Contains(js, `"ranked_by": "weight"`) || strings.Contains(js, "gain") {
		t.Errorf("inspect --json without statistics:\n%s", js)
	}
	fails(t, "--dot and --json are exclusive", "inspect", "--dot", "--json", model)
	fails(t, "--top must be at least 0", "inspect", "--top", "-1", model)
}

// TestInspectModelFlag: inspect takes the model as --model, like every
// other command, or as its argument.
func TestInspectModelFlag(t *testing.T) {
	const model = "../../ir/testdata/stump.json"
	byFlag, _ := succeeds(t, "inspect", "--model", model)
	byArg, _ := succeeds(t, "inspect", model)
	if byFlag != byArg || !strings.Contains(byFlag, "sha256 ") {
		t.Errorf("--model:\n%s\nargument:\n%s", byFlag, byArg)
	}
	fails(t, "give the model once", "inspect", "--model", model, model)
	fails(t, "--model is required", "inspect")
}
