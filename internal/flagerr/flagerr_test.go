package flagerr

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"testing"
)

func TestSuggest(t *testing.T) {
	known := []string{"model", "max-depth", "colsample-bynode", "colsample-bylevel", "json", "precision", "out", "model"}
	for _, tc := range []struct {
		typed string
		dist  int
		want  []string
	}{
		{"modle", 0, []string{"model"}},
		{"--modle", 2, []string{"model"}},
		{"JSON", 0, []string{"json"}},
		{"prec", 0, []string{"precision"}},
		{"max-dept", 0, []string{"max-depth"}},
		{"colsample-by", 0, []string{"colsample-bynode", "colsample-bylevel"}},
		{"modle", 1, nil},
		{"zzzzzzzz", 0, nil},
		{"o", 0, []string{"out"}},
		{"m", 0, nil},
	} {
		if got := Suggest(tc.typed, known, tc.dist); !slices.Equal(got, tc.want) {
			t.Errorf("Suggest(%q, %d) = %q, want %q", tc.typed, tc.dist, got, tc.want)
		}
	}
	if got := Suggest("a", []string{"ab", "ac", "ad", "ae", "af"}, 0); len(got) != MaxSuggestions {
		t.Errorf("Suggest gave %d names, want at most %d: %q", len(got), MaxSuggestions, got)
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"abc", "", 3},
		{"", "abc", 3},
		{"model", "modle", 2},
		{"kitten", "sitting", 3},
		{"depth", "depth", 0},
	} {
		if got := editDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestInvalid(t *testing.T) {
	_, numErr := strconv.Atoi("x")
	for _, tc := range []struct {
		typ, v string
		cause  error
		want   string
	}{
		{"int", "four", nil, `--f: "four" is not an integer`},
		{"int", "2.5", nil, `--f: 2.5 is not an integer`},
		{"int", "1e3", nil, `--f: 1e3 is not written as an integer: write 1000`},
		{"int", "1e99", nil, `--f: 1e99 is out of range for an integer`},
		{"int", "99999999999999999999", nil, `--f: 99999999999999999999 is out of range for an integer`},
		{"int8", "200", nil, `--f: 200 is out of range for an integer`},
		{"int", "NaN", nil, `--f: NaN is not an integer`},
		{"uint64", "one", nil, `--f: "one" is not an integer >= 0`},
		{"uint", "-1", nil, `--f: -1 is negative; want an integer >= 0`},
		{"uint64", "18446744073709551616", nil, `--f: 18446744073709551616 is out of range for an integer >= 0`},
		{"float64", "fast", nil, `--f: "fast" is not a number`},
		{"float64", "1e999", nil, `--f: 1e999 is out of range for a number`},
		{"float32", "1e39", nil, `--f: 1e39 is out of range for a number`},
		{"bool", "yes", nil, `--f: "yes" is not a boolean: write --f=true or --f=false`},
		{"duration", "2", nil, `--f: "2" is not a duration, such as 500ms, 2s or 1m30s`},
		{"precision", "double", errors.New("unknown precision \"double\""), `--f: unknown precision "double"`},
		{"precision", "x", nil, `--f: "x" is not a valid value`},
		{"count", "x", fmt.Errorf("wrapped: %w", numErr), `--f: "x" is not a valid value`},
	} {
		if got := Invalid("--f", tc.typ, tc.v, tc.cause).Error(); got != tc.want {
			t.Errorf("Invalid(%s, %q) = %q, want %q", tc.typ, tc.v, got, tc.want)
		}
	}
}

func TestBitSize(t *testing.T) {
	for typ, want := range map[string]int{"int": strconv.IntSize, "uint": strconv.IntSize, "int8": 8, "uint16": 16, "float32": 32, "float64": 64} {
		if got := bitSize(typ); got != want {
			t.Errorf("bitSize(%q) = %d, want %d", typ, got, want)
		}
	}
}
