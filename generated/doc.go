// Package generated holds the predictors that treegen generates from the
// golden models in ../golden, in float64 and float32 precision, one package
// each, committed so that users can read what treegen emits and so that any
// change of the emitted code shows up in review. Every model is compiled with
// the backend that treegen picks by default ("auto", codegen.Choose), which
// the second line of every file names and the third explains: walk for
// axis100 (100 axis-aligned trees of depth 6), ifelse for the other models
// of hard trees, smoothstep for golden/soft, a model of soft trees
// (packages soft and softf32). TestAutoBackend checks those lines.
//
// Every package carries a test (golden_test.go) that checks it against the
// golden inputs and expected outputs bit for bit and checks that Predict
// allocates nothing. TestGeneratedUpToDate fails when a package differs from
// what treegen generates now; refresh them with
//
//	go generate ./generated
//
// The benchmarks here compare generated code with the interpreter in one run:
//
//	go test ./generated -run XXX -bench . -benchtime 20000x
package generated

//go:generate go test -run TestGeneratedUpToDate -update .
