package emit

import (
	"fmt"
	"math"
	"strconv"

	"github.com/treegen/treegen/ir"
)

// needs are the package-level helpers that the code of a model may use,
// computed from the model alone before anything is emitted: the main file
// declares them, whichever backend writes the trees.
type needs struct {
	// negZero: some value of the model is -0 in the working precision or in
	// float32 (a literal -0 is the variable negZero; Go constants have no
	// negative zero).
	negZero bool
	// exp: the link, a softmax leaf or a latent tree with elu splits
	// computes an exponential.
	exp bool
	// catSets are the distinct category sets of categorical splits, in the
	// order in which a depth-first, left-first walk of the trees meets them;
	// catIndex finds them by their categories.
	catSets  []*categorySet
	catIndex map[string]*categorySet
}

// scan computes the needs of m in precision prec.
func scan(m *ir.Model, prec Precision) needs {
	var n needs
	float32s := prec.Is32() || m.Float32Compare || m.Float32Sum
	for _, v := range ModelValues(m) {
		if (v == 0 && math.Signbit(v)) || (float32s && float32(v) == 0 && math.Signbit(float64(float32(v)))) {
			n.negZero = true
			break
		}
	}
	switch m.Link {
	case ir.Sigmoid, ir.Exp, ir.Softmax:
		n.exp = true
	}
	for i := range m.Trees {
		t := &m.Trees[i]
		if t.Latent && t.Activation == ir.Elu {
			n.exp = true
		}
		if len(t.Nodes) == 0 {
			continue
		}
		var walk func(j int)
		walk = func(j int) {
			nd := &t.Nodes[j]
			switch nd.Kind {
			case ir.SoftmaxLeaf:
				n.exp = true
			case ir.Categorical:
				n.addCategories(nd.Categories)
			}
			if nd.IsSplit() {
				walk(nd.Left)
				walk(nd.Right)
			}
		}
		walk(0)
	}
	return n
}

// addCategories registers the set cats (sorted, not empty) if it is new.
func (n *needs) addCategories(cats []int) {
	if len(cats) == 0 {
		return // the test is false: no set
	}
	key := fmt.Sprint(cats)
	if _, ok := n.catIndex[key]; ok {
		return
	}
	if n.catIndex == nil {
		n.catIndex = map[string]*categorySet{}
	}
	set := &categorySet{name: "categories" + strconv.Itoa(len(n.catSets)), cats: cats}
	n.catIndex[key] = set
	n.catSets = append(n.catSets, set)
}

// ModelValues returns every number of m that generated code may write as a
// literal: thresholds, biases, weights, widths, leaf values, softmax
// parameters, base scores and preprocessing, in model order.
func ModelValues(m *ir.Model) []float64 {
	var vs []float64
	vs = append(vs, m.BaseScore...)
	if p := m.Preprocess; p != nil {
		vs = append(vs, p.Shift...)
		vs = append(vs, p.Scale...)
	}
	for _, t := range m.Trees {
		for _, n := range t.Nodes {
			vs = append(vs, n.Threshold, n.Bias, n.Gamma)
			vs = append(vs, n.Weights...)
			vs = append(vs, n.Value...)
			if n.Activity != nil {
				vs = append(vs, *n.Activity)
			}
			if sp := n.Softmax; sp != nil {
				vs = append(vs, sp.Bias...)
				for _, r := range sp.Rows {
					vs = append(vs, r.Weights...)
				}
			}
		}
	}
	if r := m.Readout; r != nil {
		vs = append(vs, r.Bias...)
		for _, w := range r.Weights {
			vs = append(vs, w...)
		}
	}
	return vs
}
