package apistate_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/treegen/treegen/internal/tooling/apistate"
)

func ExampleMutable() {
	const src = `package levels

import "errors"

var Names = []string{"low", "high"} // every importer shares it
var ErrLevel = errors.New("no such level")

// Levels returns a fresh slice: the way to export a list.
func Levels() []string { return []string{"low", "high"} }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "levels.go", src, parser.ParseComments)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, v := range apistate.Mutable(fset, []*ast.File{f}) {
		fmt.Println(v)
	}
	// Output:
	// levels.go:5: Names
}
