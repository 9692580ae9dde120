// Package tooling is the upper floor of the module's internal packages:
// its subpackages build, run and measure generated code (harness,
// gobench, gencheck), and make models, rows and data for tests (randmodel,
// fuzzmodel, pmlb, apistate). They may import anything in the module,
// codegen and runtime included.
//
// The ground floor is the other packages under internal/ (atomicfile,
// direxchange, fmath, parallel, progress, version, ...): small utilities
// that import nothing of the module outside that floor, so that ir,
// runtime, data, codegen and the trainers can build on them without an
// arrow pointing back up. TestLayering checks both rules.
package tooling
