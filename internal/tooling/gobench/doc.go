// Package gobench times a generated predictor package with the go command's
// own benchmarks. It copies the package into a temporary module, writes a
// standard benchmark file beside it,
//
//	BenchmarkPredict/<pkg>/one-row   Predict on each row in turn
//	BenchmarkPredict/<pkg>/batch     PredictBatch on all rows at once
//
// (each calling b.ReportAllocs and looping with b.Loop, one operation being
// one pass over the rows), builds the test binary with "go test -c" (the
// build time), runs it as "go test -run ^$ -bench . -benchmem -benchtime T
// -count N" would, and reads the output with
// golang.org/x/tools/benchmark/parse. The go command runs with no workspace,
// no network and no toolchain switch, so that nothing is ever downloaded.
//
// Interpreter times the interpreter in this process the same way, with
// Loop, a timing loop that repeats a pass over the rows as testing.B does
// and counts heap allocations as go test -benchmem does, without linking
// the testing package into the program.
//
// treegen bench uses it; the benchmark file is the one a user would write,
// so that what bench reports can be reproduced with go test alone.
package gobench
