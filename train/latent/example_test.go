package latent_test

import (
	"fmt"
	"log"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/latent"
)

// Train a latent tree of depth 3 on Glass and predict one row with the
// interpreter.
func Example() {
	d, err := data.ReadFile("../../testdata/pmlb/glass.tsv.gz", data.Options{RequireTarget: true})
	if err != nil {
		log.Fatal(err)
	}
	o := latent.DefaultOptions(latent.Softmax)
	o.Depth, o.Epochs, o.BatchSize, o.LearningRate = 3, 20, 16, 0.01
	t, err := latent.Fit(d, nil, o)
	if err != nil {
		log.Fatal(err)
	}
	m, err := t.Model()
	if err != nil {
		log.Fatal(err)
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		log.Fatal(err)
	}
	class, err := p.PredictClass(d.Row(0))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d of %d nodes active; row 0 is class %s (labelled %s)\n", t.Active(), len(t.Activities()), m.ClassNames[class], d.LabelName(d.Y[0]))
	// Output:
	// 15 of 15 nodes active; row 0 is class 1 (labelled 1)
}

// Learn a hierarchy of Glass by regressing RI and Na from the other
// features, as the paper's self-supervised clustering does, and follow
// one row down it.
func Example_cluster() {
	d, err := data.ReadFile("../../testdata/pmlb/glass.tsv.gz", data.Options{RequireTarget: true})
	if err != nil {
		log.Fatal(err)
	}
	o := latent.DefaultOptions(latent.SquaredError)
	o.Regress = []string{"RI", "Na"}
	o.Depth, o.Epochs, o.BatchSize = 2, 10, 8
	t, err := latent.Fit(d, nil, o)
	if err != nil {
		log.Fatal(err)
	}
	m, err := t.Model()
	if err != nil {
		log.Fatal(err)
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		log.Fatal(err)
	}
	row := d.Row(0)[2:] // the inputs: every feature but RI and Na
	z := make([]float64, m.LatentSize())
	if err := p.PredictLatent(row, z); err != nil {
		log.Fatal(err)
	}
	var path []int
	for node, v := range z {
		if v > 0 {
			path = append(path, node)
		}
	}
	fmt.Println("inputs:", t.Inputs())
	fmt.Println("row 0 descends through nodes", path)
	// Output:
	// inputs: [Mg Al Si K Ca Ba Fe]
	// row 0 descends through nodes [0 2 6]
}
