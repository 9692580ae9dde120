package latent

import (
	"fmt"
	"slices"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/runtime"
)

// Paths returns, for every row of d, the nodes of the first latent tree of
// m with a positive traversal z, from the root: the clusters of the
// hierarchy that hold the row. The model's features are taken from d's
// columns by name when both name them, else in order.
func Paths(m *ir.Model, d *data.Dataset) ([][]int, error) {
	tree := -1
	start := 0
	for i := range m.Trees {
		if m.Trees[i].Latent {
			tree = i
			break
		}
	}
	if tree < 0 {
		return nil, fmt.Errorf("the model has no latent tree, so no hierarchy")
	}
	for i := range tree {
		if m.Trees[i].Latent {
			start += len(m.Trees[i].Nodes)
		}
	}
	cols, err := modelColumns(m, d)
	if err != nil {
		return nil, err
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		return nil, err
	}
	x := make([]float64, m.NumFeatures)
	z := make([]float64, m.LatentSize())
	paths := make([][]int, d.Rows)
	for r := range d.Rows {
		row := d.Row(r)
		for i, j := range cols {
			x[i] = row[j]
		}
		if err := p.PredictLatent(x, z); err != nil {
			return nil, err
		}
		for t := range m.Trees[tree].Nodes {
			if z[start+t] > 0 {
				paths[r] = append(paths[r], t)
			}
		}
		if len(paths[r]) == 0 {
			paths[r] = []int{0} // a root of activity 0 holds every row
		}
	}
	return paths, nil
}

// modelColumns returns the column of d that feeds each feature of m: by
// name when both name their columns, else in order.
func modelColumns(m *ir.Model, d *data.Dataset) ([]int, error) {
	cols := make([]int, m.NumFeatures)
	if m.FeatureNames == nil || d.Features == nil {
		if d.Cols != m.NumFeatures {
			return nil, fmt.Errorf("the data has %d features, the model %d", d.Cols, m.NumFeatures)
		}
		for i := range cols {
			cols[i] = i
		}
		return cols, nil
	}
	for i, name := range m.FeatureNames {
		j := slices.Index(d.Features, name)
		if j < 0 {
			return nil, fmt.Errorf("the model reads feature %q, which the data lacks", name)
		}
		cols[i] = j
	}
	return cols, nil
}

// DendrogramPurity returns the dendrogram purity (metrics.DendrogramPurity)
// of the hierarchy of the first latent tree of m over the rows of d, which
// their target labels.
func DendrogramPurity(m *ir.Model, d *data.Dataset) (float64, error) {
	paths, err := Paths(m, d)
	if err != nil {
		return 0, err
	}
	_, class, err := data.Classes(d.Y)
	if err != nil {
		return 0, err
	}
	return metrics.DendrogramPurity(paths, class), nil
}

// Cluster is the deepest node of the paths of some rows.
type Cluster struct {
	// Node is the node's index in its tree, Depth its depth.
	Node, Depth int
	// Rows counts the rows whose path ends at the node.
	Rows int
	// Majority is the most frequent class among those rows (the smallest
	// of equally frequent ones), Share its share of them.
	Majority int
	Share    float64
}

// Clusters returns the deepest node of every path of paths (as Paths
// returns them), by node index, with the majority of the classes class
// (one per path, 0..k-1) of its rows.
func Clusters(paths [][]int, class []int) []Cluster {
	byNode := map[int]*Cluster{}
	counts := map[[2]int]int{}
	classes := 0
	for i, p := range paths {
		last := p[len(p)-1]
		c := byNode[last]
		if c == nil {
			c = &Cluster{Node: last, Depth: len(p) - 1}
			byNode[last] = c
		}
		c.Rows++
		counts[[2]int{last, class[i]}]++
		classes = max(classes, class[i]+1)
	}
	var out []Cluster
	for _, n := range slices.Sorted(func(yield func(int) bool) {
		for n := range byNode {
			if !yield(n) {
				return
			}
		}
	}) {
		c := byNode[n]
		best := -1
		for k := range classes {
			if v := counts[[2]int{n, k}]; v > best {
				best, c.Majority = v, k
			}
		}
		c.Share = float64(best) / float64(c.Rows)
		out = append(out, *c)
	}
	return out
}
