package codegen

// SetFileLimits sets the limits of one tree file and returns a function
// that restores them: a test makes a package of many files from few trees.
func SetFileLimits(size, units int) (restore func()) {
	s, u := maxFileSize, maxFileUnits
	maxFileSize, maxFileUnits = size, units
	return func() { maxFileSize, maxFileUnits = s, u }
}

// TreeFileName is treeFileName, for tests.
var TreeFileName = treeFileName
