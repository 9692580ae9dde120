package data

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestCompact reads files with Options.Compact at every chunk size and
// checks that the values are those of a plain read, in X32 when every
// value is a float32 exactly and in X otherwise, and that the methods of
// Dataset see the same rows either way.
func TestCompact(t *testing.T) {
	tests := []struct {
		name, in string
		compact  bool
	}{
		{"exact.csv", "a,b,target\n0.5,-2,1\n1e3,NA,0\n-inf,0.25,1\n3,4,0\n", true},
		{"late.csv", "a,b,target\n0.5,-2,1\n1e3,NA,0\n-inf,0.25,1\n3,0.1,0\n", false},
		{"first.tsv", "a\tb\ttarget\n0.1\t-2\t1\n1e3\t?\t0\n", false},
		{"exact.libsvm", "1 1:0.5 3:2\n0 2:-1\n", true},
		{"inexact.libsvm", "1 1:0.5 3:2\n0 2:1e-300\n", false},
		{"target-only.csv", "target\n1\n2\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want, err := Read(strings.NewReader(tt.in), tt.name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for size := 1; size <= len(tt.in)+1; size++ {
				var got *Dataset
				withChunks(size, 2, func() { got, err = Read(strings.NewReader(tt.in), tt.name, Options{Compact: true}) })
				if err != nil {
					t.Fatal(err)
				}
				if got.IsCompact() != tt.compact {
					t.Fatalf("chunks of %d: IsCompact() = %v, want %v", size, got.IsCompact(), tt.compact)
				}
				if got.IsCompact() && (got.X != nil || len(got.X32) != got.Rows*got.Cols) {
					t.Fatalf("chunks of %d: compact with %d values in X and %d in X32", size, len(got.X), len(got.X32))
				}
				checkSameRows(t, got, want)
			}
		})
	}
}

// checkSameRows checks that the compact (or not) data set got has the
// rows of want, through Row, At, Column, Subset, Fingerprint and Expand.
func checkSameRows(t *testing.T, got, want *Dataset) {
	t.Helper()
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || a != a && b != b }
	for r := range want.Rows {
		for f, w := range want.Row(r) {
			if !same(got.Row(r)[f], w) || !same(got.At(r, f), w) {
				t.Fatalf("row %d feature %d: Row %v, At %v, want %v", r, f, got.Row(r)[f], got.At(r, f), w)
			}
		}
	}
	if b, w := got.Block(1, want.Rows, nil), want.X[want.Cols:]; len(b) != len(w) || len(w) > 0 && !same(b[len(b)-1], w[len(w)-1]) {
		t.Fatalf("Block(1, %d) has %d values, want %d", want.Rows, len(b), len(w))
	}
	for f := range want.Cols {
		col := got.Column(f, nil)
		for r, v := range col {
			if !same(v, want.At(r, f)) {
				t.Fatalf("Column(%d)[%d] = %v, want %v", f, r, v, want.At(r, f))
			}
		}
	}
	if !reflect.DeepEqual(got.Fingerprint(), want.Fingerprint()) {
		t.Errorf("Fingerprint %v, want %v", got.Fingerprint(), want.Fingerprint())
	}
	rows := []int{want.Rows - 1, 0, 0}
	sub, wsub := got.Subset(rows), want.Subset(rows)
	if sub.IsCompact() != got.IsCompact() {
		t.Errorf("Subset of a data set that IsCompact %v has IsCompact %v", got.IsCompact(), sub.IsCompact())
	}
	sub.Expand()
	if sub.IsCompact() || sub.X32 != nil {
		t.Errorf("Expand left X32")
	}
	if diff := sameData(sub, wsub); diff != "" {
		t.Errorf("expanded Subset: %s", diff)
	}
}
