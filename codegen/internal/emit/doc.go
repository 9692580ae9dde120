// Package emit holds the pieces of generated code that every treegen backend
// shares: the file header, the package documentation, the public API of the
// generated package (constants, names, Predict, PredictMargin, PredictSlice,
// PredictBatch, PredictClass), the link functions, float literals that
// round-trip bit for bit, and the split of tree code across functions and
// files.
//
// A backend (codegen/ifelse, and later codegen/quickscorer and
// codegen/smoothstep) only provides the code of the trees: a list of [Unit]s,
// each with its declarations and the statements that add its trees' values to
// the margins. [Generate] lays the units out in files, in order, and writes
// everything else.
//
// # Layout of a generated package
//
// The API lives in [MainFile] ("predict.go"). Tree code lives in files named
// trees_000.go, trees_001.go, ... (more digits when there are more than 1,000
// files, all names of one package having the same width, so that sorting by
// name keeps the tree order). A tree file receives units in model order until
// it would exceed [MaxFileSize] size units (nodes, or nodes plus weights) or
// [MaxFileUnits] units; a unit larger than the limit gets a file of its own.
// Each tree file ends with one function, addTreesNNN, that runs its units'
// statements in order; PredictMargin calls these functions in file order.
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
