package gbdt

import (
	"testing"

	"github.com/treegen/treegen/data"
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

// BenchmarkConnect4 trains the softmax model of the speed comparison in
// docs/GBDT.md (200 rounds of 3 trees, depth 6, η 0.1) on connect_4 with
// one and two threads, and reports the time of the rounds alone as
// boost-s.
func BenchmarkConnect4(b *testing.B) {
	benchBoost(b, readDataset(b, "connect_4"), Options{Objective: Softmax, LearningRate: 0.1, Rounds: 200}, 1, 2)
}

// BenchmarkWide trains 50 rounds of one logistic tree on 200,000 rows of
// 50 features, half of them with 256 bins, and reports the boosting time.
func BenchmarkWide(b *testing.B) {
	benchBoost(b, randomData(1, 200000, 50, 2, 0), Options{Objective: Logistic, LearningRate: 0.1, Rounds: 50}, 1, 2)
}

// BenchmarkMillion trains 20 rounds of one logistic tree on 1,000,000
// rows of 50 features, with one thread, and reports the boosting time.
func BenchmarkMillion(b *testing.B) {
	benchBoost(b, randomData(1, 1000000, 50, 2, 0), Options{Objective: Logistic, LearningRate: 0.1, Rounds: 20}, 1)
}

// benchBoost trains on d with opts and each of threads, a sub-benchmark
// each, and reports the mean time of the rounds alone as boost-s.
func benchBoost(b *testing.B, d *data.Dataset, opts Options, threads ...int) {
	for _, th := range threads {
		b.Run(itoa(th), func(b *testing.B) {
			var t Timing
			opts.Threads, opts.Timing = th, &t
			b.ReportAllocs()
			boost := 0.0
			for b.Loop() {
				if _, err := Train(d, nil, opts); err != nil {
					b.Fatal(err)
				}
				boost += t.Boost.Seconds()
			}
			b.ReportMetric(boost/float64(b.N), "boost-s")
		})
	}
}
