// Package ir defines treegen's intermediate representation of tree models:
// the one contract between the producers of models (trainers in train/...,
// importers in ir/xgboost and ir/lightgbm) and their consumers (the
// interpreter in runtime/ and the backends in codegen/...).
//
// A model is a JSON document (Marshal, Decode, Load, Save) with a
// "format_version" of the form MAJOR.MINOR. Decoding is strict: unknown
// fields and values of the wrong type are errors naming their JSON path, and
// malformed JSON is reported with line and column. Validate checks every rule
// below and names the JSON path of the first culprit.
//
// # Format versions
//
// A reader reads every file of its major version whose fields it knows: a
// file of a newer minor version is read unless it uses a field added since
// (then it is refused as an unknown field). So that files stay readable by
// the oldest reader that can represent them, the writer (Marshal, Save, and
// Hash, which hashes what Marshal writes) stamps the lowest version that can
// represent the model, Model.MinFormatVersion, whatever the model's
// FormatVersion field holds; producers need not choose (they set
// FormatVersion, "1.0"). The versions:
//
//	1.0  the base format
//	1.1  adds "trees_per_round" (Model.TreesPerRound)
//	1.2  adds a tree's "activation" (Tree.Activation, latent trees)
//	1.3  adds a split node's "gain" and "cover" (Node.Gain, Node.Cover)
//
// A model that leaves trees_per_round out is written as 1.0, byte for byte
// as before 1.1 existed, with the same Hash; likewise a model without split
// statistics is written byte for byte as before 1.3. Decode refuses a file
// that uses a field its stated version predates ("trees_per_round" in a 1.0
// file, a tree's "activation" in a 1.1 file, a node's "gain" or "cover" in
// a 1.2 file): that file would be refused by the readers it claims to suit.
//
// # Split statistics
//
// A split node may carry two numbers recorded by its producer, for feature
// importance (package ir/importance) and inspection: "gain", the loss
// reduction of the split in the producer's units (XGBoost's loss_chg, the
// bracket G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ); LightGBM's split_gain;
// train/gbdt records XGBoost's definition), and "cover", the hessian sum of
// the training rows that reached the node (XGBoost's sum_hessian,
// LightGBM's internal_weight; the row count for squared error). Both are
// optional and 0 when absent (Node.HasStats); Validate accepts them on split
// nodes only, finite, with cover >= 0. They are metadata: no prediction
// depends on them, and the interpreter and the backends never read them.
// An importer that turns one split of its library into several IR nodes
// (a guard, copies of a subtree) puts the statistics on one node, the one
// that stands for the split, so that every split of the source is counted
// once.
//
// # Boosting rounds
//
// A boosting round adds TreesPerRound trees to the ensemble (the non-latent
// trees, in order, are Rounds() rounds of RoundSize() trees each): one per
// output in multiclass boosting (XGBoost's num_class × num_parallel_tree,
// ordered output by output; LightGBM's num_tree_per_iteration), one in
// single-output boosting, num_parallel_tree in XGBoost's boosted random
// forests. The trees alone do not always tell (an XGBoost forest of one
// output looks like boosting), so the field records it; 0, the default,
// means DefaultTreesPerRound: NumOutputs when the aggregation is sum, there
// are several outputs, and the i-th non-latent tree writes output i mod
// NumOutputs (whole cycles only), as in multiclass boosting with one tree per
// class; otherwise 1. Validate requires TreesPerRound >= 0 and the number of
// non-latent trees to be a multiple of it. Model.FirstRounds(n) keeps the
// first n rounds, as XGBoost's iteration_range=(0, n) and LightGBM's
// num_iteration=n predict. The round size affects no prediction.
//
// # Semantics
//
// This section is the definition that the interpreter implements and that
// every backend is tested against, bit for bit. "F" is the working precision
// (float64, or float32 for float32 interpreters and generated code); every
// stored number is converted to F once, and every arithmetic operation below
// is one rounded F operation: there is no fused multiply-add (implementations
// in Go write float64(a*b)+c, which forbids fusion).
//
// Input. A row x has NumFeatures values. NaN is a missing value; ±Inf are
// ordinary values. With Preprocess, every feature is first mapped to
// x'[j] = (x[j] - Shift[j]) * Scale[j] (NaN stays NaN); without it x' = x.
// Everything below reads x'.
//
// Dot products. The margin of an oblique, soft or softmax-row vector with
// sparse weights (Indices, Weights) and bias b is accumulated left to right,
// starting from the bias:
//
//	m = b;  for i in order: m = m + w[i]*x'[Indices[i]]
//
// Hard tests. An "axis" node sends the row left iff x'[Feature] < Threshold
// ("<=" when LessEqual). With Float32Compare, both sides are first rounded to
// float32 (XGBoost's rule). An "oblique" node sends the row left iff m < 0
// ("<=" when LessEqual). A NaN feature value, or a NaN margin (a NaN feature,
// or Inf-Inf), goes to the left child iff DefaultLeft, otherwise right.
//
// Categorical tests. A "categorical" node reads v = x'[Feature] (rounded to
// float32 first with Float32Compare) and sends the row left iff
// -1 < v < 2^31 and trunc(v), v truncated toward zero, is one of Categories;
// every other value, negative or too large, goes right; NaN goes left iff
// DefaultLeft. (LightGBM and XGBoost cast the value to an int the same way.)
//
// Soft tests. A "soft" node sends the row left with probability
// p = S_γ(m) and right with 1-p, where S is the smooth-step of the TEL paper:
//
//	S(t) = 0 for t <= -γ/2;  1 for t >= γ/2;
//	otherwise, with u = t/γ:  S(t) = u*(1.5 - 2*u*u) + 0.5   (= -2t³/γ³ + 3t/(2γ) + 1/2)
//
// γ = 0 gives a hard split (left iff m > 0). A NaN margin gives p = 1 if
// DefaultLeft, else 0. Note the direction: a soft node goes left for large
// margins, a hard oblique node for negative ones; a soft node with γ = 0 and
// weights (w, b) equals a hard oblique node with (-w, -b) and "<".
//
// Tree value. Traversal starts at the root. A hard node passes the row to one
// child. A tree with soft nodes visits its children depth first, left before
// right, carrying the path probability P (1 at the root; P·p to the left
// child, P·(1-p) to the right, multiplied in root-to-leaf order), and skips a
// child whose probability is exactly 0 (the conditional computation of the
// TEL paper). The tree's value is the sum, in that visiting order, of P·v over
// the leaves reached, where v is the leaf's value; for hard trees it is the
// value of the single leaf reached. In each sum the first term is added to 0.
//
// Leaves. A "leaf" holds one value (its tree writes the single output
// Tree.Output) or NumOutputs values (Tree.Output == AllOutputs). A "softmax"
// leaf, in an AllOutputs tree, computes for its classes c_j (increasing) the
// margins z_j of its sparse rows (bias first, as above), then
//
//	mx = max_j z_j;  e_j = exp(z_j - mx);  s = e_1 + e_2 + ...;  value[c_j] = e_j / F(s)
//
// and 0 for every class outside the subset. The sum s is accumulated in
// float64 whatever F, left to right, and rounded to F once, before the
// divisions (XGBoost's float32 softmax does exactly this; in float64 it is
// the plain sum, in float32 it is more accurate than a float32 sum). A NaN
// margin makes the values of the leaf's classes NaN; the other classes stay
// 0.
//
// Exponential. exp is never math.Exp, whose last bit differs between
// architectures, but a function that gives the same bits on every
// architecture. In float64 it is the portable exponential of
// internal/fmath (fdlibm's algorithm with every product rounded). In
// float32 it is fmath.Expf, the algorithm of the C library's expf (glibc's,
// on Linux, whose bits XGBoost's float32 links return): x·32/ln 2 = k + r,
// 2^(k/32) from a table and 2^(r/32) from a cubic, in float64 with its fused
// multiply-adds, rounded to float32 once. It is within 0.502 units in the
// last place of e**x but not always the correctly rounded value: rounding
// the float64 exp to float32 instead, as accurate, would differ from it on
// some 170,000 float32 inputs, and from XGBoost's probabilities in
// thousands of cells of a multiclass model.
//
// Aggregation. For output k, with base b_k (BaseScore, or 0):
//
//	sum:  a_k = b_k; then, for each tree in order that writes k: a_k = a_k + t_k
//	mean: s_k = 0;   then s_k = s_k + t_k for each such tree;  a_k = b_k + s_k/n_k
//
// where n_k >= 1 is the number of (non-latent) trees writing output k.
//
// With Float32Sum the margins are float32 numbers whatever F (XGBoost's
// rule): b_k is rounded to float32, and every addition above, a_k + t_k or
// s_k + t_k, as well as b_k + s_k/n_k, is done in float32, the tree value t_k
// being rounded to float32 first (and likewise r_k of the read-out below). A
// float64 predictor holds these float32 values exactly and applies the link
// in float64.
//
// Latent trees (Tree.Latent). Their splits are hard ("axis" or "oblique");
// each node t has an activity a_t in [0, 1] (frozen at the end of training)
// and no leaf values. For the split margin s of a node (m for oblique,
// x'[Feature] - Threshold for axis, in F), the signed margin towards its left
// child is -s and towards its right child s; q_t is the minimum of the signed
// margins on the path from the root to t (+Inf at the root), and
// z_t = min(max(q_t, 0), a_t). A NaN margin gives +Inf towards the default
// child and -Inf towards the other. A tree with Activation "elu" replaces
// every split margin s by elu(s) before signing it: s if s > 0, else e - 1
// in F with e = exp(s) in F as above; a NaN margin stays NaN. The model's Readout then adds, to each margin a_k after aggregation, r_k = Bias[k] + sum_j Weights[k][j]*u[j]
// accumulated left to right from the bias, over u = [x', z] with z the
// concatenation over latent trees (in order) of z_t over each tree's nodes (in
// index order).
//
// Link. The prediction is link(a): identity; sigmoid 1/(1+exp(-a_k)) per
// output; exp(a_k) per output; softmax exp(a_k-mx)/F(s) with mx and s as
// for softmax leaves (s summed in float64). exp is as above. In float32
// these are, bit for bit, XGBoost's float32 transforms on Linux
// (1.0f/(1.0f+expf(-m)), expf(m), common::Softmax).
//
// Classes. A binary model's single output scores ClassNames[1]: the
// predicted class is 1 iff the prediction (after the link) is > 0.5. A
// multiclass model predicts the index of the largest prediction, the first
// on ties.
//
// # Canonical form
//
// Node 0 is the root; every child has a higher index than its parent, every
// node except the root has exactly one parent, and every node is reachable.
// Producers whose libraries use other conventions ("<=" thresholds,
// probability of going right, 1-based classes) translate them into this form
// and document the translation.
package ir
