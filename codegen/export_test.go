package codegen

import (
	"bytes"
	"regexp"

	"github.com/treegen/treegen/ir"
)

// SetFileLimits sets the limits of one tree file and returns a function
// that restores them: a test makes a package of many files from few trees.
func SetFileLimits(size, units int) (restore func()) {
	s, u := maxFileSize, maxFileUnits
	maxFileSize, maxFileUnits = size, units
	return func() { maxFileSize, maxFileUnits = s, u }
}

// TreeFileName is treeFileName, for tests.
var TreeFileName = treeFileName

// StripAutoLines returns the source of a generated file without the header
// lines that say why auto picked the backend, and with the hash of its run
// (tieRun) blanked: the source that naming the backend gives, but for
// that hash.
func StripAutoLines(src []byte) []byte {
	var out []byte
	in := false
	for _, l := range bytes.SplitAfter(src, []byte("\n")) {
		in = bytes.HasPrefix(l, []byte("// Picked by auto: ")) || in && bytes.HasPrefix(l, []byte("// "))
		if !in {
			out = append(out, l...)
		}
	}
	return runHash.ReplaceAll(out, []byte(guardPrefix+"HASH"))
}

// runHash matches the name of a run's constant.
var runHash = regexp.MustCompile(guardPrefix + "[0-9a-f]+")

// CountChecks makes the backends' Check count its calls in calls, by
// backend name, and returns a function that stops counting.
func CountChecks(calls map[string]int) (restore func()) {
	old := runCheck
	runCheck = func(b Backend, m *ir.Model) error {
		calls[b.Name()]++
		return old(b, m)
	}
	return func() { runCheck = old }
}
