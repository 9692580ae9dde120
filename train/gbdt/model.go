package gbdt

import (
	"github.com/treegen/treegen/ir"
)

// toIR converts a grown tree into an IR tree writing output, its nodes
// numbered in pre-order (a node, its left subtree, its right subtree),
// every split with its
// statistics (ir.Node.Gain, XGBoost's loss_chg, and ir.Node.Cover, the
// hessian sum). Splits of categorical features become categorical nodes,
// the others axis nodes.
func toIR(nodes []tnode, output int) ir.Tree {
	out := make([]ir.Node, 0, len(nodes))
	values := make([]float64, 0, (len(nodes)+1)/2) // one backing array for the leaf values
	var walk func(i int) int
	walk = func(i int) int {
		id := len(out)
		out = append(out, ir.Node{})
		nd := &nodes[i]
		if nd.leaf {
			values = append(values, nd.value)
			k := len(values)
			out[id] = ir.Node{Kind: ir.Leaf, Value: values[k-1 : k : k]}
			return id
		}
		left := walk(nd.left)
		right := walk(nd.right)
		n := ir.Node{
			Kind:        ir.Axis,
			Left:        left,
			Right:       right,
			DefaultLeft: nd.nanLeft,
			Feature:     nd.feature,
			Gain:        nd.gain,
			Cover:       nd.cover,
		}
		if nd.cat {
			n.Kind, n.Categories = ir.Categorical, nd.categories
		} else {
			n.LessEqual, n.Threshold = nd.lessEqual, nd.threshold
		}
		out[id] = n
		return id
	}
	walk(0)
	return ir.Tree{Output: output, Nodes: out}
}
