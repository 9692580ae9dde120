package latent_test

import (
	"fmt"
	"log"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/train/latent"
)

// Learn a hierarchy of the Glass rows and score it against their classes.
func ExampleClusters() {
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
	paths, err := latent.Paths(m, d)
	if err != nil {
		log.Fatal(err)
	}
	_, class, err := data.Classes(d.Y)
	if err != nil {
		log.Fatal(err)
	}
	dp, err := latent.DendrogramPurity(m, d)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("row 0: path %v; dendrogram purity %.4f\n", paths[0], dp)
	for _, c := range latent.Clusters(paths, class) {
		fmt.Printf("node %d (depth %d): %d rows, %.2f of class %d\n", c.Node, c.Depth, c.Rows, c.Share, c.Majority)
	}
	// Output:
	// row 0: path [0 2 6]; dendrogram purity 0.3649
	// node 3 (depth 2): 36 rows, 0.56 of class 1
	// node 4 (depth 2): 61 rows, 0.38 of class 4
	// node 5 (depth 2): 18 rows, 0.39 of class 1
	// node 6 (depth 2): 90 rows, 0.46 of class 0
}
