package tel_test

import (
	"fmt"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/tel"
)

func Example() {
	// 400 rows, two features; the class is 1 inside a diagonal band.
	d := &data.Dataset{Features: []string{"x", "y"}, Cols: 2}
	for i := range 400 {
		x, y := float64(i%20)/20, float64(i/20)/20
		class := 0.0
		if x+y > 0.6 && x+y < 1.4 {
			class = 1
		}
		d.X = append(d.X, x, y)
		d.Y = append(d.Y, class)
		d.Rows++
	}

	opts := tel.DefaultOptions(tel.Logistic)
	opts.Epochs = 100
	opts.BatchSize = 32
	opts.LearningRate = 0.05
	opts.Name = "band"
	m, err := tel.Train(d, nil, opts)
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
		class, err := p.PredictClass(d.Row(r))
		if err != nil {
			fmt.Println(err)
			return
		}
		if float64(class) == d.Y[r] {
			correct++
		}
	}
	fmt.Println("task:", m.Task, "link:", m.Link, "classes:", m.ClassNames)
	fmt.Println("trees:", len(m.Trees), "nodes per tree:", len(m.Trees[0].Nodes), "first node:", m.Trees[0].Nodes[0].Kind)
	fmt.Println("training accuracy above 95%:", correct > 95*d.Rows/100)
	// Output:
	// task: binary link: sigmoid classes: [0 1]
	// trees: 10 nodes per tree: 31 first node: soft
	// training accuracy above 95%: true
}
