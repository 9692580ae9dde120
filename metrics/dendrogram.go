package metrics

import (
	"cmp"
	"math"
	"slices"
)

// DendrogramPurity returns the dendrogram purity of a hierarchy (Kobren et
// al. 2017, as Monath et al. 2019 use it): over every pair of points of
// the same class, the purity of the cluster of their least common
// ancestor, the fraction of its points that have that class, averaged.
// paths[i] lists the nodes point i descends through, from the root (the
// same first node for every point) to the deepest node it reaches; node
// identifiers are any integers, unique in the hierarchy. class[i] is
// point i's class. A point's ancestors' clusters hold it; two points
// share the clusters of their paths' common prefix, and their least
// common ancestor is its last node. It returns NaN when no two points
// share a class.
func DendrogramPurity(paths [][]int, class []int) float64 {
	type key struct{ node, class int }
	count := make(map[key]int) // points of a class through a node
	size := make(map[int]int)  // points through a node
	children := make(map[int][]int)
	seen := make(map[[2]int]bool)
	perClass := make(map[int]int)
	for i, path := range paths {
		c := class[i]
		perClass[c]++
		for d, node := range path {
			count[key{node, c}]++
			size[node]++
			if d > 0 {
				if e := [2]int{path[d-1], node}; !seen[e] {
					seen[e] = true
					children[path[d-1]] = append(children[path[d-1]], node)
				}
			}
		}
	}
	pairs := func(n int) float64 { return float64(n) * float64(n-1) / 2 }
	total := 0.0
	for _, n := range perClass {
		total += pairs(n)
	}
	if total == 0 {
		return math.NaN()
	}
	// The pairs of class c whose least common ancestor is node t are those
	// through t less those through one of its children.
	// Summed in a fixed order, so that the result does not depend on the
	// maps' order.
	keys := make([]key, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b key) int { return cmp.Or(cmp.Compare(a.node, b.node), cmp.Compare(a.class, b.class)) })
	sum := 0.0
	for _, k := range keys {
		n := count[k]
		lca := pairs(n)
		for _, ch := range children[k.node] {
			lca -= pairs(count[key{ch, k.class}])
		}
		sum += lca * float64(n) / float64(size[k.node])
	}
	return sum / total
}
