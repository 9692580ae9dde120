package emit

import (
	"fmt"

	"github.com/treegen/treegen/ir"
)

// CheckAxisTree returns nil if tree i of a validated model is hard, not
// latent, with "axis" splits and constant "leaf" leaves only: what the
// backends of axis-aligned ensembles compile. Otherwise the error names the
// tree, says why and names the backend that compiles it.
func CheckAxisTree(i int, t *ir.Tree) error {
	if t.Latent {
		return fmt.Errorf("tree %d is latent: use the ifelse backend", i)
	}
	for j := range t.Nodes {
		switch t.Nodes[j].Kind {
		case ir.Axis, ir.Leaf:
		case ir.Soft:
			return fmt.Errorf("tree %d has soft nodes: use the smoothstep backend", i)
		case ir.Categorical:
			return fmt.Errorf("tree %d has a categorical split: use the ifelse backend", i)
		case ir.Oblique:
			return fmt.Errorf("tree %d has an oblique split: use the ifelse backend", i)
		case ir.SoftmaxLeaf:
			return fmt.Errorf("tree %d has a softmax leaf: use the ifelse backend", i)
		default:
			return fmt.Errorf("tree %d has a node of kind %q: use the ifelse backend", i, t.Nodes[j].Kind)
		}
	}
	return nil
}
