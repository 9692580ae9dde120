package data_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
)

func TestClasses(t *testing.T) {
	tests := []struct {
		y      []float64
		labels []float64
		index  []int
		err    string
	}{
		{y: []float64{3, 1, 2, 1, 3}, labels: []float64{1, 2, 3}, index: []int{2, 0, 1, 0, 2}},
		{y: []float64{-1, 1, 1, -1}, labels: []float64{-1, 1}, index: []int{0, 1, 1, 0}},
		{y: []float64{0.5, math.Inf(1), math.Inf(-1)}, labels: []float64{math.Inf(-1), 0.5, math.Inf(1)}, index: []int{1, 2, 0}},
		{y: []float64{math.Copysign(0, -1), 0, 7}, labels: []float64{0, 7}, index: []int{0, 0, 1}},
		{y: []float64{5}, labels: []float64{5}, index: []int{0}},
		{y: []float64{}, labels: []float64{}, index: []int{}},
		{y: nil, err: "data: no target values (Y is nil)"},
		{y: []float64{1, 2, math.NaN()}, err: "data: target value of row 2 (0-based) is NaN"},
	}
	for _, tt := range tests {
		labels, index, err := data.Classes(tt.y)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("Classes(%v): err = %v, want %s", tt.y, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Classes(%v): %v", tt.y, err)
			continue
		}
		if !slices.Equal(labels, tt.labels) || !slices.Equal(index, tt.index) || labels == nil || index == nil {
			t.Errorf("Classes(%v) = %v, %v, want %v, %v", tt.y, labels, index, tt.labels, tt.index)
		}
		for _, l := range labels {
			if math.Signbit(l) && l == 0 {
				t.Errorf("Classes(%v): label -0", tt.y)
			}
		}
	}
}

// checkPartition checks that train and test are sorted, disjoint and cover 0..n-1.
func checkPartition(t *testing.T, n int, train, test []int) {
	t.Helper()
	if train == nil || test == nil {
		t.Errorf("nil result: train %v, test %v", train, test)
	}
	if !slices.IsSorted(train) || !slices.IsSorted(test) {
		t.Errorf("not sorted: train %v, test %v", train, test)
	}
	seen := make([]int, n)
	for _, r := range append(slices.Clone(train), test...) {
		if r < 0 || r >= n {
			t.Fatalf("row %d out of range [0,%d)", r, n)
		}
		seen[r]++
	}
	for r, c := range seen {
		if c != 1 {
			t.Errorf("row %d appears %d times", r, c)
		}
	}
}

func TestStratifiedSplit(t *testing.T) {
	// Class sizes 1, 2, 3, 10, 45, 100, interleaved.
	sizes := []int{1, 2, 3, 10, 45, 100}
	var class []int
	for i := 0; ; i++ {
		added := false
		for c, n := range sizes {
			if i < n {
				class = append(class, c)
				added = true
			}
		}
		if !added {
			break
		}
	}
	tests := []struct {
		frac float64
		test []int // test rows per class
	}{
		{0.2, []int{0, 0, 1, 2, 9, 20}},
		{0.5, []int{1, 1, 2, 5, 23, 50}}, // round half away from zero
		{0.25, []int{0, 1, 1, 3, 11, 25}},
		{0, []int{0, 0, 0, 0, 0, 0}},
		{-1, []int{0, 0, 0, 0, 0, 0}},
		{math.NaN(), []int{0, 0, 0, 0, 0, 0}},
		{0.99, []int{1, 1, 2, 9, 44, 99}}, // one row per class stays in train
		{1, []int{1, 1, 2, 9, 44, 99}},
		{7, []int{1, 1, 2, 9, 44, 99}},
	}
	for _, tt := range tests {
		train, test := data.StratifiedSplit(class, tt.frac, 42)
		checkPartition(t, len(class), train, test)
		got := make([]int, len(sizes))
		for _, r := range test {
			got[class[r]]++
		}
		if !slices.Equal(got, tt.test) {
			t.Errorf("frac %v: test rows per class = %v, want %v", tt.frac, got, tt.test)
		}
		train2, test2 := data.StratifiedSplit(class, tt.frac, 42)
		if !slices.Equal(train, train2) || !slices.Equal(test, test2) {
			t.Errorf("frac %v: not deterministic", tt.frac)
		}
	}
	_, a := data.StratifiedSplit(class, 0.3, 1)
	_, b := data.StratifiedSplit(class, 0.3, 2)
	if slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 give the same split")
	}
	// Arbitrary class values work too.
	train, test := data.StratifiedSplit([]int{-5, 100, -5, 100, -5, 100}, 0.34, 3)
	checkPartition(t, 6, train, test)
	if len(test) != 2 {
		t.Errorf("test = %v, want one row of each class", test)
	}
	train, test = data.StratifiedSplit(nil, 0.5, 3)
	checkPartition(t, 0, train, test)
}

