// Package ifelse is treegen's straight-line backend: every tree becomes one
// Go function of nested if statements, one per split, that returns (or adds
// to the margins) the value of the leaf it reaches.
//
// It compiles hard trees: axis-aligned, oblique and categorical splits,
// constant leaves (one value, or one per output) and softmax leaves, and soft
// nodes of width γ = 0, which are hard oblique splits that go left iff their
// margin is > 0. Soft nodes with γ > 0 need the smoothstep backend; latent
// trees are not supported yet. [Check] says whether a model can be
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
package ifelse
