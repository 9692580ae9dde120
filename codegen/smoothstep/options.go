package smoothstep

import (
	"flag"
	"fmt"
	"math"
	"strconv"

	"github.com/treegen/treegen/ir"
)

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
}

// RegisterFlags defines --prune.
func (o *Options) RegisterFlags(fs *flag.FlagSet) {
	fs.Float64Var(&o.Prune, "prune", o.Prune,
		"smoothstep: leave out soft-node weights with |w| <= this (0 keeps all; > 0 makes predictions approximate)")
}

// Validate refuses a negative, infinite or NaN Prune.
func (o *Options) Validate() error {
	if !(o.Prune >= 0) || math.IsInf(o.Prune, 1) {
		return fmt.Errorf("--prune %v: want a finite number >= 0", o.Prune)
	}
	return nil
}

// String returns "prune X" when Prune > 0, else "".
func (o *Options) String() string {
	if o.Prune == 0 {
		return ""
	}
	return "prune " + strconv.FormatFloat(o.Prune, 'g', -1, 64)
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
