package cart

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

func next(x float64) float64 { return math.Nextafter(x, math.Inf(1)) }

func TestThreshold(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name      string
		a, b      float64
		want      float64
		lessEqual bool
	}{
		{"midpoint", 1, 2, 1.5, false},
		{"negative", -3, -2, -2.5, false},
		{"around zero", -1, 1, 0, false},
		{"two steps apart", 1, next(next(1)), next(1), false},
		{"adjacent: midpoint rounds up", 1, next(1), 1, true},
		{"subnormal: midpoint rounds down", 5e-324, 1e-323, 5e-324, true},
		{"negative zero", math.Copysign(0, -1), 5e-324, 0, true},
		{"huge", math.MaxFloat64 / 2, math.MaxFloat64, 0.75 * math.MaxFloat64, false},
		{"below -Inf", -inf, 3, 3, false},
		{"above +Inf", 2, inf, 2, true},
		{"-Inf and +Inf", -inf, inf, 0, false},
		{"-Inf and 0", -inf, 0, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, le := threshold(tt.a, tt.b)
			if math.Float64bits(got) != math.Float64bits(tt.want) || le != tt.lessEqual {
				t.Errorf("threshold(%v, %v) = %v (<= %v), want %v (<= %v)", tt.a, tt.b, got, le, tt.want, tt.lessEqual)
			}
			n := ir.Node{Kind: ir.Axis, Threshold: got, LessEqual: le}
			if !goesLeft(&n, []float64{tt.a}) || goesLeft(&n, []float64{tt.b}) {
				t.Errorf("the test does not separate %v from %v", tt.a, tt.b)
			}
		})
	}
}

