package emit

import "github.com/treegen/treegen/ir"

// Precision is the working precision of generated code, ir.Precision.
type Precision = ir.Precision

// The working precisions.
const (
	Float64 = ir.Float64
	Float32 = ir.Float32
)
