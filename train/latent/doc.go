// Package latent trains latent binary trees by sparse relaxation: the
// method of Zantedeschi, Kusner and Niculae, "Learning Binary Decision
// Trees by Argmin Differentiation" (arXiv v1, "Learning Binary Trees via
// Sparse Relaxation"), with one pruning preference η_t per node and
// problem (3) of that version.
//
// A latent tree is a complete binary tree of depth D whose branching
// nodes split on s_θ(x) = wᵀx' + b (optionally followed by elu) over the
// standardised inputs x'. A row's reward at node t, q_t (Eq. 1), is the
// least of the signed margins on the path from the root to t (-s on a
// left edge, s on a right one; +Inf at the root), so it is positive on
// the one path the row follows and negative elsewhere. The tree program
// (3) turns the rewards of a minibatch and the preferences η into node
// activities a ∈ [0, 1] with a_t ≤ a_p(t) and per-row traversals
// z_t = clip(q_t, 0, a_t). It is solved exactly by Algorithm 1, the
// tree-structured pool-adjacent-violators algorithm, with Proposition 2's
// closed form for every group, and differentiated in closed form
// (package train/latent/isotonic). A linear read-out over [x', z] is the
// prediction, and the objective (Eq. 13) is its mean loss plus λ‖η‖∞,
// minimised over the splits θ, the preferences η and the read-out φ by
// quasi-hyperbolic Adam (the paper's choice) or Adam, with the learning
// rate divided by 10 after 2 epochs without a lower validation loss (the
// paper's schedule) and early stopping on the validation loss.
//
// The losses are the mean squared error (regression; several columns at
// once with Options.Regress, the paper's self-supervised hierarchical
// clustering), the binary cross-entropy (binary classification) and, as
// an extension the paper does not have, the softmax cross-entropy
// (multiclass).
//
// # Deployment
//
// During training a node's activity depends on the minibatch. At the end
// the activities are frozen over the whole training set: a*_t is the mean
// of a_t over the training set cut into minibatches of the training size,
// in row order, weighted by rows. So a prediction depends on its row only,
// a node pruned (a* = 0) in every minibatch stays pruned, and the means
// keep a*_t ≤ a*_p(t). A node is pruned when no row reaches it or when
// its η is low enough (a_t = 0 once η_t ≤ -Σ_i max(q_it, 0)); its
// subtree then has z = 0 for every row and is left out of the model.
//
// Tree.Model exports an ir.Model: one latent tree (ir.Tree.Latent) of
// oblique nodes with their activities, the elu activation for LinearElu
// splits, the standardisation as the model's Preprocess, and the read-out
// (ir.Readout) over [x', z], folded into the target's units for
// regression. The interpreter and the ifelse backend compute it; a
// missing input makes a margin NaN, which sends the row to the child more
// training rows took.
//
// # Where this differs from the paper
//
//   - The paper runs the tree program on minibatches and does not say how
//     a deployed tree gets its activities; the freezing above is ours.
//   - The root's reward is +Inf (Eq. 1's minimum over no ancestor), so its
//     activity is always 1 and z_root = 1 for every row: a constant column
//     of the read-out.
//   - The paper tunes D, λ, the read-out (linear or an MLP) and the split
//     function with 100 trials of a Bayesian optimiser. Only the linear
//     read-out is implemented: an MLP read-out would not be a model the IR
//     holds.
//
// # Determinism
//
// The initial parameters and the order of the rows come from Options.Seed.
// The passes over a minibatch run on Options.Threads goroutines over fixed
// units of rows whose gradients are summed in order, so the model is
// byte-identical for any number of threads.
package latent
