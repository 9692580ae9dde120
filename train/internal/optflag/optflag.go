package optflag

import (
	"flag"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Set defines flags on a flag.FlagSet and records which of them are set.
// The zero value is not usable; a nil *Set reports no flag as given.
type Set struct {
	fs    *flag.FlagSet
	given map[string]bool
}

// New returns a Set that defines its flags on fs.
func New(fs *flag.FlagSet) *Set {
	return &Set{fs: fs, given: map[string]bool{}}
}

// Given reports whether the flag named name has been set since it was
// defined, even to its default value.
func (s *Set) Given(name string) bool {
	return s != nil && s.given[name]
}

// Int defines an integer flag bound to p, whose current value is the
// default.
func (s *Set) Int(p *int, name, usage string) {
	s.fs.IntVar(p, name, *p, usage)
	s.record(name)
}

// Uint64 defines an unsigned integer flag bound to p, whose current value
// is the default.
func (s *Set) Uint64(p *uint64, name, usage string) {
	s.fs.Uint64Var(p, name, *p, usage)
	s.record(name)
}

// Float defines a float64 flag bound to p, whose current value is the
// default.
func (s *Set) Float(p *float64, name, usage string) {
	s.fs.Float64Var(p, name, *p, usage)
	s.record(name)
}

// Bool defines a boolean flag bound to p, whose current value is the
// default.
func (s *Set) Bool(p *bool, name, usage string) {
	s.fs.BoolVar(p, name, *p, usage)
	f := s.fs.Lookup(name)
	f.Value = &recordedBool{recorded{inner: f.Value, name: name, given: s.given, typ: typeName(f.Value)}}
}

// String defines a string flag bound to p, whose current value is the
// default.
func (s *Set) String(p *string, name, usage string) {
	s.fs.StringVar(p, name, *p, usage)
	s.record(name)
}

// record wraps the value of the flag just defined so that setting it
// records its name.
func (s *Set) record(name string) {
	f := s.fs.Lookup(name)
	f.Value = &recorded{inner: f.Value, name: name, given: s.given, typ: typeName(f.Value)}
}

// typeName names the type of a flag's value as the help of a command line
// shows it: "int", "float64", "string", ... (the type's name without its
// "Value" suffix).
func typeName(v flag.Value) string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return strings.TrimSuffix(t.Name(), "Value")
}

// recorded is a flag's value that records in given that it was set.
type recorded struct {
	inner flag.Value
	name  string
	given map[string]bool
	typ   string
}

// String returns the value as text.
func (r *recorded) String() string {
	if r == nil || r.inner == nil {
		return ""
	}
	return r.inner.String()
}

// Set sets the value from text and records the flag as given.
func (r *recorded) Set(s string) error {
	if err := r.inner.Set(s); err != nil {
		return err
	}
	r.given[r.name] = true
	return nil
}

// Type names the value's type ("int", "float64", ...) for the help of a
// command line.
func (r *recorded) Type() string { return r.typ }

// recordedBool is a boolean flag's value that records in given that it
// was set.
type recordedBool struct{ recorded }

// IsBoolFlag reports that the flag needs no value ("--strict").
func (r *recordedBool) IsBoolFlag() bool { return true }

// Get returns the value, as the flag package's own values do.
func (r *recorded) Get() any {
	if g, ok := r.inner.(flag.Getter); ok {
		return g.Get()
	}
	return r.inner.String()
}

// AtLeast requires an integer flag to be >= lo.
func AtLeast(flag string, v, lo int) error {
	if v < lo {
		return fmt.Errorf("--%s must be at least %d, got %d", flag, lo, v)
	}
	return nil
}

// Between requires an integer flag to lie in [lo, hi].
func Between(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("--%s must be between %d and %d, got %d", flag, lo, hi, v)
	}
	return nil
}

// Positive requires a float flag to be a finite number > 0.
func Positive(flag string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("--%s must be a finite number > 0, got %v", flag, v)
	}
	return nil
}

// NonNegative requires a float flag to be a finite number >= 0.
func NonNegative(flag string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("--%s must be a finite number >= 0, got %v", flag, v)
	}
	return nil
}

// Fraction requires a float flag to lie in (0, 1].
func Fraction(flag string, v float64) error {
	if !(v > 0 && v <= 1) {
		return fmt.Errorf("--%s must be in (0, 1], got %v", flag, v)
	}
	return nil
}

// OneOf requires a string flag to be one of values.
func OneOf[T ~string](flag string, v T, values ...T) error {
	for _, w := range values {
		if v == w {
			return nil
		}
	}
	names := make([]string, len(values))
	for i, w := range values {
		names[i] = string(w)
	}
	return fmt.Errorf("--%s must be %s, got %q", flag, OrList(names), v)
}

// OrList joins values as "a, b or c".
func OrList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// First returns the first non-nil error: the checks of a trainer's flags,
// in the order its help lists them.
func First(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// Default sets *p to v when it is zero: the default that a flag shows and
// that Validate then checks, for an option whose zero value the trainer
// reads as its default.
func Default[T comparable](p *T, v T) {
	var zero T
	if *p == zero {
		*p = v
	}
}

// Enum defines a string flag bound to p, whose current value is the
// default, that takes one of values. Its value lists them (Values), so
// that a command line completes them; Validate still checks the value,
// with OneOf.
func (s *Set) Enum(p *string, name, usage string, values []string) {
	s.fs.StringVar(p, name, *p, usage)
	f := s.fs.Lookup(name)
	f.Value = &recordedEnum{recorded{inner: f.Value, name: name, given: s.given, typ: typeName(f.Value)}, values}
}

// recordedEnum is an enumerated flag's value that records in given that
// it was set, and lists the values it takes.
type recordedEnum struct {
	recorded
	values []string
}

// Values returns the values the flag takes, a fresh slice.
func (r *recordedEnum) Values() []string { return append([]string(nil), r.values...) }

// Strings returns values as strings.
func Strings[T ~string](values []T) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = string(v)
	}
	return out
}
