// Package e2e trains end-to-end learned deterministic decision trees
// (E2EDT) and forests of them (E2EDF), after Hehn, Kooij and Hamprecht,
// "End-to-End Learning of Decision Trees and Forests" (IJCV 2020), and
// returns them as an [ir.Model] of oblique trees.
//
//	d, err := data.ReadFile("twonorm.tsv.gz", data.Options{RequireTarget: true})
//	...
//	m, err := e2e.Train(d, nil, e2e.Options{MaxDepth: 4, Seed: 1})
//
// # Model
//
// The inputs are standardised with the training mean and standard
// deviation of every feature, x' = (x - mean)/sd (a constant feature gets
// scale 1), which becomes the model's Preprocess. Split i computes the
// oblique split feature f_i = (x'ᵀ, 1)·β_i (over a random subset of the
// features in a forest) and, during training, sends a row right with
// probability σ(γ f_i) (Eqs. 3 and 5), left with 1 - σ(γ f_i). The path
// probability μ_ℓ of leaf ℓ is the product of these along its path
// (Eq. 1), leaf ℓ holds a class distribution π_ℓ, and the training model
// predicts p(y|x) = Σ_ℓ (π_ℓ)_y μ_ℓ(x) (Eq. 2). Logs of σ are computed as
// log σ(z) = -softplus(-z), so that saturated splits keep finite values and
// gradients.
//
// # Training
//
// The log-likelihood Σ_n log p(y_n|x_n) (Eq. 4) is maximised by EM
// (§2.3): for every minibatch (BatchSize rows, shuffled every epoch) the
// E-step computes the responsibilities h_{n,ℓ} of Eq. 10 and one Adam step
// (LearningRate, β = (0.9, 0.999), ε = 1e-8) ascends the split objective
// Σ_n Σ_ℓ h_{n,ℓ} log μ_ℓ(x_n) (Eq. 14); every epoch ends with an E-step over
// all rows and the closed-form leaf update of Eq. 13 (a leaf whose
// responsibilities sum to 0 keeps its distribution), after which the
// steepness grows by Δγ (Options.DeltaGamma; annealing, §2.2).
//
// A tree is grown by the Greedy algorithm of §2.5: starting from a root
// leaf, candidate leaves are taken breadth-first with the training rows
// that deterministic routing sends them. A candidate that is pure, has
// fewer than MinSamples rows, is at MaxDepth or would exceed MaxLeaves stays
// a leaf; otherwise a stump (one split with a direction drawn on the unit
// sphere and bias 0, two uniform leaves) is trained on its rows by EM for
// Epochs epochs from γ₀ = 1 (Gamma0), and kept if deterministic routing
// sends rows to both of its leaves; up to MaxAttempts stumps are tried.
//
// Two choices differ from the paper's description, for data sets smaller
// than its (tens of thousands of rows). A stump's bias starts so that its
// plane passes through the mean of the node's rows, not at 0 (which puts
// the plane of a deep node through the mean of the whole training set,
// often far from the node's rows). And an EM run takes at least 10 Adam
// steps per epoch (minibatches of at least 32 rows): with BatchSize 1000,
// an epoch on a few hundred rows would be a single step of 0.001.
// Then the whole tree is finetuned jointly by EM on all rows for
// FinetuneEpochs epochs, continuing the annealing from the steepness the
// stumps reached, γ₀ + Epochs·Δγ, up to the "final_gamma" of the
// provenance. The relation to information gain (Eqs. 16 to 19) is why
// annealing makes the probabilistic model approach the deterministic one.
//
// A forest (Options.Trees > 1, §2.7) grows and finetunes every tree
// independently on the full training set with its own random state; every
// split sees FeaturesPerSplit features drawn uniformly (β is zero on the
// others), and the trees' predictions are averaged (Eq. 20).
//
// # Exported model
//
// At test time the trees are deterministic (γ → ∞, Eq. 16): a row goes
// right iff f > 0, so a split is an oblique node with LessEqual (left iff
// w·x' + b <= 0, ties left) and its nonzero weights; DefaultLeft, used
// only for missing values, sends them to the child that more training
// rows reach. Leaves hold the class distributions. For two classes the
// model is Binary with one output, the leaf value π_ℓ(second class); for
// more it is Multiclass with vector leaves (ir.AllOutputs) of the K
// probabilities. The link is the identity, so predictions are the leaf
// distributions (one tree, sum aggregation) or their mean (forest, mean
// aggregation, Eq. 20). The provenance records the settings, the final
// γ, and "split_evaluations_per_row": the mean number of split nodes a
// training row's deterministic paths visit, summed over the trees.
//
// Missing feature values are refused in training; the target must be
// classes (a non-integer target is taken for a regression and refused).
// Options.Threads sets the goroutines of the E-steps and gradients; it
// never changes the model.
package e2e
