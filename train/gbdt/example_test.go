package gbdt_test

import (
	"fmt"
	"math"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/gbdt"
)

func Example() {
	// 200 rows, two features; the class is 1 when x + y > 1, and y is
	// missing in every fifth row.
	d := &data.Dataset{Features: []string{"x", "y"}, Cols: 2}
	for i := range 200 {
		x, y := float64(i%20)/20, float64(i/20)/10
		class := 0.0
		if x+y > 1 {
			class = 1
		}
		if i%5 == 0 {
			y = math.NaN()
		}
		d.X = append(d.X, x, y)
		d.Y = append(d.Y, class)
		d.Rows++
	}

	m, err := gbdt.Train(d, nil, gbdt.Options{Objective: gbdt.Logistic, Rounds: 50, MaxDepth: 3, Name: "sum"})
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
	fmt.Println("trees:", len(m.Trees))
	fmt.Printf("training accuracy: %d/%d\n", correct, d.Rows)
	// Output:
	// task: binary link: sigmoid classes: [0 1]
	// trees: 50
	// training accuracy: 190/200
}
