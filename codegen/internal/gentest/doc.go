// Package gentest helps the tests of treegen's backends: it makes random
// valid models and inputs, builds many generated packages in one temporary
// module with one driver program (one go build for all of them), runs them
// and parses their outputs, and checks the float literals of generated code
// against the model.
package gentest
