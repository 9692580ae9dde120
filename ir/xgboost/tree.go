package xgboost

import (
	"fmt"
	"math"
	"slices"

	"github.com/treegen/treegen/ir"
)

// maxCategory bounds the categories XGBoost can match: it sends a value
// v >= 2^24 (or v < 0) left as an invalid category, whatever the split's set.
const maxCategory = 1 << 24

// A categorical split that holds category 0 copies a subtree (see emit).
// The converted tree may have at most expansion times as many nodes as the
// XGBoost tree, and at most maxTreeNodes.
const (
	expansion    = 64
	maxTreeNodes = 1 << 20
)

// xtree is one XGBoost tree: parallel arrays indexed by node.
type xtree struct {
	path      string
	n         int
	left      []int64
	right     []int64
	feature   []int64
	cond      []float32
	dleft     []bool
	splitType []int64
	cats      map[int][]int // categorical splits: the categories that go right, sorted, < 2^24
	weight    float32       // dart: the tree's weight_drop
	dart      bool
	gain      []float32 // loss_changes, nil when absent
	cover     []float32 // sum_hessian, nil when absent
	out       []ir.Node // the converted tree
	depth     int       // the converted tree's depth
	copies    int       // > 0 while emit writes a copy of a subtree
}

// tree converts trees[t].
func (c *converter) tree(t int, tv *value) (ir.Tree, error) {
	x := &xtree{path: fmt.Sprintf("trees[%d]", t), dart: c.dart}
	if c.dart {
		x.weight = c.weights[t]
	}
	if err := object(tv, x.path); err != nil {
		return ir.Tree{}, err
	}
	if tp := tv.field("tree_param"); tp != nil {
		p := x.path + ".tree_param"
		if err := object(tp, p); err != nil {
			return ir.Tree{}, err
		}
		slv, err := param(tp, p, "size_leaf_vector", 0)
		if err != nil {
			return ir.Tree{}, err
		}
		if slv > 1 {
			return ir.Tree{}, errorf(p+".size_leaf_vector", "vector leaves (size_leaf_vector %d, XGBoost's multi_strategy \"multi_output_tree\") are not supported", slv)
		}
	}
	var err error
	field := func(name string) *value { return tv.field(name) }
	if x.left, err = ints(field("left_children"), x.path+".left_children"); err != nil {
		return ir.Tree{}, err
	}
	if x.right, err = ints(field("right_children"), x.path+".right_children"); err != nil {
		return ir.Tree{}, err
	}
	if x.feature, err = ints(field("split_indices"), x.path+".split_indices"); err != nil {
		return ir.Tree{}, err
	}
	if x.cond, err = float32s(field("split_conditions"), x.path+".split_conditions"); err != nil {
		return ir.Tree{}, err
	}
	if x.dleft, err = bools(field("default_left"), x.path+".default_left"); err != nil {
		return ir.Tree{}, err
	}
	x.n = len(x.left)
	lengths := []struct {
		name string
		n    int
	}{
		{"right_children", len(x.right)}, {"split_indices", len(x.feature)},
		{"split_conditions", len(x.cond)}, {"default_left", len(x.dleft)},
	}
	if v := field("split_type"); v != nil {
		if x.splitType, err = ints(v, x.path+".split_type"); err != nil {
			return ir.Tree{}, err
		}
		lengths = append(lengths, struct {
			name string
			n    int
		}{"split_type", len(x.splitType)})
	}
	for _, l := range lengths {
		if l.n != x.n {
			return ir.Tree{}, errorf(x.path, "left_children has %d entries, %s %d", x.n, l.name, l.n)
		}
	}
	if tp := tv.field("tree_param"); tp != nil {
		if nn, err := param(tp, x.path+".tree_param", "num_nodes", int64(x.n)); err != nil {
			return ir.Tree{}, err
		} else if nn != int64(x.n) {
			return ir.Tree{}, errorf(x.path+".tree_param.num_nodes", "is %d, but left_children has %d entries", nn, x.n)
		}
	}
	if x.n == 0 {
		return ir.Tree{}, errorf(x.path, "the tree has no nodes")
	}
	// The split statistics, optional (check checks their values).
	for _, st := range [2]struct {
		name string
		dst  *[]float32
	}{{"loss_changes", &x.gain}, {"sum_hessian", &x.cover}} {
		if v := field(st.name); v != nil {
			if *st.dst, err = float32s(v, x.path+"."+st.name); err != nil {
				return ir.Tree{}, err
			}
			if len(*st.dst) != x.n {
				return ir.Tree{}, errorf(x.path, "left_children has %d entries, %s %d", x.n, st.name, len(*st.dst))
			}
		}
	}
	if slices.Contains(x.splitType, 1) {
		if err := x.categories(tv); err != nil {
			return ir.Tree{}, err
		}
		if v := c.version; len(v) >= 2 && (v[0] < 1 || v[0] == 1 && v[1] < 7) {
			return ir.Tree{}, errorf(x.path, "categorical splits of XGBoost %d.%d are not supported: XGBoost before 1.7 sent invalid categories to the default child; load the model with XGBoost 1.7 or later and save it again", v[0], v[1])
		}
	}
	if err := x.check(c.numFeature); err != nil {
		return ir.Tree{}, err
	}
	if _, err := x.emit(0, 0); err != nil {
		return ir.Tree{}, err
	}
	return ir.Tree{Nodes: x.out}, nil
}

