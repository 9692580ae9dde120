package codegen

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
)

// MainFile is the name of the file that holds the API of a generated
// package.
const MainFile = "predict.go"

// Limits of one tree file: a file takes units until the next one would
// bring it over maxFileSize size units (nodes, or nodes plus weights) or
// maxFileUnits units; a unit larger than the limit gets a file of its own.
// Variables, so that a test can make a package of many files from few
// trees.
var (
	maxFileSize  = 2000
	maxFileUnits = 200
)

// treeFileRE matches the names of tree files: trees000.go, and
// trees_000.go, the names of earlier treegen versions, which WriteDir
// removes when a new run no longer writes them.
var treeFileRE = regexp.MustCompile(`^trees_?[0-9]+\.go$`)

// IsTreeFileName reports whether name has the form of a tree file name,
// trees000.go (or trees_000.go, from earlier treegen versions).
func IsTreeFileName(name string) bool { return treeFileRE.MatchString(name) }

// treeFileName returns the name of tree file i of n: trees007.go, with at
// least three digits and as many as n-1 needs. The name has no underscore:
// the go command reads a suffix _GOOS, _GOARCH or _test of a file name
// (trees_386.go, trees_arm.go) as a build constraint, and a name without an
// underscore has none.
func treeFileName(i, n int) string {
	return "trees" + suffix(i, n) + ".go"
}

// suffix returns i with leading zeros, as wide as n-1 and at least 3 digits.
func suffix(i, n int) string {
	width := len(strconv.Itoa(n - 1))
	if width < 3 {
		width = 3
	}
	s := strconv.Itoa(i)
	return strings.Repeat("0", width-len(s)) + s
}

// split groups units into files, in order: a file takes units until the
// next one would bring it over maxFileSize or maxFileUnits; every file holds
// at least one unit.
func split(units []emit.Unit) [][]emit.Unit {
	var groups [][]emit.Unit
	var cur []emit.Unit
	size := 0
	for _, u := range units {
		if len(cur) > 0 && (size+u.Size > maxFileSize || len(cur)+1 > maxFileUnits) {
			groups = append(groups, cur)
			cur, size = nil, 0
		}
		cur = append(cur, u)
		size += u.Size
	}
	if len(cur) > 0 {
		groups = append(groups, cur)
	}
	return groups
}

// layout lays the units out in tree files, in order, writes the main file,
// and returns all files sorted by name. Each tree file ends with a function
// addTreesNNN that runs its units' statements (and addBatchTreesNNN for a
// backend that scores blocks of rows); PredictMargin calls them in file
// order.
func layout(g *emit.Gen, units []emit.Unit, vector []jen.Code, spec emit.MainSpec) ([]File, error) {
	groups := split(units)
	batch, err := emit.BatchUnits(units)
	if err != nil {
		return nil, err
	}
	for _, u := range units {
		spec.Readout = append(spec.Readout, u.Readout...)
	}
	if (g.Model.Readout != nil) != (len(spec.Readout) > 0) || (batch && len(spec.Readout) > 0) {
		return nil, errors.New("internal error: the units do not compute the read-out of the latent trees as the main file expects")
	}
	var files []File
	for i, group := range groups {
		sfx := suffix(i, len(groups))
		addFn, batchFn := "addTrees"+sfx, ""
		spec.AddFuncs = append(spec.AddFuncs, addFn)
		if batch {
			batchFn = "addBatchTrees" + sfx
			spec.BatchFuncs = append(spec.BatchFuncs, batchFn)
		}
		name := treeFileName(i, len(groups))
		data, err := emit.Render(name, emit.TreeFile(g, spec.Package, spec.Header, group, addFn, batchFn))
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: name, Data: data})
	}
	if len(vector) > 0 {
		if !batch && len(spec.Readout) > 0 {
			return nil, errors.New("internal error: a vector file for a model with latent trees")
		}
		data, err := emit.Render(emit.VectorFileName, emit.VectorFile(spec.Package, spec.Header, vector))
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: emit.VectorFileName, Data: data})
		if data, err = emit.Render(emit.NoVectorFileName, emit.NoVectorFile(g, spec.Package, spec.Header)); err != nil {
			return nil, err
		}
		files = append(files, File{Name: emit.NoVectorFileName, Data: data})
		spec.Vector = true
	}
	data, err := emit.Render(MainFile, emit.MainFile(g, spec))
	if err != nil {
		return nil, err
	}
	files = append(files, File{Name: MainFile, Data: data})
	tieRun(files)
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, nil
}

// guardPrefix starts the name of the constant that ties the files of one
// run together (see tieRun): the build error "undefined:
// mixedTreegenRuns_regenerate_..." means that the directory mixes files of
// different runs of treegen gen.
const guardPrefix = "mixedTreegenRuns_regenerate_"

// tieRun makes the files of one run (tree files, then the main file last)
// compile only together: the main file defines a constant named after a
// hash of all the files, and every tree file refers to it. A directory
// that mixes files of two runs, which an interrupted write over an earlier
// package can leave where the directory cannot be replaced as a whole (see
// WriteDir), or files copied by hand, fails to build with "undefined:
// mixedTreegenRuns_regenerate_HASH" instead of predicting with half of
// each model. The name depends only on the files (48 bits of their
// SHA-256), so that the same model and options still give the same bytes.
func tieRun(files []File) {
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f.Name))
		h.Write([]byte{0})
		h.Write(f.Data)
		h.Write([]byte{0})
	}
	name := guardPrefix + hex.EncodeToString(h.Sum(nil)[:6])
	last := len(files) - 1
	if last == 0 {
		return // no tree file refers to it
	}
	for i := range files[:last] {
		files[i].Data = append(files[i].Data, "\n"+
			"// This file builds only with the "+MainFile+" of the same run of treegen.\n"+
			"// The build error \"undefined: "+name+"\"\n"+
			"// means that this directory mixes files of different runs (an interrupted\n"+
			"// treegen gen, files copied by hand): run treegen gen again.\n"+
			"const _ = "+name+"\n"...)
	}
	files[last].Data = append(files[last].Data, "\n"+
		"// "+name+" ties the files of this run of\n"+
		"// treegen together: every tree file refers to it, so that a directory that\n"+
		"// mixes files of different runs does not build. Run treegen gen again if\n"+
		"// the build says that it is undefined.\n"+
		"const "+name+" = true\n"...)
}
