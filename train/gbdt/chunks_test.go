package gbdt

import (
	"testing"

	"github.com/treegen/treegen/data"
)

// TestChunkedDeterminism trains on enough rows that histograms are built,
// partitions made and root sums taken in several chunks, and checks that
// the model is the same, byte for byte, for any number of goroutines.
func TestChunkedDeterminism(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 40,000 rows")
	}
	d := randomData(21, 40000, 9, 3, 0.05)
	if bm := newBinned(d, 256, 1); bm.chunkRows*2 > d.Rows || chunkRows*2 > d.Rows {
		t.Fatalf("chunks of %d and %d rows: too few chunks in %d rows", bm.chunkRows, chunkRows, d.Rows)
	}
	for _, opts := range []Options{
		{Objective: Softmax, Rounds: 4, MaxDepth: 5},
		{Objective: Logistic, Rounds: 6, Subsample: 0.8, ColSampleByNode: 0.7, Seed: 2},
		{Objective: SquaredError, Rounds: 5, MaxLeaves: 20},
	} {
		if opts.Objective == Logistic {
			d = binaryTarget(d)
		}
		sameForThreads(t, d, opts, 1, 2, 5)
	}
}

// binaryTarget returns d with its target reduced to two classes.
func binaryTarget(d *data.Dataset) *data.Dataset {
	c := *d
	c.Y = make([]float64, len(d.Y))
	for i, y := range d.Y {
		c.Y[i] = float64(int(y) % 2)
	}
	return &c
}
