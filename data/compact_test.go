package data

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestCompact reads files with Options.Compact at every chunk size and
// checks that the values are those of a plain read, in XC when every
// value is a short decimal and in X otherwise, and that the methods of
// Dataset see the same rows either way.
func TestCompact(t *testing.T) {
	tests := []struct {
		name, in string
		compact  bool
	}{
		{"short.csv", "a,b,target\n0.5,-2,1\n1e3,NA,0\n-inf,0.1234567,1\n3,-0,0\n6.02e10,1e-22,1\n", true},
		{"late.csv", "a,b,target\n0.5,-2,1\n1e3,NA,0\n-inf,0.25,1\n3,0.123456789012,0\n", false},
		{"first.tsv", "a\tb\ttarget\n1e-23\t-2\t1\n1e3\t?\t0\n", false},
		{"short.libsvm", "1 1:0.5 3:2\n0 2:-1.75e-3\n", true},
		{"long.libsvm", "1 1:0.5 3:2\n0 2:1e-300\n", false},
		{"target-only.csv", "target\n1\n2\n", true},
		{"float32.csv", "a,b,target\n0.5,-2,1\n8.325200080871582,NA,0\n-122.2300033569336,37.880001068115234,1\n3,4,0\n", true},
		{"neither.csv", "a,b,target\n0.5,-2,1\n8.325200080871582,NA,0\n-122.2300033569336,0.1,1\n3,4,0\n", false},
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
				whole := *want
				whole.compact()
				if got.IsCompact() && got.xcKind != whole.xcKind {
					t.Fatalf("chunks of %d: kind %d, the whole file's %d", size, got.xcKind, whole.xcKind)
				}
				if got.IsCompact() && (got.X != nil || len(got.XC) != got.Rows*got.Cols) {
					t.Fatalf("chunks of %d: compact with %d values in X and %d in XC", size, len(got.X), len(got.XC))
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
	if sub.IsCompact() || sub.XC != nil {
		t.Errorf("Expand left XC")
	}
	if diff := sameData(sub, wsub); diff != "" {
		t.Errorf("expanded Subset: %s", diff)
	}
}

// TestCompactValues checks that compact values give back the float64 of
// the decimals they are made from, bit for bit, and that the numbers that
// have none are refused.
func TestCompactValues(t *testing.T) {
	for _, tt := range []struct {
		s  string
		ok bool
	}{
		{"0", true}, {"-0", true}, {"1", true}, {"-2.5", true}, {"0.1", true}, {"0.1234567", true},
		{"12345678", true}, {"67108863", true}, {"67108864", false}, {"671088630", true}, {"-8.044e-09", true},
		{"1e-22", true}, {"1e-23", false}, {"6.02e10", true}, {"6.02e23", false}, {"6.7e15", true}, {"1e17", false},
		{"123456789", false}, {"0.30000000000000004", false}, {"inf", true}, {"-inf", true}, {"nan", true},
		{"3.4028234663852886e38", false}, {"5e-324", false},
	} {
		v, err := strconv.ParseFloat(tt.s, 64)
		if err != nil {
			t.Fatal(err)
		}
		c, ok := encodeCompact(v)
		if ok != tt.ok {
			t.Errorf("%s: encoded %v, want %v", tt.s, ok, tt.ok)
			continue
		}
		if got := decodeCompact(c); ok && math.Float64bits(got) != math.Float64bits(v) && !(v != v && got != got) {
			t.Errorf("%s: %v (bits %x) comes back as %v (bits %x)", tt.s, v, math.Float64bits(v), got, math.Float64bits(got))
		}
	}
	// Every decimal of up to 7 significant digits, at every scale a data
	// file writes, has a compact value.
	r := rand.New(rand.NewPCG(1, 2))
	for range 200_000 {
		s := strconv.FormatFloat(r.NormFloat64()*math.Pow(10, float64(r.IntN(16)-8)), 'g', 1+r.IntN(7), 64)
		v, _ := strconv.ParseFloat(s, 64)
		c, ok := encodeCompact(v)
		if !ok || math.Float64bits(decodeCompact(c)) != math.Float64bits(v) {
			t.Fatalf("%s: encoded %v, decodes to %v", s, ok, decodeCompact(c))
		}
	}
}

// FuzzCompact checks that whatever encodes decodes to the same bits.
func FuzzCompact(f *testing.F) {
	f.Add(uint64(0x3fb999999999999a))
	f.Add(uint64(0x8000000000000000))
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		c, ok := encodeCompact(v)
		if !ok {
			return
		}
		got := decodeCompact(c)
		if math.Float64bits(got) != bits && !(v != v && got != got) {
			t.Fatalf("%v (bits %x) comes back as %v (bits %x)", v, bits, got, math.Float64bits(got))
		}
	})
}

// TestCompactParts checks Dataset.compact on values in many parts, whose
// kinds differ from part to part.
func TestCompactParts(t *testing.T) {
	n := 3*compactPart + 17
	for _, tt := range []struct {
		name string
		at   func(i int) float64
		kind compactKind
		ok   bool
	}{
		{"decimals", func(i int) float64 { return float64(i%1000) / 100 }, compactDecimal, true},
		{"decimals then float32", func(i int) float64 {
			if i < 2*compactPart {
				return float64(i%1000) / 4
			}
			return float64(float32(float64(i) / 3))
		}, compactFloat32, true},
		{"neither at the end", func(i int) float64 {
			if i == n-1 {
				return 0.1 + 1e-12
			}
			return float64(i % 10)
		}, 0, false},
	} {
		d := &Dataset{X: make([]float64, n), Rows: n, Cols: 1}
		for i := range d.X {
			d.X[i] = tt.at(i)
		}
		want := slices.Clone(d.X)
		d.compact()
		if d.IsCompact() != tt.ok || tt.ok && d.xcKind != tt.kind {
			t.Fatalf("%s: IsCompact %v kind %d, want %v %d", tt.name, d.IsCompact(), d.xcKind, tt.ok, tt.kind)
		}
		for i, w := range want {
			if got := d.At(i, 0); math.Float64bits(got) != math.Float64bits(w) {
				t.Fatalf("%s: value %d is %v, want %v", tt.name, i, got, w)
			}
		}
	}
}
