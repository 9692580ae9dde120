package cart

import (
	"math"
	"math/rand/v2"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

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
		d.Features = append(d.Features, "x"+string(rune('0'+j)))
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

// path returns the indices of the nodes x visits in the single tree of m,
// root first, leaf last.
func path(m *ir.Model, x []float64) []int {
	nodes := m.Trees[0].Nodes
	p := []int{0}
	for i := 0; nodes[i].IsSplit(); p = append(p, i) {
		if goesLeft(&nodes[i], x) {
			i = nodes[i].Left
		} else {
			i = nodes[i].Right
		}
	}
	return p
}

// leafValue returns the value of the leaf x reaches.
func leafValue(m *ir.Model, x []float64) []float64 {
	p := path(m, x)
	return m.Trees[0].Nodes[p[len(p)-1]].Value
}

// predictClass returns the class index m predicts for x.
func predictClass(m *ir.Model, x []float64) int {
	v := leafValue(m, x)
	if m.Task == ir.Binary {
		if v[0] > 0.5 {
			return 1
		}
		return 0
	}
	best := 0
	for k := range v {
		if v[k] > v[best] {
			best = k
		}
	}
	return best
}

// accuracy is the fraction of the rows of d whose class m predicts.
func accuracy(m *ir.Model, d *data.Dataset) float64 {
	_, class, err := data.Classes(d.Y)
	if err != nil {
		panic(err)
	}
	correct := 0
	for r := range d.Rows {
		if predictClass(m, d.Row(r)) == class[r] {
			correct++
		}
	}
	return float64(correct) / float64(d.Rows)
}

// visits returns, for every node of m's tree, the training rows of d that
// reach it.
func visits(m *ir.Model, d *data.Dataset) [][]int {
	v := make([][]int, len(m.Trees[0].Nodes))
	for r := range d.Rows {
		for _, i := range path(m, d.Row(r)) {
			v[i] = append(v[i], r)
		}
	}
	return v
}

// randomData makes a data set of n rows and p features with values drawn
// from a few levels (so that ties occur), a fraction nan of them missing,
// and a noisy target: classes 0..c-1, or real values when c == 0.
func randomData(seed uint64, n, p, c int, nan float64) *data.Dataset {
	rng := rand.New(rand.NewPCG(seed, 7))
	rows := make([][]float64, n)
	y := make([]float64, n)
	for i := range rows {
		rows[i] = make([]float64, p)
		s := 0.0
		for j := range rows[i] {
			v := float64(rng.IntN(12)) / 4
			rows[i][j] = v
			s += v * float64(j%3-1)
			if rng.Float64() < nan {
				rows[i][j] = math.NaN()
			}
		}
		s += rng.NormFloat64()
		if c == 0 {
			y[i] = s
		} else {
			y[i] = float64(int(math.Abs(s*1.5)) % c)
		}
	}
	return newData(rows, y)
}
