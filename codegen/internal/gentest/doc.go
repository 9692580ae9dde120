// Package gentest is the test support of treegen's backends.
//
// A backend's tests describe the backend in a [Suite] and run
// [Conformance] once: it compares the source generated for small models
// with golden files ([Golden], refreshed with go test -update), generates
// every package twice to see the same bytes, and builds random models of
// internal/randmodel and the backend's own cases in both precisions, in one
// temporary module with one go build (through internal/harness), to check
// that each package computes exactly what the interpreter computes, NaN and
// ±Inf rows included, that its entry points agree, that it passes gofmt and
// go vet, imports only math, math/bits and errors ([CheckImports]), writes
// only the model's numbers as float literals ([CheckLiterals]) and does not
// allocate.
//
// The flags -update, -models and -seed belong to this package: a test
// binary that imports it has them.
package gentest
