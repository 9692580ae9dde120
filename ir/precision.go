package ir

import "fmt"

// Precision is a working precision F of the arithmetic that ir/doc.go
// defines: the type of a predictor's inputs, outputs, model values and
// arithmetic, in generated code and in the interpreter alike. The zero
// value, "", means Float64 wherever a Precision is read (see
// [Precision.Resolve]).
//
// It is the one way treegen names a precision, from the command line's
// --precision flag (it implements flag.Value and pflag.Value) to the type
// the generated code declares.
type Precision string

// The working precisions.
const (
	Float64 Precision = "float64"
	Float32 Precision = "float32"
)

// ParsePrecision returns the precision named s: "float64" or "float32".
func ParsePrecision(s string) (Precision, error) {
	switch p := Precision(s); p {
	case Float64, Float32:
		return p, nil
	}
	return "", fmt.Errorf("unknown precision %q (want float64 or float32)", s)
}

// Resolve returns p, or Float64 when p is empty, or an error when p names
// no precision.
func (p Precision) Resolve() (Precision, error) {
	if p == "" {
		return Float64, nil
	}
	return ParsePrecision(string(p))
}

// String returns the name of the precision, the Go type: "float64" or
// "float32" ("float64" for the zero value).
func (p Precision) String() string {
	if p == "" {
		return string(Float64)
	}
	return string(p)
}

// Set sets p from a flag's value; it implements flag.Value.
func (p *Precision) Set(s string) error {
	v, err := ParsePrecision(s)
	if err != nil {
		return err
	}
	*p = v
	return nil
}

// Type names the flag's type in the help of a command line (pflag.Value).
func (p *Precision) Type() string { return "precision" }

// Is32 reports whether p is Float32.
func (p Precision) Is32() bool { return p == Float32 }

// BitSize returns 32 or 64, as strconv wants it.
func (p Precision) BitSize() int {
	if p.Is32() {
		return 32
	}
	return 64
}

// RecordedPrecision returns the working precision the model records: Float32
// when its tests or its sums are in float32 (Float32Compare, Float32Sum), as
// those of a model imported from XGBoost are, else Float64. It is the
// precision in which treegen's predictions equal those of the library that
// made the model, and so the default of every command that predicts.
func (m *Model) RecordedPrecision() Precision {
	if m.Float32Compare || m.Float32Sum {
		return Float32
	}
	return Float64
}
