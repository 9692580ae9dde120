// Package tel trains a tree ensemble layer (TEL: Hazimeh, Ponomareva, Mol,
// Tan and Mazumder, "The Tree Ensemble Layer: Differentiability meets
// Conditional Computation", ICML 2020) and returns it as an [ir.Model] of
// soft trees.
//
//	d, err := data.ReadFile("twonorm.tsv.gz", data.Options{RequireTarget: true})
//	...
//	opts := tel.DefaultOptions(tel.Logistic)
//	opts.Gamma = 0.5
//	m, err := tel.Train(d, nil, opts)
//	...
//	err = ir.Save("twonorm.json", m)
//
// # Model
//
// The ensemble is m perfect binary trees of depth d (Options.Trees,
// Options.Depth). Internal node i holds a weight vector w_i over the p
// standardised features (and, with Options.Bias, a bias b_i) and sends a
// row x' left with probability S(<w_i, x'> + b_i), right with 1 - S; leaf
// l holds a vector o_l of k values. A tree's value is the expectation
// T(x') = Σ_l P(x'→l)·o_l, where P(x'→l) is the product of the routing
// probabilities on the path to l, and the model's margins are
//
//	margin = base + T_1(x') + ... + T_m(x')
//
// followed by the link. S is the smooth-step of width γ (Options.Gamma):
//
//	S(t) = 0 for t <= -γ/2;  1 for t >= γ/2;  else, with u = t/γ, u·(1.5 - 2u²) + 0.5
//
// which is exactly 0 or 1 outside [-γ/2, γ/2], so that a row reaches only
// some of the leaves: the conditional computation this package exploits.
//
// The inputs are standardised with the mean and standard deviation of
// every feature over the training rows, x' = (x - mean)/sd (a constant
// feature gets scale 1); this plays the part of the batch normalisation
// that precedes the layer in the paper, and becomes the model's Preprocess.
//
// # Losses
//
//   - Logistic: two classes (the larger target value is the positive one),
//     k = 1, log-loss of sigmoid(margin); task binary, sigmoid link.
//   - Softmax: C >= 2 classes, k = C, cross-entropy of softmax(margin);
//     task multiclass, softmax link.
//   - SquaredError: k = 1, (T(x') - y')²/2 where y' is the target
//     standardised with its training mean and standard deviation (so that
//     the learning rate means the same whatever the target's scale); task
//     regression, identity link. The model's margin is mean + sd·Σ_j T_j:
//     the exported leaves are multiplied by sd and the base score is the
//     mean.
//
// The classes are the distinct target values in ascending order; the
// model's ClassNames are their data.Dataset.LabelName: the text labels of a
// target column of text, else strconv.FormatFloat(v, 'g', -1, 64) of the
// values. A validation set's rows are matched to the classes by that name,
// so a validation file read on its own, whose text labels index another
// list, maps correctly. SquaredError refuses a target of text labels. The
// base score, which is not trained, is the constant model of least loss:
// the log-odds of the positive class (Logistic), the log-priors of the
// classes (Softmax), the target mean (SquaredError). The reference
// implementation has no base score; it spares the trees from learning the
// class balance.
//
// # Training
//
// W and O start uniform in (-0.01, 0.01), as in the reference
// implementation (biases at 0), drawn from one math/rand/v2 PCG generator
// seeded with (Seed, Seed ^ 0x9e3779b97f4a7c15), which then shuffles the
// rows at the start of every epoch. Every minibatch of Options.BatchSize
// rows (the last one of an epoch may be smaller) takes one step of Adam
// (Keras's defaults: β1 = 0.9, β2 = 0.999, ε = 1e-7) on the mean loss of
// its rows plus Options.L2·Σ w² over the node weights. With Options.L1,
// the node weights then take the proximal step of L1·Σ|w| in Adam's
// metric, which sets some of them to exactly 0, and every node's weight
// vector is scaled back to its norm before that step, so that the
// routing stays as sharp (see Options.L1).
//
// After every epoch, Options.OnEpoch receives the mean training loss of
// the epoch's minibatches and the AUC of the same scores, the validation
// loss and AUC with the weights at the end of the epoch, the mean number
// of leaves a training row reached per tree, and timings (EpochInfo). With
// Options.EarlyStopping = s, training stops after s epochs without a
// strictly lower validation loss and the weights of the best epoch are
// restored (recorded as the provenance parameter "best_epoch").
//
// # Conditional passes
//
// In the default Conditional mode, the forward pass of a row through a
// tree is Algorithm 1 of the paper: a depth-first traversal from the root
// that skips every child reached with probability exactly 0, keeping the
// probability of every reachable leaf and S, S' of every reachable node
// whose routing is fractional (0 < S < 1). The backward pass is Algorithm
// 2: it walks only the fractional tree (the fractional nodes and the
// reachable leaves, each joined to its nearest fractional ancestor), from
// the leaves up, accumulating g(l) = P(x→l)·<∂L/∂T, o_l> into the left and
// right sums of every fractional node, and yields Theorem 1's gradients:
//
//	∂L/∂z_i = S'(z_i)·(Σ_left g / S(z_i) - Σ_right g / (1 - S(z_i)))   (z_i = <w_i, x'> + b_i)
//	∂L/∂w_i = ∂L/∂z_i · x',  ∂L/∂b_i = ∂L/∂z_i,  ∂L/∂x' += ∂L/∂z_i · w_i
//	∂L/∂o_l = P(x→l) · ∂L/∂T
//
// and zero for every other node and leaf. A tree's traversal is exactly
// the interpreter's (runtime/eval.go): the same order, the same products,
// the margin accumulated from the bias in feature order, so the margins
// seen in training are the exported model's margins bit for bit (with
// Options.Project, whose export folds the projection into the nodes, to
// about 1e-12).
//
// The rows of a minibatch are split into fixed units of 16 rows whose
// forward and backward passes run in parallel (Options.Threads
// goroutines); then the gradient of every tree is summed, one goroutine
// per tree, over the rows in minibatch order, and the tree's parameters
// take their step. The sums never depend on the number of goroutines: the
// same data and options give byte-identical ir.Marshal output whatever
// Threads is.
//
// A minibatch that follows one whose rows reached at least half of the
// leaves (the first one always does: the small initial weights route every
// row everywhere) takes the full passes instead: every node of every tree
// for every row, margins four nodes at a time, each in feature order,
// without the branches and the records of the fractional tree, which cost
// more than they save when nearly every node is fractional. Their margins
// are the conditional passes' bit for bit; their gradients are the same
// sums added in another order.
//
// # A layer among layers
//
// Layer is the ensemble as a building block of a larger model: Forward
// and Backward on minibatches (the same passes), ∂L/∂x for the layers
// before it, the parameters' gradient for an optimiser (Adam steps any
// Blocks). Projection is a trainable linear map x ↦ Ax + c to put before
// it. Options.Project trains such a projection of the standardised
// features jointly with the trees; Ensemble.Model folds it into the nodes
// (weights Aᵀw, biases w·c + b), so the exported model is an ordinary
// model of soft trees over the original features.
//
// # Dense passes and the logistic activation
//
// Mode Dense computes every node and every leaf for every row, with
// matrix products over the minibatch (gonum's BLAS: Z = X·Wᵀ, T = P·O,
// and their transposes backwards) and level-by-level products of the
// routing probabilities, as public soft-tree code does. LogisticActivation
// routes with S(t) = 1/(1+exp(-t/α)) (Options.Alpha), which is never 0 or
// 1: it runs in Dense mode only. Both exist for comparisons (the speed of
// conditional computation; the paper's smooth-step against logistic
// table) and for tests, which check the conditional gradients against
// them. The IR's soft nodes are smooth-steps: Train refuses
// LogisticActivation before training, and Ensemble.Model refuses an
// ensemble trained with it by Fit. Dense mode's products run on gonum's
// own goroutines (GOMAXPROCS of them) and are deterministic too.
//
// # The model
//
// Train returns m trees, each of 2^(d+1) - 1 nodes numbered breadth first
// (node i has children 2i+1 and 2i+2; the leaves come last, left to
// right), which is the IR's canonical form. Internal nodes are "soft"
// nodes with Gamma γ, the node's non-zero weights as sparse Indices and
// Weights (exact zeros omitted) and its Bias; TEL's probability of going
// left is the IR's P(left) = S_γ(w·x' + b), with no change of sign. With
// k = 1 each tree writes output 0 with one value per leaf; with k > 1 the
// trees write all outputs (Tree.Output = ir.AllOutputs) with vector leaves.
// Preprocess holds the standardisation (Shift the means, Scale the
// reciprocals of the standard deviations), BaseScore the base scores,
// FeatureNames the data set's column names, the aggregation is sum. The
// provenance records the producer ("treegen train tel"), every option
// (Threads and OnEpoch aside: they do not change the model), and the data:
// the base name of the training file, its rows and features and the
// SHA-256 of its values (data.Dataset.Fingerprint); with a validation set
// the same keys prefixed "valid_".
//
// # Missing values
//
// Without Options.Impute, a missing value (NaN) in the training or the
// validation set is an error naming the feature and the row; infinite
// values always are. With Impute, a missing value is replaced by the
// training mean of its feature (x' = 0) in both sets.
//
// The IR has no imputation. At prediction time a missing value makes the
// margin of every node whose weights use its feature NaN, and the IR sends
// a row with a NaN margin entirely to the node's default side. Train sets
// DefaultLeft to the side that received more of the training rows'
// probability mass (Σ_rows P(x→i)·S_i against Σ_rows P(x→i)·(1 - S_i)),
// left on a tie and at nodes no training row reaches: a missing value
// follows the majority of the training data, as gradient-boosted trees do
// (train/gbdt sends it to the child of larger hessian sum). Nodes whose
// weights do not use the feature route as usual. To reproduce the imputed
// training exactly, impute before predicting.
package tel
