package xgboost

import (
	"bytes"
	"os"
	"testing"

	"github.com/treegen/treegen/ir"
)

// FuzzDecode feeds arbitrary bytes to Decode: it must never panic, and a
// model it returns must be valid and survive a round trip through the IR's
// JSON.
func FuzzDecode(f *testing.F) {
	for _, path := range []string{"testdata/tiny.json", "testdata/tiny.ubj"} {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
		f.Add(data[:len(data)/2])
	}
	f.Add([]byte(`{"learner": {"objective": {"name": "binary:logistic"}}}`))
	f.Add([]byte("{L\x00\x00\x00\x00\x00\x00\x00\x07learner{}}"))
	f.Add([]byte(`[NaN, -Infinity, "\ud800"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Decode(data, "fuzz.json")
		if err != nil {
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatalf("Decode returned an invalid model: %v", err)
		}
		out, err := ir.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := ir.Decode(out, "ir.json")
		if err != nil {
			t.Fatalf("the imported model does not decode as IR: %v", err)
		}
		again, err := ir.Marshal(back)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, again) {
			t.Fatalf("the IR round trip changes the model:\n%s", firstDiff(out, again))
		}
	})
}