func TestSplits(t *testing.T) {
	axis := func(f int, thr float64, le, defLeft bool, l, r int) ir.Node {
		return ir.Node{Kind: ir.Axis, Feature: f, Threshold: thr, LessEqual: le, DefaultLeft: defLeft, Left: l, Right: r}
	}
	leaf := func(v ...float64) ir.Node { return ir.Node{Kind: ir.Leaf, Value: v} }
	inf := math.Inf(1)
	tests := []struct {
		name string
		d    *data.Dataset
		opts Options
		want []ir.Node
	}{
		{"one feature", column([]float64{1, 2, 3, 4}, []float64{0, 0, 1, 1}), Options{},
			[]ir.Node{axis(0, 2.5, false, true, 1, 2), leaf(0), leaf(1)}},
		{"second feature",
			newData([][]float64{{5, 1}, {3, 2}, {5, 3}, {3, 4}}, []float64{0, 0, 1, 1}), Options{},
			[]ir.Node{axis(1, 2.5, false, true, 1, 2), leaf(0), leaf(1)}},
		{"feature always missing",
			newData([][]float64{{math.NaN(), 1}, {math.NaN(), 2}, {math.NaN(), 3}, {math.NaN(), 4}}, []float64{0, 0, 1, 1}), Options{},
			[]ir.Node{axis(1, 2.5, false, true, 1, 2), leaf(0), leaf(1)}},
		{"tied features: lowest index",
			newData([][]float64{{1, 10}, {2, 20}, {3, 30}, {4, 40}}, []float64{0, 0, 1, 1}), Options{},
			[]ir.Node{axis(0, 2.5, false, true, 1, 2), leaf(0), leaf(1)}},
		{"tied thresholds: lowest one",
			column([]float64{1, 2, 3, 4, 5, 6}, []float64{0, 0, 1, 1, 0, 0}), Options{MaxDepth: 1},
			[]ir.Node{axis(0, 2.5, false, false, 1, 2), leaf(0), leaf(0.5)}},
		{"unsorted rows",
			column([]float64{4, 1, 3, 2}, []float64{1, 0, 1, 0}), Options{},
			[]ir.Node{axis(0, 2.5, false, true, 1, 2), leaf(0), leaf(1)}},
		{"adjacent floats",
			column([]float64{1, next(1)}, []float64{0, 1}), Options{},
			[]ir.Node{axis(0, 1, true, true, 1, 2), leaf(0), leaf(1)}},
		{"-Inf below",
			column([]float64{-inf, -inf, 7, 7}, []float64{0, 0, 1, 1}), Options{},
			[]ir.Node{axis(0, 7, false, true, 1, 2), leaf(0), leaf(1)}},
		{"+Inf above",
			column([]float64{3, 3, inf, inf}, []float64{0, 0, 1, 1}), Options{},
			[]ir.Node{axis(0, 3, true, true, 1, 2), leaf(0), leaf(1)}},
		{"multiclass, pre-order",
			column([]float64{1, 2, 3, 4, 5, 6}, []float64{0, 0, 1, 1, 2, 2}), Options{},
			[]ir.Node{
				axis(0, 2.5, false, false, 1, 2), leaf(1, 0, 0),
				axis(0, 4.5, false, true, 3, 4), leaf(0, 1, 0), leaf(0, 0, 1),
			}},
		{"regression",
			column([]float64{1, 2, 3, 4}, []float64{5, 5, 9, 9}), Options{Criterion: MSE},
			[]ir.Node{axis(0, 2.5, false, true, 1, 2), leaf(5), leaf(9)}},
		{"regression, constant target",
			column([]float64{1, 2, 3, 4}, []float64{5, 5, 5, 5}), Options{Criterion: MSE},
			[]ir.Node{leaf(5)}},
		{"constant feature",
			column([]float64{1, 1, 1, 1}, []float64{0, 1, 0, 1}), Options{},
			[]ir.Node{leaf(0.5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.d, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Trees[0].Nodes; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("nodes\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestMissingValues(t *testing.T) {
	nan := math.NaN()
	inf := math.Inf(1)
	tests := []struct {
		name        string
		x, y        []float64
		opts        Options
		threshold   float64
		lessEqual   bool
		defaultLeft bool
	}{
		// The present values split at 3.5; the missing rows are of the class on the right.
		{"missing rows belong right",
			[]float64{1, 2, 3, 4, 5, 6, nan, nan}, []float64{0, 0, 0, 1, 1, 1, 1, 1}, Options{MaxDepth: 1}, 3.5, false, false},
		{"missing rows belong left",
			[]float64{nan, 1, 2, 3, 4, 5, 6, nan}, []float64{0, 0, 0, 0, 1, 1, 1, 0}, Options{MaxDepth: 1}, 3.5, false, true},
		{"regression: missing rows belong right",
			[]float64{1, 2, 3, 4, nan}, []float64{0, 0, 10, 10, 10}, Options{Criterion: MSE, MaxDepth: 1}, 2.5, false, false},
		{"no missing rows: the larger child is on the left",
			[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []float64{0, 0, 0, 0, 0, 0, 0, 1, 1, 1}, Options{}, 7.5, false, true},
		{"no missing rows: the larger child is on the right",
			[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []float64{0, 0, 0, 1, 1, 1, 1, 1, 1, 1}, Options{}, 3.5, false, false},
		{"missing or not",
			[]float64{1, nan, 2, nan, 3, nan, 4, nan}, []float64{0, 1, 0, 1, 0, 1, 0, 1}, Options{}, 4, true, false},
		{"missing or not, +Inf present",
			[]float64{1, inf, nan, nan}, []float64{0, 0, 1, 1}, Options{}, 1, false, true},
		{"missing or not, only +Inf present",
			[]float64{inf, inf, nan, nan}, []float64{0, 0, 1, 1}, Options{}, math.MaxFloat64, true, true},
		{"missing or not, only -Inf present",
			[]float64{-inf, -inf, nan, nan}, []float64{0, 0, 1, 1}, Options{}, -math.MaxFloat64, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := column(tt.x, tt.y)
			m, err := Train(d, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			root := m.Trees[0].Nodes[0]
			if root.Kind != ir.Axis || root.Threshold != tt.threshold || root.LessEqual != tt.lessEqual || root.DefaultLeft != tt.defaultLeft {
				t.Errorf("root %+v, want threshold %v, less_equal %v, default_left %v", root, tt.threshold, tt.lessEqual, tt.defaultLeft)
			}
			if tt.opts.Criterion != MSE {
				if acc := accuracy(m, d); acc != 1 {
					t.Errorf("training accuracy %v, want 1", acc)
				}
			}
		})
	}

	// Neither "present or missing" nor anything else separates -Inf, +Inf
	// and NaN at once; two levels do.
	m, err := Train(column([]float64{-inf, inf, nan, nan}, []float64{0, 0, 1, 1}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if acc := accuracy(m, column([]float64{-inf, inf, nan, nan}, []float64{0, 0, 1, 1})); acc != 1 || m.Trees[0].Depth() != 2 {
		t.Errorf("-Inf, +Inf and NaN: accuracy %v at depth %d, want 1 at depth 2", acc, m.Trees[0].Depth())
	}
}

func TestMinSamples(t *testing.T) {
	d := randomData(1, 400, 4, 3, 0.1)
	for _, msl := range []int{1, 5, 17} {
		m, err := Train(d, Options{MinSamplesLeaf: msl})
		if err != nil {
			t.Fatal(err)
		}
		nodes := m.Trees[0].Nodes
		if len(nodes) < 5 {
			t.Errorf("MinSamplesLeaf %d: only %d nodes", msl, len(nodes))
		}
		for i, rows := range visits(m, d) {
			if nodes[i].IsLeaf() && len(rows) < msl {
				t.Errorf("MinSamplesLeaf %d: leaf %d has %d training rows", msl, i, len(rows))
			}
		}
	}
	for _, mss := range []int{2, 10, 50} {
		m, err := Train(d, Options{MinSamplesSplit: mss})
		if err != nil {
			t.Fatal(err)
		}
		nodes := m.Trees[0].Nodes
		if len(nodes) < 5 {
			t.Errorf("MinSamplesSplit %d: only %d nodes", mss, len(nodes))
		}
		for i, rows := range visits(m, d) {
			if nodes[i].IsSplit() && len(rows) < mss {
				t.Errorf("MinSamplesSplit %d: node %d with %d training rows is split", mss, i, len(rows))
			}
		}
	}
}

func TestMaxDepth(t *testing.T) {
	d := randomData(2, 400, 4, 3, 0.1)
	for _, depth := range []int{1, 2, 3, 7} {
		for _, c := range []Criterion{Gini, Entropy} {
			m, err := Train(d, Options{Criterion: c, MaxDepth: depth})
			if err != nil {
				t.Fatal(err)
			}
			if got := m.Trees[0].Depth(); got != depth {
				t.Errorf("%s, MaxDepth %d: depth %d", c, depth, got)
			}
		}
	}
	// Unlimited: grown until every leaf is pure or holds rows that no
	// feature separates.
	d = randomData(3, 300, 3, 2, 0)
	m, err := Train(d, Options{MaxDepth: 1000})
	if err != nil {
		t.Fatal(err)
	}
	nodes := m.Trees[0].Nodes
	for i, rows := range visits(m, d) {
		if nodes[i].IsSplit() {
			continue
		}
		for _, r := range rows[1:] {
			if d.Y[r] != d.Y[rows[0]] && !slices.Equal(d.Row(r), d.Row(rows[0])) {
				t.Errorf("leaf %d holds rows %d and %d of different classes", i, rows[0], r)
				break
			}
		}
	}
}

func TestMinImpurityDecrease(t *testing.T) {
	// Gini 0.625 at the root. Its best split (x < 4.5) leaves {0,0,1,1}
	// (Gini 0.5) and {2,2,2,2}: a decrease of 0.625 - 0.5*0.5 = 0.375.
	// Splitting {0,0,1,1} decreases it by 4/8 * 0.5 = 0.25.
	d := column([]float64{1, 2, 3, 4, 5, 6, 7, 8}, []float64{0, 0, 1, 1, 2, 2, 2, 2})
	for _, tt := range []struct {
		min   float64
		nodes int
	}{{0, 5}, {0.25, 5}, {0.2500001, 3}, {0.375, 3}, {0.3750001, 1}, {1, 1}} {
		m, err := Train(d, Options{MinImpurityDecrease: tt.min})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(m.Trees[0].Nodes); got != tt.nodes {
			t.Errorf("MinImpurityDecrease %v: %d nodes, want %d", tt.min, got, tt.nodes)
		}
	}
}

func TestRegressionMeans(t *testing.T) {
	for _, nan := range []float64{0, 0.2} {
		d := randomData(4, 500, 3, 0, nan)
		m, err := Train(d, Options{Criterion: MSE, MaxDepth: 5, MinSamplesLeaf: 3})
		if err != nil {
			t.Fatal(err)
		}
		nodes := m.Trees[0].Nodes
		for i, rows := range visits(m, d) {
			if nodes[i].IsSplit() {
				continue
			}
			sum := 0.0
			for _, r := range rows {
				sum += d.Y[r]
			}
			mean := sum / float64(len(rows))
			if got := nodes[i].Value[0]; math.Abs(got-mean) > 1e-12*(1+math.Abs(mean)) {
				t.Errorf("missing %v: leaf %d: value %v, mean of its %d rows %v", nan, i, got, len(rows), mean)
			}
		}
	}
}

func TestEntropyVsGini(t *testing.T) {
	// Gini prefers x < 2.5 ({0,0} | {1,2,0,2}: 2.5 weighted Gini against
	// 2.67 for x < 3.5); entropy prefers x < 3.5 ({0,0,1} | {2,0,2}: 5.51
	// weighted bits against 6 for x < 2.5).
	d := column([]float64{1, 2, 3, 4, 5, 6}, []float64{0, 0, 1, 2, 0, 2})
	for _, tt := range []struct {
		c    Criterion
		want float64
	}{{Gini, 2.5}, {"", 2.5}, {Entropy, 3.5}} {
		m, err := Train(d, Options{Criterion: tt.c, MaxDepth: 1})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Trees[0].Nodes[0].Threshold; got != tt.want {
			t.Errorf("%q: threshold %v, want %v", tt.c, got, tt.want)
		}
	}
}

// weightedImpurity is Σ n_c·I(c) over the groups of rows, the impurity I of
// the criterion computed directly.
func weightedImpurity(c Criterion, y []float64, groups ...[]int) float64 {
	total := 0.0
	for _, rows := range groups {
		n := float64(len(rows))
		if len(rows) == 0 {
			continue
		}
		if c == MSE {
			mean := 0.0
			for _, r := range rows {
				mean += y[r]
			}
			mean /= n
			for _, r := range rows {
				total += (y[r] - mean) * (y[r] - mean)
			}
			continue
		}
		count := map[float64]float64{}
		for _, r := range rows {
			count[y[r]]++
		}
		imp := 1.0
		if c == Entropy {
			imp = 0
		}
		for _, k := range count {
			p := k / n
			if c == Entropy {
				imp -= p * math.Log2(p)
			} else {
				imp -= p * p
			}
		}
		total += n * imp
	}
	return total
}

// bruteForceRoot returns the lowest weighted impurity of any split of every
// row of d that leaves at least msl rows on each side, trying every
// threshold between distinct present values with the missing rows on either
// side, and "present" against "missing"; ok is false if there is none.
func bruteForceRoot(d *data.Dataset, c Criterion, msl int) (best float64, ok bool) {
	best = math.Inf(1)
	try := func(left, right []int) {
		if len(left) < msl || len(right) < msl {
			return
		}
		if s := weightedImpurity(c, d.Y, left, right); s < best {
			best, ok = s, true
		}
	}
	for f := range d.Cols {
		var values []float64
		var missing []int
		for r := range d.Rows {
			if v := d.Row(r)[f]; math.IsNaN(v) {
				missing = append(missing, r)
			} else {
				values = append(values, v)
			}
		}
		sort.Float64s(values)
		values = slices.Compact(values)
		for i := 1; i < len(values); i++ {
			var left, right []int
			for r := range d.Rows {
				if v := d.Row(r)[f]; v < values[i] {
					left = append(left, r)
				} else if v >= values[i] {
					right = append(right, r)
				}
			}
			try(append(slices.Clone(left), missing...), right)
			try(left, append(slices.Clone(right), missing...))
		}
		if len(missing) > 0 && len(values) > 0 {
			var present []int
			for r := range d.Rows {
				if !math.IsNaN(d.Row(r)[f]) {
					present = append(present, r)
				}
			}
			try(present, missing)
		}
	}
	return best, ok
}

func TestBestSplitIsOptimal(t *testing.T) {
	for _, c := range []Criterion{Gini, Entropy, MSE} {
		classes := 3
		if c == MSE {
			classes = 0
		}
		for seed := range uint64(40) {
			for _, msl := range []int{1, 6} {
				d := randomData(100+seed, 60, 3, classes, 0.15)
				m, err := Train(d, Options{Criterion: c, MaxDepth: 1, MinSamplesLeaf: msl})
				if err != nil {
					t.Fatal(err)
				}
				want, ok := bruteForceRoot(d, c, msl)
				nodes := m.Trees[0].Nodes
				if !ok {
					if len(nodes) != 1 {
						t.Errorf("%s seed %d msl %d: split, but no split is allowed", c, seed, msl)
					}
					continue
				}
				if len(nodes) != 3 {
					t.Errorf("%s seed %d msl %d: no split", c, seed, msl)
					continue
				}
				v := visits(m, d)
				got := weightedImpurity(c, d.Y, v[1], v[2])
				if math.Abs(got-want) > 1e-9*(1+math.Abs(want)) {
					t.Errorf("%s seed %d msl %d: weighted impurity %v, the best split has %v", c, seed, msl, got, want)
				}
			}
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, c := range []Criterion{Gini, Entropy, MSE} {
		classes := 4
		if c == MSE {
			classes = 0
		}
		var first []byte
		for i := range 3 {
			d := randomData(5, 1000, 5, classes, 0.1)
			m, err := Train(d, Options{Criterion: c, MaxDepth: 10, Name: "det"})
			if err != nil {
				t.Fatal(err)
			}
			b, err := ir.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = b
			} else if !bytes.Equal(b, first) {
				t.Fatalf("%s: run %d gives different bytes", c, i)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	good := column([]float64{1, 2}, []float64{0, 1})
	tests := []struct {
		name string
		d    *data.Dataset
		opts Options
		want string
	}{
		{"nil data", nil, Options{}, "no data set"},
		{"no rows", &data.Dataset{Cols: 1, Features: []string{"a"}, Y: []float64{}}, Options{}, "no rows"},
		{"no features", &data.Dataset{Rows: 2, Y: []float64{0, 1}}, Options{}, "no features"},
		{"no target", &data.Dataset{Rows: 1, Cols: 1, X: []float64{1}}, Options{}, "no target"},
		{"short X", &data.Dataset{Rows: 2, Cols: 1, X: []float64{1}, Y: []float64{0, 1}}, Options{}, "1 values for 2 rows"},
		{"short Y", &data.Dataset{Rows: 2, Cols: 1, X: []float64{1, 2}, Y: []float64{0}}, Options{}, "1 target values for 2 rows"},
		{"NaN target", column([]float64{1, 2}, []float64{0, math.NaN()}), Options{}, "target of row 1 (0-based) is missing"},
		{"infinite target", column([]float64{1, 2}, []float64{math.Inf(-1), 0}), Options{Criterion: MSE}, "target of row 0 (0-based) is infinite"},
		{"huge targets", column([]float64{1, 2}, []float64{math.MaxFloat64, math.MaxFloat64}), Options{Criterion: MSE}, "sum overflows"},
		{"one class", column([]float64{1, 2, 3}, []float64{7, 7, 7}), Options{}, "single class (7) in all 3 rows"},
		{"unknown criterion", good, Options{Criterion: "gain"}, `unknown criterion "gain"`},
		{"negative depth", good, Options{MaxDepth: -1}, "MaxDepth is negative"},
		{"negative min samples split", good, Options{MinSamplesSplit: -2}, "MinSamplesSplit is negative"},
		{"negative min samples leaf", good, Options{MinSamplesLeaf: -3}, "MinSamplesLeaf is negative"},
		{"negative min impurity decrease", good, Options{MinImpurityDecrease: -0.1}, "MinImpurityDecrease must be a finite number >= 0"},
		{"NaN min impurity decrease", good, Options{MinImpurityDecrease: math.NaN()}, "MinImpurityDecrease must be a finite number >= 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.d, tt.opts)
			if err == nil {
				t.Fatalf("no error, model %+v", m)
			}
			if !strings.HasPrefix(err.Error(), "cart: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestModelForm(t *testing.T) {
	x := []float64{1, 2, 3, 4, 5, 6}
	tests := []struct {
		name       string
		y          []float64
		opts       Options
		task       ir.Task
		outputs    int
		treeOutput int
		classes    []string
	}{
		{"binary", []float64{2.5, 2.5, -1, -1, 2.5, -1}, Options{}, ir.Binary, 1, 0, []string{"-1", "2.5"}},
		{"multiclass", []float64{10, 20, 1e21, 10, 20, 1e21}, Options{Criterion: Entropy}, ir.Multiclass, 3, ir.AllOutputs, []string{"10", "20", "1e+21"}},
		{"regression", []float64{10, 20, 1e21, 10, 20, 1e21}, Options{Criterion: MSE}, ir.Regression, 1, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(column(x, tt.y), tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			if m.Task != tt.task || m.NumOutputs != tt.outputs || m.Trees[0].Output != tt.treeOutput || !slices.Equal(m.ClassNames, tt.classes) {
				t.Errorf("task %s, %d outputs, tree output %d, classes %q; want %s, %d, %d, %q",
					m.Task, m.NumOutputs, m.Trees[0].Output, m.ClassNames, tt.task, tt.outputs, tt.treeOutput, tt.classes)
			}
			if m.Link != ir.Identity || m.Aggregation != ir.Sum || len(m.Trees) != 1 || m.FormatVersion != ir.FormatVersion {
				t.Errorf("link %s, aggregation %s, %d trees, version %s", m.Link, m.Aggregation, len(m.Trees), m.FormatVersion)
			}
			if !slices.Equal(m.FeatureNames, []string{"x0"}) || m.NumFeatures != 1 {
				t.Errorf("features %q (%d)", m.FeatureNames, m.NumFeatures)
			}
		})
	}
}

func TestProvenance(t *testing.T) {
	d := column([]float64{1, math.NaN(), 3}, []float64{0, 1, 1})
	d.Source = "/some/where/tiny.tsv.gz"
	m, err := Train(d, Options{Criterion: Entropy, MaxDepth: 3, MinSamplesLeaf: 1, MinImpurityDecrease: 0.125, Name: "tiny"})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	for _, v := range append(slices.Clone(d.X), d.Y...) {
		binary.Write(h, binary.LittleEndian, math.Float64bits(v))
	}
	want := &ir.Provenance{
		Producer: "treegen train cart",
		Params: map[string]string{
			"criterion":             "entropy",
			"max_depth":             "3",
			"min_samples_split":     "2",
			"min_samples_leaf":      "1",
			"min_impurity_decrease": "0.125",
		},
		Data: map[string]string{
			"source":   "tiny.tsv.gz",
			"rows":     "3",
			"features": "1",
			"sha256":   hex.EncodeToString(h.Sum(nil)),
		},
	}
	if !reflect.DeepEqual(m.Provenance, want) {
		t.Errorf("provenance\n got %+v\nwant %+v", m.Provenance, want)
	}
	if m.Name != "tiny" {
		t.Errorf("name %q", m.Name)
	}
}

func TestPresort(t *testing.T) {
	inf := math.Inf(1)
	special := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, inf, -inf, math.MaxFloat64, -math.MaxFloat64, 1, -1, 0.5, 1e300, -1e-300}
	rng := rand.New(rand.NewPCG(9, 9))
	const n = 2000
	rows := make([][]float64, n)
	for i := range rows {
		a := special[rng.IntN(len(special))]
		b := rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		c := float64(rng.IntN(5))
		if rng.IntN(4) == 0 {
			c = math.NaN()
		}
		rows[i] = []float64{a, b, c, math.NaN()}
	}
	d := newData(rows, make([]float64, n))
	b := newBuilder(d, settings{})
	b.presort()
	for f := range d.Cols {
		idx, val := b.idx[f], b.val[f]
		seen := make([]bool, n)
		for k, r := range idx {
			if seen[r] {
				t.Fatalf("feature %d: row %d twice", f, r)
			}
			seen[r] = true
			v := d.Row(int(r))[f]
			if math.Float64bits(v+0) != math.Float64bits(val[k]+0) && !(math.IsNaN(v) && math.IsNaN(val[k])) {
				t.Fatalf("feature %d position %d: value %v, row %d has %v", f, k, val[k], r, v)
			}
			if k == 0 {
				continue
			}
			p, q := val[k-1], val[k]
			switch {
			case math.IsNaN(p) && !math.IsNaN(q):
				t.Fatalf("feature %d: present value after a missing one at %d", f, k)
			case math.IsNaN(q) && !math.IsNaN(p):
				// the first missing value
			case math.IsNaN(p) || p == q:
				if idx[k-1] > r {
					t.Fatalf("feature %d: rows %d, %d out of row order at %d", f, idx[k-1], r, k)
				}
			case p > q:
				t.Fatalf("feature %d: %v before %v at %d", f, p, q, k)
			}
		}
	}
}
