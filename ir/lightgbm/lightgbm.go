package lightgbm

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/treegen/treegen/ir"
)

// Load reads a LightGBM text model file and converts it with Decode.
func Load(path string) (*ir.Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data, path)
}

// Decode converts the text of a LightGBM model (the format of
// Booster.save_model and the CLI's output_model) into an IR model that
// passes Validate. name is the file name used in error messages. Errors are
// *Error values naming the line at fault; the package documentation lists
// every translation rule and what is refused.
func Decode(data []byte, name string) (*ir.Model, error) {
	p := &parser{name: name}
	raw, err := p.split(data)
	if err != nil {
		return nil, err
	}
	m, err := p.model(raw)
	if err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		// The rules above are meant to make this impossible.
		return nil, p.errorf(0, "the converted model is invalid: %v", err)
	}
	return m, nil
}

// versions are the model format versions this package reads (the version=
// header line). LightGBM 2.x wrote v2, 3.x v3 and 4.x v4; the tree text
// layout is the same in all three.
var versions = map[string]bool{"v2": true, "v3": true, "v4": true}

// model interprets the header and converts every tree.
func (p *parser) model(raw *rawModel) (*ir.Model, error) {
	h := raw.header
	const w = where("")
	vf, err := p.require(h, w, "version", 1)
	if err != nil {
		return nil, err
	}
	version := strings.TrimSpace(vf.val)
	if !versions[version] {
		return nil, p.errorf(vf.line, "model format version %s is not supported (this importer reads v2, v3 and v4)", quote(version))
	}
	f, err := p.require(h, w, "num_class", 1)
	if err != nil {
		return nil, err
	}
	numClass, err := p.int(f, w, "num_class")
	if err != nil {
		return nil, err
	}
	if numClass < 1 || numClass > ir.MaxOutputs {
		return nil, p.errorf(f.line, "num_class=%d is out of range: want 1 to %d (ir.MaxOutputs)", numClass, ir.MaxOutputs)
	}
	perIter, perIterLine := numClass, f.line
	if f, ok := h["num_tree_per_iteration"]; ok {
		if perIter, err = p.int(f, w, "num_tree_per_iteration"); err != nil {
			return nil, err
		}
		perIterLine = f.line
		if perIter < 1 || perIter > 1<<20 {
			return nil, p.errorf(f.line, "num_tree_per_iteration=%d is out of range", perIter)
		}
	}
	f, err = p.require(h, w, "max_feature_idx", 1)
	if err != nil {
		return nil, err
	}
	maxFeature, err := p.int(f, w, "max_feature_idx")
	if err != nil {
		return nil, err
	}
	if maxFeature < 0 || maxFeature >= ir.MaxFeatures {
		return nil, p.errorf(f.line, "max_feature_idx=%d is out of range: the model needs at least one feature, and treegen reads at most %d (ir.MaxFeatures)", maxFeature, ir.MaxFeatures)
	}
	numFeatures := maxFeature + 1
	f, err = p.require(h, w, "feature_names", 1)
	if err != nil {
		return nil, err
	}
	names := strings.Fields(f.val)
	if len(names) != numFeatures {
		return nil, p.errorf(f.line, "feature_names has %d names, want %d (max_feature_idx=%d)", len(names), numFeatures, maxFeature)
	}
	if f, ok := h["feature_infos"]; ok {
		if n := len(strings.Fields(f.val)); n != numFeatures {
			return nil, p.errorf(f.line, "feature_infos has %d entries, want %d (max_feature_idx=%d)", n, numFeatures, maxFeature)
		}
	}
	of, hasObjective := h["objective"]
	obj, err := p.objective(of, hasObjective)
	if err != nil {
		return nil, err
	}
	if f, ok := h["tree_sizes"]; ok {
		if n := len(strings.Fields(f.val)); n != len(raw.trees) {
			return nil, p.errorf(f.line, "tree_sizes lists %d trees but the file has %d", n, len(raw.trees))
		}
	}

	// Outputs: one per tree of an iteration, tree i writing output i mod K.
	k := perIter
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Task:          obj.task,
		NumFeatures:   numFeatures,
		FeatureNames:  names,
		NumOutputs:    k,
		Aggregation:   ir.Sum,
		Link:          obj.link,
		Provenance: &ir.Provenance{Producer: "lightgbm", Params: map[string]string{
			"version": version,
		}},
	}
	if obj.line != "" {
		m.Provenance.Params["objective"] = obj.line
	}
	if _, ok := h["average_output"]; ok {
		// Random forest mode: LightGBM divides each output by the number
		// of iterations.
		m.Aggregation = ir.Mean
		m.Provenance.Params["average_output"] = "true"
	}
	switch obj.task {
	case ir.Binary:
		if numClass != 1 || perIter != 1 {
			return nil, p.errorf(perIterLine, "objective %s has one output, but num_class=%d and num_tree_per_iteration=%d", quote(obj.name), numClass, perIter)
		}
		m.ClassNames = []string{"0", "1"}
	case ir.Multiclass:
		if numClass != obj.classes || perIter != obj.classes {
			return nil, p.errorf(perIterLine, "objective %s has num_class:%d, but the header has num_class=%d and num_tree_per_iteration=%d", quote(obj.line), obj.classes, numClass, perIter)
		}
		m.ClassNames = make([]string, k)
		for i := range m.ClassNames {
			m.ClassNames[i] = strconv.Itoa(i)
		}
	default:
		if obj.name != "" && obj.name != "custom" && (numClass != 1 || perIter != 1) {
			return nil, p.errorf(perIterLine, "objective %s has one output, but num_class=%d and num_tree_per_iteration=%d", quote(obj.name), numClass, perIter)
		}
		if perIter != numClass {
			return nil, p.errorf(perIterLine, "num_tree_per_iteration=%d differs from num_class=%d", perIter, numClass)
		}
		if k > 1 {
			m.Task = ir.MultiOutput
		}
	}
	if len(raw.trees)%k != 0 {
		return nil, p.errorf(raw.endLine, "the file has %d trees, not a whole number of iterations of num_tree_per_iteration=%d trees", len(raw.trees), k)
	}

	m.Trees = make([]ir.Tree, len(raw.trees))
	extra := 0
	for i := range raw.trees {
		t, err := p.tree(&raw.trees[i], numFeatures)
		if err != nil {
			return nil, err
		}
		nodes, err := p.convert(t, obj.sigmoid, &extra)
		if err != nil {
			return nil, err
		}
		m.Trees[i] = ir.Tree{Output: i % k, Nodes: nodes}
	}
	// An iteration adds num_tree_per_iteration trees. The IR's default
	// round size says so already for summed models; random forests
	// (average_output) with several outputs must state it.
	if k != m.DefaultTreesPerRound() {
		m.TreesPerRound = k
	}
	m.FormatVersion = m.MinFormatVersion() // 1.3 with split statistics
	return m, nil
}

