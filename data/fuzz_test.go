package data_test

import (
	"bytes"
	"errors"
	"slices"
	"testing"

	"github.com/treegen/treegen/data"
)

func FuzzRead(f *testing.F) {
	f.Add([]byte("a\tb\ttarget\n1\tNA\t0\n?\t2.5\t1\n"), uint8(0), uint8(0), uint8(0))
	f.Add([]byte("a\tb\r\n1\t\r\n\r\n"), uint8(1), uint8(0), uint8(0))
	f.Add([]byte("\"x,y\",target\n1,\"2\"\n"), uint8(2), uint8(0), uint8(0))
	f.Add([]byte("1 1:0.5 3:2 # c\n0 2:-1\n-1\n"), uint8(3), uint8(0), uint8(0))
	f.Add([]byte("2 qid:1 1:1 4:?\n"), uint8(0), uint8(5), uint8(0))
	f.Add([]byte(gzipped("a\ttarget\n1\t2\n")), uint8(0), uint8(0), uint8(0))
	f.Add([]byte("a,target\n1,M\n2,B\n3,7\n"), uint8(2), uint8(0), uint8(0))
	f.Add([]byte("yes 0:1 2:3\n1:2\n"), uint8(3), uint8(0), uint8(1|2|4))
	f.Add([]byte("1,2,NA\n3,,4\n"), uint8(2), uint8(0), uint8(1<<4))
	f.Add([]byte("0\t1\t2\n1e3\t-inf\t0x1p4\n"), uint8(1), uint8(0), uint8(3<<4))
	f.Fuzz(func(t *testing.T, in []byte, format, numFeatures, flags uint8) {
		opts := data.Options{
			Format:      data.Format(format % 4),
			NumFeatures: int(numFeatures % 16),
			DropTarget:  flags&1 != 0,
			Absent:      data.Absent(flags >> 1 & 1),
			IndexBase:   data.IndexBase(flags >> 2 % 3),
			Header:      data.Header(flags >> 4 & 3),
		}
		d, err := data.Read(bytes.NewReader(in), "fuzz", opts)
		if err != nil {
			var e *data.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v is a %T, not a *data.Error", err, err)
			}
			return
		}
		if len(d.X) != d.Rows*d.Cols {
			t.Fatalf("len(X) = %d, Rows*Cols = %d*%d", len(d.X), d.Rows, d.Cols)
		}
		if len(d.Features) != d.Cols || (d.Y != nil && len(d.Y) != d.Rows) || d.Rows == 0 {
			t.Fatalf("bad shape: %d features, %d targets, %d rows, %d cols", len(d.Features), len(d.Y), d.Rows, d.Cols)
		}
		if d.NoHeader && (d.Format == data.FormatLibSVM || opts.Header == data.HeaderRequired || opts.Header == data.HeaderPresent) {
			t.Fatalf("NoHeader set reading %v with Header %v", d.Format, opts.Header)
		}
		if opts.DropTarget && d.Y != nil {
			t.Fatalf("DropTarget read %d targets", len(d.Y))
		}
		if d.Labels != nil {
			if !slices.IsSorted(d.Labels) || len(slices.Compact(slices.Clone(d.Labels))) != len(d.Labels) {
				t.Fatalf("Labels %q are not sorted and distinct", d.Labels)
			}
			for r, v := range d.Y {
				if v != float64(int(v)) || v < 0 || int(v) >= len(d.Labels) {
					t.Fatalf("Y[%d] = %v is not an index of %d labels", r, v, len(d.Labels))
				}
			}
		}
	})
}
