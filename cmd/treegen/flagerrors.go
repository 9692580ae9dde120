package main

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The errors of parsing a command's flags are one line that names the
// flag, in the command's own words: an unknown flag gets the flags it may
// have meant, a value that is not one of the flag's type says which type
// it wants, and no message shows the strconv errors underneath.

// flagError is the root's FlagErrorFunc, which cobra calls, for every
// command, with the error of parsing its flags.
func flagError(cmd *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	var invalid *pflag.InvalidValueError
	var missing *pflag.ValueRequiredError
	switch {
	case errors.As(err, &unknown):
		return unknownFlag(cmd, unknown)
	case errors.As(err, &invalid):
		return invalidValue(invalid)
	case errors.As(err, &missing):
		return fmt.Errorf("--%s needs a value", missing.GetFlag().Name)
	}
	return err
}

// maxSuggestions bounds the flags an unknown flag's error suggests.
const maxSuggestions = 3

// unknownFlag says that cmd has no flag e names, suggests the flags of cmd
// that it may have meant, and says where they are listed.
func unknownFlag(cmd *cobra.Command, e *pflag.NotExistError) error {
	typed := "--" + e.GetSpecifiedName()
	name := e.GetSpecifiedName()
	if short := e.GetSpecifiedShortnames(); short != "" {
		// -model: a single dash before a long name reads as shorthands.
		typed, name = "-"+short, short
	}
	msg := "unknown flag " + typed
	if s := suggestFlags(cmd, name); len(s) > 0 {
		msg += " (did you mean " + orList(s) + "?)"
	}
	return fmt.Errorf("%s; %s --help lists the flags", msg, cmd.CommandPath())
}

// suggestFlags returns the flags of cmd (as --name) that typed, the name
// of a flag it does not have, may have meant: those within cobra's
// suggestion distance of it (edit distance, letter case aside), and those
// whose name it begins; the closest first, at most maxSuggestions.
func suggestFlags(cmd *cobra.Command, typed string) []string {
	dist := cmd.SuggestionsMinimumDistance
	if dist <= 0 {
		dist = 2
	}
	typed = strings.ToLower(strings.TrimLeft(typed, "-"))
	type candidate struct {
		name string
		d    int
	}
	var cands []candidate
	seen := map[string]bool{}
	visit := func(f *pflag.Flag) {
		if f.Hidden || f.Deprecated != "" || seen[f.Name] {
			return
		}
		seen[f.Name] = true
		d := editDistance(typed, strings.ToLower(f.Name))
		if d <= dist || len(typed) > 1 && strings.HasPrefix(f.Name, typed) {
			cands = append(cands, candidate{f.Name, d})
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].d != cands[j].d {
			return cands[i].d < cands[j].d
		}
		return cands[i].name < cands[j].name
	})
	var names []string
	for i, c := range cands {
		if i == maxSuggestions {
			break
		}
		names = append(names, "--"+c.name)
	}
	return names
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// invalidValue says why the value of a flag is not one of its type:
// "--max-depth: "four" is not an integer". A flag of a type of its own
// (--precision, --libsvm-absent) gives its own reason.
func invalidValue(e *pflag.InvalidValueError) error {
	f, v := e.GetFlag(), e.GetValue()
	name := "--" + f.Name
	switch typ := f.Value.Type(); typ {
	case "int", "int8", "int16", "int32", "int64":
		return integerError(name, v, true, bitSize(typ))
	case "uint", "uint8", "uint16", "uint32", "uint64":
		return integerError(name, v, false, bitSize(typ))
	case "float32", "float64":
		if _, err := strconv.ParseFloat(v, bitSize(typ)); errors.Is(err, strconv.ErrRange) {
			return fmt.Errorf("%s: %s is out of range for a number", name, v)
		}
		return fmt.Errorf("%s: %q is not a number", name, v)
	case "bool":
		return fmt.Errorf("%s: %q is not a boolean: write %s=true or %s=false", name, v, name, name)
	case "duration":
		return fmt.Errorf("%s: %q is not a duration, such as 500ms, 2s or 1m30s", name, v)
	}
	cause := errors.Unwrap(e)
	var num *strconv.NumError
	if cause == nil || errors.As(cause, &num) {
		return fmt.Errorf("%s: %q is not a valid value", name, v)
	}
	return fmt.Errorf("%s: %v", name, cause)
}

// bitSize returns the size in bits of a numeric flag type: 64 for int,
// uint and float64, and the number its name ends in otherwise.
func bitSize(typ string) int {
	digits := strings.TrimLeft(typ, "abcdefghijklmnopqrstuvwxyz")
	if n, err := strconv.Atoi(digits); err == nil {
		return n
	}
	return strconv.IntSize
}

// integerError says why v is not a value of an integer flag, signed or
// not, of the given size: not a number, a number that is not an integer
// (2.5, and 1e3, which has to be written 1000), negative for an unsigned
// flag, or out of range.
func integerError(name, v string, signed bool, bits int) error {
	kind := "an integer"
	if !signed {
		kind = "an integer >= 0"
	}
	var err error
	if signed {
		_, err = strconv.ParseInt(v, 0, bits)
	} else {
		_, err = strconv.ParseUint(v, 0, bits)
	}
	if errors.Is(err, strconv.ErrRange) {
		return fmt.Errorf("%s: %s is out of range for %s", name, v, kind)
	}
	x, ferr := strconv.ParseFloat(v, 64)
	switch {
	case ferr != nil && !errors.Is(ferr, strconv.ErrRange):
		return fmt.Errorf("%s: %q is not %s", name, v, kind)
	case !signed && x < 0:
		return fmt.Errorf("%s: %s is negative; want an integer >= 0", name, v)
	case signed && (x < -math.Ldexp(1, bits-1) || x >= math.Ldexp(1, bits-1)), !signed && x >= math.Ldexp(1, bits):
		return fmt.Errorf("%s: %s is out of range for %s", name, v, kind)
	case x != math.Trunc(x) || math.IsNaN(x):
		return fmt.Errorf("%s: %s is not %s", name, v, kind)
	}
	return fmt.Errorf("%s: %s is not written as an integer: write %s", name, v, strconv.FormatFloat(x, 'f', -1, 64))
}
