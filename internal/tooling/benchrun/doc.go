// Package benchrun measures generated code against the interpreter, as
// treegen bench does: Backends reads a list of backends (auto stands for
// those suited to the model, then the interpreter), Run times each of them
// on the same rows with internal/gobench, and a Report holds the results
// in the JSON form of the command-line contract, or writes them as a
// table.
package benchrun
