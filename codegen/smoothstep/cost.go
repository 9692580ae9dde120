package smoothstep

import "math"

// The cost model that chooses, for each run of perfect soft trees that the
// level-synchronous code can evaluate (lvGroups), between a level group and
// unrolled trees, when Options.Path is PathAuto.
//
// Both paths evaluate the same soft nodes of a row, those it reaches with a
// probability other than 0, so the model compares their costs per reached
// node, in nanoseconds:
//
//	level:     levelNodeNs + levelWeightNs·w
//	unrolled:  unrolledNodeNs + unrolledWeightNs·w + unrolledDoublingNs·max(0, log2(S/unrolledFreeBytes))
//
// w being the mean number of weights of a node and S the size of the
// unrolled code of the run, estimated as its soft nodes times
// codeNodeBytes + codeWeightBytes·w (bytes of Go source, which the constants
// are fitted to). The level path costs the same per node whatever the
// trees (its loop, its tables); the unrolled path is cheaper per node while
// its code is small, its branches learnt by the processor, and dearer
// once its code outgrows the caches and the branch predictor: past about
// 200 KB of source (10 trees of depth 6 or more, 30 of depth 4 unless very
// sparse), the level path wins.
// Runs whose every node weighs every feature (dense groups) always take the
// level path, as before sparse groups existed: it was 1.06 to 3.6 times
// faster than unrolled dense code on all but two models, and as fast on
// those two (twonorm, depth 3 and 4).
//
// The constants are least-squares fits to the times per reached node of
// TestDensity (ns/row divided by the soft nodes a row reaches) on trained
// TEL models (10 trees of depth 3, 4, 5, 6 and 8 and 30 of depth 4, on
// twonorm, spambase and optdigits, on their first 1,000 rows), made sparse
// by keeping 50%, 30%, 15% and 5% of the weights of each node, float64, on
// a 2-core shared machine, measured with
//
//	mkdir -p /tmp/tel
//	for d in twonorm spambase optdigits; do for depth in 3 4 5 6 8; do
//		go run ./cmd/treegen train tel --data testdata/pmlb/$d.tsv.gz --trees 10 --depth $depth -o /tmp/tel/$d$depth.json --quiet
//	done; done
//	go run ./cmd/treegen train tel --data testdata/pmlb/spambase.tsv.gz --trees 30 --depth 4 -o /tmp/tel/spambase4x30.json --quiet
//	TREEGEN_MEASURE=1 TREEGEN_SHAPES= TREEGEN_MODELS='/tmp/tel/*.json' TREEGEN_COUNT=2 TREEGEN_BENCHTIME=300ms \
//		go test ./codegen/smoothstep -run TestDensity -v -timeout 2h
//
// On those 64 models the choice costs 2.6% over the faster path in the
// geometric mean and 34% at worst; always choosing the level path would
// cost 17% (up to 2.05 times), always unrolling 20% (up to 2.6 times). On
// rows whose routing the processor cannot learn (random TEL models on
// random normal rows, TestDensity's default shapes), unrolled trees are
// slower than the model expects: where it picks them they are 9% to 25%
// slower than the level path.
const (
	levelNodeNs        = 7.0     // level path, per node: smooth-step, children, frontier
	levelWeightNs      = 0.55    // level path, per weight of a node (lvMargins)
	unrolledNodeNs     = 2.2     // unrolled trees, per node, while their code is small
	unrolledWeightNs   = 0.6     // unrolled trees, per weight of a node
	unrolledDoublingNs = 4.2     // unrolled trees, per node, for each doubling of their code past unrolledFreeBytes
	unrolledFreeBytes  = 100_000 // the size of unrolled code that costs nothing more
	codeNodeBytes      = 330     // the source of an unrolled soft node and its leaves, but its weights
	codeWeightBytes    = 37      // the source of a weight of an unrolled soft node
)

// pathCosts returns the estimated costs, in nanoseconds per reached soft
// node, of the level path and of unrolled trees for the run gr.
func pathCosts(gr *lvGroup) (level, unrolled float64) {
	nodes := float64(gr.nodes())
	w := float64(gr.weights) / nodes
	size := nodes * (codeNodeBytes + codeWeightBytes*w)
	level = levelNodeNs + levelWeightNs*w
	unrolled = unrolledNodeNs + unrolledWeightNs*w + unrolledDoublingNs*math.Max(0, math.Log2(size/unrolledFreeBytes))
	return level, unrolled
}

// chooseLevel reports whether the run of trees gr is compiled as a level
// group, rather than as unrolled trees, on path: always for PathLevel,
// never for PathUnrolled, and for PathAuto when its trees are dense or the
// cost model (pathCosts) says that the level path is faster.
func chooseLevel(gr *lvGroup, path string) bool {
	switch path {
	case PathLevel:
		return true
	case PathUnrolled:
		return false
	}
	if gr.dense {
		return true
	}
	level, unrolled := pathCosts(gr)
	return level <= unrolled
}
