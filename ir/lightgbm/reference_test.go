package lightgbm

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// This file is an independent evaluator of LightGBM text models, written
// from LightGBM's prediction code (GBDT::PredictRaw, Tree::Predict,
// Tree::GetLeaf, Tree::NumericalDecision, Tree::CategoricalDecision,
// Common::FindInBitset) over the arrays of the text file. It shares nothing
// with the importer: it has its own minimal parser and never builds IR.

// refZeroThreshold is kZeroThreshold: "const double kZeroThreshold = 1e-35f".
var refZeroThreshold = float64(float32(1e-35))

// refModel is what GBDT keeps of a model for prediction.
type refModel struct {
	perIter int  // num_tree_per_iteration
	average bool // average_output
	trees   []*refTree
}

// refTree holds the arrays of Tree.
type refTree struct {
	numLeaves, numCat int
	splitFeature      []int
	threshold         []float64
	decisionType      []int8
	left, right       []int
	leafValue         []float64
	catBoundaries     []int
	catThreshold      []uint32
}

// parseRef reads the fields prediction needs; it assumes a well-formed
// file (the test models).
func parseRef(t testing.TB, data []byte) *refModel {
	t.Helper()
	m := &refModel{}
	numClass := 0
	var block map[string]string
	flush := func() {
		if block != nil {
			m.trees = append(m.trees, refTreeOf(t, block))
			block = nil
		}
	}
	for _, line := range strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n") {
		switch {
		case line == "end of trees":
			flush()
			if m.perIter == 0 {
				m.perIter = numClass
			}
			return m
		case strings.HasPrefix(line, "Tree="):
			flush()
			block = map[string]string{}
		case block != nil:
			if k, v, ok := strings.Cut(line, "="); ok {
				block[k] = v
			}
		case line == "average_output":
			m.average = true
		default:
			k, v, _ := strings.Cut(line, "=")
			switch k {
			case "num_class":
				numClass = refAtoi(t, v)
			case "num_tree_per_iteration":
				m.perIter = refAtoi(t, v)
			}
		}
	}
	t.Fatal("reference parser: no \"end of trees\"")
	return nil
}

func refAtoi(t testing.TB, s string) int {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func refTreeOf(t testing.TB, b map[string]string) *refTree {
	ints := func(k string) []int {
		var out []int
		for _, s := range strings.Fields(b[k]) {
			out = append(out, refAtoi(t, s))
		}
		return out
	}
	floats := func(k string) []float64 {
		var out []float64
		for _, s := range strings.Fields(b[k]) {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, v)
		}
		return out
	}
	tr := &refTree{
		numLeaves:    refAtoi(t, b["num_leaves"]),
		numCat:       refAtoi(t, b["num_cat"]),
		splitFeature: ints("split_feature"),
		threshold:    floats("threshold"),
		left:         ints("left_child"),
		right:        ints("right_child"),
		leafValue:    floats("leaf_value"),
	}
	for _, d := range ints("decision_type") {
		tr.decisionType = append(tr.decisionType, int8(d))
	}
	if tr.numCat > 0 {
		tr.catBoundaries = ints("cat_boundaries")
		for _, w := range ints("cat_threshold") {
			tr.catThreshold = append(tr.catThreshold, uint32(w))
		}
	}
	return tr
}

// predictRaw is GBDT::PredictRaw (output zeroed, then each iteration's
// trees added in order), with the division of average_output.
func (m *refModel) predictRaw(x []float64) []float64 {
	out := make([]float64, m.perIter)
	iters := len(m.trees) / m.perIter
	for i := 0; i < iters; i++ {
		for k := 0; k < m.perIter; k++ {
			out[k] += m.trees[i*m.perIter+k].predict(x)
		}
	}
	if m.average {
		for k := range out {
			out[k] /= float64(iters)
		}
	}
	return out
}

// predict is Tree::Predict for a tree that is not linear.
func (t *refTree) predict(x []float64) float64 {
	if t.numLeaves > 1 {
		return t.leafValue[t.getLeaf(x)]
	}
	return t.leafValue[0]
}

