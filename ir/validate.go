package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ValidationError is a rule of the IR broken by a model, with the JSON path
// of the culprit (for example "trees[3].nodes[17].threshold").
type ValidationError struct {
	Path string
	Msg  string
}

func (e *ValidationError) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// Validate checks every rule of the IR and returns the first violation as a
// *ValidationError naming its JSON path, or nil. Consumers may assume a
// validated model: indices in range, a tree per node array, finite numbers.
func (m *Model) Validate() error {
	v := validator{m: m}
	v.model()
	return v.err
}

type validator struct {
	m   *Model
	err error
}

// fail records the first violation.
func (v *validator) fail(path, format string, args ...any) {
	if v.err == nil {
		v.err = &ValidationError{Path: path, Msg: fmt.Sprintf(format, args...)}
	}
}

func (v *validator) ok() bool { return v.err == nil }

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// finites checks that every value of xs is finite.
func (v *validator) finites(path string, xs []float64) {
	for i, x := range xs {
		if !finite(x) {
			v.fail(fmt.Sprintf("%s[%d]", path, i), "%v is not a finite number", x)
			return
		}
	}
}

// allFinite reports whether every value of xs is finite.
func allFinite(xs []float64) bool {
	for _, x := range xs {
		if !finite(x) {
			return false
		}
	}
	return true
}

// CheckVersion returns an error unless version is a format version this
// package reads: the same major version as FormatVersion.
func CheckVersion(version string) error {
	if version == "" {
		return fmt.Errorf("format_version is missing: not a treegen model")
	}
	major, _, _ := strings.Cut(FormatVersion, ".")
	got, minor, ok := strings.Cut(version, ".")
	if _, err := strconv.Atoi(got); err != nil || !ok {
		return fmt.Errorf("format_version %q is not MAJOR.MINOR", version)
	}
	if _, err := strconv.Atoi(minor); err != nil {
		return fmt.Errorf("format_version %q is not MAJOR.MINOR", version)
	}
	if got != major {
		return fmt.Errorf("format_version %q is not supported: this treegen reads %s.x", version, major)
	}
	return nil
}

func (v *validator) model() {
	m := v.m
	if err := CheckVersion(m.FormatVersion); err != nil {
		v.fail("format_version", "%s", strings.TrimPrefix(err.Error(), "format_version "))
		return
	}
	switch m.Task {
	case Regression, Binary, Multiclass, MultiOutput:
	default:
		v.fail("task", "unknown task %q (want regression, binary, multiclass or multi_output)", m.Task)
	}
	if m.NumFeatures < 1 || m.NumFeatures > MaxFeatures {
		v.fail("num_features", "must be between 1 and %d, got %d", MaxFeatures, m.NumFeatures)
		return // every later check may size something by it
	}
	if m.FeatureNames != nil && len(m.FeatureNames) != m.NumFeatures {
		v.fail("feature_names", "has %d names for %d features", len(m.FeatureNames), m.NumFeatures)
	}
	if p := m.Preprocess; p != nil {
		if len(p.Shift) != m.NumFeatures {
			v.fail("preprocess.shift", "has %d values for %d features", len(p.Shift), m.NumFeatures)
		}
		if len(p.Scale) != m.NumFeatures {
			v.fail("preprocess.scale", "has %d values for %d features", len(p.Scale), m.NumFeatures)
		}
		v.finites("preprocess.shift", p.Shift)
		v.finites("preprocess.scale", p.Scale)
	}
	k := m.NumOutputs
	if k < 1 || k > MaxOutputs {
		v.fail("num_outputs", "must be between 1 and %d, got %d", MaxOutputs, k)
		return
	}
	switch m.Task {
	case Binary:
		if k != 1 {
			v.fail("num_outputs", "a binary model has one output (the score of the second class), got %d", k)
		}
		if m.ClassNames != nil && len(m.ClassNames) != 2 {
			v.fail("class_names", "a binary model has 2 classes, got %d names", len(m.ClassNames))
		}
	case Multiclass:
		if k < 2 {
			v.fail("num_outputs", "a multiclass model has one output per class (at least 2), got %d", k)
		}
		if m.ClassNames != nil && len(m.ClassNames) != k {
			v.fail("class_names", "has %d names for %d classes", len(m.ClassNames), k)
		}
	default:
		if m.ClassNames != nil {
			v.fail("class_names", "only binary and multiclass models have classes")
		}
	}
	if m.BaseScore != nil {
		if len(m.BaseScore) != k {
			v.fail("base_score", "has %d values for %d outputs", len(m.BaseScore), k)
		}
		v.finites("base_score", m.BaseScore)
	}
	switch m.Aggregation {
	case Sum, Mean:
	default:
		v.fail("aggregation", "unknown aggregation %q (want sum or mean)", m.Aggregation)
	}
	switch m.Link {
	case Identity, Sigmoid, Exp:
	case Softmax:
		if k < 2 {
			v.fail("link", "softmax needs at least 2 outputs, got %d", k)
		}
	default:
		v.fail("link", "unknown link %q (want identity, sigmoid, softmax or exp)", m.Link)
	}
	if !v.ok() {
		return
	}
	for i := range m.Trees {
		v.tree(fmt.Sprintf("trees[%d]", i), &m.Trees[i])
		if !v.ok() {
			return
		}
	}
	if r := m.TreesPerRound; r < 0 {
		v.fail("trees_per_round", "must be >= 0 (0 means the default round size), got %d", r)
		return
	} else if n := m.numHard(); r > 0 && n%r != 0 {
		v.fail("trees_per_round", "the model's %d trees (not counting latent ones) are not a whole number of rounds of %d trees", n, r)
		return
	}
	if m.Aggregation == Mean {
		for k, n := range m.TreesPerOutput() {
			if n == 0 {
				v.fail("aggregation", "mean over no trees: no tree writes output %d", k)
				return
			}
		}
	}
	v.readout()
}

