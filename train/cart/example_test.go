package cart_test

import (
	"fmt"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/cart"
)

func Example() {
	// Twelve rows, two features; the class is 1 when x + y > 8.
	d := &data.Dataset{Features: []string{"x", "y"}, Cols: 2}
	for x := 1.0; x <= 6; x++ {
		for _, y := range []float64{2, 5} {
			class := 0.0
			if x+y > 8 {
				class = 1
			}
			d.X = append(d.X, x, y)
			d.Y = append(d.Y, class)
			d.Rows++
		}
	}

	m, err := cart.Train(d, cart.Options{Criterion: cart.Gini, MaxDepth: 4, Name: "sum"})
	if err != nil {
		fmt.Println(err)
		return
	}
	tree := m.Trees[0]
	correct := 0
	for r := range d.Rows {
		// Walk the tree: a binary model's leaf holds P(class 1).
		x, i := d.Row(r), 0
		for n := tree.Nodes[i]; n.Kind == ir.Axis; n = tree.Nodes[i] {
			if x[n.Feature] < n.Threshold { // no NaN here, and no LessEqual node
				i = n.Left
			} else {
				i = n.Right
			}
		}
		if (tree.Nodes[i].Value[0] > 0.5) == (d.Y[r] == 1) {
			correct++
		}
	}
	fmt.Println("task:", m.Task, "classes:", m.ClassNames)
	fmt.Println("depth:", tree.Depth(), "leaves:", tree.NumLeaves())
	fmt.Printf("training accuracy: %d/%d\n", correct, d.Rows)
	// Output:
	// task: binary classes: [0 1]
	// depth: 2 leaves: 3
	// training accuracy: 12/12
}
