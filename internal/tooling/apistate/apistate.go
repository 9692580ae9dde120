package apistate

import (
	"go/ast"
	"go/token"
	"sort"
	"strconv"
)

// A Var is an exported package-level variable of slice or map type.
type Var struct {
	Name string
	Pos  token.Position
}

// String formats v as "file:line: Name".
func (v Var) String() string {
	return v.Pos.Filename + ":" + strconv.Itoa(v.Pos.Line) + ": " + v.Name
}

// Mutable returns the exported package-level variables of slice or map
// type that the files of one package declare, in file and line order.
// Generated files (a "Code generated ... DO NOT EDIT." line) are left out.
//
// The type is read from the source, without type checking: a variable is
// of slice or map type when its declared type is one (a slice or map type
// literal, or a type of the package whose definition is one), or, without
// a declared type, when its value is a slice or map literal, a make or an
// append, a conversion to such a type, or another variable of the package
// that is one. A value returned by some other function call is taken to
// be of another type (errors.New, regexp.MustCompile).
func Mutable(fset *token.FileSet, files []*ast.File) []Var {
	p := pkg{types: map[string]ast.Expr{}, vars: map[string]varDecl{}}
	for _, f := range files {
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok {
				continue
			}
			for _, s := range g.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					p.types[s.Name.Name] = s.Type
				case *ast.ValueSpec:
					if g.Tok != token.VAR {
						continue
					}
					for i, n := range s.Names {
						d := varDecl{typ: s.Type}
						if i < len(s.Values) && len(s.Values) == len(s.Names) {
							d.value = s.Values[i]
						}
						p.vars[n.Name] = d
					}
				}
			}
		}
	}
	var found []Var
	for _, f := range files {
		if ast.IsGenerated(f) {
			continue
		}
		for _, decl := range f.Decls {
			g, ok := decl.(*ast.GenDecl)
			if !ok || g.Tok != token.VAR {
				continue
			}
			for _, s := range g.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					if n.IsExported() && p.isMutableVar(n.Name, 0) {
						found = append(found, Var{Name: n.Name, Pos: fset.Position(n.Pos())})
					}
				}
			}
		}
	}
	sort.SliceStable(found, func(i, j int) bool {
		a, b := found[i].Pos, found[j].Pos
		if a.Filename != b.Filename {
			return a.Filename < b.Filename
		}
		return a.Line < b.Line
	})
	return found
}

// varDecl is the declared type and the value of a package-level variable;
// either may be nil.
type varDecl struct {
	typ, value ast.Expr
}

// pkg holds the package-level type definitions and variables of a
// package, by name.
type pkg struct {
	types map[string]ast.Expr
	vars  map[string]varDecl
}

// maxDepth bounds the chains of names followed (type T U, var X = Y), so
// that a cycle in broken source ends.
const maxDepth = 16

// isMutableVar reports whether the package-level variable name is of slice
// or map type.
func (p pkg) isMutableVar(name string, depth int) bool {
	d, ok := p.vars[name]
	if !ok || depth > maxDepth {
		return false
	}
	if d.typ != nil {
		return p.isMutableType(d.typ, depth+1)
	}
	return d.value != nil && p.isMutableValue(d.value, depth+1)
}

// isMutableType reports whether the type expression t is a slice or map
// type, or names a type of the package defined as one.
func (p pkg) isMutableType(t ast.Expr, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch t := t.(type) {
	case *ast.ArrayType:
		return t.Len == nil
	case *ast.MapType:
		return true
	case *ast.ParenExpr:
		return p.isMutableType(t.X, depth+1)
	case *ast.Ident:
		def, ok := p.types[t.Name]
		return ok && p.isMutableType(def, depth+1)
	case *ast.IndexExpr: // a generic type instantiated: T[int]
		return p.isMutableType(t.X, depth+1)
	case *ast.IndexListExpr:
		return p.isMutableType(t.X, depth+1)
	}
	return false
}

// isMutableValue reports whether the expression v, the value of a
// variable without a declared type, is of slice or map type.
func (p pkg) isMutableValue(v ast.Expr, depth int) bool {
	if depth > maxDepth {
		return false
	}
	switch v := v.(type) {
	case *ast.CompositeLit:
		return v.Type != nil && p.isMutableType(v.Type, depth+1)
	case *ast.ParenExpr:
		return p.isMutableValue(v.X, depth+1)
	case *ast.Ident:
		return p.isMutableVar(v.Name, depth+1)
	case *ast.SliceExpr: // of an array or a slice; of a string, a string
		lit, ok := v.X.(*ast.BasicLit)
		return !ok || lit.Kind != token.STRING
	case *ast.CallExpr:
		switch fun := v.Fun.(type) {
		case *ast.Ident:
			switch fun.Name {
			case "append":
				return true
			case "make":
				return len(v.Args) > 0 && p.isMutableType(v.Args[0], depth+1)
			}
			return p.isMutableType(fun, depth+1) // a conversion to a type of the package
		case *ast.ArrayType, *ast.MapType, *ast.ParenExpr:
			return p.isMutableType(fun, depth+1) // a conversion: []byte(s)
		}
	}
	return false
}
