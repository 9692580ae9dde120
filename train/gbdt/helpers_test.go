package gbdt

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// datasetDir holds the shared PMLB data sets (see its README.md).
const datasetDir = "../../testdata/pmlb"

func readDataset(tb testing.TB, name string) *data.Dataset {
	tb.Helper()
	d, err := data.ReadFile(filepath.Join(datasetDir, name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// newData builds an in-memory data set from rows and targets.
func newData(rows [][]float64, y []float64) *data.Dataset {
	d := &data.Dataset{Rows: len(rows), Y: y}
	if len(rows) > 0 {
		d.Cols = len(rows[0])
	}
	for _, r := range rows {
		d.X = append(d.X, r...)
	}
	for j := range d.Cols {
		d.Features = append(d.Features, "x"+strconv.Itoa(j))
	}
	return d
}

// column builds a one-feature data set.
func column(x, y []float64) *data.Dataset {
	rows := make([][]float64, len(x))
	for i, v := range x {
		rows[i] = []float64{v}
	}
	return newData(rows, y)
}

// randomData makes a data set of n rows and p features, some with few
// levels (ties) and some continuous, a fraction nan of the values missing,
// and a noisy target: classes 0..c-1, or real values when c == 0.
func randomData(seed uint64, n, p, c int, nan float64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	rows := make([][]float64, n)
	y := make([]float64, n)
	for i := range rows {
		rows[i] = make([]float64, p)
		s := 0.0
		for j := range rows[i] {
			var v float64
			if j%2 == 0 {
				v = float64(rng.IntN(12)) / 4
			} else {
				v = rng.NormFloat64() * 3
			}
			rows[i][j] = v
			s += v * float64(j%3-1)
			if rng.Float64() < nan {
				rows[i][j] = math.NaN()
				s += 2
			}
		}
		s += rng.NormFloat64()
		if c == 0 {
			y[i] = s
		} else {
			y[i] = float64(min(max(int(math.Floor(s/2))+c/2, 0), c-1))
		}
	}
	return newData(rows, y)
}

// goesLeft applies the test of the split node n to x, as ir/doc.go defines it.
func goesLeft(n *ir.Node, x []float64) bool {
	v := x[n.Feature]
	switch {
	case math.IsNaN(v):
		return n.DefaultLeft
	case n.LessEqual:
		return v <= n.Threshold
	default:
		return v < n.Threshold
	}
}

// leafOf returns the index of the leaf of tree t that x reaches.
func leafOf(t *ir.Tree, x []float64) int {
	i := 0
	for t.Nodes[i].IsSplit() {
		if goesLeft(&t.Nodes[i], x) {
			i = t.Nodes[i].Left
		} else {
			i = t.Nodes[i].Right
		}
	}
	return i
}

// withSpecials returns a copy of d in which some cells are NaN, +Inf or
// -Inf (deterministically), so that real data sets exercise missing values
// and infinities.
func withSpecials(d *data.Dataset, seed uint64) *data.Dataset {
	c := d.Subset(seqRows(d.Rows))
	rng := rand.New(rand.NewPCG(seed, 3))
	for i := range c.X {
		switch u := rng.Float64(); {
		case u < 0.05:
			c.X[i] = math.NaN()
		case u < 0.055:
			c.X[i] = math.Inf(1)
		case u < 0.06:
			c.X[i] = math.Inf(-1)
		}
	}
	return c
}

func seqRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// sameForThreads trains on d with opts and each of threads and reports an
// error for every model that differs, in ir.Marshal's bytes, from the
// first one.
func sameForThreads(t *testing.T, d *data.Dataset, opts Options, threads ...int) {
	t.Helper()
	var want []byte
	for _, th := range threads {
		opts.Threads = th
		m, err := Train(d, nil, opts)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ir.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = b
		} else if !bytes.Equal(b, want) {
			t.Errorf("%s: Threads %d gives another model than Threads %d", opts.Objective, th, threads[0])
		}
	}
}
