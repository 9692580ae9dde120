package ifelse

import (
	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/codegen/internal/emit"
	"github.com/treegen/treegen/codegen/internal/perfect"
	"github.com/treegen/treegen/ir"
)

// Name is the backend's name in codegen.Options.Backend and on the command
// line.
const Name = "ifelse"

// Backend is the ifelse backend, as package codegen lists it.
type Backend struct{}

// Name returns "ifelse".
func (Backend) Name() string { return Name }

// Summary says what the backend compiles.
func (Backend) Summary() string {
	return "nested if statements, one function per tree, for hard trees: axis-aligned, oblique and categorical splits, constant and softmax leaves, and latent trees"
}

// Check returns nil if the backend can compile the validated model m, else
// an error naming the first tree it cannot compile: a tree with soft nodes
// of width γ > 0.
func (Backend) Check(m *ir.Model) error { return Check(m) }

// Suited reports whether the backend is meant for m: every model it
// compiles.
func (Backend) Suited(m *ir.Model) bool { return Check(m) == nil }

// Vector returns the declarations of the package's vector file, which
// scores blocks of rows with SIMD instructions when the model's trees are
// axis-aligned and pad cheaply into perfect trees (see package perfect).
func (Backend) Vector(g *emit.Gen, _ emit.Options) ([]jen.Code, error) { return perfect.Vector(g), nil }

// NewOptions returns the backend's options: it has none.
func (Backend) NewOptions() emit.Options { return emit.NoOptions{} }

// Units returns one unit per tree: its function and the statement that adds
// its value to the margins, or, for a latent tree, the statement of the
// read-out function that adds the read-out terms of its nodes.
func (Backend) Units(g *emit.Gen, _ emit.Options) ([]emit.Unit, error) {
	units := make([]emit.Unit, len(g.Model.Trees))
	for i := range units {
		units[i] = emit.HardTree(g, i)
	}
	return units, nil
}

// Check returns nil if the backend can compile the validated model m, else
// an error naming the first tree it cannot compile: a tree with soft nodes
// of width γ > 0.
func Check(m *ir.Model) error {
	for i := range m.Trees {
		if err := emit.CheckHardTree(m, i); err != nil {
			return err
		}
	}
	return nil
}
