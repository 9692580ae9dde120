package tel

import (
	"testing"
	"time"
)

// BenchmarkEpoch measures the seconds per training epoch of 10 trees of
// depth 10 with γ = 1 on twonorm (the paper's timing set-up: minibatches of
// 256 rows, learning rate 0.1), for the conditional smooth-step passes, the
// dense smooth-step passes and the dense logistic passes. Every iteration
// trains benchEpochs epochs from the same initial weights; the metrics are
// the mean seconds per epoch ("s/epoch", minibatch updates only) and the
// mean number of leaves a row reaches per tree ("leaves/row").
//
//	go test ./train/tel -run '^$' -bench Epoch -benchtime 1x
func BenchmarkEpoch(b *testing.B) {
	d := readTestdata(b, "twonorm")
	for _, c := range []struct {
		name string
		act  Activation
		mode Mode
	}{
		{"conditional-smoothstep", SmoothStep, Conditional},
		{"dense-smoothstep", SmoothStep, Dense},
		{"dense-logistic", LogisticActivation, Dense},
	} {
		b.Run(c.name, func(b *testing.B) {
			opts := speedOptions(10, c.act, c.mode)
			b.ReportAllocs()
			var train time.Duration
			var leaves float64
			epochs := 0
			for b.Loop() {
				opts.OnEpoch = func(i EpochInfo) {
					train += i.TrainTime
					leaves += i.ReachableLeaves
					epochs++
				}
				if _, err := Fit(d, nil, opts); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(train.Seconds()/float64(epochs), "s/epoch")
			b.ReportMetric(leaves/float64(epochs), "leaves/row")
		})
	}
}

// benchEpochs is the number of epochs of an iteration of BenchmarkEpoch.
const benchEpochs = 10

// speedOptions are the options of the timing comparison.
func speedOptions(depth int, act Activation, mode Mode) Options {
	o := DefaultOptions(Logistic)
	o.Depth = depth
	o.Activation = act
	o.Mode = mode
	o.LearningRate = 0.1
	o.Epochs = benchEpochs
	return o
}
