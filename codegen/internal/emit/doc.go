// Package emit is the toolkit with which treegen's backends write Go: the
// arithmetic of ir/doc.go in either working precision ([Gen]: literals that
// round-trip bit for bit, dot products, products that no fused multiply-add
// can change, the portable exp, softmax leaves, split tests, category sets),
// the hard-tree emitter that the ifelse and smoothstep backends share
// ([HardTree], latent trees included), the interface a backend implements
// ([Backend], [Options], [Unit]), and the files of a generated package: the
// header ([HeaderLines]), a tree file ([TreeFile]) and the main file with
// the public API and the read-out of latent trees ([MainFile]), rendered
// and formatted by [Render].
//
// It is a one-way toolkit: backends and the driver (package codegen) call
// it; it imports neither. [NewGen] computes, from the model alone and before
// anything is emitted, the facts that the main file needs (whether some
// value is -0, whether an exponential is computed, the category sets in the
// order of a depth-first walk), so that the files can be built in any order
// and Gen's methods change nothing.
//
// # Arithmetic
//
// Every number of the model is converted once to the working precision F
// (float64 or float32) and printed as the shortest decimal that converts
// back to exactly that value (strconv.FormatFloat with bit size 64 or 32). A
// negative zero is written as the package-level variable negZero (Go
// constants have no negative zero); a float64 value beyond the float32 range
// becomes float32(math.Inf(±1)). Every product that is added to something is
// wrapped in a conversion, F(w*x[i]), which forbids fused multiply-add on
// every architecture. The order of every operation is the one ir/doc.go
// defines.
package emit
