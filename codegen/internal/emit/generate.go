package emit

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/scanner"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// MainFile is the name of the file that holds the API of a generated
// package.
const MainFile = "predict.go"

// Limits of one tree file; see the package documentation.
const (
	MaxFileSize  = 2000
	MaxFileUnits = 200
)

// treeFileRE matches the names of tree files.
var treeFileRE = regexp.MustCompile(`^trees_[0-9]+\.go$`)

// IsTreeFileName reports whether name has the form of a tree file name
// (trees_000.go).
func IsTreeFileName(name string) bool { return treeFileRE.MatchString(name) }

// treeFileName returns the name of tree file i of n: trees_007.go, with at
// least three digits and as many as n-1 needs.
func treeFileName(i, n int) string {
	return "trees_" + suffix(i, n) + ".go"
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

// Split groups units into files, in order: a file takes units until the
// next one would bring it over MaxFileSize or MaxFileUnits; every file holds
// at least one unit.
func Split(units []Unit) [][]Unit {
	var groups [][]Unit
	var cur []Unit
	size := 0
	for _, u := range units {
		if len(cur) > 0 && (size+u.Size > MaxFileSize || len(cur)+1 > MaxFileUnits) {
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

// Generate returns the files of the generated package for the validated
// model m, sorted by name: MainFile and the tree files of backend b.
func Generate(m *ir.Model, b Backend, cfg Config) ([]File, error) {
	g, err := NewGen(m, cfg.Precision)
	if err != nil {
		return nil, err
	}
	g.Prune = cfg.Prune
	if err := b.Check(m); err != nil {
		return nil, err
	}
	hash, err := ir.Hash(m)
	if err != nil {
		return nil, err
	}
	header := Header(cfg.Version, cfg.Source, hash)
	units, err := b.Units(g)
	if err != nil {
		return nil, err
	}
	groups := Split(units)
	batch, err := batchUnits(units)
	if err != nil {
		return nil, err
	}
	var files []File
	var addFuncs, batchFuncs []string
	for i, group := range groups {
		name := treeFileName(i, len(groups))
		fn := "addTrees" + suffix(i, len(groups))
		addFuncs = append(addFuncs, fn)
		f := jen.NewFile(cfg.Package)
		f.HeaderComment(header)
		var calls, batchCalls []jen.Code
		for _, u := range group {
			for _, d := range u.Decls {
				f.Add(d)
				f.Line()
			}
			calls = append(calls, u.Calls...)
			batchCalls = append(batchCalls, u.Batch...)
		}
		f.Add(Doc(fn + " adds the values of the trees of this file to the accumulators a, in tree order."))
		f.Func().Id(fn).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(calls...)
		if batch {
			bfn := "addBatchTrees" + suffix(i, len(groups))
			batchFuncs = append(batchFuncs, bfn)
			f.Line()
			f.Add(g.batchFunc(bfn, batchCalls))
		}
		data, err := render(name, f)
		if err != nil {
			return nil, err
		}
		files = append(files, File{Name: name, Data: data})
	}
	// The main file comes last: the tree code decides whether it needs
	// negZero.
	data, err := render(MainFile, g.mainFile(cfg, header, hash, addFuncs, batchFuncs))
	if err != nil {
		return nil, err
	}
	files = append(files, File{Name: MainFile, Data: data})
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, nil
}

// render renders f and formats it with go/format. Source that does not
// format is a bug of the generator: the error names the file and shows the
// offending lines.
func render(name string, f *jen.File) ([]byte, error) {
	f.NoFormat = true
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("generating %s: %v", name, err)
	}
	out, err := format.Source(buf.Bytes())
	if err != nil {
		return nil, formatError(name, buf.Bytes(), err)
	}
	return out, nil
}

// formatError describes source that go/format refused: the first errors
// with their line numbers, and the lines around each.
func formatError(name string, src []byte, err error) error {
	var list scanner.ErrorList
	if !errors.As(err, &list) || len(list) == 0 {
		return fmt.Errorf("generated %s is not valid Go (a bug in treegen): %v", name, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "generated %s is not valid Go (a bug in treegen):", name)
	lines := strings.Split(string(src), "\n")
	for i, e := range list {
		if i == 3 {
			fmt.Fprintf(&b, "\n(%d more errors)", len(list)-3)
			break
		}
		fmt.Fprintf(&b, "\n%s:%d:%d: %s", name, e.Pos.Line, e.Pos.Column, e.Msg)
		for l := e.Pos.Line - 2; l <= e.Pos.Line+2; l++ {
			if l < 1 || l > len(lines) {
				continue
			}
			mark := " "
			if l == e.Pos.Line {
				mark = ">"
			}
			text := lines[l-1]
			if len(text) > 200 {
				text = text[:200] + "..."
			}
			fmt.Fprintf(&b, "\n%s %5d | %s", mark, l, text)
		}
	}
	return errors.New(b.String())
}