// Decision types (Tree::decision_type_ in LightGBM): bit 0 marks a
// categorical split, bit 1 sends missing values left, bits 2-3 hold the
// missing type.
const (
	categoricalMask = 1
	defaultLeftMask = 2

	missingNone = 0 // NaN is replaced by 0 before the test
	missingZero = 1 // NaN and |x| <= zeroThreshold go to the default side
	missingNaN  = 2 // NaN goes to the default side
)

// zeroThreshold is LightGBM's kZeroThreshold, declared
// "const double kZeroThreshold = 1e-35f": the float32 nearest 1e-35,
// widened to float64 (1.0000000180025095e-35, slightly above 1e-35).
var zeroThreshold = float64(float32(1e-35))

// lgbTree is one tree block, parsed and checked for consistent sizes.
type lgbTree struct {
	index, line   int
	w             where
	numLeaves     int
	numCat        int
	splitFeature  []int
	threshold     []float64
	decisionType  []int
	left, right   []int
	leafValue     []float64
	catBoundaries []int
	catThreshold  []int
	gain, cover   []float64      // split_gain, internal_weight: nil when absent
	lineOf        map[string]int // the line of each field
}

// tree parses the fields of one tree block.
func (p *parser) tree(b *rawBlock, numFeatures int) (*lgbTree, error) {
	w := where(fmt.Sprintf("tree %d", b.index))
	t := &lgbTree{index: b.index, line: b.line, w: w, lineOf: map[string]int{}}
	for k, f := range b.fields {
		t.lineOf[k] = f.line
	}
	fs := b.fields
	if f, ok := fs["is_linear"]; ok {
		v, err := p.int(f, w, "is_linear")
		if err != nil {
			return nil, err
		}
		if v != 0 {
			return nil, p.errorf(f.line, "tree %d is a linear tree: linear trees are not supported", b.index)
		}
	}
	f, err := p.require(fs, w, "num_leaves", b.line)
	if err != nil {
		return nil, err
	}
	if t.numLeaves, err = p.int(f, w, "num_leaves"); err != nil {
		return nil, err
	}
	if t.numLeaves < 1 {
		return nil, p.errorf(f.line, "%snum_leaves=%d: a tree has at least one leaf", w.prefix(), t.numLeaves)
	}
	if f, err = p.require(fs, w, "num_cat", b.line); err != nil {
		return nil, err
	}
	if t.numCat, err = p.int(f, w, "num_cat"); err != nil {
		return nil, err
	}
	if t.numCat < 0 || t.numCat > t.numLeaves-1 {
		return nil, p.errorf(f.line, "%snum_cat=%d: want 0..%d, at most one category set per split", w.prefix(), t.numCat, t.numLeaves-1)
	}

	leaves := fmt.Sprintf("num_leaves=%d", t.numLeaves)
	splits := fmt.Sprintf("num_leaves-1, one per split: num_leaves=%d", t.numLeaves)
	n := t.numLeaves - 1
	floats := func(key string, want int, why string, required bool) ([]float64, error) {
		f, ok := fs[key]
		if !ok {
			if required {
				return nil, p.errorf(b.line, "%s%s is missing", w.prefix(), key)
			}
			return nil, nil
		}
		return p.floats(f, w, key, want, why)
	}
	ints := func(key string, want int, why string, required bool) ([]int, error) {
		f, ok := fs[key]
		if !ok {
			if required {
				return nil, p.errorf(b.line, "%s%s is missing", w.prefix(), key)
			}
			return nil, nil
		}
		return p.ints(f, w, key, want, why)
	}
	if t.leafValue, err = floats("leaf_value", t.numLeaves, leaves, true); err != nil {
		return nil, err
	}
	for i, v := range t.leafValue {
		if !finite(v) {
			return nil, p.errorf(t.lineOf["leaf_value"], "%sleaf_value %d is %v, not a finite number", w.prefix(), i, v)
		}
	}
	// Fields LightGBM writes for information (weights, counts, gains,
	// shrinkage) are checked for size and syntax only.
	for _, k := range []string{"leaf_weight"} {
		if _, err := floats(k, t.numLeaves, leaves, false); err != nil {
			return nil, err
		}
	}
	if _, err := ints("leaf_count", t.numLeaves, leaves, false); err != nil {
		return nil, err
	}
	for _, k := range []string{"internal_value"} {
		if _, err := floats(k, n, splits, false); err != nil {
			return nil, err
		}
	}
	// split_gain and internal_weight become the IR's split statistics.
	if t.gain, err = floats("split_gain", n, splits, false); err != nil {
		return nil, err
	}
	for i, v := range t.gain {
		if !finite(v) {
			return nil, p.errorf(t.lineOf["split_gain"], "%ssplit_gain of node %d is %v, not a finite number", w.prefix(), i, v)
		}
	}
	if t.cover, err = floats("internal_weight", n, splits, false); err != nil {
		return nil, err
	}
	for i, v := range t.cover {
		if !finite(v) || v < 0 {
			return nil, p.errorf(t.lineOf["internal_weight"], "%sinternal_weight of node %d is %v, not a hessian sum (a finite number >= 0)", w.prefix(), i, v)
		}
	}
	if _, err := ints("internal_count", n, splits, false); err != nil {
		return nil, err
	}
	if f, ok := fs["shrinkage"]; ok {
		if _, err := p.floats(f, w, "shrinkage", 1, "one number"); err != nil {
			return nil, err
		}
	}
	// The split arrays; a single leaf needs none (LightGBM writes them empty).
	required := n > 0
	if t.splitFeature, err = ints("split_feature", n, splits, required); err != nil {
		return nil, err
	}
	if t.threshold, err = floats("threshold", n, splits, required); err != nil {
		return nil, err
	}
	if t.left, err = ints("left_child", n, splits, required); err != nil {
		return nil, err
	}
	if t.right, err = ints("right_child", n, splits, required); err != nil {
		return nil, err
	}
	if t.decisionType, err = ints("decision_type", n, splits, false); err != nil {
		return nil, err
	}
	if t.decisionType == nil {
		t.decisionType = make([]int, n) // LightGBM's default: numerical, no missing type
	}
	for i, f := range t.splitFeature {
		if f < 0 || f >= numFeatures {
			return nil, p.errorf(t.lineOf["split_feature"], "%ssplit_feature of node %d is %d: out of range (the model has %d features)", w.prefix(), i, f, numFeatures)
		}
	}
	for i, d := range t.decisionType {
		if d < 0 || d > 15 || (d>>2)&3 == 3 {
			return nil, p.errorf(t.lineOf["decision_type"], "%sdecision_type of node %d is %d: not a LightGBM decision type (bit 0 categorical, bit 1 default left, bits 2-3 missing type 0, 1 or 2)", w.prefix(), i, d)
		}
	}
	if t.numCat > 0 {
		if t.catBoundaries, err = ints("cat_boundaries", t.numCat+1, fmt.Sprintf("num_cat+1: num_cat=%d", t.numCat), true); err != nil {
			return nil, err
		}
		line := t.lineOf["cat_boundaries"]
		if t.catBoundaries[0] < 0 {
			return nil, p.errorf(line, "%scat_boundaries starts at %d: want 0 or more", w.prefix(), t.catBoundaries[0])
		}
		for i := 1; i < len(t.catBoundaries); i++ {
			if t.catBoundaries[i] < t.catBoundaries[i-1] {
				return nil, p.errorf(line, "%scat_boundaries must not decrease (%d after %d)", w.prefix(), t.catBoundaries[i], t.catBoundaries[i-1])
			}
		}
		last := t.catBoundaries[t.numCat]
		if t.catThreshold, err = ints("cat_threshold", last, fmt.Sprintf("the last cat_boundaries value, %d", last), true); err != nil {
			return nil, err
		}
		for i, v := range t.catThreshold {
			if v < 0 || v > math.MaxUint32 {
				return nil, p.errorf(t.lineOf["cat_threshold"], "%scat_threshold value %d, %d, is not a 32-bit word", w.prefix(), i, v)
			}
		}
	}
	return t, nil
}
