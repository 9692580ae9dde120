// Package ifelse is treegen's straight-line backend: every tree becomes one
// Go function of nested if statements, one per split, that returns (or adds
// to the margins) the value of the leaf it reaches.
//
// It compiles hard trees: axis-aligned, oblique and categorical splits,
// constant leaves (one value, or one per output) and softmax leaves, soft
// nodes of width γ = 0, which are hard oblique splits that go left iff their
// margin is > 0, and latent trees (see "Latent trees" below), alone or
// among other trees. Soft nodes with γ > 0 need the smoothstep backend,
// which compiles no latent tree. [Check] says whether a model can be
// compiled; codegen.Generate with Backend "ifelse" does the compiling. The
// code of each tree is the hard-tree emitter of codegen/internal/emit
// (emit.HardTree), which smoothstep also uses for the hard trees of a
// model; this package is the backend that applies it to every tree.
//
// # Generated code
//
// A tree with a single output becomes a function that returns its value,
// called as a[k] += tree17(x); a tree with a value per output adds them to
// the margins itself, tree17(x, a). A split reads
//
//	if x[3] < 0.5 {
//		// the left subtree, which ends in a return
//	}
//	// the right subtree
//
// so that the indentation grows only along left branches. A missing value
// (NaN) takes the node's default direction without any extra test: with
// DefaultLeft the test is written !(x[3] >= 0.5), which is true for NaN.
// With Float32Compare in float64 code the test is float32(x[3]) < 0.5, the
// threshold rounded to float32. An oblique split computes its margin first,
//
//	if m := 0.25 + float64(-1.5*x[0]) + float64(2*x[7]); m < 0 {
//
// left to right from the bias, each product converted on its own so that no
// fused multiply-add changes the result on any architecture. A soft node with
// γ = 0 tests m > 0 instead (!(m <= 0) with DefaultLeft), and the value of a
// tree with soft nodes is 0 + v for its leaf value v (ir/doc.go), so a leaf
// value of -0 is written as 0 there.
//
// # Latent trees
//
// A latent tree (ir/doc.go) has no value of its own: the activations z_t of
// its nodes feed the model's linear read-out, which PredictMargin adds to
// the margins after the trees (and the mean). The main file holds the
// read-out function, which starts each sum r_k at the read-out bias plus
// the products of row k's weights with the features, left to right, calls
// the function of each latent tree in order, and adds r_k to the margin.
// Only the nodes on one path have a z that is not 0: the path whose signed
// margins are positive. A latent tree's function follows it,
//
//	s = x[1] - 0.5
//	if s < 0 {
//		if -s < q {
//			q = -s // the running minimum of the signed margins
//		}
//		z = min(max(q, 0), 0.5) // the node's activity is 0.5
//		r[0] += float64(2 * z)
//		if r[1] == 0 {
//			r[1] = 0 // a term of +0 off the path: -0 becomes +0
//		}
//		return
//	}
//
// adding the terms of the path's nodes in index order. The terms of the
// other nodes are zeros whose signs are known when the code is generated:
// they matter only to a sum of exactly 0, and since adding +0 commutes with
// every addition, each path ends with one normalisation per output among
// whose known terms is a +0. A NaN margin goes the node's default way
// (whose signed margin is +Inf); a margin of 0 goes right, where every z is
// 0. Elu splits compute exp with the portable exponential the link uses.
package ifelse
