package main

import (
	"fmt"
	"math"
	"strings"
)

// The checks below refuse a flag value the command cannot honour, naming the
// flag. The packages behind the commands read a zero option as "the
// default"; on the command line a 0 would read as "none", so each command
// checks its flags before it calls them, and a value that means something
// special (0 for "unlimited", "off" or "all cores") is said so in the flag's
// help.

// atLeast requires an integer flag to be >= lo.
func atLeast(flag string, v, lo int) error {
	if v < lo {
		return fmt.Errorf("--%s must be at least %d, got %d", flag, lo, v)
	}
	return nil
}

// intBetween requires an integer flag to lie in [lo, hi].
func intBetween(flag string, v, lo, hi int) error {
	if v < lo || v > hi {
		return fmt.Errorf("--%s must be between %d and %d, got %d", flag, lo, hi, v)
	}
	return nil
}

// positive requires a float flag to be a finite number > 0.
func positive(flag string, v float64) error {
	if !(v > 0) || math.IsInf(v, 0) {
		return fmt.Errorf("--%s must be a finite number > 0, got %v", flag, v)
	}
	return nil
}

// nonNegative requires a float flag to be a finite number >= 0.
func nonNegative(flag string, v float64) error {
	if !(v >= 0) || math.IsInf(v, 0) {
		return fmt.Errorf("--%s must be a finite number >= 0, got %v", flag, v)
	}
	return nil
}

// fraction requires a float flag to lie in (0, 1].
func fraction(flag string, v float64) error {
	if !(v > 0 && v <= 1) {
		return fmt.Errorf("--%s must be in (0, 1], got %v", flag, v)
	}
	return nil
}

// oneOf requires a string flag to be one of the values.
func oneOf(flag, v string, values ...string) error {
	for _, w := range values {
		if v == w {
			return nil
		}
	}
	return fmt.Errorf("--%s must be %s, got %q", flag, orList(values), v)
}

// orList joins values as "a, b or c".
func orList(values []string) string {
	if len(values) < 2 {
		return strings.Join(values, "")
	}
	return strings.Join(values[:len(values)-1], ", ") + " or " + values[len(values)-1]
}

// firstError returns the first non-nil error: the checks of a command's
// flags, in the order its help lists them.
func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
