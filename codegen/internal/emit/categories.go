package emit

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// maxBitsetCategory is the largest category kept in a bitset; sets with a
// larger category are sorted lists searched by bisection.
const maxBitsetCategory = 4095

// categorySet is a set of categories held by a package-level variable.
type categorySet struct {
	name string
	cats []int
}

func (c *categorySet) bitset() bool { return c.cats[len(c.cats)-1] <= maxBitsetCategory }

// InCategories returns the condition "v is one of cats" of a categorical
// split (ir/doc.go: -1 < v < 2^31 and trunc(v) in cats; false for NaN), v
// being an expression of type F evaluated once. Each distinct set of the
// model is one package-level variable of the main file, numbered by NewGen
// in the order of a depth-first walk of the trees.
func (g *Gen) InCategories(v jen.Code, cats []int) *jen.Statement {
	if len(cats) == 0 {
		return jen.False()
	}
	set, ok := g.needs.catIndex[fmt.Sprint(cats)]
	if !ok {
		panic(fmt.Sprintf("emit: category set %v is not in the model", cats))
	}
	if set.bitset() {
		return jen.Id("inCategories").Call(jen.Id(set.name).Index(jen.Op(":")), v)
	}
	return jen.Id("inSortedCategories").Call(jen.Id(set.name).Index(jen.Op(":")), v)
}

// genCategories declares the category sets and the helpers that test them.
func (g *Gen) genCategories(f *jen.File) {
	usesBitset, usesSorted := false, false
	for _, s := range g.needs.catSets {
		if s.bitset() {
			usesBitset = true
		} else {
			usesSorted = true
		}
	}
	for _, s := range g.needs.catSets {
		if s.bitset() {
			words := make([]uint64, s.cats[len(s.cats)-1]/64+1)
			for _, c := range s.cats {
				words[c/64] |= 1 << (c % 64)
			}
			vals := make([]jen.Code, len(words))
			for i, w := range words {
				vals[i] = jen.Lit(w)
			}
			f.Add(Doc(fmt.Sprintf("%s is the bitset of categories %s.", s.name, describe(s.cats))))
			f.Var().Id(s.name).Op("=").Index(jen.Lit(len(words))).Uint64().Values(vals...)
			continue
		}
		vals := make([]jen.Code, len(s.cats))
		for i, c := range s.cats {
			vals[i] = jen.Lit(c)
		}
		f.Add(Doc(fmt.Sprintf("%s holds categories %s, sorted.", s.name, describe(s.cats))))
		f.Var().Id(s.name).Op("=").Index(jen.Lit(len(vals))).Int32().Values(vals...)
	}
	F := g.Float()
	if usesBitset {
		f.Add(Doc("inCategories reports whether v, truncated toward zero, is a category of the bitset set; NaN, negative and larger values are not."))
		f.Func().Id("inCategories").Params(jen.Id("set").Index().Uint64(), jen.Id("v").Add(F)).Bool().Block(
			jen.If(jen.Op("!").Parens(jen.Id("v").Op(">").Lit(-1).Op("&&").Id("v").Op("<").Add(F).Call(jen.Len(jen.Id("set")).Op("*").Lit(64)))).Block(jen.Return(jen.False())),
			jen.Id("c").Op(":=").Uint().Call(jen.Id("v")),
			jen.Return(jen.Id("set").Index(jen.Id("c").Op("/").Lit(64)).Op(">>").Parens(jen.Id("c").Op("%").Lit(64)).Op("&").Lit(1).Op("!=").Lit(0)),
		)
	}
	if usesSorted {
		f.Add(Doc("inSortedCategories reports whether v, truncated toward zero, is one of the sorted categories set; NaN, negative and larger values are not."))
		f.Func().Id("inSortedCategories").Params(jen.Id("set").Index().Int32(), jen.Id("v").Add(F)).Bool().Block(
			jen.If(jen.Op("!").Parens(jen.Id("v").Op(">").Lit(-1).Op("&&").Id("v").Op("<").Lit(1).Op("<<").Lit(31))).Block(jen.Return(jen.False())),
			jen.Id("c").Op(":=").Int32().Call(jen.Id("v")),
			jen.List(jen.Id("lo"), jen.Id("hi")).Op(":=").List(jen.Lit(0), jen.Len(jen.Id("set"))),
			jen.For(jen.Id("lo").Op("<").Id("hi")).Block(
				jen.Id("mid").Op(":=").Int().Call(jen.Uint().Call(jen.Id("lo").Op("+").Id("hi")).Op(">>").Lit(1)),
				jen.If(jen.Id("set").Index(jen.Id("mid")).Op("<").Id("c")).Block(
					jen.Id("lo").Op("=").Id("mid").Op("+").Lit(1),
				).Else().Block(
					jen.Id("hi").Op("=").Id("mid"),
				),
			),
			jen.Return(jen.Id("lo").Op("<").Len(jen.Id("set")).Op("&&").Id("set").Index(jen.Id("lo")).Op("==").Id("c")),
		)
	}
}

// describe lists a few categories for a comment.
func describe(cats []int) string {
	if len(cats) <= 8 {
		return fmt.Sprint(cats)
	}
	return fmt.Sprintf("%v ... (%d in all)", cats[:8], len(cats))
}
