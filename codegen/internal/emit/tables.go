package emit

import (
	"math"

	"github.com/dave/jennifer/jen"
)

// Cmp32 reports whether generated code compares in float32: in a float32
// package, or for a model with Float32Compare.
func Cmp32(g *Gen) bool { return g.Is32() || g.Model.Float32Compare }

// Fold returns the threshold t' such that, for every non-NaN value v,
// "v < t'" in the comparison precision is the test of an axis node with
// threshold t ("<=" when lessEqual). always is true when the test holds for
// every non-NaN value (v <= +Inf), which no "<" test expresses. A folded
// threshold of -0 (x <= -1e-45 in float32 is x < -0) is returned as +0: the
// test is the same, and the literal 0 needs no negZero.
func Fold(t float64, lessEqual, float32Compare bool) (thr float64, always bool) {
	if float32Compare {
		t32 := float32(t)
		if lessEqual {
			if math.IsInf(float64(t32), 1) {
				return 0, true
			}
			t32 = math.Nextafter32(t32, float32(math.Inf(1)))
		}
		return float64(t32) + 0, false
	}
	if lessEqual {
		if math.IsInf(t, 1) {
			return 0, true
		}
		t = math.Nextafter(t, math.Inf(1))
	}
	return t + 0, false
}

// Table declares the table name of type [len(items)]typ, one item per
// line; doc follows the name in its doc comment.
func Table(name, doc string, typ *jen.Statement, items []jen.Code) jen.Code {
	return Doc(name+" "+doc).Line().Var().Id(name).Op("=").
		Index(jen.Lit(len(items))).Add(typ).Custom(jen.Options{Open: "{", Close: "}", Separator: ",", Multi: len(items) > 0}, items...)
}

// ThrType returns the type of thresholds: float32 when tests compare in
// float32, else F.
func ThrType(g *Gen) *jen.Statement {
	if Cmp32(g) {
		return jen.Float32()
	}
	return g.Float()
}

// ThrLit returns the literal of threshold v, of type ThrType.
func ThrLit(g *Gen, v float64) *jen.Statement {
	if Cmp32(g) {
		return g.Lit32(v)
	}
	return g.Lit(v)
}

// ValType returns the type of leaf values: float32 when margins are
// accumulated in float32 in a float64 package (Float32Sum), else F.
func ValType(g *Gen) *jen.Statement {
	if g.Sum32() {
		return jen.Float32()
	}
	return g.Float()
}

// ValLit returns the literal of leaf value v, of type ValType.
func ValLit(g *Gen, v float64) *jen.Statement {
	if g.Sum32() {
		return g.Lit32(v)
	}
	return g.Lit(v)
}