func TestStratifiedFolds(t *testing.T) {
	// Class sizes 1, 7 and 23, interleaved, and arbitrary class values.
	var class []int
	for i := range 23 {
		class = append(class, 40)
		if i < 7 {
			class = append(class, -3)
		}
		if i == 0 {
			class = append(class, 9)
		}
	}
	for _, k := range []int{0, 1, 2, 5, 31, 40} {
		fold := data.StratifiedFolds(class, k, 7)
		folds := max(k, 1)
		if len(fold) != len(class) {
			t.Fatalf("k=%d: %d folds for %d rows", k, len(fold), len(class))
		}
		size := make([]int, folds)
		per := map[int][]int{}
		for r, f := range fold {
			if f < 0 || f >= folds {
				t.Fatalf("k=%d: row %d in fold %d", k, r, f)
			}
			size[f]++
			if per[class[r]] == nil {
				per[class[r]] = make([]int, folds)
			}
			per[class[r]][f]++
		}
		if slices.Max(size)-slices.Min(size) > 1 {
			t.Errorf("k=%d: fold sizes %v differ by more than one", k, size)
		}
		for c, n := range per {
			if slices.Max(n)-slices.Min(n) > 1 {
				t.Errorf("k=%d: class %d spread over the folds as %v", k, c, n)
			}
		}
		if !slices.Equal(fold, data.StratifiedFolds(class, k, 7)) {
			t.Errorf("k=%d: not deterministic", k)
		}
	}
	if slices.Equal(data.StratifiedFolds(class, 5, 1), data.StratifiedFolds(class, 5, 2)) {
		t.Error("seeds 1 and 2 give the same folds")
	}
	if got := data.StratifiedFolds(nil, 5, 1); len(got) != 0 {
		t.Errorf("no rows: %v", got)
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		n     int
		frac  float64
		ntest int
	}{
		{100, 0.2, 20},
		{10, 0.25, 3},
		{7, 0.5, 4},
		{1, 0.5, 1},
		{1, 0.4, 0},
		{2, 1, 1},
		{5, 0, 0},
		{0, 0.5, 0},
		{-3, 0.5, 0},
	}
	for _, tt := range tests {
		train, test := data.Split(tt.n, tt.frac, 7)
		checkPartition(t, max(tt.n, 0), train, test)
		if len(test) != tt.ntest {
			t.Errorf("Split(%d, %v): %d test rows, want %d", tt.n, tt.frac, len(test), tt.ntest)
		}
		train2, test2 := data.Split(tt.n, tt.frac, 7)
		if !slices.Equal(train, train2) || !slices.Equal(test, test2) {
			t.Errorf("Split(%d, %v): not deterministic", tt.n, tt.frac)
		}
		// Split is StratifiedSplit with a single class.
		strain, stest := data.StratifiedSplit(make([]int, max(tt.n, 0)), tt.frac, 7)
		if !slices.Equal(train, strain) || !slices.Equal(test, stest) {
			t.Errorf("Split(%d, %v) differs from StratifiedSplit with one class", tt.n, tt.frac)
		}
	}
	_, a := data.Split(1000, 0.5, 1)
	_, b := data.Split(1000, 0.5, 2)
	if slices.Equal(a, b) {
		t.Errorf("seeds 1 and 2 give the same split")
	}
}

// TestHoldOut checks that HoldOut keeps every row once, holds out the
// rows Split or StratifiedSplit choose, and names the file when targets
// are no classes.
func TestHoldOut(t *testing.T) {
	y := []float64{0, 1, 0, 1, 0, 1, 0, 1, 0, 1}
	x := make([]float64, len(y))
	for i := range x {
		x[i] = float64(i)
	}
	d := &data.Dataset{Source: "rows.csv", Rows: len(y), Cols: 1, Features: []string{"f"}, X: x, Y: y}
	for _, tc := range []struct {
		name       string
		stratified bool
		want       func() ([]int, []int)
	}{
		{"stratified", true, func() ([]int, []int) {
			_, class, _ := data.Classes(y)
			return data.StratifiedSplit(class, 0.4, 7)
		}},
		{"plain", false, func() ([]int, []int) { return data.Split(len(y), 0.4, 7) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			train, valid, err := d.HoldOut(0.4, tc.stratified, 7)
			if err != nil {
				t.Fatal(err)
			}
			wantTrain, wantValid := tc.want()
			for _, c := range []struct {
				got  *data.Dataset
				rows []int
			}{{train, wantTrain}, {valid, wantValid}} {
				if c.got.Rows != len(c.rows) {
					t.Fatalf("%d rows, want %d", c.got.Rows, len(c.rows))
				}
				for i, r := range c.rows {
					if c.got.X[i] != float64(r) {
						t.Errorf("row %d is row %v of the data, want %d", i, c.got.X[i], r)
					}
				}
			}
		})
	}
	bad := &data.Dataset{Source: "rows.csv", Rows: 2, Cols: 1, Features: []string{"f"}, X: []float64{1, 2}, Y: []float64{0.5, math.NaN()}}
	if _, _, err := bad.HoldOut(0.5, true, 1); err == nil || !strings.HasPrefix(err.Error(), "rows.csv: ") {
		t.Errorf("HoldOut of targets that are no classes: %v, want an error naming rows.csv", err)
	}
}
