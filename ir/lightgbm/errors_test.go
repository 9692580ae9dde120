package lightgbm

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// edit is a change to a valid model's text: replace the first occurrence
// of old with new (old must occur).
type edit struct{ old, new string }

func applyEdits(t *testing.T, text string, edits []edit) string {
	t.Helper()
	for _, e := range edits {
		if !strings.Contains(text, e.old) {
			t.Fatalf("edit: %q not in the model", e.old)
		}
		text = strings.Replace(text, e.old, e.new, 1)
	}
	return text
}

// chain returns a regression model whose only tree is a chain of n splits
// (node i: left leaf i, right node i+1): depth n.
func chain(n int) string { return chains(n, 1, 2, math.NaN()) }

// chains returns a regression model of trees copies of a chain of n splits
// with decision type dt and threshold thr (NaN: node i has threshold i).
func chains(n, trees, dt int, thr float64) string {
	var feat, thrs, left, right, leaves, types []string
	for i := 0; i < n; i++ {
		feat = append(feat, "0")
		if math.IsNaN(thr) {
			thrs = append(thrs, fmt.Sprint(i))
		} else {
			thrs = append(thrs, fmt.Sprint(thr))
		}
		types = append(types, fmt.Sprint(dt))
		left = append(left, fmt.Sprint(-i-1))
		if i == n-1 {
			right = append(right, fmt.Sprint(-n-1))
		} else {
			right = append(right, fmt.Sprint(i+1))
		}
		leaves = append(leaves, fmt.Sprint(i))
	}
	leaves = append(leaves, fmt.Sprint(n))
	text := `tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=0
objective=regression
feature_names=x
feature_infos=[0:1]

`
	for k := 0; k < trees; k++ {
		text += fmt.Sprintf(`Tree=%d
num_leaves=%d
num_cat=0
split_feature=%s
threshold=%s
decision_type=%s
left_child=%s
right_child=%s
leaf_value=%s
shrinkage=1

`, k, n+1, strings.Join(feat, " "), strings.Join(thrs, " "), strings.Join(types, " "), strings.Join(left, " "), strings.Join(right, " "), strings.Join(leaves, " "))
	}
	return text + "end of trees\n"
}

