package gbdt

import (
	"testing"
)

// BenchmarkTrain trains 100 rounds of depth 6 (the comparison's settings) on
// shared data sets, with the default number of threads.
func BenchmarkTrain(b *testing.B) {
	for _, name := range []string{"letter", "sleep", "dna", "twonorm", "537_houses"} {
		b.Run(name, func(b *testing.B) {
			d := readDataset(b, name)
			obj := Softmax
			switch name {
			case "twonorm":
				obj = Logistic
			case "537_houses":
				obj = SquaredError
			}
			opts := Options{Objective: obj, LearningRate: 0.1}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Train(d, nil, opts); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
