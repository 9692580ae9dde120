package lightgbm_test

import (
	"fmt"

	"github.com/treegen/treegen/ir/lightgbm"
	"github.com/treegen/treegen/runtime"
)

// A LightGBM regression stump, as Booster.save_model writes it: income <=
// 50000 (missing values go left) predicts 1.5, else 3.25.
const stump = `tree
version=v4
num_class=1
num_tree_per_iteration=1
label_index=0
max_feature_idx=1
objective=regression
feature_names=age income
feature_infos=[18:90] [0:250000]
tree_sizes=277

Tree=0
num_leaves=2
num_cat=0
split_feature=1
split_gain=120.5
threshold=50000.000000000007
decision_type=10
left_child=-1
right_child=-2
leaf_value=1.5 3.25
leaf_weight=60 40
leaf_count=60 40
internal_value=2.2
internal_weight=100
internal_count=100
is_linear=0
shrinkage=1


end of trees
`

func ExampleDecode() {
	m, err := lightgbm.Decode([]byte(stump), "stump.txt")
	if err != nil {
		fmt.Println(err)
		return
	}
	root := m.Trees[0].Nodes[0]
	fmt.Printf("%s %s, %d features %v\n", m.Task, m.Link, m.NumFeatures, m.FeatureNames)
	fmt.Printf("root: x[%d] <= %v (less_equal %v, default_left %v)\n", root.Feature, root.Threshold, root.LessEqual, root.DefaultLeft)

	p, err := runtime.New[float64](m)
	if err != nil {
		fmt.Println(err)
		return
	}
	out := make([]float64, 1)
	for _, income := range []float64{42000, 87000} {
		p.Predict([]float64{35, income}, out)
		fmt.Println(income, "->", out[0])
	}
	// Output:
	// regression identity, 2 features [age income]
	// root: x[1] <= 50000.00000000001 (less_equal true, default_left true)
	// 42000 -> 1.5
	// 87000 -> 3.25
}

func ExampleDecode_error() {
	_, err := lightgbm.Decode([]byte("tree\nversion=v4\nnum_class=1\n"), "model.txt")
	fmt.Println(err)
	// Output:
	// model.txt:3: truncated model: no Tree= block and no "end of trees" line
}
