// Package smoothstep is treegen's backend for soft trees, the trees of the
// Tree Ensemble Layer (Hazimeh et al., 2020): every tree with soft nodes
// becomes one Go function, unrolled, that visits the tree depth first as the
// interpreter does and skips every subtree that the row reaches with
// probability exactly 0 (the paper's conditional computation). Trees without
// soft nodes are compiled as the ifelse backend compiles them; a tree may mix
// soft nodes with axis-aligned, oblique and categorical splits and with
// constant and softmax leaves. Latent trees are not supported. [Check] says
// whether a model can be compiled; codegen.Generate with Backend
// "smoothstep" does the compiling.
//
// # Generated code
//
// A soft node computes its margin m = bias + w·x over its weights, left to
// right, each product converted on its own (no fused multiply-add), then
// its probability of sending the row left, the smooth-step S_γ(m) inlined:
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
// stays small. A node with 6 weights or more first runs the margin filter
// (filter.go): the same products added in four interleaved partial sums,
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
// feature). Only rows whose margin may lie in the fractional region, or
// near its edges, pay for the left-to-right sum; the result is the same bits.
//
// # Pruning
//
// With codegen.Options.Prune > 0 the margin of every soft node leaves out
// the weights w with |w| <= Prune. That changes the results: the dropped
// terms are missing from the margin, and a NaN or ±Inf feature that only a
// dropped weight reads no longer makes the margin NaN. With Prune = 0 (the
// default) every weight is kept, exact zeros too, since 0·x is NaN for a NaN
// or infinite x; the code then equals the interpreter bit for bit. (Dropping
// an exact zero would be exact only for rows whose features it reads are
// finite: a term ±0 changes a margin at most from -0 to +0, which no test
// tells apart.)
package smoothstep
