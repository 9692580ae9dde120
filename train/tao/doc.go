// Package tao trains Softmax Trees (ST) by Tree Alternating Optimisation
// and Adaptive Softmax Trees (AST), after Kairgeldin, Gabidolla and
// Carreira-Perpiñán, "Adaptive Softmax Trees for Many-Class
// Classification" (UAI 2024), and returns them as an [ir.Model].
//
//	d, err := data.ReadFile("letter.tsv.gz", data.Options{RequireTarget: true})
//	...
//	m, err := tao.Train(d, nil, tao.Options{Kind: tao.AST, Alpha: 0.75, Rho: 1.2})
//
// # Model
//
// The inputs are standardised with the training mean and standard
// deviation of every feature, x' = (x - mean)/sd, which becomes the
// model's Preprocess. A decision node i sends x right iff
// w_iᵀx' + w_i0 >= 0 (hard; w_i sparse through its L1 penalty). A leaf j
// holds a softmax over its own subset of k_j classes, z_c = W_j,cᵀx' +
// w_j0,c, and gives probability exactly 0 to every other class. A row
// follows one root-leaf path and the model's outputs are its leaf's class
// probabilities. The exported model is one tree of ir.Oblique nodes and
// ir.SoftmaxLeaf leaves writing every output, Sum aggregation and
// identity link, so the interpreter and the generated code do one sparse
// dot product per visited node and one k_j-class softmax.
//
// # Objective
//
// Eq. 1: E = Σ_n L(y_n, τ(x_n)) + λ Σ_i ‖w_i‖₁ + μ Σ_j ‖W_j‖₁, sums over
// the rows (not means), L the cross-entropy. A row whose class is outside
// its leaf's subset has p = 0; its loss is capped at −log 1e-8 ≈ 18.4 (and
// so is every row's), in the objective and in both reduced problems, so
// that E stays finite and such rows weigh the most in the pseudo-labels.
//
// # TAO (§4, Fig. 1 left)
//
// One iteration computes the reduced set R_i of every node (the training
// rows that reach it), then optimises the nodes depth by depth, deepest
// first; the nodes of one depth share neither rows nor parameters
// (separability), so they are fitted in parallel.
//
//   - A leaf j solves Eq. 3: its classes become the k_j most frequent
//     classes of R_j (ties to the smaller class index) and an L1 softmax
//     over them (μ, unpenalised biases) is fitted to the rows of R_j of
//     those classes, warm-started from the leaf's current weights.
//   - A decision node i solves Eq. 2: for every row of R_i the loss down
//     each child's subtree (as it is) gives the pseudo-label (the better
//     child) and the weight c_n (the loss difference; rows with equal
//     losses drop out). A weighted L1 logistic regression (λ) is the
//     surrogate of the weighted 0/1 loss.
//
// A leaf's update is accepted only when it lowers Eq. 3. A decision node
// takes its surrogate's solution, as the paper does in practice (of the
// check below: "in practice we find this unnecessary"); a TAO iteration
// that ends with a higher E than it began with is undone and ends TAO, so
// E never increases from one iteration to the next. With Options.Strict a
// decision node's update is accepted only when it lowers Eq. 2's weighted
// 0/1 loss plus λ‖w_i‖₁, whose change is exactly that of Eq. 1, so that no
// single node update increases E; on Letter this stalls TAO early, at a
// higher objective and test error (docs/TAO.md). TAO stops after
// Options.Iterations iterations or when an iteration changes no node or
// lowers E by less than a millionth. Then every decision node whose
// weights are all zero (it sends every row one way) and every decision
// node with a child that no training row reaches is replaced by its other
// child (pruning; the training rows' paths and E do not get worse).
//
// The L1 problems are solved by proximal Newton with coordinate descent
// (the method of LIBLINEAR's solver for L1 logistic regression; the paper
// uses LIBLINEAR at the decision nodes and SAGA at the leaves), at most
// Options.SolverIterations outer iterations each (the paper's 100).
//
// # Softmax Tree (ST)
//
// A complete tree of depth Δ (Options.Depth) and leaves of k classes
// (Options.K), then TAO until the objective stops decreasing. The paper
// initialises its STs "using random initialization as well as k-means
// initialization" (§A.2); Options.Init picks: KMeans, the default for an
// ST, splits every node's rows along c₂ − c₁, the centres of a 2-means
// clustering of them; Median draws the direction on the unit sphere.
// Either way the bias puts the median of the node's rows on the boundary.
// On Letter, 2-means splits bring ST(k=7) from 9.9% to 8.4% test error
// (the paper: 8.33%; docs/TAO.md).
//
// # Adaptive Softmax Tree (AST, §5, Fig. 1 right)
//
// A complete ST of depth Δ₀ (default 2) with k₀ = ceil(K/2^Δ₀) classes per
// leaf, median-split (the paper's choice for ASTs; Options.Init may ask
// for 2-means splits), fitted by TAO. Then growth rounds: every leaf j (in
// parallel; their reduced sets are disjoint) is offered an expansion, a
// depth-1 ST (a median-split stump) whose leaves hold round(α·k) classes
// (k the most the leaf may hold; halves round up, at least 1), warm-started from the
// leaf's weights and fitted by TAO on R_j (Options.ExpandIterations, 10).
// It replaces the leaf when it misclassifies at most ρ times as many rows
// of R_j as the leaf does (the paper asks that "the accuracy of τ̂_j is at
// least as good as the original softmax f_j or within a reasonable
// tolerance ratio ρ") and both of its leaves keep rows; a leaf that
// misclassifies none of its rows, a pure leaf, a leaf of fewer than two
// rows and a leaf at MaxGrowthDepth are not expanded. A round that
// expanded some leaf ends with a global TAO pass (Options.Iterations, 15)
// and pruning; growth stops when a round leaves the tree's shape
// unchanged, or after Options.MaxRounds rounds.
//
// # Missing values
//
// Training refuses a missing value (NaN): a softmax leaf computes with
// every feature its rows use, and no value stands for a missing one there.
// At prediction, a row with a missing value follows each split's
// DefaultLeft (the side more training rows reached), and its predictions
// are NaN when its leaf's softmax uses the missing feature.
//
// # Determinism
//
// The same data, Options and Seed give the same model byte for byte for
// any Options.Threads: the initial tree makes its random draws in a fixed
// order, every expansion draws from a stream seeded by the seed and the
// leaf's place, the parallel units never share results, and every sum runs
// in row order.
package tao
