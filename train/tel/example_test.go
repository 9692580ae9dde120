package tel_test

import (
	"fmt"
	"math"
	"math/rand/v2"

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

// ExampleLayer composes a Projection and a Layer and trains them jointly
// on a toy problem, the sign of x0·x1, with the squared error of the
// layer's output: the forward passes run projection then layer, the
// backward passes run back from the loss's gradient, and Adam steps both.
func ExampleLayer() {
	const n, in = 256, 2
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, n*in)
	y := make([]float64, n)
	for r := range n {
		x[2*r], x[2*r+1] = 2*rng.Float64()-1, 2*rng.Float64()-1
		y[r] = math.Copysign(1, x[2*r]*x[2*r+1])
	}
	proj, _ := tel.NewProjection(in, 4, 1)
	layer, _ := tel.NewLayer(tel.LayerConfig{Inputs: 4, Outputs: 1, Trees: 4, Depth: 3, Gamma: 1, Bias: true, Seed: 1})
	opt := tel.NewAdam(0.05, proj, layer)
	z := make([]float64, n*4)
	dz := make([]float64, n*4)
	out := make([]float64, n)
	dOut := make([]float64, n)
	mse := func() float64 {
		s := 0.0
		for r := range n {
			s += (out[r] - y[r]) * (out[r] - y[r])
		}
		return s / n
	}
	var first float64
	for epoch := range 200 {
		_ = proj.Forward(x, n, z)
		_ = layer.Forward(z, n, out)
		if epoch == 0 {
			first = mse()
		}
		for r := range n {
			dOut[r] = 2 * (out[r] - y[r]) / n
		}
		_ = layer.Backward(dOut, dz)
		_ = proj.Backward(dz, nil)
		opt.Step()
	}
	fmt.Printf("mean squared error: %.2f at first, below 0.25 after 200 steps: %v\n", first, mse() < 0.25)
	// Output:
	// mean squared error: 1.00 at first, below 0.25 after 200 steps: true
}