// categories reads the category sets of the categorical splits.
func (x *xtree) categories(tv *value) error {
	get := func(name string) ([]int64, error) {
		v := tv.field(name)
		if v == nil {
			return nil, errorf(x.path+"."+name, "is missing: the tree has categorical splits (split_type 1)")
		}
		return ints(v, x.path+"."+name)
	}
	cats, err := get("categories")
	if err != nil {
		return err
	}
	nodes, err := get("categories_nodes")
	if err != nil {
		return err
	}
	segments, err := get("categories_segments")
	if err != nil {
		return err
	}
	sizes, err := get("categories_sizes")
	if err != nil {
		return err
	}
	if len(segments) != len(nodes) || len(sizes) != len(nodes) {
		return errorf(x.path, "categories_nodes has %d entries, categories_segments %d, categories_sizes %d", len(nodes), len(segments), len(sizes))
	}
	x.cats = make(map[int][]int, len(nodes))
	for j, node := range nodes {
		p := fmt.Sprintf("%s.categories_nodes[%d]", x.path, j)
		if node < 0 || node >= int64(x.n) {
			return errorf(p, "node %d out of range: the tree has %d nodes", node, x.n)
		}
		if _, dup := x.cats[int(node)]; dup {
			return errorf(p, "node %d is listed twice", node)
		}
		seg, size := segments[j], sizes[j]
		if seg < 0 || size < 0 || seg > int64(len(cats)) || size > int64(len(cats))-seg {
			return errorf(fmt.Sprintf("%s.categories_segments[%d]", x.path, j), "categories %d..%d of node %d out of range: categories has %d entries", seg, seg+size, node, len(cats))
		}
		set := make([]int, 0, size)
		for i := seg; i < seg+size; i++ {
			v := cats[i]
			if v < 0 {
				return errorf(fmt.Sprintf("%s.categories[%d]", x.path, i), "category %d is negative", v)
			}
			if v < maxCategory { // larger ones never match: XGBoost sends them left
				set = append(set, int(v))
			}
		}
		slices.Sort(set)
		x.cats[int(node)] = slices.Compact(set)
	}
	return nil
}

// leafValue is node i's leaf value, scaled by the tree's weight for dart.
func (x *xtree) leafValue(i int) float32 {
	if x.dart {
		return x.cond[i] * x.weight
	}
	return x.cond[i]
}

func finite32(f float32) bool { return !math.IsNaN(float64(f)) && !math.IsInf(float64(f), 0) }

