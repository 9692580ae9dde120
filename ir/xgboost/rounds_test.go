package xgboost

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// earlyStopCases lists the folders of testdata/models made by
// make_rounds.py: models trained with early stopping, with XGBoost's margins
// for all their rounds (margin_all.csv).
func earlyStopCases(t *testing.T) []string {
	t.Helper()
	dirs, err := filepath.Glob("testdata/models/*/margin_all.csv")
	if err != nil || len(dirs) < 3 {
		t.Fatalf("the early-stopping models are missing: %v %v", dirs, err)
	}
	for i, d := range dirs {
		dirs[i] = filepath.Dir(d)
	}
	return dirs
}

// checkMargins checks the interpreter on m, in float32 and float64, against
// XGBoost's float32 margins want, bit for bit.
func checkMargins(t *testing.T, what string, m *ir.Model, inputs [][]float64, want [][]float32) {
	t.Helper()
	p32, err := runtime.New[float32](m)
	if err != nil {
		t.Fatal(err)
	}
	p64, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	x32 := make([]float32, m.NumFeatures)
	out32 := make([]float32, m.NumOutputs)
	out64 := make([]float64, m.NumOutputs)
	if len(want) != len(inputs) {
		t.Fatalf("%s: %d rows of margins for %d inputs", what, len(want), len(inputs))
	}
	bad := 0
	for i, row := range inputs {
		for j, v := range row {
			x32[j] = float32(v)
		}
		p32.PredictMargin(x32, out32)
		p64.PredictMargin(row, out64)
		for k := range out32 {
			w := want[i][k]
			if math.Float32bits(out32[k]) != math.Float32bits(w) || math.Float64bits(out64[k]) != math.Float64bits(float64(w)) {
				bad++
				if bad <= 5 {
					t.Errorf("%s: row %d: margin[%d] = %v (float32), %v (float64); XGBoost %s", what, i, k, out32[k], out64[k], bits32(w))
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%s: %d disagreements", what, bad)
	}
}

// TestEarlyStopping checks the models trained with early stopping against
// XGBoost: the default import predicts what the scikit-learn interface does
// (the first best_iteration+1 rounds), AllRounds what Booster.predict does,
// and FirstRounds(K) what iteration_range=(0, K) does; JSON and UBJSON
// agree.
func TestEarlyStopping(t *testing.T) {
	for _, dir := range earlyStopCases(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			files := []string{filepath.Join(dir, "model.json")}
			if _, err := os.Stat(filepath.Join(dir, "model.ubj")); err == nil {
				files = append(files, filepath.Join(dir, "model.ubj"))
			}
			inputs, _ := readCSV(t, filepath.Join(dir, "inputs.csv"), -1)
			for _, file := range files {
				best, err := Load(file)
				if err != nil {
					t.Fatal(err)
				}
				all, err := LoadWith(file, Options{AllRounds: true})
				if err != nil {
					t.Fatal(err)
				}
				k := best.NumOutputs
				margins := func(name string) [][]float32 {
					return float32Rows(readCSV(t, filepath.Join(dir, name), k))
				}
				bp, ap := best.Provenance.Params, all.Provenance.Params
				b, _ := strconv.Atoi(bp["best_iteration"])
				saved, _ := strconv.Atoi(bp["rounds_saved"])
				if bp["rounds_kept"] != strconv.Itoa(b+1) || ap["rounds_kept"] != bp["rounds_saved"] || ap["best_iteration"] != bp["best_iteration"] || saved <= b+1 {
					t.Fatalf("%s: provenance %v (default), %v (AllRounds)", file, bp, ap)
				}
				if best.Rounds() != b+1 || all.Rounds() != saved || best.RoundSize() != all.RoundSize() ||
					len(all.Trees) != saved*all.RoundSize() || bp["num_trees"] != strconv.Itoa(len(all.Trees)) {
					t.Fatalf("%s: rounds %d and %d of %d trees, want %d and %d", file, best.Rounds(), all.Rounds(), best.RoundSize(), b+1, saved)
				}
				checkMargins(t, file+" (best iteration)", best, inputs, margins("margin.csv"))
				checkMargins(t, file+" (all rounds)", all, inputs, margins("margin_all.csv"))
				firsts, _ := filepath.Glob(filepath.Join(dir, "margin_first*.csv"))
				if len(firsts) == 0 {
					t.Fatal("no margin_firstK.csv")
				}
				for _, f := range firsts {
					n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "margin_first"), ".csv"))
					if err != nil {
						t.Fatal(err)
					}
					for _, m := range []*ir.Model{best, all} {
						cut, err := m.FirstRounds(n)
						if err != nil {
							t.Fatal(err)
						}
						checkMargins(t, fmt.Sprintf("%s FirstRounds(%d)", file, n), cut, inputs, margins(filepath.Base(f)))
					}
				}
				// FirstRounds(best_iteration+1) of all the rounds is the
				// default import, but for the provenance.
				cut, err := all.FirstRounds(b + 1)
				if err != nil {
					t.Fatal(err)
				}
				cut.Provenance = best.Provenance
				sameModel(t, cut, best)
			}
			if len(files) == 2 {
				sameIR(t, files[0], files[1])
				for _, f := range files {
					if _, err := LoadWith(f, Options{AllRounds: true}); err != nil {
						t.Fatal(err)
					}
				}
			}
		})
	}
}

