// Package lightgbm converts LightGBM text models (the files written by
// Booster.save_model and by the CLI's output_model) into treegen IR models.
//
//	m, err := lightgbm.Load("model.txt")
//
// The converted model predicts what LightGBM's tree decision functions
// (Tree::NumericalDecision, Tree::CategoricalDecision) and its prediction
// loop compute on the same input row, bit for bit for the raw scores; the
// rules below say how, and which models are refused. docs/LIGHTGBM.md says
// the same with examples.
//
// # File
//
// The first line is "tree"; the header holds version= (v2, v3 or v4 are
// read; the tree layout is the same), num_class=, num_tree_per_iteration=
// (default num_class), max_feature_idx=, feature_names= (max_feature_idx+1
// names), feature_infos= (checked for its count), objective= (absent for a
// custom objective), tree_sizes= (checked for its count: blocks are read in
// order, not located by their byte sizes) and average_output for random
// forests. Then come the blocks "Tree=0", "Tree=1", ... in order, then the
// line "end of trees"; whatever follows (feature importances, parameters,
// pandas_categorical) is ignored. A file without "end of trees" is
// truncated and refused.
//
// In a tree block, internal nodes are 0..num_leaves-2 and a child c < 0 is
// leaf -c-1. Every array must have its size: num_leaves-1 entries for
// split_feature, split_gain, threshold, decision_type, left_child,
// right_child, internal_value, internal_weight and internal_count;
// num_leaves for leaf_value, leaf_weight and leaf_count; num_cat+1 for
// cat_boundaries, and as many cat_threshold words as its last boundary.
// Node 0 is the root; a child out of range, a link back to an ancestor, a
// node or leaf linked twice, and nodes the root does not reach are errors. A
// tree with num_leaves=1 is a single leaf (LightGBM writes its split arrays
// empty). decision_type holds bit 0 (categorical), bit 1 (default left) and
// the missing type in bits 2-3 (0 None, 1 Zero, 2 NaN); other values are
// refused. Numbers are parsed exactly (LightGBM writes 17 significant
// digits). Errors are *Error values naming the file and line.
//
// The IR nodes are renumbered into canonical order: each node, then its left
// subtree, then its right subtree.
//
// Split statistics: split_gain (LightGBM's gain of the split, the loss
// reduction G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ) less min_gain_to_split)
// becomes ir.Node.Gain and internal_weight (the hessian sum of the node's
// training rows) ir.Node.Cover, when the tree has them (split_gain must be
// finite, internal_weight finite and >= 0); the model is then IR format
// 1.3. A split that takes three IR nodes (Zero, below) has them on the
// first, and the copies of its subtrees carry none: every LightGBM split
// has its statistics once, and ir/importance's weight and total_gain are
// LightGBM's feature_importance("split") and ("gain").
//
// # Numerical splits
//
// LightGBM goes left iff x <= threshold, so every split becomes an IR "axis"
// node with LessEqual. The missing type decides NaN (and, for Zero, values
// near 0), with z = kZeroThreshold = float64(float32(1e-35)) =
// 1.0000000180025095e-35, the float constant 1e-35f that LightGBM compares
// with in double:
//
//   - None: NaN is replaced by 0 before the test, so DefaultLeft = (0 <= t);
//     the default-left bit is ignored, as LightGBM does.
//   - NaN: NaN goes to the default side: DefaultLeft = bit 1.
//   - Zero: NaN and every x with -z <= x <= z go to the default side; other
//     values go left iff x <= t. Where the band [-z, z] falls on the default
//     side anyway, one node is exact: default left with t >= z is "x <= t";
//     default left with -z <= t < z is "x <= z"; default right with t < -z
//     is "x <= t"; default right with -z <= t <= z is "x < -z". Otherwise
//     (default left with t < -z, default right with t > z) the regions
//     alternate left, right, left, right along the axis and take three
//     nodes on the same feature — "x <= t", "x < -z", "x <= z" — and the
//     two subtrees are each copied once (the IR is a tree, not a graph).
//     Sizes and depths are computed before anything is built: a tree that
//     would exceed 2^20 IR nodes or depth ir.MaxDepth, or a model whose
//     copies add more than 2^20 nodes, is refused.
//
// Thresholds must be finite.
//
// # Categorical splits
//
// With bit 0 set, the threshold is an index k into cat_boundaries and the
// category set is the bitset cat_threshold[cat_boundaries[k] :
// cat_boundaries[k+1]], bit c%32 of word c/32 standing for category c.
// LightGBM (since 3.3.0) sends NaN right whatever the missing type, then
// casts x to int and sends negative values right and the others left iff
// in the set. This becomes an IR "categorical" node with DefaultLeft false,
// whose rule (left iff -1 < x < 2^31 and trunc(x) is in the set) agrees on
// every value: NaN right; x <= -1 and -Inf right; -1 < x < 0 and -0 are
// category 0 in both; 0 <= x < 2^31 is trunc(x); x >= 2^31 and +Inf, which
// overflow the int cast, go right in the IR as in LightGBM on x86-64 (the
// cast gives INT_MIN there). A tree with categorical nodes must have
// num_cat > 0 (LightGBM would otherwise evaluate them as numerical splits).
//
// # Leaves, objectives and outputs
//
// Leaf values already include the learning rate (LightGBM multiplies them
// when the tree is made; "shrinkage=" is informational) and the initial
// score (boost_from_average adds it to the first iteration's trees), so the
// IR has no base score. Tree i writes output i mod num_tree_per_iteration;
// outputs are summed in tree order in float64, starting from 0, as LightGBM
// does; with average_output the aggregation is "mean" (LightGBM divides by
// the number of iterations). The number of trees must be a whole number of
// iterations. Linear trees (is_linear=1) are refused. An iteration is a
// boosting round of num_tree_per_iteration trees: the IR's default round
// size says so for summed models, and a random forest with several outputs
// records it in TreesPerRound, so that ir.Model.FirstRounds(n) keeps what
// LightGBM's num_iteration=n predicts with (with average_output, the mean
// over the n iterations kept, as LightGBM divides).
//
// Leaf indices. The IR nodes are renumbered into pre-order and Zero-missing
// splits copy subtrees, so the IR leaf index that runtime's PredictLeaves
// gives is not LightGBM's pred_leaf number: LightGBM numbers the leaves of
// a tree 0..num_leaves-1 (child c < 0 is leaf -c-1), the IR indexes nodes,
// and a copied LightGBM leaf has several IR nodes. The IR leaf holds the
// LightGBM leaf's value (times the sigmoid parameter, when it is not 1); no
// mapping between the two numberings is provided.
//
// The first token of objective= decides the task and link:
//
//	regression, regression_l1, huber, fair,    regression, identity
//	  quantile, mape, lambdarank, rank_xendcg
//	poisson, gamma, tweedie                    regression, exp
//	cross_entropy                              regression, sigmoid
//	binary sigmoid:s                           binary, sigmoid, classes "0" "1"
//	multiclass num_class:K                     multiclass, softmax, classes "0".."K-1"
//	multiclassova num_class:K sigmoid:s        multiclass, sigmoid per class
//	custom, or no objective line               regression (multi_output if K > 1), identity
//
// LightGBM's sigmoid is 1/(1+exp(-s·m)). For s != 1 every leaf value is
// multiplied by s, so the IR margin is s times LightGBM's raw score and the
// IR sigmoid computes the same probability. The sum of scaled leaves equals
// s times the sum exactly when s is a power of two; otherwise it may differ
// in the last bits (a few ulp per tree). num_class and
// num_tree_per_iteration must be 1 for single-output objectives and K for
// the multiclass ones. Refused: the sqrt label transform of the regression
// objectives ("regression sqrt": LightGBM returns sign(m)·m²),
// cross_entropy_lambda (log(1+exp(m))), and unknown objectives.
//
// FeatureNames come from feature_names; Provenance records producer
// "lightgbm", the format version, the objective line and average_output.
//
// # Not exact
//
// LightGBM's dense-matrix prediction API (numpy, pandas) and its text-file
// parsers drop every value with |x| <= z before the trees see it, so it
// reaches them as 0; the IR follows the tree functions on the value itself.
// The two differ only at None and NaN splits with a threshold in [-z, z)
// for inputs in [-z, z] on the other side of it from 0 (for example t = -z
// and x = -z). Also: sigmoid parameters that are not powers of two (above);
// with average_output, a mean that underflows to -0 comes out +0; and
// LightGBM builds for other processors than x86-64 may cast x >= 2^31 to
// INT_MAX, which matters only for a category set reaching 2^31-1.
package lightgbm