// TestErrors feeds broken models and checks the exact error, which names
// the file and the line at fault.
func TestErrors(t *testing.T) {
	reg := string(readTestdata(t, "regression.txt"))
	mc := string(readTestdata(t, "multiclass.txt"))
	cat := string(readTestdata(t, "categorical.txt"))
	endOfTrees := strings.Index(reg, "end of trees")
	for _, c := range []struct {
		name  string
		base  string
		edits []edit
		text  string // used instead of base and edits when set
		want  string
	}{
		{name: "empty", text: " ", want: `model.txt:1: not a LightGBM text model: the first line is " ", want "tree"`},
		{name: "nothing", text: "", want: `model.txt: empty file: not a LightGBM model`},
		{name: "not a model", text: "{\"learner\": {}}\n", want: `model.txt:1: not a LightGBM text model: the first line is "{\"learner\": {}}", want "tree"`},
		{name: "truncated", text: reg[:endOfTrees], want: `model.txt:49: truncated model: the file ends after tree 1 without an "end of trees" line`},
		{name: "truncated in a tree", text: reg[:strings.Index(reg, "leaf_weight=31")], want: `model.txt:40: truncated model: the file ends after tree 1 without an "end of trees" line`},
		{name: "header only", text: reg[:strings.Index(reg, "Tree=0")], want: `model.txt:11: truncated model: no Tree= block and no "end of trees" line`},
		{name: "no trees", text: reg[:strings.Index(reg, "Tree=0")] + "end of trees\n", want: `model.txt:12: the model has no trees (no Tree= block before "end of trees")`},
		{name: "leaf_value too short", base: reg, edits: []edit{{"leaf_value=23.016339869281047 ", "leaf_value="}},
			want: `model.txt:21: tree 0: leaf_value has 4 values, want 5 (num_leaves=5)`},
		{name: "threshold too long", base: reg, edits: []edit{{"threshold=1.8500000000000003 29.500000000000004", "threshold=1.85 29.5 3"}},
			want: `model.txt:36: tree 1: threshold has 3 values, want 2 (num_leaves-1, one per split: num_leaves=3)`},
		{name: "informational array too short", base: reg, edits: []edit{{"internal_count=299 229 111 35", "internal_count=299 229 111"}},
			want: `model.txt:26: tree 0: internal_count has 3 values, want 4 (num_leaves-1, one per split: num_leaves=5)`},
		{name: "missing left_child", base: reg, edits: []edit{{"left_child=-1 -2\n", ""}},
			want: `model.txt:31: tree 1: left_child is missing`},
		{name: "missing num_cat", base: reg, edits: []edit{{"num_cat=0\nsplit_feature=2 1", "split_feature=2 1"}},
			want: `model.txt:31: tree 1: num_cat is missing`},
		{name: "child out of range", base: reg, edits: []edit{{"left_child=1 -1 -3 -4", "left_child=1 -1 -3 -9"}},
			want: `model.txt:19: tree 0: left_child of node 3 is -9: out of range (internal nodes are 0..3, leaves -1..-5)`},
		{name: "internal child out of range", base: reg, edits: []edit{{"right_child=3 2 -2 -5", "right_child=4 2 -2 -5"}},
			want: `model.txt:20: tree 0: right_child of node 0 is 4: out of range (internal nodes are 0..3, leaves -1..-5)`},
		{name: "cycle to the root", base: reg, edits: []edit{{"left_child=1 -1 -3 -4", "left_child=1 -1 0 -4"}},
			want: `model.txt:19: tree 0: left_child of node 2 is 0: a cycle (node 0 is an ancestor of node 2)`},
		{name: "self loop", base: reg, edits: []edit{{"right_child=3 2 -2 -5", "right_child=3 2 -2 3"}},
			want: `model.txt:20: tree 0: right_child of node 3 is 3: a cycle (node 3 is an ancestor of node 3)`},
		{name: "detached cycle", base: reg, edits: []edit{{"left_child=1 -1 -3 -4\nright_child=3 2 -2 -5", "left_child=-1 -2 3 2\nright_child=1 -3 -4 -5"}},
			want: `model.txt:19: tree 0: node 2 is never reached from the root: its parent links form a cycle`},
		{name: "node reached twice", base: reg, edits: []edit{{"right_child=3 2 -2 -5", "right_child=3 2 -2 2"}},
			want: `model.txt:20: tree 0: right_child of node 3 is 2, but node 2 is already the right child of node 1`},
		{name: "leaf reached twice", base: reg, edits: []edit{{"right_child=3 2 -2 -5", "right_child=3 2 -2 -4"}},
			want: `model.txt:20: tree 0: right_child of node 3 is leaf 3 (-4), but leaf 3 is already the left child of node 3`},
		{name: "non-numeric threshold", base: reg, edits: []edit{{"threshold=1.8500000000000003 29.500000000000004", "threshold=1.8500000000000003 abc"}},
			want: `model.txt:36: tree 1: threshold: value 1, "abc", is not a number`},
		{name: "non-numeric leaf", base: reg, edits: []edit{{"leaf_value=1.3500000000000001", "leaf_value=1,35"}},
			want: `model.txt:40: tree 1: leaf_value: value 0, "1,35", is not a number`},
		{name: "non-integer child", base: reg, edits: []edit{{"right_child=1 -3", "right_child=1.0 -3"}},
			want: `model.txt:39: tree 1: right_child: value 0, "1.0", is not an integer`},
		{name: "non-integer num_leaves", base: reg, edits: []edit{{"num_leaves=3", "num_leaves=three"}},
			want: `model.txt:32: tree 1: num_leaves: "three" is not an integer`},
		{name: "non-integer header", base: reg, edits: []edit{{"max_feature_idx=2", "max_feature_idx=2.0"}},
			want: `model.txt:6: max_feature_idx: "2.0" is not an integer`},
		{name: "infinite threshold", base: reg, edits: []edit{{"threshold=1.8500000000000003 29.500000000000004", "threshold=inf 29.5"}},
			want: `model.txt:36: tree 1: threshold of node 0 is +Inf, not a finite number`},
		{name: "infinite split_gain", base: reg, edits: []edit{{"split_gain=210.25 88.5", "split_gain=210.25 -inf"}},
			want: `model.txt:35: tree 1: split_gain of node 1 is -Inf, not a finite number`},
		{name: "negative internal_weight", base: reg, edits: []edit{{"internal_weight=299 229 111 35", "internal_weight=299 229 -111 35"}},
			want: `model.txt:25: tree 0: internal_weight of node 2 is -111, not a hessian sum (a finite number >= 0)`},
		{name: "NaN leaf", base: reg, edits: []edit{{"leaf_value=1.3500000000000001", "leaf_value=nan"}},
			want: `model.txt:40: tree 1: leaf_value 0 is NaN, not a finite number`},
		{name: "huge leaf", base: reg, edits: []edit{{"leaf_value=1.3500000000000001", "leaf_value=1e999"}},
			want: `model.txt:40: tree 1: leaf_value 0 is +Inf, not a finite number`},
		{name: "unknown objective", base: reg, edits: []edit{{"objective=regression", "objective=softmax num_class:3"}},
			want: `model.txt:7: unknown objective "softmax" (known: regression, regression_l1, huber, fair, quantile, mape, poisson, gamma, tweedie, binary, multiclass, multiclassova, cross_entropy, lambdarank, rank_xendcg)`},
		{name: "linear tree", base: reg, edits: []edit{{"is_linear=0\nshrinkage=0.1", "is_linear=1\nleaf_const=1 2 3\nnum_features=0 0 0\nleaf_features=  \nleaf_coeff=  \nshrinkage=0.1"}},
			want: `model.txt:46: tree 1 is a linear tree: linear trees are not supported`},
		{name: "bad is_linear", base: reg, edits: []edit{{"is_linear=0\nshrinkage=0.1", "is_linear=yes\nshrinkage=0.1"}},
			want: `model.txt:46: tree 1: is_linear: "yes" is not an integer`},
		{name: "num_class vs per-iteration", base: mc, edits: []edit{{"num_tree_per_iteration=3", "num_tree_per_iteration=2"}},
			want: `model.txt:4: objective "multiclass num_class:3" has num_class:3, but the header has num_class=3 and num_tree_per_iteration=2`},
		{name: "num_class vs objective", base: mc, edits: []edit{{"num_class=3", "num_class=4"}},
			want: `model.txt:4: objective "multiclass num_class:3" has num_class:3, but the header has num_class=4 and num_tree_per_iteration=3`},
		{name: "binary with classes", base: cat, edits: []edit{{"num_class=1\nnum_tree_per_iteration=1", "num_class=2\nnum_tree_per_iteration=2"}},
			want: `model.txt:4: objective "binary" has one output, but num_class=2 and num_tree_per_iteration=2`},
		{name: "regression with classes", base: reg, edits: []edit{{"num_class=1", "num_class=3"}},
			want: `model.txt:4: objective "regression" has one output, but num_class=3 and num_tree_per_iteration=1`},
		{name: "custom with differing counts", base: reg, edits: []edit{{"objective=regression\n", ""}, {"num_tree_per_iteration=1", "num_tree_per_iteration=2"}},
			want: `model.txt:4: num_tree_per_iteration=2 differs from num_class=1`},
		{name: "trees not a whole iteration", base: mc, edits: []edit{{mc[strings.Index(mc, "Tree=8"):strings.Index(mc, "end of trees")], ""}, {"tree_sizes=294 352 241 309 309 347 292 276 307", "tree_sizes=294 352 241 309 309 347 292 276"}},
			want: `model.txt:164: the file has 8 trees, not a whole number of iterations of num_tree_per_iteration=3 trees`},
		{name: "tree_sizes count", base: reg, edits: []edit{{"tree_sizes=531 373", "tree_sizes=531"}},
			want: `model.txt:10: tree_sizes lists 1 trees but the file has 2`},
		{name: "trees out of order", base: reg, edits: []edit{{"Tree=1", "Tree=2"}},
			want: `model.txt:31: expected "Tree=1", found "Tree=2": trees must be numbered 0, 1, 2, ... in order`},
		{name: "stray line", base: reg, edits: []edit{{"\n\nTree=1", "\n\nstray\nTree=1"}},
			want: `model.txt:31: expected "Tree=1" or "end of trees", found "stray"`},
		{name: "line without =", base: reg, edits: []edit{{"shrinkage=0.1", "shrinkage"}},
			want: `model.txt:47: tree 1: expected key=value, found "shrinkage"`},
		{name: "duplicate key", base: reg, edits: []edit{{"num_cat=0\nsplit_feature=2 1", "num_cat=0\nnum_cat=0\nsplit_feature=2 1"}},
			want: `model.txt:34: tree 1: num_cat is given twice (first on line 33)`},
		{name: "duplicate header key", base: reg, edits: []edit{{"label_index=0", "num_class=1"}},
			want: `model.txt:5: num_class is given twice (first on line 3)`},
		{name: "missing version", base: reg, edits: []edit{{"version=v4\n", ""}},
			want: `model.txt:1: version is missing`},
		{name: "future version", base: reg, edits: []edit{{"version=v4", "version=v5"}},
			want: `model.txt:2: model format version "v5" is not supported (this importer reads v2, v3 and v4)`},
		{name: "feature names", base: reg, edits: []edit{{"feature_names=rooms age distance", "feature_names=rooms age"}},
			want: `model.txt:8: feature_names has 2 names, want 3 (max_feature_idx=2)`},
		{name: "feature infos", base: reg, edits: []edit{{"feature_infos=[3.5:8.75] [2.9:100] [1.1:12.125]", "feature_infos=[3.5:8.75]"}},
			want: `model.txt:9: feature_infos has 1 entries, want 3 (max_feature_idx=2)`},
		{name: "huge max_feature_idx", base: reg, edits: []edit{{"max_feature_idx=2", "max_feature_idx=100000000"}},
			want: `model.txt:6: max_feature_idx=100000000 is out of range: the model needs at least one feature, and treegen reads at most 16777216 (ir.MaxFeatures)`},
		{name: "negative max_feature_idx", base: reg, edits: []edit{{"max_feature_idx=2", "max_feature_idx=-1"}},
			want: `model.txt:6: max_feature_idx=-1 is out of range: the model needs at least one feature, and treegen reads at most 16777216 (ir.MaxFeatures)`},
		{name: "split feature out of range", base: reg, edits: []edit{{"split_feature=2 1", "split_feature=3 1"}},
			want: `model.txt:34: tree 1: split_feature of node 0 is 3: out of range (the model has 3 features)`},
		{name: "bad decision type", base: reg, edits: []edit{{"decision_type=2 8", "decision_type=2 12"}},
			want: `model.txt:37: tree 1: decision_type of node 1 is 12: not a LightGBM decision type (bit 0 categorical, bit 1 default left, bits 2-3 missing type 0, 1 or 2)`},
		{name: "zero leaves", base: reg, edits: []edit{{"num_leaves=3", "num_leaves=0"}},
			want: `model.txt:32: tree 1: num_leaves=0: a tree has at least one leaf`},
		{name: "categorical without num_cat", base: reg, edits: []edit{{"decision_type=2 8", "decision_type=1 8"}},
			want: `model.txt:37: tree 1: node 0 is categorical (decision_type 1) but the tree has num_cat=0`},
		{name: "category set index", base: cat, edits: []edit{{"threshold=1 0 10.500000000000002", "threshold=2 0 10.500000000000002"}},
			want: `model.txt:17: tree 0: threshold of categorical node 0 is 2: want the index of a category set, 0..1`},
		{name: "fractional category set index", base: cat, edits: []edit{{"threshold=1 0 10.500000000000002", "threshold=0.5 0 10.500000000000002"}},
			want: `model.txt:17: tree 0: threshold of categorical node 0 is 0.5: want the index of a category set, 0..1`},
		{name: "cat_boundaries size", base: cat, edits: []edit{{"cat_boundaries=0 1 3", "cat_boundaries=0 3"}},
			want: `model.txt:27: tree 0: cat_boundaries has 2 values, want 3 (num_cat+1: num_cat=2)`},
		{name: "cat_boundaries decreasing", base: cat, edits: []edit{{"cat_boundaries=0 1 3", "cat_boundaries=0 3 1"}},
			want: `model.txt:27: tree 0: cat_boundaries must not decrease (1 after 3)`},
		{name: "cat_threshold size", base: cat, edits: []edit{{"cat_threshold=34 2147483653 2147483651", "cat_threshold=34 2147483653"}},
			want: `model.txt:28: tree 0: cat_threshold has 2 values, want 3 (the last cat_boundaries value, 3)`},
		{name: "cat_threshold word", base: cat, edits: []edit{{"cat_threshold=34 2147483653 2147483651", "cat_threshold=34 2147483653 4294967296"}},
			want: `model.txt:28: tree 0: cat_threshold value 2, 4294967296, is not a 32-bit word`},
		{name: "missing cat_threshold", base: cat, edits: []edit{{"cat_threshold=34 2147483653 2147483651\n", ""}},
			want: `model.txt:12: tree 0: cat_threshold is missing`},
		{name: "num_cat too large", base: cat, edits: []edit{{"num_cat=1", "num_cat=2"}},
			want: `model.txt:35: tree 1: num_cat=2: want 0..1, at most one category set per split`},
		{name: "too deep", text: chain(101), want: `model.txt:17: tree 0: the tree is 101 levels deep in the IR, deeper than its limit of 100`},
		// Zero-as-missing splits (default left, t < -z) take three levels.
		{name: "too deep once expanded", text: chains(34, 1, 6, -0.5), want: `model.txt:17: tree 0: the tree is 102 levels deep in the IR, deeper than its limit of 100`},
		// ... and copy both subtrees: 6·2^18-5 nodes.
		{name: "too large once expanded", text: chains(18, 1, 6, -0.5), want: `model.txt:11: tree 0: converting the tree's zero-as-missing splits needs more than 1048576 nodes`},
		{name: "model too large once expanded", text: chains(17, 2, 6, -0.5), want: `model.txt:22: tree 1: converting the zero-as-missing splits of the model up to this tree needs more than 1048576 extra nodes`},
	} {
		t.Run(c.name, func(t *testing.T) {
			text := c.text
			if c.base != "" {
				text = applyEdits(t, c.base, c.edits)
			}
			m, err := Decode([]byte(text), "model.txt")
			if err == nil {
				t.Fatalf("no error; model with %d trees", len(m.Trees))
			}
			if err.Error() != c.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, c.want)
			}
			var e *Error
			if !errors.As(err, &e) || e.Name != "model.txt" {
				t.Errorf("error %T %v is not an *Error naming the file", err, err)
			}
		})
	}
	// The deepest tree the IR takes converts.
	if _, err := Decode([]byte(chain(100)), "model.txt"); err != nil {
		t.Errorf("chain of 100 splits: %v", err)
	}
}
