package main

import (
	"fmt"
	"strings"
)

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