func (v *validator) readout() {
	m := v.m
	z := m.LatentSize()
	r := m.Readout
	switch {
	case r == nil && z == 0:
		return
	case r == nil:
		v.fail("readout", "is missing: the model has latent trees")
		return
	case z == 0:
		v.fail("readout", "is present but no tree is latent")
		return
	}
	if len(r.Weights) != m.NumOutputs {
		v.fail("readout.weights", "has %d rows for %d outputs", len(r.Weights), m.NumOutputs)
	}
	for i, row := range r.Weights {
		if len(row) != m.NumFeatures+z {
			v.fail(fmt.Sprintf("readout.weights[%d]", i), "has %d values, want %d (%d features + %d latent nodes)", len(row), m.NumFeatures+z, m.NumFeatures, z)
		}
		v.finites(fmt.Sprintf("readout.weights[%d]", i), row)
	}
	if len(r.Bias) != m.NumOutputs {
		v.fail("readout.bias", "has %d values for %d outputs", len(r.Bias), m.NumOutputs)
	}
	v.finites("readout.bias", r.Bias)
}

func (v *validator) tree(path string, t *Tree) {
	m := v.m
	if t.Output < AllOutputs || t.Output >= m.NumOutputs {
		v.fail(path+".output", "output %d out of range: want -1 (all outputs) or 0..%d", t.Output, m.NumOutputs-1)
		return
	}
	switch {
	case t.Activation != NoActivation && t.Activation != Elu:
		v.fail(path+".activation", "unknown split activation %q: want \"elu\" or none", t.Activation)
		return
	case t.Activation != NoActivation && !t.Latent:
		v.fail(path+".activation", "only a latent tree has a split activation")
		return
	}
	if t.Latent && t.Output != AllOutputs {
		v.fail(path+".output", "a latent tree feeds the read-out: output must be -1")
		return
	}
	n := len(t.Nodes)
	if n == 0 {
		v.fail(path+".nodes", "a tree needs at least one node")
		return
	}
	parent := make([]int, n)
	for i := range parent {
		parent[i] = -1
	}
	depth := make([]int, n)
	for i := range t.Nodes {
		np := nodePath{path, i}
		nd := &t.Nodes[i]
		v.node(np, t, nd)
		if !v.ok() {
			return
		}
		if !nd.IsSplit() {
			continue
		}
		for _, c := range [2]struct {
			name  string
			child int
		}{{"left", nd.Left}, {"right", nd.Right}} {
			switch {
			case c.child < 0 || c.child >= n:
				v.fail(np.String()+"."+c.name, "child %d out of range: the tree has %d nodes", c.child, n)
			case c.child <= i:
				v.fail(np.String()+"."+c.name, "child %d does not come after its parent %d: cycle or non-canonical order (children must have higher indices)", c.child, i)
			case parent[c.child] >= 0:
				v.fail(np.String()+"."+c.name, "child %d is shared with node %d", c.child, parent[c.child])
			default:
				parent[c.child] = i
				depth[c.child] = depth[i] + 1
				if depth[c.child] > MaxDepth {
					v.fail(np.String()+"."+c.name, "tree deeper than %d", MaxDepth)
				}
			}
			if !v.ok() {
				return
			}
		}
	}
	for i := 1; i < n; i++ {
		if parent[i] < 0 {
			v.fail(fmt.Sprintf("%s.nodes[%d]", path, i), "unreachable: no node has it as a child")
			return
		}
	}
}

