package lightgbm

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/treegen/treegen/runtime"
)

// FuzzDecode feeds arbitrary bytes to Decode: it must never panic, fail
// only with an *Error, and return only models that pass Validate and load
// into the interpreter. Seeds are the test models, a deep chain and the
// files in testdata/fuzz/FuzzDecode.
func FuzzDecode(f *testing.F) {
	files, err := filepath.Glob("testdata/*.txt")
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range files {
		f.Add(readTestdata(f, filepath.Base(path)))
	}
	f.Add([]byte(chain(3)))
	f.Add([]byte(chain(101)))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, "fuzz.txt")
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *Error: %v", err, err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Decode returned an invalid model: %v", err)
		}
		p, err := runtime.New[float64](m)
		if err != nil {
			t.Fatal(err)
		}
		x := make([]float64, m.NumFeatures)
		out := make([]float64, m.NumOutputs)
		if err := p.PredictMargin(x, out); err != nil {
			t.Fatal(err)
		}
	})
}