// getLeaf is Tree::GetLeaf: with no category set, every node is tested as
// numerical.
func (t *refTree) getLeaf(x []float64) int {
	node := 0
	if t.numCat > 0 {
		for node >= 0 {
			node = t.decision(x[t.splitFeature[node]], node)
		}
	} else {
		for node >= 0 {
			node = t.numericalDecision(x[t.splitFeature[node]], node)
		}
	}
	return ^node
}

func (t *refTree) decision(fval float64, node int) int {
	if t.decisionType[node]&1 != 0 { // kCategoricalMask
		return t.categoricalDecision(fval, node)
	}
	return t.numericalDecision(fval, node)
}

func refIsZero(fval float64) bool {
	return fval >= -refZeroThreshold && fval <= refZeroThreshold
}

func (t *refTree) numericalDecision(fval float64, node int) int {
	missingType := (t.decisionType[node] >> 2) & 3
	if math.IsNaN(fval) && missingType != 2 {
		fval = 0.0
	}
	if (missingType == 1 && refIsZero(fval)) || (missingType == 2 && math.IsNaN(fval)) {
		if t.decisionType[node]&2 != 0 { // kDefaultLeftMask
			return t.left[node]
		}
		return t.right[node]
	}
	if fval <= t.threshold[node] {
		return t.left[node]
	}
	return t.right[node]
}

func (t *refTree) categoricalDecision(fval float64, node int) int {
	var intFval int32
	if math.IsNaN(fval) {
		return t.right[node]
	}
	intFval = cppIntCast(fval)
	if intFval < 0 {
		return t.right[node]
	}
	catIdx := int(t.threshold[node])
	lo, hi := t.catBoundaries[catIdx], t.catBoundaries[catIdx+1]
	if findInBitset(t.catThreshold[lo:hi], int(intFval)) {
		return t.left[node]
	}
	return t.right[node]
}

// cppIntCast is static_cast<int>(double) as x86-64 compiles it
// (cvttsd2si): truncation toward zero, and INT_MIN for NaN and for values
// outside the int range.
func cppIntCast(x float64) int32 {
	if math.IsNaN(x) || x <= -2147483649 || x >= 2147483648 {
		return math.MinInt32
	}
	return int32(x)
}

// findInBitset is Common::FindInBitset.
func findInBitset(bits []uint32, pos int) bool {
	i1 := pos / 32
	if i1 >= len(bits) {
		return false
	}
	i2 := pos % 32
	return (bits[i1]>>i2)&1 != 0
}

// thresholds returns, per feature, the numerical thresholds of the model,
// for building test rows next to every boundary.
func (m *refModel) thresholds(numFeatures int) [][]float64 {
	out := make([][]float64, numFeatures)
	for _, t := range m.trees {
		for i, f := range t.splitFeature {
			if t.decisionType[i]&1 == 0 {
				out[f] = append(out[f], t.threshold[i])
			}
		}
	}
	return out
}

func TestReferenceEvaluator(t *testing.T) {
	if refZeroThreshold != 1.0000000180025095e-35 {
		t.Errorf("kZeroThreshold = %v, want 1.0000000180025095e-35", refZeroThreshold)
	}
	for _, c := range []struct {
		x    float64
		want int32
	}{
		{-0.5, 0}, {-0.0, 0}, {2.7, 2}, {-2.7, -2}, {2147483647.9, 2147483647}, {-2147483648.9, -2147483648},
		{2147483648, math.MinInt32}, {1e10, math.MinInt32}, {math.Inf(1), math.MinInt32}, {math.NaN(), math.MinInt32},
	} {
		if got := cppIntCast(c.x); got != c.want {
			t.Errorf("cppIntCast(%v) = %d, want %d", c.x, got, c.want)
		}
	}
	bits := []uint32{2147483653, 2147483651}
	var in []int
	for c := 0; c < 80; c++ {
		if findInBitset(bits, c) {
			in = append(in, c)
		}
	}
	if want := []int{0, 2, 31, 32, 33, 63}; !slices.Equal(in, want) {
		t.Errorf("bitset %v holds %v, want %v", bits, in, want)
	}
}
