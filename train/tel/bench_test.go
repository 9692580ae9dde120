package tel

import (
	"fmt"
	"math/rand/v2"
	"runtime"
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

// BenchmarkPasses measures one minibatch (256 rows of twonorm, 10 trees of
// depth 10, γ = 1) of the conditional and of the full passes, forward,
// backward and gradient, at weights of several scales, which set the
// fraction of the leaves the rows reach ("density"): the figures behind
// fullDensity.
//
//	go test ./train/tel -run '^$' -bench Passes
func BenchmarkPasses(b *testing.B) {
	d := readTestdata(b, "twonorm")
	o := speedOptions(10, SmoothStep, Conditional)
	s, err := o.settings(false)
	if err != nil {
		b.Fatal(err)
	}
	st, err := fitStandardiser(d, false)
	if err != nil {
		b.Fatal(err)
	}
	x, err := st.apply(d, false, "training")
	if err != nil {
		b.Fatal(err)
	}
	const rows = 256
	for _, scale := range []float64{0.01, 0.1, 0.2, 0.3, 0.5, 1} {
		e := newEnsemble(s.trees, s.depth, d.Cols, 1, s)
		rng := rand.New(rand.NewPCG(1, 2))
		for i := range e.w {
			e.w[i] = scale * (2*rng.Float64() - 1)
		}
		for i := range e.o {
			e.o[i] = 2*rng.Float64() - 1
		}
		g := e.newGradient()
		out := make([]float64, rows)
		dT := make([]float64, rows)
		row := func(r int) []float64 { return x[r*d.Cols : (r+1)*d.Cols] }
		loss := func(r int, o, d []float64) { d[0] = 1.0 / rows }
		for _, full := range []bool{false, true} {
			name := "conditional"
			if full {
				name = "full"
			}
			b.Run(fmt.Sprintf("scale=%g/%s", scale, name), func(b *testing.B) {
				ps := newPasses(e, rows, runtime.GOMAXPROCS(0))
				b.ReportAllocs()
				reached := 0
				for b.Loop() {
					ps.density = 0
					if full {
						ps.density = 1
					}
					reached = ps.forward(rows, row, out, loss, dT, nil)
					ps.gradient(g, dT, nil)
				}
				b.ReportMetric(float64(reached)/float64(rows*e.trees*e.leaves), "density")
			})
		}
	}
}
