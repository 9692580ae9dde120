// Package gbdt trains gradient-boosted decision trees by Newton boosting
// on feature histograms, as XGBoost's "hist" method does, and returns the
// ensemble as an [ir.Model].
//
//	d, err := data.ReadFile("letter.tsv.gz", data.Options{RequireTarget: true})
//	...
//	m, err := gbdt.Train(d, nil, gbdt.Options{Objective: gbdt.Softmax, Rounds: 100, LearningRate: 0.1})
//	...
//	err = ir.Save("letter.json", m)
//
// # Algorithm
//
// This is Algorithm 1 of seeds/trees-in-computational-graph.txt (gradient
// boosting) with a second-order step, as in XGBoost (Chen and Guestrin,
// 2016). The margins start at the base score. In every round, for every
// training row i and margin k, the gradient g_i and the hessian h_i of the
// loss at the current margins are computed; a regression tree is grown on
// them (step 6 of the algorithm); each leaf j gets the Newton step
//
//	w_j = -G_j / (H_j + λ) · η
//
// where G_j and H_j are the sums of g and h over the leaf's rows, λ is
// Options.Lambda and η Options.LearningRate (steps 7-9: one Newton step
// instead of the exact line search); and the margins of all rows move by
// their leaves' values (step 10).
//
// A split of a node with sums G, H into children with sums G_L, H_L and
// G_R, H_R is scored by the loss reduction
//
//	gain = ½ [ G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ) ] − γ
//
// (γ is Options.Gamma). The best split of a node is made if its gain is
// positive and the reduction exceeds 1e-10 of ½[G_L²/(H_L+λ) +
// G_R²/(H_R+λ)] (smaller ones are rounding noise), and if both children
// have a hessian sum of at least Options.MinChildWeight and at least one
// row. XGBoost compares γ with twice the reduction (its "loss_chg" has no
// factor ½): Gamma here is half of XGBoost's gamma for the same trees.
//
// # Histograms
//
// The features are quantised once, before the first round. Feature f gets
// strictly increasing edges e_1 < e_2 < ... (at most Options.MaxBins - 1
// of them): every distinct training value but the smallest when there are
// at most MaxBins distinct values, else the values at the ranks
// ⌊k·m/MaxBins⌋ of the m sorted present values (each row counting once),
// k = 1 .. MaxBins-1, with ties moved to the next distinct value. A value v
// falls in bin #{edges <= v}; a missing value (NaN) falls in a bin of its
// own. A feature with missing values has at most 255 bins for its present
// values, so that every bin number fits in a byte. The bins are stored as a
// column-major byte matrix.
//
// A node's histogram holds, per feature and bin, the sums of g and h and
// the number of the node's rows in the bin, as one 32-byte cell (three
// float64 and padding) that one AVX vector adds a row to (on amd64 CPUs
// with AVX; portable Go elsewhere, with the same sums). A split candidate sends the
// bins 0..b left; the search scans the bins of every feature in increasing
// order, and tries each candidate with the node's missing rows on the right
// and then on the left. It also tries "every present value left, the
// missing ones right" (or, for a feature with +Inf but no -Inf, "every
// present value right, the missing ones left"). Bins without rows of the
// node are skipped: of the thresholds that split the node's rows alike,
// the lowest is taken when the missing values go right and the highest when
// they go left, as XGBoost's forward and backward scans do. Among equally
// good candidates the first found wins: the lowest feature index, then the
// lowest bin, then missing values to the right. When the node has no
// missing values of the chosen feature, missing values at prediction time
// go to the child with the larger hessian sum (the left one on a tie;
// XGBoost sends them right).
//
// From the same base margins, this grows the trees XGBoost 1.7 grows with
// tree_method "hist" on data whose features have at most MaxBins distinct
// values (a test checks it against trees recorded from XGBoost), except
// where two splits score exactly the same and rounding (XGBoost computes
// in float32) picks one or the other.
//
// Only the smaller child of a split builds its histogram from its rows;
// the larger one is its parent's histogram minus the smaller one's (the
// subtraction trick), computed in the parent's buffer. (When the
// histograms would take more than 256 MiB, some parents do not keep theirs
// and their children build both.)
//
// # Thresholds and the canonical test
//
// The split "bins 0..b left" becomes the IR test x < e_{b+1}: a present
// value is in bins 0..b exactly when it is below that edge, so every
// training row takes in the IR the branch it took in training. When that
// edge is +Inf the test is x <= MaxFloat64 (the same thing for a non-NaN
// x). "Every present value left" is x <= MaxFloat64 (made only for a
// feature without +Inf), "every present value right" is x < min (the
// smallest training value, or MaxFloat64 if that is +Inf; made only for a
// feature without -Inf). Infinite values are ordinary values. A test
// checks on real data, with NaN and ±Inf cells mixed in, that the
// interpreter's margins on the training rows equal, bit for bit, the
// margins accumulated during training.
//
// # Growth
//
// With Options.MaxLeaves 0 the trees grow depth-wise (XGBoost's
// "depthwise"): every node of a level whose best split is worth making is
// split, level by level, down to Options.MaxDepth (default 6). With
// MaxLeaves > 0 they grow leaf-wise, best first ("lossguide"): the open
// leaf with the largest gain (the oldest on a tie) is split until the tree
// has MaxLeaves leaves, no leaf is worth splitting, or MaxDepth (unlimited,
// i.e. ir.MaxDepth, when 0) stops it.
//
// # Objectives
//
//   - SquaredError: loss (m-y)²/2, g = m - y, h = 1. Base score: the mean
//     target. Task regression, identity link.
//   - Logistic: the target must have exactly two distinct values; the
//     larger is the positive class (data.Classes numbers them). p =
//     sigmoid(m), g = p - y, h = max(p(1-p), 1e-16). Base score: the
//     log-odds log(q/(1-q)) of the fraction q of positive training rows,
//     clipped to [1e-15, 1-1e-15]. Task binary, sigmoid link.
//   - Softmax: C >= 2 classes, C margins per row, one tree per class and
//     round (tree Output k for class k, trees of a round in class order).
//     p = softmax(m), g_k = p_k - y_k, h_k = max(2·p_k(1-p_k), 1e-16): the
//     factor 2 is XGBoost's (multi:softprob): with it a learning rate takes
//     steps of the same size as in XGBoost. Base scores: the log priors
//     log(n_k/n), the constant model of least loss (XGBoost 1.7 starts all
//     classes at the same margin). Task multiclass, softmax link.
//   - Poisson, GammaRegression, Tweedie (exp link), PseudoHuber and
//     Quantile (identity link) are regressions with XGBoost's gradients
//     (Quantile: LightGBM's, with its leaf values refitted to the
//     α-quantile of the leaf's residuals); docs/GBDT.md has their formulas,
//     base scores and options. Options.Weights multiply every row's g and
//     h (and its share of the base score and of the metrics).
//
// The classes are the distinct target values in ascending order; the
// model's ClassNames are their data.Dataset.LabelName: the text labels of a
// target column of text, else strconv.FormatFloat(v, 'g', -1, 64) of the
// values. A validation set's rows are matched to the classes by that name,
// so a validation file read on its own, whose text labels index another
// list, maps correctly. SquaredError refuses a target of text labels.
//
// # Sampling, early stopping and progress
//
// With Options.Subsample < 1, each round draws round(Subsample·n) rows (at
// least one) without replacement; the round's trees are grown on them, and
// the other rows only follow the trees. With Options.ColSample < 1, each
// tree draws round(ColSample·p) features (at least one). Both draws come
// from one math/rand/v2 PCG generator seeded with (Seed, Seed ^
// 0x9e3779b97f4a7c15), used in a fixed order: the rows of a round, then the
// features of each of its trees.
//
// With a validation set, the validation loss (log-loss, or the mean
// squared error) is computed after every round when Options.OnRound or
// early stopping needs it. With Options.EarlyStopping = s, training stops
// after s rounds without a strictly lower validation loss, and the model
// keeps the trees of the rounds up to the best one (recorded as the
// provenance parameter "best_round"). OnRound receives the round, the
// training and validation losses, the validation AUC (macro one-vs-rest
// for Softmax) and the time elapsed.
//
// # Parallelism and determinism
//
// The histograms of a tree are built and scanned by Options.Threads
// goroutines. The units of work are the features of up to four groups of
// four (as many as keep their slots in a core's first-level cache; several
// groups per pass over the rows keep many additions in flight when most
// rows share a bin) and, for a node of many rows, chunks of its rows: each
// chunk's partial histogram is added to the node's in chunk order. How a
// node's rows are chunked depends only on their number and on the data.
// Partitions, the root's sums, the margin updates and the gradients run in
// parallel chunks too. With K trees per round (Softmax), up to Threads
// trees of a round grow at once, each spreading its work over all the
// goroutines. Every histogram slot and every candidate is computed by one
// goroutine in a fixed order, and the candidates are combined in feature
// order, so the result never depends on the number of goroutines or their
// scheduling. The random draws of a round are made before its trees grow.
// The same data and options give byte-identical ir.Marshal output,
// whatever Threads is.
//
// # The model
//
// The trees are in round order (class order within a round), each a flat
// array of "axis" nodes ("categorical" nodes for the features named in
// Options.Categorical) and one-value leaves in pre-order, with its
// learned default direction for missing values. The aggregation is sum,
// BaseScore holds the base margins, and FeatureNames are the data set's
// column names. The provenance records the producer ("treegen train
// gbdt"), every option with the defaults resolved (Threads and OnRound
// aside: they do not change the model), and the data: the base name of the
// training file, its rows and features, and the SHA-256 of the IEEE 754
// bits of X then Y, each value as 8 little-endian bytes
// (data.Dataset.Fingerprint, as for train/cart); with a validation set the same keys
// prefixed "valid_".
package gbdt
