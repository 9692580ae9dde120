// Package walk is treegen's backend of branch-free tree walks, for
// ensembles of shallow hard axis-aligned trees with constant leaves scored
// one row per call.
//
// Every tree is padded into a perfect tree (every leaf at the same depth, a
// leaf above the last level repeated below itself) and laid out in heap
// order: the children of split j are 2j+1 and 2j+2, so the tables hold no
// child pointers. Consecutive trees that pad to one depth, and that all
// write every output or one output each, form a run with tables of its
// own: where each split reads the row, its threshold ("<=" folded into
// "<"), and the leaf values. A row walks down a tree with
//
//	r := 0
//	if xx[feat[i]] >= thr[i] {
//		r = 1
//	}
//	i = 2*i + 1 + r
//
// which compiles to a flag read (SETcc on amd64): no branch to mispredict. The walks
// of several trees at once (four) are independent, so the processor
// overlaps their steps, and the levels are unrolled, the depth of a run
// being a constant. The leaf values are then added to the margins in tree
// order, as ir/doc.go defines.
//
// A missing value takes the default direction of each split without a test
// of its own: the scoring function first copies the row, in the comparison
// precision, into an array xx of regions. Region 0 holds the row, and the
// splits that send NaN left read it (no value is >= a threshold when it is
// NaN). Region 1 holds the row with NaN replaced by +Inf, for the splits that
// send NaN right; region 2 holds +Inf for NaN and -Inf for any other value,
// with the threshold +Inf, for the splits that send only NaN right (x <=
// +Inf). The tables index the right region directly. With at most 256
// entries in xx, the indices are uint8 and need no bounds check; every other
// index is masked to a power of two, or taken in a fixed-size array.
//
// This is the algorithm of the treegen interpreter's perfect trees, with
// constant tables, constant depths and no indirection: it is the fastest
// backend one row at a time for ensembles of hundreds of trees of depth 4 to
// 8, where ifelse code outgrows the instruction cache and the bitvectors of
// quickscorer cost more than the walks. PredictBatch scores blocks of rows
// as quickscorer does (see codegen/internal/perfect).
//
// [Check] accepts the models whose trees are all hard, not latent, with
// axis splits and constant leaves, and pad cheaply into perfect trees: at
// most 12 deep, and at most 6 deep or 2^depth at most four times their
// leaves.
package walk
