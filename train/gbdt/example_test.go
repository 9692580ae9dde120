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

// Counts that rise with x, learned by the poisson objective under a
// monotone constraint: the model's predictions (exp of the margin) never
// fall as x grows, although the counts are noisy.
func Example_monotoneCounts() {
	d := &data.Dataset{Features: []string{"x", "noise"}, Cols: 2}
	for i := range 400 {
		x := float64(i%40) / 4
		noise := float64((i*7919)%13) / 13
		d.X = append(d.X, x, noise)
		d.Y = append(d.Y, math.Floor(x/2+3*noise*float64(i%3)))
		d.Rows++
	}
	m, err := gbdt.Train(d, nil, gbdt.Options{
		Objective:           gbdt.Poisson,
		Rounds:              30,
		LearningRate:        0.3,
		MaxDepth:            3,
		MonotoneConstraints: []int{+1, 0},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		fmt.Println(err)
		return
	}
	monotone := true
	prev := math.Inf(-1)
	y := make([]float64, 1)
	for x := 0.0; x <= 10; x += 0.25 {
		if err := p.Predict([]float64{x, 0.5}, y); err != nil {
			fmt.Println(err)
			return
		}
		if y[0] < prev {
			monotone = false
		}
		prev = y[0]
	}
	fmt.Println("link:", m.Link, "max_delta_step:", m.Provenance.Params["max_delta_step"])
	fmt.Println("predictions rise with x:", monotone)
	// Output:
	// link: exp max_delta_step: 0.7
	// predictions rise with x: true
}
