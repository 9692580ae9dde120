package flagerr

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// MaxSuggestions bounds the names Suggest returns.
const MaxSuggestions = 3

// Suggest returns the names among known that typed, the name of a flag
// that does not exist, may have meant: those within edit distance dist of
// it (letter case aside; dist <= 0 means 2), and those that it begins
// (when it is longer than one letter); the closest first, then in
// alphabetical order, at most MaxSuggestions. Leading dashes of typed are
// ignored; a name given twice in known counts once.
func Suggest(typed string, known []string, dist int) []string {
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
	for _, name := range known {
		if seen[name] {
			continue
		}
		seen[name] = true
		d := editDistance(typed, strings.ToLower(name))
		if d <= dist || len(typed) > 1 && strings.HasPrefix(name, typed) {
			cands = append(cands, candidate{name, d})
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].d != cands[j].d {
			return cands[i].d < cands[j].d
		}
		return cands[i].name < cands[j].name
	})
	var names []string
	for i, c := range cands {
		if i == MaxSuggestions {
			break
		}
		names = append(names, c.name)
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

// Invalid says why v is not a value of the flag name (as the user writes
// it, such as "--max-depth") whose value type is typ (pflag's type names:
// "int", "uint8", "float64", "bool", "duration", ...): "--max-depth:
// "four" is not an integer". For a type of its own, cause, the error of
// parsing v, gives the reason, unless it is nil or a strconv error.
func Invalid(name, typ, v string, cause error) error {
	switch typ {
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
