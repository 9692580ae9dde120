// Package cart trains a single decision tree by the CART algorithm of
// Breiman et al. (1984), in the form scikit-learn's DecisionTreeClassifier
// and DecisionTreeRegressor made familiar, and returns it as an [ir.Model].
//
//	d, err := data.ReadFile("iris.tsv.gz", data.Options{RequireTarget: true})
//	...
//	m, err := cart.Train(d, cart.Options{Criterion: cart.Gini, MaxDepth: 8})
//	...
//	err = ir.Save("iris.json", m)
//
// # Algorithm
//
// The tree grows depth first. At each node every feature is searched
// exhaustively: every boundary between two consecutive distinct values of the
// node's rows is a candidate, and the candidate with the best impurity
// decrease wins. Each feature is sorted once, at the root, by a stable radix
// sort on the bits of the values (at most eight passes over the N rows, and
// fewer for values that share bytes); a split then partitions every
// feature's sorted row list stably into the two children, so a node of n
// rows costs O(P·n) for P features and each level of the tree O(P·N).
//
// A node becomes a leaf when it is at the maximum depth, has fewer than
// [Options].MinSamplesSplit rows or fewer than twice
// [Options].MinSamplesLeaf, is pure (one class; or one target value in
// regression), has no candidate split that leaves MinSamplesLeaf rows on each
// side, or when the best split decreases the impurity by less than
// [Options].MinImpurityDecrease. As in scikit-learn, a split that does not
// decrease the impurity at all is still made when it is the best one and
// MinImpurityDecrease is 0.
//
// # Criteria
//
// [Gini] and [Entropy] (in bits) for classification, [MSE] (the variance of
// the target) for regression. A candidate split is scored by the impurity of
// its children weighted by their row counts, n_L·I(L) + n_R·I(R); only the
// scores' order matters, so Gini is computed exactly from integer counts as
// Σc²/n per child, entropy as Σ c·ln c − n·ln n, and MSE as s²/n for the
// target sum s of each child. MinImpurityDecrease compares with
// scikit-learn's weighted decrease
//
//	N_t/N · (I(t) − N_tR/N_t·I(R) − N_tL/N_t·I(L))
//
// where N is the number of training rows and N_t, N_tL, N_tR the rows of the
// node and of its children (missing values included). As in scikit-learn, the
// split is made unless the decrease plus the float64 machine epsilon is below
// MinImpurityDecrease.
//
// # Thresholds and the canonical test
//
// The threshold between consecutive distinct values a < b is their midpoint
// a/2 + b/2, as in scikit-learn. scikit-learn tests x <= threshold; the IR
// tests x < Threshold. For a midpoint strictly between a and b the two tests
// agree on every training row (no training value lies between a and b), so
// the node gets Threshold = midpoint and LessEqual = false. When the midpoint
// rounds to a or to b (a and b adjacent float64 values), the node gets
// Threshold = a and LessEqual = true, so that a goes left and b right. An
// infinite value is an ordinary value: between a = -Inf and a finite b the
// test is x < b, between a finite a and b = +Inf it is x <= a, and between
// -Inf and +Inf it is x < 0. In every case each training row takes the branch
// the split search assigned it to, and Train checks that it does.
//
// # Missing values
//
// NaN is a missing value. A row whose value of feature f is missing is left
// out of f's sorted list but counts in its node (for the class counts, the
// leaf values and MinSamplesLeaf). For each candidate threshold of f, the
// search tries sending the node's rows that miss f to the left child and to
// the right child, and keeps the better; the direction is stored as the
// node's DefaultLeft. It also tries the split "f present" against
// "f missing". When the node's rows have no missing value of the chosen
// feature, missing values at prediction time go to the child that received
// more training rows (the left one on a tie).
//
// # Ties
//
// Among equally good candidates the search keeps the first one found:
// features are visited in increasing index, thresholds in increasing value,
// and for each threshold missing-to-the-right before missing-to-the-left.
// (scikit-learn visits the features in a random permutation drawn from its
// random_state and keeps the first one found in that order; this is the main
// reason its trees and ours may differ on data with many ties.)
//
// # The model
//
// A classification tree has task "binary" (two classes: one output, the
// fraction of the leaf's training rows in the second class, tree output 0)
// or "multiclass" (C ≥ 3 classes: C outputs, leaves holding the class
// fractions, tree output -1). The class labels, sorted ascending, are the
// model's ClassNames, named by data.Dataset.LabelName: the text labels of a
// target column of text (which data.Read sorts in byte order), else the
// values formatted with strconv.FormatFloat(v, 'g', -1, 64). A regression
// tree has task "regression" and leaves holding the mean target of their
// training rows; a target of text labels cannot be one. The link is identity and the aggregation sum. Nodes
// are numbered in pre-order (a node, its whole left subtree, then its right
// subtree). The provenance records the producer ("treegen train cart"),
// every option (defaults filled in) and the data: the base name of its
// file, its rows and features, and the SHA-256 of the IEEE 754 bits of X
// then Y, each value as 8 little-endian bytes, then of the text labels if
// there are any (data.Dataset.Fingerprint). Training is deterministic:
// the same data and options give byte-identical ir.Marshal output.
package cart