func (v *validator) sparse(path string, indices []int, weights []float64) {
	if len(indices) != len(weights) {
		v.fail(path+".weights", "has %d weights for %d indices", len(weights), len(indices))
		return
	}
	for j, f := range indices {
		if f < 0 || f >= v.m.NumFeatures {
			v.fail(fmt.Sprintf("%s.indices[%d]", path, j), "feature %d out of range: the model has %d features", f, v.m.NumFeatures)
			return
		}
		if j > 0 && f <= indices[j-1] {
			v.fail(fmt.Sprintf("%s.indices[%d]", path, j), "indices must be strictly increasing (%d after %d)", f, indices[j-1])
			return
		}
	}
	v.finites(path+".weights", weights)
}

// fieldSet is a set of node fields, one bit each.
type fieldSet uint16

const (
	fLeft fieldSet = 1 << iota
	fRight
	fDefaultLeft
	fLessEqual
	fFeature
	fThreshold
	fIndices
	fWeights
	fBias
	fGamma
	fValue
	fSoftmax
	fActivity
	fCategories
	fGain
	fCover
)

// nodePath is the JSON path of a node, formatted only when a rule fails.
type nodePath struct {
	tree string
	i    int
}

func (p nodePath) String() string { return fmt.Sprintf("%s.nodes[%d]", p.tree, p.i) }

