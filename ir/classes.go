package ir

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// NumClasses returns the number of classes of a classifier: 2 for a
// binary model, NumOutputs for a multiclass one, 0 for other tasks.
func (m *Model) NumClasses() int {
	switch m.Task {
	case Binary:
		return 2
	case Multiclass:
		return m.NumOutputs
	}
	return 0
}

// SetClassNames names the classes of a classifier, in the order of its
// outputs (for a binary model: the class scored 0, then the class its one
// output scores). There must be NumClasses names, distinct and not empty.
// On error m is unchanged.
func (m *Model) SetClassNames(names []string) error {
	k := m.NumClasses()
	if k == 0 {
		return fmt.Errorf("a %s model has no classes to name", m.Task)
	}
	if len(names) != k {
		return fmt.Errorf("%d class names for a model of %s (%s): %s", len(names), plural(k, "class"), m.Task, strings.Join(quoteAll(names), ", "))
	}
	seen := make(map[string]int, k)
	for i, n := range names {
		if n == "" {
			return fmt.Errorf("class name %d is empty", i+1)
		}
		if j, ok := seen[n]; ok {
			return fmt.Errorf("class names %d and %d are both %q", j+1, i+1, n)
		}
		seen[n] = i
	}
	m.ClassNames = append([]string(nil), names...)
	return nil
}

// SetPositiveClass makes name the class whose probability a binary model
// outputs (ClassNames[1]): nothing changes when it already is, and
// SwapBinaryClasses swaps the classes when it is ClassNames[0]. It is an
// error, listing the classes, when the model has no class of that name.
func (m *Model) SetPositiveClass(name string) error {
	if m.Task != Binary {
		return fmt.Errorf("a positive class needs a binary model, not a %s one", m.Task)
	}
	if len(m.ClassNames) != 2 {
		return fmt.Errorf("the model's classes have no names, so class %q cannot be found: name them first", name)
	}
	switch name {
	case m.ClassNames[1]:
		return nil
	case m.ClassNames[0]:
		return m.SwapBinaryClasses()
	}
	return fmt.Errorf("no class %q: the model's classes are %s", name, strings.Join(quoteAll(m.ClassNames), " and "))
}

// SwapBinaryClasses turns a binary model that scores its second class into
// one that scores its first, exactly, and swaps ClassNames to match.
//
// With the sigmoid link the output is sigmoid(margin): every number that
// adds to the margin changes sign (the constant leaves, BaseScore, and the
// latent read-out's weights and bias), so that the new margin is exactly
// the negated old one in every precision (rounding to nearest is symmetric,
// and the sums keep their order), and the prediction is sigmoid(-margin) =
// 1 - P up to the rounding of the link.
//
// With the identity link the output is the probability itself, and the
// new one is 1 - P: leaves change sign and the base becomes 1, which is
// exact (the prediction is 1 - P rounded once) only when the old base is 0
// and P is one addition away from it: one tree with the sum aggregation,
// or the mean aggregation, and no latent read-out. Other identity models
// are refused.
//
// Models it cannot swap exactly are refused with the reason: not binary,
// another link, softmax leaves (their values are probabilities, not
// numbers that can change sign). On error m is unchanged. A prediction of
// exactly 0.5, which scored the first class, scores the first class again,
// now the other one.
func (m *Model) SwapBinaryClasses() error {
	if m.Task != Binary || m.NumOutputs != 1 {
		return fmt.Errorf("only a binary model's classes can be swapped, not those of a %s model with %s", m.Task, plural(m.NumOutputs, "output"))
	}
	for i := range m.Trees {
		for j := range m.Trees[i].Nodes {
			if m.Trees[i].Nodes[j].Kind == SoftmaxLeaf {
				return fmt.Errorf("trees[%d].nodes[%d] is a softmax leaf: its value is a probability, which cannot be negated, so the classes cannot be swapped exactly", i, j)
			}
		}
	}
	base := 1.0
	switch m.Link {
	case Sigmoid:
		base = -m.Base(0)
	case Identity:
		if b := m.Base(0); b != 0 {
			return fmt.Errorf("the model outputs a probability (identity link) from base score %v: 1 - P cannot be computed exactly, so the classes cannot be swapped", b)
		}
		if m.Readout != nil {
			return errors.New("the model outputs a probability (identity link) with a latent read-out: 1 - P cannot be computed exactly, so the classes cannot be swapped")
		}
		if n := m.numHard(); m.Aggregation == Sum && n != 1 {
			return fmt.Errorf("the model outputs a probability (identity link) that sums %s: 1 - P cannot be computed exactly, so the classes cannot be swapped", plural(n, "tree"))
		}
	default:
		return fmt.Errorf("the model's %s link does not output a probability, so the classes cannot be swapped", m.Link)
	}
	for i := range m.Trees {
		nodes := m.Trees[i].Nodes
		for j := range nodes {
			for k, v := range nodes[j].Value {
				nodes[j].Value[k] = -v
			}
		}
	}
	if m.Readout != nil {
		for _, w := range m.Readout.Weights {
			for j, v := range w {
				w[j] = -v
			}
		}
		for j, v := range m.Readout.Bias {
			m.Readout.Bias[j] = -v
		}
	}
	if len(m.BaseScore) > 0 || base != 0 {
		m.BaseScore = []float64{base}
	}
	if len(m.ClassNames) == 2 {
		m.ClassNames = []string{m.ClassNames[1], m.ClassNames[0]}
	}
	return nil
}

// quoteAll returns the strings quoted.
func quoteAll(s []string) []string {
	q := make([]string, len(s))
	for i, v := range s {
		q[i] = strconv.Quote(v)
	}
	return q
}

// plural returns "1 tree", "2 trees", "3 classes".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	if strings.HasSuffix(what, "s") {
		return strconv.Itoa(n) + " " + what + "es"
	}
	return strconv.Itoa(n) + " " + what + "s"
}
