package xgboost

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkDecode/twonorm imports the 1,000-tree fixture (7 MB of JSON).
func BenchmarkDecode(b *testing.B) {
	for _, c := range []struct{ name, path string }{
		{"twonorm", filepath.Join(fixtures, "twonorm_1000x64", "model.json")},
		{"satimage_ubj", "testdata/ubj/satimage_softmax_d5.ubj"},
	} {
		data, err := os.ReadFile(c.path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Decode(data, c.path); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