// preorder returns, for each tree of an XGBoost JSON model, XGBoost's node
// ids in the order the importer numbers the nodes: a pre-order walk of the
// nodes the root reaches (no categorical split in these models).
func preorder(t *testing.T, path string) [][]int {
	t.Helper()
	var doc struct {
		Learner struct {
			GradientBooster struct {
				Model struct {
					Trees []struct {
						Left  []int `json:"left_children"`
						Right []int `json:"right_children"`
					} `json:"trees"`
				} `json:"model"`
			} `json:"gradient_booster"`
		} `json:"learner"`
	}
	if err := json.Unmarshal(readFile(t, path), &doc); err != nil {
		t.Fatal(err)
	}
	var out [][]int
	for _, tr := range doc.Learner.GradientBooster.Model.Trees {
		var ids []int
		var walk func(i int)
		walk = func(i int) {
			ids = append(ids, i)
			if tr.Left[i] != -1 {
				walk(tr.Left[i])
				walk(tr.Right[i])
			}
		}
		walk(0)
		out = append(out, ids)
	}
	return out
}

// TestLeavesMatchPredLeaf checks runtime.PredictLeaves on the default
// import against XGBoost's pred_leaf (leaves.csv): the IR index of a node is
// its position in the pre-order walk, so XGBoost's node id is
// preorder[tree][index].
func TestLeavesMatchPredLeaf(t *testing.T) {
	for _, dir := range earlyStopCases(t) {
		m, err := Load(filepath.Join(dir, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		ids := preorder(t, filepath.Join(dir, "model.json"))
		inputs, _ := readCSV(t, filepath.Join(dir, "inputs.csv"), -1)
		want, _ := readCSV(t, filepath.Join(dir, "leaves.csv"), len(m.Trees))
		for _, prec := range []string{"float32", "float64"} {
			leaves := make([]int, len(m.Trees))
			var predict func(row []float64) error
			if prec == "float32" {
				p, err := runtime.New[float32](m)
				if err != nil {
					t.Fatal(err)
				}
				x := make([]float32, m.NumFeatures)
				predict = func(row []float64) error {
					for j, v := range row {
						x[j] = float32(v)
					}
					return p.PredictLeaves(x, leaves)
				}
			} else {
				p, err := runtime.New[float64](m)
				if err != nil {
					t.Fatal(err)
				}
				predict = func(row []float64) error { return p.PredictLeaves(row, leaves) }
			}
			differ := 0
			for i, row := range inputs {
				if err := predict(row); err != nil {
					t.Fatal(err)
				}
				for tr, l := range leaves {
					if got, w := ids[tr][l], int(want[i][tr]); got != w {
						t.Fatalf("%s %s: row %d: tree %d: IR leaf %d is XGBoost node %d, pred_leaf %d", dir, prec, i, tr, l, got, w)
					}
					if l != int(want[i][tr]) {
						differ++
					}
				}
			}
			if differ == 0 {
				t.Errorf("%s: the IR indices all equal XGBoost's node ids: the test does not tell them apart", dir)
			}
		}
	}
}

// TestRoundSize checks the round size of the imports: the field is set
// only where the IR's default would be wrong. (Every import is format 1.3
// for its split statistics.)
func TestRoundSize(t *testing.T) {
	for _, c := range []struct {
		name         string
		field, size  int
		version      string
		rounds       int
		parallelTree bool
	}{
		{"bcw_logistic", 0, 1, "1.3", 10, false},
		{"bcw_dart", 0, 1, "1.3", 10, false},
		{"yeast_softprob", 0, 9, "1.3", 5, false},
		{"yeast_dart", 0, 9, "1.3", 6, false},
		{"bcw_parallel4", 4, 4, "1.3", 5, true},
		{"yeast_parallel4", 36, 36, "1.3", 3, true},
		{"connect4_parallel2_early_stop", 6, 6, "1.3", 10, true},
	} {
		m, err := Load(filepath.Join("testdata/models", c.name, "model.json"))
		if err != nil {
			t.Fatal(err)
		}
		if m.TreesPerRound != c.field || m.RoundSize() != c.size || m.Rounds() != c.rounds || m.FormatVersion != c.version {
			t.Errorf("%s: trees_per_round %d, RoundSize %d, Rounds %d, version %s; want %d, %d, %d, %s",
				c.name, m.TreesPerRound, m.RoundSize(), m.Rounds(), m.FormatVersion, c.field, c.size, c.rounds, c.version)
		}
		data, err := ir.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(string(data), `"trees_per_round"`); has != c.parallelTree || !strings.Contains(string(data), `"format_version": "`+c.version+`"`) {
			t.Errorf("%s: the IR file has trees_per_round: %v, want %v", c.name, has, c.parallelTree)
		}
	}
	// XGBoost 1.x records best_iteration = the last round without early
	// stopping: nothing is cut, nothing recorded.
	m := mustLoad(t, "../../testdata/xgboost/letter_softprob_d6/model.json")
	if len(m.Trees) != 520 || m.Rounds() != 20 || m.Provenance.Params["best_iteration"] != "" {
		t.Errorf("letter_softprob_d6: %d trees, %d rounds, params %v", len(m.Trees), m.Rounds(), m.Provenance.Params)
	}
}

// TestBestIteration checks best_iteration on tiny.json (2 rounds of one
// tree), in JSON and UBJSON: the rounds kept, the provenance, the errors.
func TestBestIteration(t *testing.T) {
	doc := func(best any, f func(learner map[string]any)) map[string]any {
		d := tinyDoc(t)
		l := d["learner"].(map[string]any)
		if best != nil {
			l["attributes"] = map[string]any{"best_iteration": best, "best_score": "0.25"}
		}
		if f != nil {
			f(l)
		}
		return d
	}
	for _, c := range []struct {
		name  string
		best  any
		edit  func(map[string]any)
		o     Options
		trees int
		prov  string // best_iteration, rounds_saved, rounds_kept
		err   string
	}{
		{"first", "0", nil, Options{}, 1, "0 2 1", ""},
		{"first, all rounds", "0", nil, Options{AllRounds: true}, 2, "0 2 2", ""},
		{"last", "1", nil, Options{}, 2, "  ", ""},
		{"spaces", " 0 ", nil, Options{}, 1, " 0  2 1", ""},
		{"number", 0, nil, Options{}, 1, "0 2 1", ""},
		{"out of range", "2", nil, Options{}, 0, "", "m.json: attributes.best_iteration: is 2, but the model has 2 rounds of 1 tree (best_iteration counts rounds from 0)"},
		{"out of range, all rounds", "2", nil, Options{AllRounds: true}, 0, "", "m.json: attributes.best_iteration: is 2, but the model has 2 rounds of 1 tree (best_iteration counts rounds from 0)"},
		{"negative", "-1", nil, Options{}, 0, "", "m.json: attributes.best_iteration: is -1, but the model has 2 rounds of 1 tree (best_iteration counts rounds from 0)"},
		{"not an integer", "1.5", nil, Options{}, 0, "", `m.json: attributes.best_iteration: want an integer, got "1.5"`},
		{"text", "best", nil, Options{}, 0, "", `m.json: attributes.best_iteration: want an integer, got "best"`},
		{"array", []any{1}, nil, Options{}, 0, "", `m.json: attributes.best_iteration: want an integer, got an array`},
		{"partial round", "0", func(l map[string]any) {
			l["objective"] = map[string]any{"name": "multi:softprob"}
			l["learner_model_param"].(map[string]any)["num_class"] = "3"
		}, Options{}, 0, "", "m.json: attributes.best_iteration: cannot be applied: the model has 2 trees, not a whole number of rounds of 3 trees (num_parallel_tree 1 × 3 outputs)"},
		{"parallel trees", "0", func(l map[string]any) {
			model := l["gradient_booster"].(map[string]any)["model"].(map[string]any)
			model["gbtree_model_param"].(map[string]any)["num_parallel_tree"] = "2"
		}, Options{}, 2, "  ", ""},
		{"parallel trees, out of range", "1", func(l map[string]any) {
			model := l["gradient_booster"].(map[string]any)["model"].(map[string]any)
			model["gbtree_model_param"].(map[string]any)["num_parallel_tree"] = "2"
		}, Options{}, 0, "", "m.json: attributes.best_iteration: is 1, but the model has 1 round of 2 trees (best_iteration counts rounds from 0)"},
	} {
		d := doc(c.best, c.edit)
		for format, data := range map[string][]byte{"JSON": encode(t, d), "UBJSON": toUBJSON(t, d)} {
			m, err := DecodeWith(data, "m.json", c.o)
			if c.err != "" {
				if err == nil || err.Error() != c.err {
					t.Errorf("%s (%s): got %v\nwant %s", c.name, format, err, c.err)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s (%s): %v", c.name, format, err)
				continue
			}
			p := m.Provenance.Params
			prov := p["best_iteration"] + " " + p["rounds_saved"] + " " + p["rounds_kept"]
			if len(m.Trees) != c.trees || prov != c.prov {
				t.Errorf("%s (%s): %d trees, provenance %q; want %d, %q", c.name, format, len(m.Trees), prov, c.trees, c.prov)
			}
		}
	}
	// Without attributes, or with other attributes, every tree is kept.
	for _, f := range []func(map[string]any){
		func(l map[string]any) { delete(l, "attributes") },
		func(l map[string]any) { l["attributes"] = map[string]any{"best_score": "0.5"} },
		func(l map[string]any) { l["attributes"] = "none" },
	} {
		m, err := Decode(encode(t, doc(nil, f)), "m.json")
		if err != nil || len(m.Trees) != 2 || m.Provenance.Params["best_iteration"] != "" {
			t.Errorf("no best_iteration: %v", err)
		}
	}
}