// check walks the tree from the root and checks its structure (children in
// range, no cycle, one parent per node, bounded depth) and the nodes it
// reaches. Unreachable nodes (XGBoost's deleted nodes) are ignored.
func (x *xtree) check(numFeature int) error {
	visited := make([]bool, x.n)
	onPath := make([]bool, x.n)
	parent := make([]int, x.n)
	var walk func(i, depth int) error
	walk = func(i, depth int) error {
		if depth > ir.MaxDepth {
			return errorf(x.path, "deeper than %d levels, the IR's limit", ir.MaxDepth)
		}
		visited[i], onPath[i] = true, true
		defer func() { onPath[i] = false }()
		if x.left[i] == -1 {
			if v := x.leafValue(i); !finite32(v) {
				return errorf(fmt.Sprintf("%s.split_conditions[%d]", x.path, i), "leaf value %v is not a finite number", v)
			}
			return nil
		}
		if f := x.feature[i]; f < 0 || f >= int64(numFeature) {
			return errorf(fmt.Sprintf("%s.split_indices[%d]", x.path, i), "feature %d out of range: the model has %d features (num_feature)", f, numFeature)
		}
		if x.gain != nil && !finite32(x.gain[i]) {
			return errorf(fmt.Sprintf("%s.loss_changes[%d]", x.path, i), "%v is not a finite number", x.gain[i])
		}
		if x.cover != nil && !(finite32(x.cover[i]) && x.cover[i] >= 0) {
			return errorf(fmt.Sprintf("%s.sum_hessian[%d]", x.path, i), "%v is not a hessian sum, a finite number >= 0", x.cover[i])
		}
		kind := int64(0)
		if x.splitType != nil {
			kind = x.splitType[i]
		}
		switch kind {
		case 0:
			if !finite32(x.cond[i]) {
				return errorf(fmt.Sprintf("%s.split_conditions[%d]", x.path, i), "threshold %v is not a finite number", x.cond[i])
			}
		case 1:
			if _, ok := x.cats[i]; !ok {
				return errorf(fmt.Sprintf("%s.split_type[%d]", x.path, i), "node %d is a categorical split, but categories_nodes does not list it", i)
			}
		default:
			return errorf(fmt.Sprintf("%s.split_type[%d]", x.path, i), "unknown split type %d (want 0, numerical, or 1, categorical)", kind)
		}
		for _, side := range [2]struct {
			name  string
			child int64
		}{{"left_children", x.left[i]}, {"right_children", x.right[i]}} {
			p := fmt.Sprintf("%s.%s[%d]", x.path, side.name, i)
			c := side.child
			switch {
			case c < 0 || c >= int64(x.n):
				return errorf(p, "child %d out of range: the tree has %d nodes", c, x.n)
			case onPath[c]:
				return errorf(p, "child %d is node %d itself or one of its ancestors: the tree has a cycle", c, i)
			case visited[c]:
				return errorf(p, "node %d has two parents, nodes %d and %d", c, parent[c], i)
			}
			parent[c] = i
			if err := walk(int(c), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	return walk(0, 0)
}

// emit appends XGBoost node i and its subtree to the converted tree in
// pre-order (a parent before its children, left subtree first) and returns
// its index. check has run.
//
// A numerical split becomes an "axis" node: left iff value < split_condition,
// both in float32 (the model's Float32Compare). A categorical split sends its
// listed categories right and every other value left, invalid categories
// (negative, or >= 2^24) included; the IR's "categorical" node sends its
// Categories left, so the children swap and so does the default direction.
// The one value the two rules treat differently is v in (-1, 0) when the set
// holds 0: trunc(v) = 0 is in the IR's set, but XGBoost calls v invalid. Such
// a split is preceded by the guard "v < 0", whose left child is a copy of the
// subtree that XGBoost's invalid categories reach.
func (x *xtree) emit(i, depth int) (int, error) {
	if depth > x.depth {
		x.depth = depth
		if depth > ir.MaxDepth {
			return 0, errorf(x.path, "deeper than %d levels once its categorical splits are expanded, the IR's limit", ir.MaxDepth)
		}
	}
	if limit := min(expansion*x.n, maxTreeNodes); len(x.out) >= limit {
		return 0, errorf(x.path, "more than %d nodes once its categorical splits that hold category 0 are expanded (each copies a subtree), %d times the %d nodes of the XGBoost tree", limit, expansion, x.n)
	}
	at := len(x.out)
	if x.left[i] == -1 {
		x.out = append(x.out, ir.Node{Kind: ir.Leaf, Value: []float64{float64(x.leafValue(i))}})
		return at, nil
	}
	left, right := int(x.left[i]), int(x.right[i])
	if x.splitType == nil || x.splitType[i] == 0 {
		x.out = append(x.out, x.withStats(i, ir.Node{Kind: ir.Axis, Feature: int(x.feature[i]), Threshold: float64(x.cond[i]), DefaultLeft: x.dleft[i]}))
		l, err := x.emit(left, depth+1)
		if err != nil {
			return 0, err
		}
		r, err := x.emit(right, depth+1)
		if err != nil {
			return 0, err
		}
		x.out[at].Left, x.out[at].Right = l, r
		return at, nil
	}
	set := x.cats[i]
	if len(set) > 0 && set[0] == 0 {
		// The guard: v < 0 goes where XGBoost sends invalid categories;
		// NaN goes to XGBoost's default child, directly if it is the left
		// one, through the categorical node otherwise.
		// The guard and the copy of the left subtree carry no split
		// statistics: the categorical node and the subtree under it do.
		x.out = append(x.out, ir.Node{Kind: ir.Axis, Feature: int(x.feature[i]), DefaultLeft: x.dleft[i]})
		x.copies++
		l, err := x.emit(left, depth+1)
		x.copies--
		if err != nil {
			return 0, err
		}
		r, err := x.categorical(i, set, depth+1)
		if err != nil {
			return 0, err
		}
		x.out[at].Left, x.out[at].Right = l, r
		return at, nil
	}
	return x.categorical(i, set, depth)
}

// categorical appends the IR's categorical node for XGBoost's categorical
// split i, with the children swapped.
func (x *xtree) categorical(i int, set []int, depth int) (int, error) {
	at := len(x.out)
	n := ir.Node{Kind: ir.Categorical, Feature: int(x.feature[i]), DefaultLeft: !x.dleft[i]}
	if len(set) > 0 {
		n.Categories = slices.Clone(set)
	}
	x.out = append(x.out, x.withStats(i, n))
	l, err := x.emit(int(x.right[i]), depth+1)
	if err != nil {
		return 0, err
	}
	r, err := x.emit(int(x.left[i]), depth+1)
	if err != nil {
		return 0, err
	}
	x.out[at].Left, x.out[at].Right = l, r
	return at, nil
}

// withStats returns n, the IR node of XGBoost split i, with the split's
// statistics (loss_changes, sum_hessian) when the file has them, unless
// emit is writing a copy of a subtree: every XGBoost split then has its
// statistics on one IR node, and importances count it once.
func (x *xtree) withStats(i int, n ir.Node) ir.Node {
	if x.copies > 0 {
		return n
	}
	if x.gain != nil {
		n.Gain = float64(x.gain[i])
	}
	if x.cover != nil {
		n.Cover = float64(x.cover[i])
	}
	return n
}
