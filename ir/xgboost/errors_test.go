package xgboost

import (
	"bytes"
	"os"
	"testing"
)

// edit returns testdata/tiny.json (as generic values) changed by f, encoded
// as JSON.
func edit(t *testing.T, f func(learner, model map[string]any, trees []map[string]any)) []byte {
	t.Helper()
	doc := tinyDoc(t)
	learner := doc["learner"].(map[string]any)
	model := learner["gradient_booster"].(map[string]any)["model"].(map[string]any)
	var trees []map[string]any
	for _, tr := range model["trees"].([]any) {
		trees = append(trees, tr.(map[string]any))
	}
	f(learner, model, trees)
	return encode(t, doc)
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestErrors checks the error of every kind of bad input, word for word.
func TestErrors(t *testing.T) {
	ubj := readFile(t, "testdata/tiny.ubj")
	corrupt := append([]byte(nil), ubj...)
	corrupt[204] = 'x' // the marker of gradient_booster.model, '{'
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"truncated JSON", []byte("{\n  \"learner\": {\n    \"objective\": "),
			"m.json: 3:18: invalid JSON: unexpected end of input (truncated file?)"},
		{"truncated JSON in a literal", []byte(`{"learner": tr`),
			"m.json: 1:15: invalid JSON: unexpected end of input (truncated file?)"},
		{"bad JSON", []byte("{\n\"learner\": {\"a\": 1,,}}"),
			`m.json: 2:20: invalid JSON: invalid character ',' looking for beginning of object key string`},
		{"bad number", []byte(`{"a": 01}`),
			`m.json: 1:8: invalid JSON: invalid character '1' after object key:value pair`},
		{"duplicate key", []byte(`{"a": 1, "a": 2}`),
			`m.json: 1:10: invalid JSON: duplicate key "a"`},
		{"trailing data", []byte(`{} {}`),
			`m.json: 1:4: invalid JSON: data after the top-level value`},
		{"truncated UBJSON", ubj[:92], // in the middle of "income"
			"m.json: byte 92: invalid UBJSON: unexpected end of input (truncated file?)"},
		{"truncated UBJSON array", ubj[:len(ubj)-7],
			"m.json: byte 2330: invalid UBJSON: count 3: the 0 bytes left in the input cannot hold that many (truncated file?)"},
		{"corrupted UBJSON", corrupt,
			"m.json: byte 204: invalid UBJSON: unknown type marker 'x'"},
		{"empty file", []byte(" \n"), "m.json: empty file: not an XGBoost model"},
		{"legacy binary", []byte("binf\x00\x00\x00?"),
			`m.json: not an XGBoost model in JSON or UBJSON: the file starts with byte 0x62; XGBoost's legacy binary format is not supported (save the model with save_model("model.json") or "model.ubj")`},
		{"treegen IR", readFile(t, "../testdata/stump.json"),
			`m.json: not an XGBoost model: this is a treegen IR model ("format_version"); load it with ir.Load`},
		{"other JSON", []byte(`{"name": "x"}`),
			`m.json: not an XGBoost model: the top-level object has no "learner"`},
		{"not an object", []byte(`[1, 2]`),
			`m.json: not an XGBoost model: the top level is an array, want an object`},
		{"unknown objective", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["objective"] = map[string]any{"name": "reg:magic"}
		}), `m.json: objective.name: unknown objective "reg:magic" (known: binary:logistic, binary:logitraw, count:poisson, multi:softmax, multi:softprob, rank:map, rank:ndcg, rank:pairwise, reg:absoluteerror, reg:gamma, reg:linear, reg:logistic, reg:pseudohubererror, reg:quantileerror, reg:squarederror, reg:squaredlogerror, reg:tweedie, survival:aft, survival:cox)`},
		{"binary:hinge", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["objective"] = map[string]any{"name": "binary:hinge"}
		}), "m.json: objective.name: objective binary:hinge is not supported: its prediction is 1 when the margin is > 0 and 0 otherwise, a step that no IR link computes"},
		{"gblinear", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["gradient_booster"] = map[string]any{"name": "gblinear", "model": map[string]any{"weights": []any{0.5, 1}}}
		}), "m.json: gblinear models are not tree models: treegen imports the gbtree and dart boosters"},
		{"unknown booster", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["gradient_booster"].(map[string]any)["name"] = "gbforest"
		}), `m.json: gradient_booster.name: unknown booster "gbforest" (want gbtree or dart)`},
		{"mismatched lengths", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["split_conditions"] = []any{5e4, 0.1, 50}
		}), "m.json: trees[1]: left_children has 5 entries, split_conditions 3"},
		{"num_nodes", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["tree_param"].(map[string]any)["num_nodes"] = "7"
		}), "m.json: trees[1].tree_param.num_nodes: is 7, but left_children has 5 entries"},
		{"child out of range", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["right_children"] = []any{2, -1, 9, -1, -1}
		}), "m.json: trees[1].right_children[2]: child 9 out of range: the tree has 5 nodes"},
		{"missing right child", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["right_children"] = []any{-1, -1, 4, -1, -1}
		}), "m.json: trees[1].right_children[0]: child -1 out of range: the tree has 5 nodes"},
		{"cycle", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["left_children"] = []any{1, -1, 0, -1, -1}
		}), "m.json: trees[1].left_children[2]: child 0 is node 2 itself or one of its ancestors: the tree has a cycle"},
		{"self loop", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["right_children"] = []any{2, -1, 2, -1, -1}
		}), "m.json: trees[1].right_children[2]: child 2 is node 2 itself or one of its ancestors: the tree has a cycle"},
		{"two parents", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["left_children"] = []any{1, -1, 1, -1, -1}
		}), "m.json: trees[1].left_children[2]: node 1 has two parents, nodes 0 and 2"},
		{"feature out of range", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["split_indices"] = []any{1, 0, 2, 0, 0}
		}), "m.json: trees[1].split_indices[2]: feature 2 out of range: the model has 2 features (num_feature)"},
		{"non-finite threshold", replace(t, edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["split_conditions"] = []any{"NAN_HERE", 0.1, 50, 0.2, -0.1}
		}), `"NAN_HERE"`, "NaN"), "m.json: trees[1].split_conditions[0]: threshold NaN is not a finite number"},
		{"non-finite leaf", replace(t, edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["split_conditions"] = []any{5e4, "INF_HERE", 50, 0.2, -0.1}
		}), `"INF_HERE"`, "-Infinity"), "m.json: trees[1].split_conditions[1]: leaf value -Inf is not a finite number"},
		{"num_class and tree_info", edit(t, func(l, m map[string]any, _ []map[string]any) {
			l["objective"] = map[string]any{"name": "multi:softprob"}
			l["learner_model_param"].(map[string]any)["num_class"] = "3"
			m["tree_info"] = []any{0, 5}
		}), "m.json: tree_info[1]: tree 1 writes output 5, but the model has 3 classes (num_class 3)"},
		{"tree_info length", edit(t, func(_, m map[string]any, _ []map[string]any) {
			m["tree_info"] = []any{0}
		}), "m.json: tree_info: has 1 entries for 2 trees"},
		{"num_trees", edit(t, func(_, m map[string]any, _ []map[string]any) {
			m["gbtree_model_param"].(map[string]any)["num_trees"] = "3"
		}), "m.json: gradient_booster.model.gbtree_model_param.num_trees: is 3, but the model has 2 trees"},
		{"softmax without classes", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["objective"] = map[string]any{"name": "multi:softmax"}
		}), "m.json: learner_model_param.num_class: multi:softmax needs at least 2 classes, got num_class 0"},
		{"classes without softmax", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["learner_model_param"].(map[string]any)["num_class"] = "3"
		}), "m.json: learner_model_param.num_class: num_class 3 with objective binary:logistic: only multi:softmax and multi:softprob have classes"},
		{"base_score out of range", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["learner_model_param"].(map[string]any)["base_score"] = "2E0"
		}), "m.json: learner_model_param.base_score: base_score 2 must be in (0, 1) for binary:logistic"},
		{"base_score vector", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["learner_model_param"].(map[string]any)["base_score"] = "[5E-1,5E-1]"
		}), "m.json: learner_model_param.base_score: has 2 values for 1 outputs"},
		{"base_score text", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["learner_model_param"].(map[string]any)["base_score"] = "half"
		}), `m.json: learner_model_param.base_score: want a number or a bracketed list of numbers, got "half"`},
		{"huge num_feature", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["learner_model_param"].(map[string]any)["num_feature"] = "2147483647"
		}), "m.json: learner_model_param.num_feature: must be in 1..16777216 (treegen's limit, ir.MaxFeatures), got 2147483647"},
		{"missing num_feature", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			delete(l["learner_model_param"].(map[string]any), "num_feature")
		}), "m.json: learner_model_param.num_feature: is missing"},
		{"feature names", edit(t, func(l, _ map[string]any, _ []map[string]any) {
			l["feature_names"] = []any{"age"}
		}), "m.json: feature_names: has 1 names for 2 features (num_feature)"},
		{"vector leaves", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["tree_param"].(map[string]any)["size_leaf_vector"] = "3"
		}), `m.json: trees[0].tree_param.size_leaf_vector: vector leaves (size_leaf_vector 3, XGBoost's multi_strategy "multi_output_tree") are not supported`},
		{"dart weights", edit(t, func(l, m map[string]any, _ []map[string]any) {
			l["gradient_booster"] = map[string]any{"name": "dart", "gbtree": map[string]any{"name": "gbtree", "model": m}, "weight_drop": []any{1}}
		}), "m.json: gradient_booster.weight_drop: has 1 weights for 2 trees"},
		{"default_left", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["default_left"] = []any{2, 0, 0}
		}), "m.json: trees[0].default_left[0]: want a boolean (true, false, 1 or 0), got 2"},
		{"split_type", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["split_type"] = []any{2, 0, 0}
		}), "m.json: trees[0].split_type[0]: unknown split type 2 (want 0, numerical, or 1, categorical)"},
		{"categorical split not listed", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["split_type"] = []any{1, 0, 0}
		}), "m.json: trees[0].split_type[0]: node 0 is a categorical split, but categories_nodes does not list it"},
		{"negative category", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["split_type"] = []any{1, 0, 0}
			tr[0]["categories"] = []any{1, -2}
			tr[0]["categories_nodes"] = []any{0}
			tr[0]["categories_segments"] = []any{0}
			tr[0]["categories_sizes"] = []any{2}
		}), "m.json: trees[0].categories[1]: category -2 is negative"},
		{"categories out of range", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["split_type"] = []any{1, 0, 0}
			tr[0]["categories"] = []any{1, 2}
			tr[0]["categories_nodes"] = []any{0}
			tr[0]["categories_segments"] = []any{1}
			tr[0]["categories_sizes"] = []any{2}
		}), "m.json: trees[0].categories_segments[0]: categories 1..3 of node 0 out of range: categories has 2 entries"},
		{"old categorical", replace(t, edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["split_type"] = []any{1, 0, 0}
			tr[0]["categories"] = []any{1}
			tr[0]["categories_nodes"] = []any{0}
			tr[0]["categories_segments"] = []any{0}
			tr[0]["categories_sizes"] = []any{1}
		}), `"version":[1,7,4]`, `"version":[1,6,2]`),
			"m.json: trees[0]: categorical splits of XGBoost 1.6 are not supported: XGBoost before 1.7 sent invalid categories to the default child; load the model with XGBoost 1.7 or later and save it again"},
		{"future major version", replace(t, edit(t, func(_, _ map[string]any, _ []map[string]any) {}), `"version":[1,7,4]`, `"version":[9,0,0]`),
			"m.json: version: XGBoost 9.0.0 saved this model, and treegen reads the JSON and UBJSON models of XGBoost 1.0 to 3.x: a model of another major version may mean something else (re-save it with a supported XGBoost)"},
		{"categorical expansion", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			// A chain of 12 categorical splits whose sets hold 0, each
			// left child the next split: every one copies the rest.
			const n = 12
			var left, right, feat, cond, dleft, kind, cats, nodes, segs, sizes []any
			for i := 0; i < n; i++ {
				left = append(left, i+1)
				right = append(right, n+1+i)
				feat, cond, dleft, kind = append(feat, 0), append(cond, 0), append(dleft, 0), append(kind, 1)
				cats, nodes, segs, sizes = append(cats, 0), append(nodes, i), append(segs, i), append(sizes, 1)
			}
			for i := n; i <= 2*n; i++ {
				left, right = append(left, -1), append(right, -1)
				feat, cond, dleft, kind = append(feat, 0), append(cond, 0.5), append(dleft, 0), append(kind, 0)
			}
			tr[0]["left_children"], tr[0]["right_children"], tr[0]["split_indices"] = left, right, feat
			tr[0]["split_conditions"], tr[0]["default_left"], tr[0]["split_type"] = cond, dleft, kind
			tr[0]["categories"], tr[0]["categories_nodes"] = cats, nodes
			tr[0]["categories_segments"], tr[0]["categories_sizes"] = segs, sizes
			delete(tr[0], "tree_param")
			delete(tr[0], "loss_changes")
			delete(tr[0], "sum_hessian")
		}), "m.json: trees[0]: more than 1600 nodes once its categorical splits that hold category 0 are expanded (each copies a subtree), 64 times the 25 nodes of the XGBoost tree"},
		{"wrong type", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["left_children"] = "1,-1,-1"
		}), "m.json: trees[0].left_children: want an array, got a string"},
		{"not an integer", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["left_children"] = []any{1.5, -1, -1}
		}), "m.json: trees[0].left_children[0]: want an integer, got 1.5"},
		{"split statistics: length", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["sum_hessian"] = []any{10, 4, 6}
		}), "m.json: trees[1]: left_children has 5 entries, sum_hessian 3"},
		{"split statistics: negative cover", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[1]["sum_hessian"] = []any{10, 4, -6, 3, 3}
		}), "m.json: trees[1].sum_hessian[2]: -6 is not a hessian sum, a finite number >= 0"},
		{"split statistics: infinite gain", bytes.Replace(edit(t, func(_, _ map[string]any, tr []map[string]any) {
			tr[0]["loss_changes"] = []any{"inf", 0, 0}
		}), []byte(`"inf"`), []byte("Infinity"), 1), "m.json: trees[0].loss_changes[0]: +Inf is not a finite number"},
		{"empty tree", edit(t, func(_, _ map[string]any, tr []map[string]any) {
			for _, k := range []string{"left_children", "right_children", "split_indices", "split_conditions", "default_left", "split_type"} {
				tr[0][k] = []any{}
			}
			delete(tr[0], "tree_param")
		}), "m.json: trees[0]: the tree has no nodes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := Decode(c.data, "m.json")
			if err == nil {
				t.Fatalf("no error; model %+v", m)
			}
			if err.Error() != c.want {
				t.Errorf("error\n  %s\nwant\n  %s", err, c.want)
			}
		})
	}
}

// replace returns data with its one occurrence of old replaced by new.
func replace(t *testing.T, data []byte, old, new string) []byte {
	t.Helper()
	if bytes.Count(data, []byte(old)) != 1 {
		t.Fatalf("%q is not in the data once", old)
	}
	return bytes.Replace(data, []byte(old), []byte(new), 1)
}

// TestLoadErrors checks the errors of Load: a missing file, and a bad file
// named in the message.
func TestLoadErrors(t *testing.T) {
	if _, err := Load("testdata/no-such-model.json"); err == nil || !os.IsNotExist(err) {
		t.Errorf("missing file: %v", err)
	}
	path := t.TempDir() + "/model.json"
	if err := os.WriteFile(path, []byte(`{"learner": `), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	if want := path + ": 1:13: invalid JSON: unexpected end of input (truncated file?)"; err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
}
