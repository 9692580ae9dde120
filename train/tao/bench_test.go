package tao

import "testing"

// BenchmarkTrain measures training on vehicle (846 rows, 18 features, 4
// classes): an ST of depth 4 and an AST with the package defaults.
func BenchmarkTrain(b *testing.B) {
	d := readPMLB(b, "vehicle")
	for _, c := range []struct {
		name string
		opts Options
	}{
		{"st", Options{Kind: ST, Depth: 4, K: 2, Seed: 1}},
		{"ast", Options{Kind: AST, Seed: 1}},
		{"softmax", Options{Kind: Softmax}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Train(d, nil, c.opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkPredictClass measures the trainer's own prediction of one row
// of an AST on vehicle.
func BenchmarkPredictClass(b *testing.B) {
	d := readPMLB(b, "vehicle")
	t, err := Fit(d, nil, Options{Kind: AST, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	r := 0
	for b.Loop() {
		t.PredictClass(d.Row(r))
		r = (r + 1) % d.Rows
	}
}
