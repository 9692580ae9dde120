package tao_test

import (
	"fmt"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/tao"
)

func Example() {
	// Four classes in the four quadrants of the plane, 40 points each.
	d := &data.Dataset{Features: []string{"x", "y"}, Cols: 2}
	for i := range 40 {
		u, v := 1+float64(i%5), 1+float64(i/5)/2
		for class, sign := range [][2]float64{{-1, -1}, {-1, 1}, {1, -1}, {1, 1}} {
			d.X = append(d.X, sign[0]*u, sign[1]*v)
			d.Y = append(d.Y, float64(class))
			d.Rows++
		}
	}

	// A Softmax Tree of depth 1 whose two leaves hold two classes each: the
	// split separates x < 0 from x > 0, each leaf's softmax the sign of y.
	m, err := tao.Train(d, nil, tao.Options{Kind: tao.ST, Depth: 1, K: 2, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		fmt.Println(err)
		return
	}
	correct := 0
	for r := range d.Rows {
		if c, _ := p.PredictClass(d.Row(r)); c == int(d.Y[r]) {
			correct++
		}
	}
	leaves := 0
	for _, n := range m.Trees[0].Nodes {
		if n.Softmax != nil {
			leaves++
			fmt.Println("leaf classes", n.Softmax.Classes)
		}
	}
	fmt.Printf("%d leaves, %d of %d rows right\n", leaves, correct, d.Rows)
	// Output:
	// leaf classes [2 3]
	// leaf classes [0 1]
	// 2 leaves, 160 of 160 rows right
}
