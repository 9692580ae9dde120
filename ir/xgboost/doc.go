// Package xgboost imports XGBoost models into the IR (package ir), so that
// treegen can interpret them and compile them to Go with the predictions of
// XGBoost itself, bit for bit in float32.
//
//	m, err := xgboost.Load("model.json") // or "model.ubj"
//	m, err = xgboost.LoadWith("model.json", xgboost.Options{AllRounds: true})
//
// # Formats
//
// Load and Decode read the two formats of XGBoost's save_model: JSON (.json)
// and UBJSON (.ubj, XGBoost 2's default), told apart by their content, not
// by the file name: UBJSON's '{' is followed by a type marker ('L', 'i',
// 'U', '#', '$', ...), JSON's by whitespace, '"' or '}'. The JSON parser
// accepts XGBoost's NaN, Infinity and -Infinity literals (XGBoost writes NaN
// as the split condition of a categorical split); the UBJSON parser reads
// draft 12 of ubjson.org, optimized containers included. Malformed JSON is
// reported by line and column, malformed UBJSON by byte offset. XGBoost's
// legacy binary format is refused.
//
// The schemas of XGBoost 1.x, 2.x and 3.x are read: default_left as 0/1
// integers or as booleans; base_score as a number in a string ("5E-1") or as
// a bracketed vector ("[5E-1]", "[1E0,2E0]": one value for every output, or
// one per output); split_type and the categories_* arrays when present; a
// checkpoint's {"Config": ..., "Model": ...} wrapper. loss_changes and
// sum_hessian, when present, become split statistics (see Mapping). Fields
// the conversion does not need (base_weights, parents, attributes other
// than best_iteration, iteration_indptr, ...) are ignored.
//
// # Rounds and early stopping
//
// A boosting round adds num_parallel_tree trees per output (num_class,
// num_target or 1 outputs), output by output, as XGBoost commits them; the
// dart booster likewise. The IR records that round size in TreesPerRound
// when its default (ir.Model.DefaultTreesPerRound: one tree per output and
// round, outputs cycling) would differ, that is for boosted random forests
// (num_parallel_tree > 1); ordinary models leave it out.
// ir.Model.FirstRounds(n) then keeps the trees of
// XGBoost's iteration_range=(0, n). A file whose trees are not a whole
// number of rounds (XGBoost writes none) imports every tree, with the IR's
// default round size.
//
// Early stopping records the best round in learner.attributes.best_iteration
// (a string such as "51", counting rounds from 0). XGBoost's scikit-learn
// interface (predict, predict_proba, apply) then predicts with the first
// best_iteration+1 rounds, its native Booster.predict with all of them. By
// default (Load, Decode) the import keeps the first best_iteration+1
// rounds, as the scikit-learn interface predicts; Options.AllRounds
// (LoadWith, DecodeWith) keeps every tree, as Booster.predict does. Either
// way, when best_iteration leaves rounds out, the provenance records
// best_iteration (as written), rounds_saved (the rounds in the file) and
// rounds_kept; num_trees stays the number of trees in the file. XGBoost 1.x
// writes best_iteration = the last round even without early stopping: that
// changes nothing and is not recorded. A best_iteration that is not an
// integer, is negative or is not less than the number of rounds in the file
// is an error naming attributes.best_iteration, whatever the options.
//
// # Mapping
//
// The model: NumFeatures is learner_model_param.num_feature; FeatureNames
// come from learner.feature_names when it is not empty; aggregation is sum;
// Float32Compare and Float32Sum are set (tests and margins in float32, in
// every working precision). Provenance has producer "xgboost" and the params
// objective, booster, version (when the file has one), base_score (as
// written), num_parallel_tree, num_trees, num_class or num_target when
// there are several outputs, and best_iteration, rounds_saved and
// rounds_kept when early stopping left rounds out (see above).
//
// Objectives (learner.objective.name):
//
//	binary:logistic                      binary, sigmoid; base margin -logf(1/b - 1)
//	binary:logitraw                      binary, identity; base margin b
//	reg:logistic                         regression, sigmoid; base margin -logf(1/b - 1)
//	reg:squarederror, reg:linear,
//	reg:squaredlogerror,
//	reg:pseudohubererror,
//	reg:absoluteerror, reg:quantileerror regression, identity; base margin b
//	count:poisson, reg:gamma,
//	reg:tweedie, survival:cox,
//	survival:aft                         regression, exp; base margin logf(b)
//	multi:softmax, multi:softprob        multiclass (num_class outputs), softmax; base margin b
//	rank:pairwise, rank:ndcg, rank:map   regression, identity; base margin b
//
// reg:logistic regresses a value in [0, 1]: its predictions are not class
// scores, so it is a regression with a sigmoid link, without classes. A
// binary model has classes "0" and "1", a multiclass model "0" .. "K-1".
// With num_target > 1 (XGBoost 2's one_output_per_tree) the task is
// multi_output with num_target outputs. binary:hinge is refused (its
// prediction is a step of the margin), and so is an unknown objective, with
// the list of the known ones.
//
// The base margin. XGBoost starts every margin at ProbToMargin(base_score),
// computed in float32 and stored as a float32, and adds each tree's leaf to
// it in float32, in tree order. BaseScore is that float32 margin, widened to
// float64 exactly. For the log-odds and the log, XGBoost calls logf: glibc's,
// on Linux, which is not always correctly rounded (it differs from
// float32(math.Log(x)) for about one float32 in 5,000), so logf here
// reproduces its algorithm and the base margins agree bit for bit (tested
// on 3,440 values of base_score against XGBoost 1.7.4; other C libraries may
// differ in the last bit for some values). base_score must be in (0, 1) for
// the logistic objectives and > 0 for the exp-link ones, as XGBoost 1.7
// checks. Recent XGBoost sources compute the logistic base margin with
// another float32 expression: for their files it may differ in the last bit.
//
// Trees. Tree i writes output tree_info[i]; XGBoost's trees of one round
// (num_parallel_tree of them per output, for boosted random forests) are
// summed like all others, which is how XGBoost combines them. A node is a
// leaf when left_children[i] == -1; its value is split_conditions[i]. Nodes
// are renumbered in pre-order (parent, left subtree, right subtree), so that
// every child comes after its parent; nodes that no path from the root
// reaches (XGBoost's deleted nodes) are left out. So IR node indices are
// not XGBoost's node ids (those of pred_leaf=True and apply), which XGBoost
// allocates level by level: the IR index of a node is its position in a
// pre-order walk of the XGBoost tree from node 0 (left child first), and
// the two differ as soon as a tree is two levels deep. runtime's
// PredictLeaves gives IR indices; to compare with pred_leaf, map them
// through that walk (the tests do, on models trained with early stopping).
// Categorical splits that hold category 0 add guard nodes and copies (below),
// shifting the indices further. A numerical split
// (split_type 0) becomes an "axis" node on split_indices[i] with the
// threshold split_conditions[i]: left iff value < threshold, both rounded to
// float32, as XGBoost compares; a missing value goes left iff default_left.
// Thresholds and leaf values are float32 in XGBoost and are stored exactly.
//
// Split statistics. Every split node gets Gain = loss_changes[i] (XGBoost's
// loss_chg: G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ), without ½ and γ) and
// Cover = sum_hessian[i] (the hessian sum of the training rows that
// reached it), widened from float32 exactly, when the file has those arrays
// (XGBoost writes both); they must have an entry per node, finite, the
// hessian sums >= 0. A model with them is IR format 1.3. For a categorical
// split with a guard (below) they go to the categorical node, and the
// copied subtree carries none, so that package ir/importance counts every
// XGBoost split once and gives Booster.get_score's numbers (tested on every
// model of testdata/models against XGBoost 1.7.4).
//
// Categorical splits (split_type 1). XGBoost 1.7 and later send the
// categories listed for the node right, and every other value left: the
// categories not listed and the invalid ones, negative or >= 2^24; a missing
// value follows default_left. The IR's "categorical" node sends its
// Categories left, so the import lists the same categories (sorted, without
// those >= 2^24, which never match) and swaps the children and the default
// direction. The two rules differ on one range, v in (-1, 0) when the set
// holds 0: the IR truncates v to 0, XGBoost calls it invalid. Such a split
// is preceded by an "axis" node "v < 0" (default direction XGBoost's) whose
// left child is a copy of the subtree XGBoost's invalid categories reach, so
// a converted tree can be larger than the original (at most 64 times, or an
// error). XGBoost before 1.7 sent invalid categories to the default child:
// categorical splits in files of those versions are refused.
//
// Dart. The dart booster scales tree i by weight_drop[i] when it predicts:
// margin += float32(leaf * w) in float32. The import stores each leaf as
// that float32 product, which gives the same sums bit for bit.
//
// # Refused
//
// The gblinear booster ("gblinear models are not tree models"), vector
// leaves (size_leaf_vector > 1, XGBoost 2's multi_output_tree), binary:hinge
// and unknown objectives, and any inconsistency, each with an error that
// names the file and the culprit's path: arrays of different lengths
// ("trees[3]: left_children has 7 entries, split_conditions 5"), children
// out of range, cycles, nodes with two parents, trees deeper than
// ir.MaxDepth, feature indices >= num_feature, non-finite thresholds or
// leaves, tree_info naming an output the model does not have, and so on.
// The converted model is validated (ir.Model.Validate) before it is returned.
//
// docs/XGBOOST.md tells how the tests prove parity with XGBoost.
package xgboost
