package smoothstep

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/treegen/treegen/ir"
)

// The values of [Options].Path.
const (
	// PathAuto lets the cost model (cost.go) choose, for each run of
	// perfect soft trees that the level-synchronous code can evaluate,
	// between that code and unrolled trees.
	PathAuto = "auto"
	// PathLevel evaluates every such run level by level.
	PathLevel = "level"
	// PathUnrolled unrolls every soft tree into a function of its own.
	PathUnrolled = "unrolled"
)

// Paths returns the values of [Options].Path, the default first: a fresh
// slice, which the caller may change.
func Paths() []string { return []string{PathAuto, PathLevel, PathUnrolled} }

// Options are the smoothstep backend's own options.
type Options struct {
	// Prune, when > 0, leaves out of the margin of every soft node the
	// weights w with |w| <= Prune. This changes the predictions (the
	// generated code no longer equals the interpreter bit for bit; it equals
	// the interpreter on the model that [Options.Effective] returns): the
	// margin loses the dropped terms, and a NaN or ±Inf in a dropped feature
	// no longer makes the margin NaN. 0, the default, keeps every weight,
	// exact zeros included: 0·x is NaN for x = NaN or ±Inf, so even a zero
	// weight can decide where a row goes.
	Prune float64
	// Path says how runs of perfect soft trees are compiled: PathAuto (or
	// "", the same), the default, lets the cost model choose between the
	// level-synchronous code and unrolled trees for each run; PathLevel
	// and PathUnrolled force one of them, for measurements and tests. The
	// predictions are the same bits whatever the path.
	Path string
}

// RegisterFlags defines --prune and --soft-path.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	fs.Float64Var(&o.Prune, "prune", o.Prune,
		"smoothstep: leave out soft-node weights with |w| <= this (0 keeps all; > 0 makes predictions approximate)")
	if o.Path == "" {
		o.Path = PathAuto
	}
	fs.Var(pathFlag{&o.Path}, "soft-path",
		"smoothstep: how runs of perfect soft trees are compiled: "+strings.Join(Paths(), ", ")+
			" (auto: a cost model chooses between level-synchronous tables and unrolled trees; the predictions are the same)")
}

// pathFlag is the flag --soft-path: a string that Validate checks, whose
// Values are Paths, for the completion of a command line.
type pathFlag struct{ p *string }

func (f pathFlag) String() string {
	if f.p == nil {
		return ""
	}
	return *f.p
}

func (f pathFlag) Set(s string) error { *f.p = s; return nil }

// Type names the flag's type in the help of a command line (pflag.Value).
func (f pathFlag) Type() string { return "string" }

// Values returns the values of the flag: Paths.
func (f pathFlag) Values() []string { return Paths() }

// Validate refuses a negative, infinite or NaN Prune and a Path that is
// not one of Paths (or "").
func (o *Options) Validate() error {
	if !(o.Prune >= 0) || math.IsInf(o.Prune, 1) {
		return fmt.Errorf("--prune %v: want a finite number >= 0", o.Prune)
	}
	if o.path() == "" {
		return fmt.Errorf("--soft-path %q: want one of %s", o.Path, strings.Join(Paths(), ", "))
	}
	return nil
}

// path returns Path, with "" read as PathAuto, or "" if Path is not one of
// Paths.
func (o *Options) path() string {
	if o.Path == "" {
		return PathAuto
	}
	for _, p := range Paths() {
		if o.Path == p {
			return p
		}
	}
	return ""
}

// String lists the options that differ from their defaults: "prune X"
// when Prune > 0, "soft-path P" when Path is not PathAuto, separated by
// ", "; "" when none does.
func (o *Options) String() string {
	var parts []string
	if o.Prune != 0 {
		parts = append(parts, "prune "+strconv.FormatFloat(o.Prune, 'g', -1, 64))
	}
	if p := o.path(); p != PathAuto {
		parts = append(parts, "soft-path "+o.Path)
	}
	return strings.Join(parts, ", ")
}

// Effective returns m when Prune is 0; else a copy of m whose soft nodes
// keep only the weights with |w| > Prune, which the generated code computes
// exactly, and what pruning does, in a sentence.
func (o *Options) Effective(m *ir.Model) (*ir.Model, string) {
	if o.Prune == 0 {
		return m, ""
	}
	c := *m
	c.Trees = make([]ir.Tree, len(m.Trees))
	dropped, total := 0, 0
	for i := range m.Trees {
		c.Trees[i] = m.Trees[i]
		c.Trees[i].Nodes = append([]ir.Node(nil), m.Trees[i].Nodes...)
		for j := range c.Trees[i].Nodes {
			n := &c.Trees[i].Nodes[j]
			if n.Kind != ir.Soft {
				continue
			}
			idx, ws := Pruned(n, o.Prune)
			total += len(n.Weights)
			dropped += len(n.Weights) - len(ws)
			n.Indices, n.Weights = idx, ws
		}
	}
	return &c, fmt.Sprintf("Soft-node weights with |w| <= %s are left out of the margins (%d of %d weights), "+
		"so predictions differ from the interpreter's, and a missing value of a left-out feature no longer matters.",
		strconv.FormatFloat(o.Prune, 'g', -1, 64), dropped, total)
}
