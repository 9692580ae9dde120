// Package labelled holds the small data sets with text class labels that the
// trainers' tests share: in-memory CSV files whose target column holds words,
// in an order of rows that is not the sorted order of the labels.
package labelled

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// Read reads the CSV text in as the file name, with its target column, and
// fails the test on error.
func Read(t testing.TB, name, in string) *data.Dataset {
	t.Helper()
	d, err := data.Read(strings.NewReader(in), name, data.Options{RequireTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// CSV returns a CSV file of n rows of one feature x = 0..n-1, visited in the
// shuffled order x = 7i mod n (n must not be a multiple of 7), whose target
// is label(x).
func CSV(n int, label func(x int) string) string {
	var b strings.Builder
	b.WriteString("x,target\n")
	for i := range n {
		x := (i * 7) % n
		fmt.Fprintf(&b, "%d,%s\n", x, label(x))
	}
	return b.String()
}

// Species labels x < 20 "setosa", x < 40 "versicolor", else "virginica".
func Species(x int) string {
	switch {
	case x < 20:
		return "setosa"
	case x < 40:
		return "versicolor"
	}
	return "virginica"
}

// YesNo labels x >= half "yes", else "no".
func YesNo(half int) func(x int) string {
	return func(x int) string {
		if x >= half {
			return "yes"
		}
		return "no"
	}
}

// Check checks the outcome of a training: with wantErr "", that err is nil
// and the model's class names are want; otherwise that err says wantErr.
// It reports whether the model may be checked further.
func Check(t testing.TB, m *ir.Model, err error, wantErr string, want []string) bool {
	t.Helper()
	if wantErr != "" {
		if err == nil || err.Error() != wantErr {
			t.Fatalf("err = %v, want %s", err, wantErr)
		}
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.ClassNames, want) {
		t.Errorf("ClassNames = %q, want %q", m.ClassNames, want)
	}
	return true
}