// node checks one node's own fields (not its links).
func (v *validator) node(path nodePath, t *Tree, n *Node) {
	m := v.m
	// Fields that are not part of this kind must be zero.
	var allowed fieldSet
	switch n.Kind {
	case Axis:
		allowed = fLeft | fRight | fDefaultLeft | fLessEqual | fFeature | fThreshold
		if n.Feature < 0 || n.Feature >= m.NumFeatures {
			v.fail(path.String()+".feature", "feature %d out of range: the model has %d features", n.Feature, m.NumFeatures)
		}
		if !finite(n.Threshold) {
			v.fail(path.String()+".threshold", "%v is not a finite number", n.Threshold)
		}
	case Categorical:
		allowed = fLeft | fRight | fDefaultLeft | fFeature | fCategories
		if t.Latent {
			v.fail(path.String()+".kind", "a latent tree has axis and oblique splits only")
		}
		if n.Feature < 0 || n.Feature >= m.NumFeatures {
			v.fail(path.String()+".feature", "feature %d out of range: the model has %d features", n.Feature, m.NumFeatures)
		}
		for j, c := range n.Categories {
			if c < 0 || c > MaxCategory {
				v.fail(fmt.Sprintf("%s.categories[%d]", path.String(), j), "category %d out of range 0..%d", c, MaxCategory)
				break
			}
			if j > 0 && c <= n.Categories[j-1] {
				v.fail(fmt.Sprintf("%s.categories[%d]", path.String(), j), "categories must be strictly increasing (%d after %d)", c, n.Categories[j-1])
				break
			}
		}
	case Oblique:
		allowed = fLeft | fRight | fDefaultLeft | fLessEqual | fIndices | fWeights | fBias
		v.sparse(path.String(), n.Indices, n.Weights)
		if !finite(n.Bias) {
			v.fail(path.String()+".bias", "%v is not a finite number", n.Bias)
		}
	case Soft:
		allowed = fLeft | fRight | fDefaultLeft | fIndices | fWeights | fBias | fGamma
		if t.Latent {
			v.fail(path.String()+".kind", "a latent tree has hard splits only")
		}
		v.sparse(path.String(), n.Indices, n.Weights)
		if !finite(n.Bias) {
			v.fail(path.String()+".bias", "%v is not a finite number", n.Bias)
		}
		if !finite(n.Gamma) || n.Gamma < 0 {
			v.fail(path.String()+".gamma", "gamma must be a finite number >= 0, got %v", n.Gamma)
		}
	case Leaf:
		allowed = fValue
		want := 1
		switch {
		case t.Latent:
			want = 0
		case t.Output == AllOutputs:
			want = m.NumOutputs
		}
		if len(n.Value) != want {
			what := "one value (the tree writes one output)"
			switch {
			case t.Latent:
				what = "no value (latent trees feed the read-out)"
			case want != 1:
				what = fmt.Sprintf("%d values (one per output)", want)
			}
			v.fail(path.String()+".value", "has %d values, want %s", len(n.Value), what)
		}
		if !allFinite(n.Value) {
			v.finites(path.String()+".value", n.Value)
		}
	case SoftmaxLeaf:
		allowed = fSoftmax
		if t.Latent || t.Output != AllOutputs {
			v.fail(path.String()+".kind", "a softmax leaf needs a tree with output -1 (all outputs) that is not latent")
			return
		}
		v.softmax(path.String()+".softmax", n.Softmax)
	default:
		v.fail(path.String()+".kind", "unknown node kind %q (want axis, categorical, oblique, soft, leaf or softmax)", n.Kind)
		return
	}
	if n.IsSplit() {
		allowed |= fGain | fCover
		if !finite(n.Gain) {
			v.fail(path.String()+".gain", "%v is not a finite number", n.Gain)
		}
		if !finite(n.Cover) || n.Cover < 0 {
			v.fail(path.String()+".cover", "cover is a hessian sum, a finite number >= 0, got %v", n.Cover)
		}
	}
	if t.Latent {
		allowed |= fActivity
		if n.Activity == nil {
			v.fail(path.String()+".activity", "is missing: every node of a latent tree has an activity")
		} else if a := *n.Activity; !(a >= 0 && a <= 1) {
			v.fail(path.String()+".activity", "activity must be in [0, 1], got %v", a)
		}
	}
	for _, f := range [...]struct {
		bit  fieldSet
		name string
		set  bool
	}{
		{fLeft, "left", n.Left != 0}, {fRight, "right", n.Right != 0}, {fDefaultLeft, "default_left", n.DefaultLeft},
		{fLessEqual, "less_equal", n.LessEqual}, {fFeature, "feature", n.Feature != 0}, {fThreshold, "threshold", n.Threshold != 0},
		{fIndices, "indices", n.Indices != nil}, {fWeights, "weights", n.Weights != nil}, {fBias, "bias", n.Bias != 0},
		{fGamma, "gamma", n.Gamma != 0}, {fValue, "value", n.Value != nil}, {fSoftmax, "softmax", n.Softmax != nil},
		{fActivity, "activity", n.Activity != nil},
		{fCategories, "categories", n.Categories != nil},
		{fGain, "gain", n.Gain != 0}, {fCover, "cover", n.Cover != 0},
	} {
		if f.set && allowed&f.bit == 0 {
			why := fmt.Sprintf("a %s node", n.Kind)
			note := ""
			switch f.name {
			case "activity":
				why = "a node outside a latent tree"
			case "gain", "cover":
				note = " (split statistics belong to split nodes)"
			}
			v.fail(path.String()+"."+f.name, "%s has no %s%s", why, f.name, note)
			return
		}
	}
}

func (v *validator) softmax(path string, s *SoftmaxParams) {
	if s == nil {
		v.fail(path, "is missing")
		return
	}
	if len(s.Classes) == 0 {
		v.fail(path+".classes", "a softmax leaf needs at least one class")
		return
	}
	for j, c := range s.Classes {
		if c < 0 || c >= v.m.NumOutputs {
			v.fail(fmt.Sprintf("%s.classes[%d]", path, j), "class %d out of range: the model has %d outputs", c, v.m.NumOutputs)
			return
		}
		if j > 0 && c <= s.Classes[j-1] {
			v.fail(fmt.Sprintf("%s.classes[%d]", path, j), "classes must be strictly increasing (%d after %d)", c, s.Classes[j-1])
			return
		}
	}
	if len(s.Rows) != len(s.Classes) {
		v.fail(path+".rows", "has %d rows for %d classes", len(s.Rows), len(s.Classes))
		return
	}
	if len(s.Bias) != len(s.Classes) {
		v.fail(path+".bias", "has %d values for %d classes", len(s.Bias), len(s.Classes))
		return
	}
	for j := range s.Rows {
		v.sparse(fmt.Sprintf("%s.rows[%d]", path, j), s.Rows[j].Indices, s.Rows[j].Weights)
	}
	v.finites(path+".bias", s.Bias)
}
