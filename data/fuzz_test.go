package data_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/treegen/treegen/data"
)

func FuzzRead(f *testing.F) {
	f.Add([]byte("a\tb\ttarget\n1\tNA\t0\n?\t2.5\t1\n"), uint8(0), uint8(0))
	f.Add([]byte("a\tb\r\n1\t\r\n\r\n"), uint8(1), uint8(0))
	f.Add([]byte("\"x,y\",target\n1,\"2\"\n"), uint8(2), uint8(0))
	f.Add([]byte("1 1:0.5 3:2 # c\n0 2:-1\n-1\n"), uint8(3), uint8(0))
	f.Add([]byte("2 qid:1 1:1 4:?\n"), uint8(0), uint8(5))
	f.Add([]byte(gzipped("a\ttarget\n1\t2\n")), uint8(0), uint8(0))
	f.Fuzz(func(t *testing.T, in []byte, format, numFeatures uint8) {
		opts := data.Options{Format: data.Format(format % 4), NumFeatures: int(numFeatures % 16)}
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
	})
}
