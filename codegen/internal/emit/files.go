package emit

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"go/scanner"
	"strings"

	"github.com/dave/jennifer/jen"
)

// TreeFile returns a tree file of package pkg: the declarations of the
// units, in order, then the function addFn, which runs the units' Calls in
// order, and, when batchFn is not "", the function batchFn, which runs their
// Batch statements. Every line of header starts the file.
func TreeFile(g *Gen, pkg string, header []string, units []Unit, addFn, batchFn string) *jen.File {
	f := jen.NewFile(pkg)
	for _, l := range header {
		f.HeaderComment(l)
	}
	var calls, batchCalls []jen.Code
	for _, u := range units {
		for _, d := range u.Decls {
			f.Add(d)
			f.Line()
		}
		calls = append(calls, u.Calls...)
		batchCalls = append(batchCalls, u.Batch...)
	}
	f.Add(Doc(addFn + " adds the values of the trees of this file to the accumulators a, in tree order."))
	f.Func().Id(addFn).Params(jen.Id("x").Add(g.RowType()), jen.Id("a").Add(g.OutType())).Block(calls...)
	if batchFn != "" {
		f.Line()
		f.Add(g.batchFunc(batchFn, batchCalls))
	}
	return f
}

// Render renders f and formats it with go/format. Source that does not
// format is a bug of the generator: the error names the file and shows the
// offending lines.
func Render(name string, f *jen.File) ([]byte, error) {
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

// VectorFile returns the vector file of a package ([Vectorizer]): the
// header, the build constraint [VectorBuild], and decls.
func VectorFile(pkg string, header []string, decls []jen.Code) *jen.File {
	f := jen.NewFile(pkg)
	for _, l := range header {
		f.HeaderComment(l)
	}
	f.HeaderComment("")
	f.HeaderComment("//go:build " + VectorBuild)
	f.ImportName("simd/archsimd", "archsimd")
	for _, d := range decls {
		f.Add(d)
		f.Line()
	}
	return f
}
