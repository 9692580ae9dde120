package emit

import (
	"flag"

	"github.com/dave/jennifer/jen"

	"github.com/treegen/treegen/ir"
)

// Backend is a code generator for the trees of a model: a value that
// describes itself. Package codegen holds the list of backends and drives
// them; a backend builds its code with this package's helpers and never
// imports another backend.
type Backend interface {
	// Name is the backend's name in codegen.Options.Backend and on the
	// command line ("ifelse").
	Name() string
	// Summary says in one sentence what the backend compiles and how, for
	// help texts and documentation.
	Summary() string
	// Check returns nil if the backend can compile the validated model m,
	// else an error that names the first tree it cannot compile and why.
	Check(m *ir.Model) error
	// Suited reports whether the backend is meant for m, which Check
	// accepts: treegen bench measures the suited ones, among which
	// codegen's rule for "auto" picks. A backend that would compile m only
	// by doing what another one does (smoothstep on a model without soft
	// nodes) is not suited to it.
	Suited(m *ir.Model) bool
	// NewOptions returns the backend's own options, set to their defaults.
	NewOptions() Options
	// Units returns the code of the model's trees, in tree order, compiled
	// with opts (a value that NewOptions returned, validated). The
	// accumulation statements of the units, run in order, must add every
	// tree's values to the margins as ir/doc.go defines.
	Units(g *Gen, opts Options) ([]Unit, error)
}

// Options are a backend's own settings, such as the prune threshold of
// smoothstep.
type Options interface {
	// RegisterFlags defines the options as flags of fs, bound to the
	// options' fields: their names on the command line. The flags of all
	// backends share one command line, so their names must differ.
	RegisterFlags(fs *flag.FlagSet)
	// Validate returns an error, naming the option, if a value is invalid.
	Validate() error
	// String lists the options that differ from their defaults, as they
	// appear in the header of generated files ("prune 0.05"); "" when none
	// does.
	String() string
	// Effective returns the model that code generated with these options
	// computes exactly, bit for bit as the interpreter computes it: m
	// itself when the options change no prediction, else a model that
	// differs as the options say (m without the weights that pruning leaves
	// out), and one sentence that says how. The result must not share
	// memory that it changes with m.
	Effective(m *ir.Model) (eff *ir.Model, approximation string)
}

// NoOptions is the Options of a backend that has none.
type NoOptions struct{}

// RegisterFlags defines no flag.
func (NoOptions) RegisterFlags(*flag.FlagSet) {}

// Validate returns nil.
func (NoOptions) Validate() error { return nil }

// String returns "".
func (NoOptions) String() string { return "" }

// Effective returns m: the code is exact.
func (NoOptions) Effective(m *ir.Model) (*ir.Model, string) { return m, "" }

// Unit is a piece of tree code: usually one tree, or a block of trees that
// share tables.
//
// Decls are top-level declarations (each preceded by its doc comment).
// Calls are statements run, in order, inside a function of the same file
// whose parameters are
//
//	x *[NumFeatures]F  // the (preprocessed) input row
//	a *[NumOutputs]F   // the accumulators
//
// where an accumulator starts at the base score (sum aggregation) or at 0
// (mean aggregation), and must receive a_k = a_k + t_k for each tree value
// t_k in tree order. Size measures the amount of code (for instance nodes
// plus weights) and decides the split across files.
//
// Batch, if a backend scores blocks of rows, are statements run, in order,
// inside a function of the same file whose parameters are
//
//	x *[BatchRows * NumFeatures]C  // BatchRows (preprocessed) rows without NaN, in the comparison type C (Gen.BatchInput)
//	a *[BatchRows * NumOutputs]F   // their accumulators, row by row
//
// and which must do for every row what Calls do for one. Either every unit
// of a model has Batch statements or none has; with none, PredictBatch
// predicts row by row.
//
// Readout, for a unit of latent trees (which add nothing to the
// accumulators), are statements run, in order, inside the read-out function
// of the main file, whose parameters are
//
//	x *[NumFeatures]F  // the (preprocessed) input row
//	r *[NumOutputs]F   // the read-out sums
//
// once r_k holds Bias[k] + W[k][0]*x[0] + ... + W[k][P-1]*x[P-1], accumulated
// as ir/doc.go says, and before r_k is added to the margin. They must leave
// in r_k what adding W[k][P+j]*z_j for each node j of the unit's trees would
// leave, bit for bit, j running over z in order (the units come in tree
// order). A model with latent trees is never scored in blocks.
type Unit struct {
	Decls   []jen.Code
	Calls   []jen.Code
	Batch   []jen.Code
	Readout []jen.Code
	Size    int
}

// Vectorizer is a Backend that can also score blocks of rows with SIMD
// instructions, in the vector file of a package ([VectorFileName]), which
// builds only with GOEXPERIMENT=simd on amd64 ([VectorBuild]) and imports
// only simd/archsimd besides what the other files import.
type Vectorizer interface {
	// Vector returns the declarations of the vector file of the model of g
	// compiled with opts, or none when the backend does not vectorise this
	// model. They must include an init function that sets
	//
	//	vectorISA string
	//
	// to the name of the instructions the code uses ("AVX-512", "AVX2")
	// when the processor has them, and the function vectorBlock
	// (Gen.VectorFunc) that does for every row of a block what the units'
	// Calls do for one, bit for bit, NaN values included.
	Vector(g *Gen, opts Options) ([]jen.Code, error)
}
