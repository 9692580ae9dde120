// Package smoothstep is treegen's backend for soft trees, the trees of the
// Tree Ensemble Layer (Hazimeh et al., 2020). Every run of consecutive
// perfect soft trees of one depth with constant leaves, the shape of a
// trained TEL, can be evaluated level by level, all its trees together (see
// "Level-synchronous evaluation" below), whether its nodes weigh every
// feature (dense) or only some (sparse, as an L1 penalty leaves them); a
// cost model chooses, run by run, between that and unrolled trees (see
// "Choosing the path"). Every other tree with soft nodes becomes one Go
// function, unrolled, that visits the tree depth first as the interpreter
// does. Both skip every subtree that the row reaches with probability
// exactly 0 (the paper's conditional computation). Trees without soft
// nodes are compiled as the ifelse backend compiles them; a tree may mix
// soft nodes with axis-aligned, oblique and categorical splits and with
// constant and softmax leaves. Latent trees are not supported (the ifelse
// backend compiles them). [Check] says whether a model can be compiled;
// codegen.Generate with Backend "smoothstep" does the compiling.
//
// # Level-synchronous evaluation
//
// A level group (level.go) is a run of consecutive trees that are perfect
// soft trees of the same depth d, every internal node a soft node of width
// γ > 0 (γ/2 not 0 in the working precision, γ finite), every leaf a
// constant leaf whose values are finite in the working precision, all of
// them writing every output or all writing one, and all of them dense
// (every node weighs every feature, in a model of 6 features or more,
// nothing pruned away) or all sparse (the others). Its trees are not
// unrolled: their biases and weights are rows of one table, level-major
// (lvW0 for the group that starts at tree 0), their leaf values rows of
// another (lvV0), and one compact function (lvTrees0) walks them:
//
//   - The frontier of a level is the list of the nodes of that level, of
//     every tree of the group, that the row reaches with a path probability
//     other than 0, with those probabilities, in tree order and left to
//     right within a tree. It starts with the roots, at probability 1.
//   - lvMargins0 computes the margins of the frontier's nodes eight at a time
//     in a dense group (lvDot8; lvDot4 for a remainder of four or fewer;
//     four at a time in a sparse one, below): each margin is the
//     bias plus the products, added left to right, exactly as the
//     interpreter adds them, but eight independent chains of additions are
//     in flight at once instead of one. (A few rows past the frontier's end,
//     stale entries, are computed too and ignored.)
//   - Each node's smooth-step S_γ(m) is computed without a branch (its three
//     cases are selected on the sign bits of m-γ/2 and -γ/2-m, which are
//     exact for any m but NaN; a NaN margin, rare, is a branch), and its
//     children join the next frontier in order, P·s on the left and P·(1-s)
//     on the right, multiplied root to leaf as the interpreter multiplies;
//     a child is written unconditionally and the frontier's length advances
//     by 1 only if its probability is not 0, so that an unreachable subtree
//     costs nothing beyond that one write.
//   - At the last internal level, each node adds its two leaf terms
//     F(P·v) to its tree's value, in frontier order, which is the
//     interpreter's depth-first, left-to-right order; a term whose
//     probability is 0 is ±0 and leaves the tree value (never -0) as it is.
//     Each tree's value is then added to the margins in tree order.
//
// The frontier lives in small local arrays (Go zeroes local arrays on every
// call), of at most 256 entries or twice the number of trees; a row whose
// frontier would outgrow them is evaluated by a compact depth-first
// recursion over the same tables (lvSlow0, lvRec0), in the interpreter's
// order: from the start in a dense group, from the nodes of the frontier
// that would outgrow them, in order, in a sparse one. Every path gives the
// interpreter's bits.
//
// So the "each tree unrolled into straight-line code" is not what a
// level group does: unrolled trees of depth 8 are about 100 KB of machine
// code each and their unpredictable branches and dependent chains were
// slower than the interpreter. Its intent, conditional computation, is kept:
// only nodes reached with a probability other than 0 are evaluated.
//
// # Sparse level groups
//
// In a sparse group a row of lvW0 holds the node's bias and its own
// weights, in their order, padded with zeros to the largest number of
// weights of a node of the group; lvI0 holds their features, padded with
// NumFeatures, and lvN0 the number of weights of each node. lvTrees0 first
// copies the row into xz, of NumFeatures+1 values, the last one 0.
// lvMargins0 computes the margins of four frontier nodes at once, their
// products added in turn, as many as the most weights of the four: a node
// with fewer reads its padding, weight 0 times xz[NumFeatures] = 0, and
// adds +0. That is
// exact on every row: the products of a node's own weights are added left
// to right from its bias, as the interpreter adds them (NaN and ±Inf
// included: no padding product reads the row), and adding +0 to a sum
// changes it at most from -0 to +0, which leaves the smooth-step as it is
// (its cubic gives 0.5 for either zero, and both are inside (-γ/2, γ/2)).
// A zero-filled dense table would not be: 0·NaN and 0·Inf are NaN, and the
// interpreter reads only the features a node lists. The fallback
// recursion's margins (lvExact0) add a node's products only.
//
// The sparse kernel reads three numbers per product where the dense one,
// whose x[j] is shared by eight nodes, reads one: at half the weights a
// sparse group costs about what a dense one costs, and below that less
// (TestDensity; docs/SMOOTHSTEP.md has the table).
//
// # Choosing the path
//
// For each run of trees that could be a level group, the backend's option
// [Options].Path decides: "level" and "unrolled" force one path (for
// measurements and tests; the predictions are the same bits), "auto", the
// default, asks the cost model of cost.go. Dense runs are level groups, as
// they always were. For sparse runs the model compares estimated
// nanoseconds per reached node: the level path's work per node and per
// weight is the same for any trees, while unrolled trees are cheaper while
// their code is small and dearer once it outgrows the caches and the
// branch predictor (about 200 KB of source: 10 trees of depth 6 or more).
// Its constants come from TestDensity on trained TEL models, made sparse.
//
// # Unrolled trees
//
// Outside level groups, a soft node computes its margin m = bias + w·x
// over its weights (only those the node lists: a sparse node's code holds
// its own weights, inlined), left to right, each product converted on its
// own (no fused multiply-add), then its probability of sending the row
// left, the smooth-step S_γ(m) inlined:
//
//	m0 := 0.1 + float64(0.5*x[0]) + float64(-1.25*x[1]) + float64(0.75*x[2])
//	var s0 float64
//	if m0 >= 0.5 {
//		s0 = 1
//	} else if m0 > -0.5 {
//		u := m0 // m0 / γ, with γ = 1
//		s0 = float64(u*float64(1.5-float64(2*u*u))) + 0.5
//	} else if m0 != m0 { // a NaN margin, for a node with DefaultLeft
//		s0 = 1
//	}
//	if p1 := s0; p1 != 0 {
//		// the left subtree, reached with probability p1
//	}
//	if p2 := 1 - s0; p2 != 0 {
//		// the right subtree
//	}
//
// Deeper down the probabilities multiply, p7 := p3 * s3 and
// p8 := p3 * (1 - s3), in root-to-leaf order, and a leaf adds its value
// times the probability of its path to the tree's value, v += float64(p7 *
// 0.25), in visiting order, exactly as ir/doc.go defines it. A hard split in
// a soft tree (or a soft node whose γ/2 is 0 in the working precision) is
// an if-else whose children inherit the path probability. A leaf value of
// ±0 adds nothing and is left out.
//
// # Dense nodes and the margin filter
//
// In a model of 6 features or more, a soft node that weighs every feature
// (as a trained TEL's do) keeps its bias and weights in a row of the tree's
// table, dense3 for tree 3, and its margin is a call of the package's
// dotExact, which adds the products left to right: the code of a big tree
// stays small. Such a node first runs the margin filter (filter.go): the
// same products added in four interleaved partial sums,
// a quarter of the latency, compared with a rigorous bound e of their
// distance from the exact margin, plus γ/2,
//
//	if mf, e := dotFast(&dense3[5], x), float64(5.2e-14*xm)+0.50000047; mf > e {
//		s5 = 1
//	} else if !(mf < -e) {
//		m5 := dotExact(&dense3[5], x)
//		// the smooth-step of m5, as above
//	}
//
// xm being the largest |x_j| of the row (+Inf with a NaN or infinite
// feature), computed once per tree without a branch. Only rows whose margin
// may lie in the fractional region, or near its edges, pay for the
// left-to-right sum; the result is the same bits. Nodes that weigh only
// some features have no filter: on sparse TEL trees it cost more than it
// saved (they ran 1.3 to 1.9 times slower with it).
//
// # Vector blocks
//
// Built with GOEXPERIMENT=simd on amd64, a float32 package whose trees
// include a level group that the vector code evaluates gets a vector file
// that PredictBatch uses for its blocks of 64 rows, NaN included; the
// other trees are scored row by row, in tree order. Two layouts:
//
//   - Rows in lanes, for level groups of depth 6 at most (vector.go), with
//     AVX-512 or AVX2: 16 or 8 float32 rows a vector, tree by tree and
//     level by level over the nodes that some row of the lanes reaches.
//   - Nodes in lanes, for dense level groups of depth 7 or more with one
//     γ (lanes.go), with AVX-512 only: a row at a time, the nodes of a
//     tree in blocks of 16, a node in each lane, over the blocks that the
//     row reaches. Its node tables and working memory live on the heap,
//     64-byte aligned, the working memory in a small pool (a buffered
//     channel) so that nothing is allocated per call.
//
// Every lane does the interpreter's operations for its row and node, in
// its order (separate multiplications and additions, the smooth-step
// clipped by comparison masks), so the results are the same bits
// (vector.go says why the nodes that a row does not reach change
// nothing). BatchInstructions names the instructions used.
//
// The vector file is generated only where it measured faster than the
// portable code. On a TEL-like model of 10 trees of 20 dense features
// (AVX-512, docs/SMOOTHSTEP.md), rows in lanes took 381 ns per row
// against 628 portable at depth 4 and 913 against 1,217 at depth 6, but
// lost at depth 8 (2,525 against 2,035), where the 16 rows of a vector
// reach too many nodes between them; nodes in lanes took 1,002 against
// 1,595 to 2,140 at depth 7, 1,306 to 1,811 against 2,008 to 2,085 at
// depth 8, and 2,356 against 3,173 at depth 9. Float64 vector blocks, 8 rows a vector,
// took 911 against 1,027 at depth 4 but lost at depths 6 (1,546 against
// 1,289) and 8 (4,348 against 2,044), so float64 packages have no vector
// file.
//
// # Pruning
//
// The backend's own option [Options].Prune (passed as
// codegen.Options.BackendOptions; the command line's --prune), when > 0,
// leaves out of the margin of every soft node the weights w with
// |w| <= Prune. That changes the results: the dropped
// terms are missing from the margin, and a NaN or ±Inf feature that only a
// dropped weight reads no longer makes the margin NaN. With Prune = 0 (the
// default) every weight is kept, exact zeros too, since 0·x is NaN for a NaN
// or infinite x; the code then equals the interpreter bit for bit. (Dropping
// an exact zero would be exact only for rows whose features it reads are
// finite: a term ±0 changes a margin at most from -0 to +0, which no test
// tells apart.) Pruned code equals the interpreter bit for bit on the model
// that [Options.Effective] returns, and says in the header of every file
// that it is approximate.
package smoothstep
