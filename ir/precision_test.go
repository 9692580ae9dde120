package ir_test

import (
	"flag"
	"io"
	"testing"

	"github.com/treegen/treegen/ir"
)

func TestPrecision(t *testing.T) {
	for _, tc := range []struct {
		in      string
		want    ir.Precision
		bits    int
		wantErr string
	}{
		{"float64", ir.Float64, 64, ""},
		{"float32", ir.Float32, 32, ""},
		{"float16", "", 0, `unknown precision "float16" (want float64 or float32)`},
		{"", "", 0, `unknown precision "" (want float64 or float32)`},
		{"Float32", "", 0, `unknown precision "Float32" (want float64 or float32)`},
	} {
		got, err := ir.ParsePrecision(tc.in)
		if tc.wantErr != "" {
			if err == nil || err.Error() != tc.wantErr {
				t.Errorf("ParsePrecision(%q): %v, want %s", tc.in, err, tc.wantErr)
			}
			continue
		}
		if err != nil || got != tc.want || got.BitSize() != tc.bits || got.String() != tc.in || got.Is32() != (tc.bits == 32) {
			t.Errorf("ParsePrecision(%q) = %v (%d bits), %v", tc.in, got, got.BitSize(), err)
		}
	}
	var zero ir.Precision
	if r, err := zero.Resolve(); err != nil || r != ir.Float64 || zero.String() != "float64" {
		t.Errorf("the zero precision resolves to %v, %v; says %s", r, err, zero)
	}
	if _, err := ir.Precision("f32").Resolve(); err == nil {
		t.Error(`Precision("f32").Resolve() accepts it`)
	}
	// As a command-line flag.
	p := ir.Float64
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.Var(&p, "precision", "")
	if err := fs.Parse([]string{"--precision", "float32"}); err != nil || p != ir.Float32 {
		t.Errorf("--precision float32: %v, %v", p, err)
	}
	fs.SetOutput(io.Discard)
	if err := fs.Parse([]string{"--precision", "double"}); err == nil {
		t.Error("--precision double accepted")
	}
	if p.Type() != "precision" {
		t.Errorf("Type() = %s", p.Type())
	}
}

func TestRecordedPrecision(t *testing.T) {
	for _, tc := range []struct {
		cmp, sum bool
		want     ir.Precision
	}{
		{false, false, ir.Float64},
		{true, false, ir.Float32},
		{false, true, ir.Float32},
		{true, true, ir.Float32},
	} {
		m := &ir.Model{Float32Compare: tc.cmp, Float32Sum: tc.sum}
		if got := m.RecordedPrecision(); got != tc.want {
			t.Errorf("Float32Compare %v, Float32Sum %v: RecordedPrecision() = %s, want %s", tc.cmp, tc.sum, got, tc.want)
		}
	}
}
