package gbdt

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// xgbSplitNode is a node of XGBoost's JSON tree dump in which a split
// condition is a threshold or, for a categorical split, the list of the
// categories that go to "yes".
type xgbSplitNode struct {
	NodeID         int             `json:"nodeid"`
	Split          string          `json:"split"`
	SplitCondition json.RawMessage `json:"split_condition"`
	Yes            int             `json:"yes"`
	No             int             `json:"no"`
	Missing        int             `json:"missing"`
	Leaf           *float64        `json:"leaf"`
	Children       []xgbSplitNode  `json:"children"`
}

type splitParityCase struct {
	Name           string         `json:"name"`
	Dataset        string         `json:"dataset"`
	Objective      string         `json:"objective"`
	MaxDepth       int            `json:"max_depth"`
	Eta            float64        `json:"eta"`
	Rounds         int            `json:"rounds"`
	NaNEvery       int            `json:"nan_every"`
	Alpha          float64        `json:"alpha"`
	MaxDeltaStep   float64        `json:"max_delta_step"`
	Monotone       []int          `json:"monotone"`
	Categorical    []int          `json:"categorical"`
	MaxCatToOnehot int            `json:"max_cat_to_onehot"`
	Trees          []xgbSplitNode `json:"trees"`
}

// TestXGBoostParitySplit is TestXGBoostParity for Alpha, MaxDeltaStep,
// MonotoneConstraints and categorical features: the trainer grows the trees
// that XGBoost 1.7 grows with tree_method "hist" and the same options
// (alpha, max_delta_step, monotone_constraints, categorical columns with
// enable_categorical). A categorical split must send the categories of
// XGBoost's split left (XGBoost's "yes"), unless it ties with it.
// testdata/xgb_parity_split.json comes from
// docs/gbdt-vs-xgboost/xgb_parity_split.py.
func TestXGBoostParitySplit(t *testing.T) {
	for _, c := range readParityCases[splitParityCase](t, "testdata/xgb_parity_split.json") {
		t.Run(c.Name, func(t *testing.T) {
			d := parityData(t, c.Dataset, c.NaNEvery)
			opts := Options{Rounds: c.Rounds, MaxDepth: c.MaxDepth, LearningRate: c.Eta, Threads: 1,
				Alpha: c.Alpha, MaxDeltaStep: c.MaxDeltaStep, MonotoneConstraints: c.Monotone,
				Categorical: c.Categorical, MaxCatToOnehot: c.MaxCatToOnehot}
			switch c.Objective {
			case "binary:logistic":
				opts.Objective = Logistic
			case "reg:squarederror":
				opts.Objective = SquaredError
			default:
				t.Fatalf("unknown objective %q", c.Objective)
			}
			m := trainLikeXGBoost(t, d, opts, c.Trees)
			cats := 0
			for i := range m.Trees {
				for _, n := range m.Trees[i].Nodes {
					if n.Kind == ir.Categorical {
						cats++
					}
				}
			}
			if len(c.Categorical) > 0 && cats == 0 {
				t.Error("no categorical split")
			}
		})
	}
}

// irLeft applies the test of the split node n to x, as ir/doc.go defines it.
func irLeft(n *ir.Node, x []float64) bool {
	if n.Kind != ir.Categorical {
		return goesLeft(n, x)
	}
	v := x[n.Feature]
	switch {
	case math.IsNaN(v):
		return n.DefaultLeft
	case v > -1 && v < 1<<31:
		_, found := slices.BinarySearch(n.Categories, int(v))
		return found
	}
	return false
}

// sameSplitTree compares the subtree of node i of tree with XGBoost's node
// x; rows are the training rows that reach it.
func sameSplitTree(d *data.Dataset, tree *ir.Tree, i int, x *xgbSplitNode, rows []int) error {
	n := &tree.Nodes[i]
	if x.Leaf != nil {
		if n.Kind != ir.Leaf {
			return fmt.Errorf("node %d is a split, XGBoost's node %d a leaf", i, x.NodeID)
		}
		if diff := math.Abs(n.Value[0] - *x.Leaf); diff > 1e-5+1e-4*math.Abs(*x.Leaf) {
			return fmt.Errorf("leaf %d: %v, XGBoost's %d: %v", i, n.Value[0], x.NodeID, *x.Leaf)
		}
		return nil
	}
	if n.Kind == ir.Leaf {
		return fmt.Errorf("node %d is a leaf, XGBoost's node %d splits on %s %s", i, x.NodeID, x.Split, x.SplitCondition)
	}
	f, err := strconv.Atoi(strings.TrimPrefix(x.Split, "f"))
	if err != nil {
		return err
	}
	var threshold float64
	var cats []int
	categorical := strings.HasPrefix(string(x.SplitCondition), "[")
	if categorical {
		err = json.Unmarshal(x.SplitCondition, &cats)
	} else {
		err = json.Unmarshal(x.SplitCondition, &threshold)
	}
	if err != nil {
		return err
	}
	xgbYes := func(r int) bool { // XGBoost's test, in float32
		v := d.Row(r)[f]
		if math.IsNaN(v) {
			return x.Missing == x.Yes
		}
		if categorical {
			return slices.Contains(cats, int(v))
		}
		return float32(v) < float32(threshold)
	}
	var left, right []int
	missing := false
	for _, r := range rows {
		if math.IsNaN(d.Row(r)[n.Feature]) {
			missing = true
		}
		if irLeft(n, d.Row(r)) {
			left = append(left, r)
		} else {
			right = append(right, r)
		}
	}
	same := n.Feature == f
	if categorical {
		same = same && n.Kind == ir.Categorical && slices.Equal(n.Categories, cats)
	} else {
		same = same && n.Kind == ir.Axis && float32(n.Threshold) == float32(threshold) && !n.LessEqual
	}
	swap := false
	if !same {
		// A different split is only right if it ties: it partitions the
		// node's rows the same way, or the mirror image of it.
		same, mirror := true, true
		for _, r := range left {
			same, mirror = same && xgbYes(r), mirror && !xgbYes(r)
		}
		for _, r := range right {
			same, mirror = same && !xgbYes(r), mirror && xgbYes(r)
		}
		if !same && !mirror {
			return fmt.Errorf("node %d: %+v, XGBoost's node %d: %s %s", i, *n, x.NodeID, x.Split, x.SplitCondition)
		}
		swap = mirror
	} else if missing && n.DefaultLeft != (x.Missing == x.Yes) {
		return fmt.Errorf("node %d: missing values go left: %v, XGBoost's node %d: %v", i, n.DefaultLeft, x.NodeID, x.Missing == x.Yes)
	}
	child := func(id int) (*xgbSplitNode, error) {
		for k := range x.Children {
			if x.Children[k].NodeID == id {
				return &x.Children[k], nil
			}
		}
		return nil, fmt.Errorf("XGBoost's node %d has no child %d", x.NodeID, id)
	}
	yes, err := child(x.Yes)
	if err != nil {
		return err
	}
	no, err := child(x.No)
	if err != nil {
		return err
	}
	if swap {
		yes, no = no, yes
	}
	if err := sameSplitTree(d, tree, n.Left, yes, left); err != nil {
		return err
	}
	return sameSplitTree(d, tree, n.Right, no, right)
}
