package data

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
)

// Classes maps target values to dense class indices 0..C-1 in ascending order of value.
// labels[i] is the value of class i, index[r] the class of row r. Error if Y is nil or holds NaN.
//
// Values are compared with ==, so -0 and +0 are the same class (labelled 0).
// An empty, non-nil y gives empty labels and index.
func Classes(y []float64) (labels []float64, index []int, err error) {
	if y == nil {
		return nil, nil, errors.New("data: no target values (Y is nil)")
	}
	class := make(map[float64]int)
	for r, v := range y {
		if math.IsNaN(v) {
			return nil, nil, fmt.Errorf("data: target value of row %d (0-based) is NaN", r)
		}
		if _, ok := class[v]; !ok {
			class[v] = 0
			labels = append(labels, v+0) // v+0 turns -0 into +0
		}
	}
	slices.Sort(labels)
	if labels == nil {
		labels = []float64{}
	}
	for i, v := range labels {
		class[v] = i
	}
	index = make([]int, len(y))
	for r, v := range y {
		index[r] = class[v]
	}
	return labels, index, nil
}

// StratifiedSplit splits row indices into train and test, test taking round(frac*n_c) rows of each
// class c (at least one row in train per class when n_c>=2), deterministic for a seed
// (math/rand/v2 with rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)); both index slices sorted ascending.
//
// frac is clamped to [0, 1] (NaN counts as 0), and rounding is
// math.Round (halves away from zero), so a class with a single row goes to
// test when frac >= 0.5. Precisely: one generator is created from the seed;
// the classes are visited in ascending order of class value; the rows of
// each class, in ascending order, are permuted with the generator's Shuffle
// and the first round(frac*n_c) of them (capped at n_c-1 when n_c >= 2) go
// to test, the rest to train. class may hold any int values, not only
// 0..C-1. Both results are non-nil.
func StratifiedSplit(class []int, frac float64, seed uint64) (train, test []int) {
	rng := newRand(seed)
	train, test = []int{}, []int{}
	for _, rows := range strata(class) {
		k := testCount(len(rows), frac)
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		test = append(test, rows[:k]...)
		train = append(train, rows[k:]...)
	}
	slices.Sort(train)
	slices.Sort(test)
	return train, test
}

// StratifiedFolds deals the rows to the k folds of a stratified k-fold
// cross-validation, deterministic for a seed: fold[r] in 0..k-1 is the
// fold of row r (k < 1 counts as 1). The classes are visited in ascending
// order of class value with one generator, created from the seed as for
// StratifiedSplit; the rows of each class, in ascending order, are
// permuted with its Shuffle and dealt to the folds in turn, the count
// carrying on from one class to the next. So the folds' sizes differ by at
// most one, and so do the sizes of every class in them.
func StratifiedFolds(class []int, k int, seed uint64) []int {
	k = max(k, 1)
	rng := newRand(seed)
	fold := make([]int, len(class))
	next := 0
	for _, rows := range strata(class) {
		rng.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
		for _, r := range rows {
			fold[r] = next % k
			next++
		}
	}
	return fold
}

// strata returns the rows of every class, in ascending order of class
// value, each class's rows in ascending order.
func strata(class []int) [][]int {
	byClass := make(map[int][]int)
	for r, c := range class {
		byClass[c] = append(byClass[c], r)
	}
	keys := slices.Sorted(maps.Keys(byClass))
	out := make([][]int, len(keys))
	for i, c := range keys {
		out[i] = byClass[c]
	}
	return out
}

// Split is the same without strata (regression).
//
// It puts round(frac*n) of the rows 0..n-1 into test (at least one row
// stays in train when n >= 2) and gives the same result as StratifiedSplit
// with n rows of a single class.
func Split(n int, frac float64, seed uint64) (train, test []int) {
	rows := make([]int, max(n, 0))
	for i := range rows {
		rows[i] = i
	}
	k := testCount(len(rows), frac)
	newRand(seed).Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	test = slices.Clone(rows[:k])
	train = slices.Clone(rows[k:])
	slices.Sort(train)
	slices.Sort(test)
	return train, test
}

func newRand(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// testCount is the number of the n rows of a stratum that go to test.
func testCount(n int, frac float64) int {
	if !(frac > 0) || n == 0 {
		return 0
	}
	k := n
	if frac < 1 {
		k = int(math.Round(frac * float64(n)))
	}
	if n >= 2 && k > n-1 {
		k = n - 1
	}
	return k
}

// HoldOut splits d into training and validation rows: a fraction frac of
// its rows held out, in (0, 1), drawn within each class when stratified
// (d's targets are then classes) or from all rows, deterministically for
// seed. The error of targets that are not classes names d.Source.
func (d *Dataset) HoldOut(frac float64, stratified bool, seed uint64) (train, valid *Dataset, err error) {
	var trainRows, validRows []int
	if stratified {
		_, class, err := Classes(d.Y)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", d.Source, err)
		}
		trainRows, validRows = StratifiedSplit(class, frac, seed)
	} else {
		trainRows, validRows = Split(d.Rows, frac, seed)
	}
	return d.Subset(trainRows), d.Subset(validRows), nil
}
