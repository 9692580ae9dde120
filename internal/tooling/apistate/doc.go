// Package apistate finds exported package-level variables of slice or map
// type: state that every importer of a package shares and any of them can
// change under the others. The module's public packages export functions
// that return fresh slices instead (golden.Names, importance.Types,
// smoothstep.Paths); this package's test walks the module's source and
// fails on any such variable, so that it stays that way.
package apistate
