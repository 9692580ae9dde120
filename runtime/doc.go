// Package runtime is treegen's interpreter: it loads an ir.Model into flat
// arrays and predicts with it, implementing every kind of model the IR can
// express (hard axis-aligned and oblique trees, soft smooth-step trees with
// the conditional traversal of the TEL paper, constant and softmax leaves,
// latent trees with a linear read-out) exactly as ir/doc.go defines it.
//
// It is the executable definition of the IR: every code generator is tested
// for bit-for-bit equality against it. It is also the "interpreted" side of
// every speed comparison, so it is built for speed: trees made only of
// axis-aligned splits and constant leaves (CART, gradient boosting, XGBoost
// and LightGBM imports) run on a compact node layout with "<=" tests and
// float32 comparisons folded into the thresholds at load time, and no
// prediction allocates. Such a tree that pads cheaply into a perfect tree
// (at most 12 deep, at most four times its leaves) is stored padded, in heap
// order, as 8- or 16-byte splits without child pointers; the others keep
// explicit children. Predict walks four trees at once without
// data-dependent branches; PredictBatch scores blocks of 64 rows tree by
// tree, moving every row of the block one level down a tree at a time, so
// that each tree is read from memory once per block.
//
// PredictLeaves gives, for each tree, the index in ir.Tree.Nodes of the leaf
// a row reaches, routed by the same code as prediction (like XGBoost's and
// LightGBM's pred_leaf); it needs trees that send a row to one leaf (no soft
// node with γ > 0, no latent tree: HardTrees). The indices are the IR's.
// The importers renumber nodes into canonical pre-order, so they are not the
// libraries' own numbers: XGBoost's pred_leaf gives the node id in its
// arrays (left_children, ...), and the IR index of a node is its position in
// a pre-order walk of the reachable nodes, which differs from it as soon as
// a tree is two levels deep (ir/xgboost's documentation tells how to map
// them); LightGBM's pred_leaf numbers the leaves 0..num_leaves-1 (leaf -c-1
// for a child c < 0), not nodes at all, and its importer may copy subtrees
// (missing type Zero), so several IR leaves can stand for one LightGBM leaf.
//
// A Predictor is generic over the working precision F (float32 or float64);
// a float32 Predictor computes exactly what float32 generated code computes.
// Predictors are safe for concurrent use.
package runtime
