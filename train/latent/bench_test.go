package latent

import (
	"math/rand/v2"
	"testing"
)

// BenchmarkGradient times one minibatch's forward and backward passes (512
// rows of 537_houses, depth 6): margins, the tree program, the read-out,
// and back.
func BenchmarkGradient(b *testing.B) {
	d := readPMLB(b, "537_houses", 512)
	o := DefaultOptions(SquaredError)
	o.Depth, o.Epochs = 6, 1
	s, err := o.settings(false)
	if err != nil {
		b.Fatal(err)
	}
	tgt, err := newTarget(d, s)
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float64, len(d.X))
	copy(x, d.X)
	for j := range d.Cols { // standardise roughly: the scale matters, not the exact values
		lo, hi := x[j], x[j]
		for r := range d.Rows {
			lo, hi = min(lo, x[r*d.Cols+j]), max(hi, x[r*d.Cols+j])
		}
		for r := range d.Rows {
			x[r*d.Cols+j] = (x[r*d.Cols+j] - lo) / max(hi-lo, 1)
		}
	}
	y, err := tgt.labels(d, "training")
	if err != nil {
		b.Fatal(err)
	}
	for _, threads := range []int{1, 2} {
		b.Run(map[int]string{1: "threads=1", 2: "threads=2"}[threads], func(b *testing.B) {
			nt := newNet(d.Cols, 1, 6, false)
			nt.init(x, d.Rows, tgt, y, newRand(1))
			ps := newPass(nt, tgt, d.Rows, threads)
			idx := make([]int, d.Rows)
			for i := range idx {
				idx[i] = i
			}
			b.ReportAllocs()
			for b.Loop() {
				ps.gradient(x, y, idx, 0.01)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(d.Rows), "ns/row")
		})
	}
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x1a7e47)) }
