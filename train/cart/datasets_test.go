package cart

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/pmlb"
	"github.com/treegen/treegen/ir"
)

// datasetDir holds the PMLB data sets committed with the repository (see
// its README.md).
const datasetDir = "../../testdata/pmlb"

// datasetTasks reads the task ("classification" or "regression") of every
// data set from the manifest.
func datasetTasks(tb testing.TB) map[string]string {
	sets, err := pmlb.ReadManifest(filepath.Join(datasetDir, "MANIFEST.tsv"))
	if err != nil {
		tb.Fatal(err)
	}
	tasks := map[string]string{}
	for _, d := range sets {
		tasks[d.Name] = d.Task
	}
	return tasks
}

func readDataset(tb testing.TB, name string) *data.Dataset {
	d, err := data.ReadFile(filepath.Join(datasetDir, name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

// checkPreorder checks that the nodes are numbered in pre-order: each split
// is followed by its whole left subtree, then its right subtree. It returns
// the index after the subtree of node i.
func checkPreorder(t *testing.T, nodes []ir.Node, i int) int {
	n := &nodes[i]
	if n.IsLeaf() {
		return i + 1
	}
	if n.Left != i+1 {
		t.Fatalf("node %d: left child %d, want %d", i, n.Left, i+1)
	}
	end := checkPreorder(t, nodes, n.Left)
	if n.Right != end {
		t.Fatalf("node %d: right child %d, want %d", i, n.Right, end)
	}
	return checkPreorder(t, nodes, n.Right)
}

// TestDatasets trains a depth-4 tree on every data set and checks
// that the model is valid, in pre-order, and that every leaf holds exactly
// the statistics of the training rows that the model sends to it (so each
// row went where the split search sent it).
func TestDatasets(t *testing.T) {
	tasks := datasetTasks(t)
	if len(tasks) == 0 {
		t.Fatal("no data sets in the manifest")
	}
	for name, task := range tasks {
		t.Run(name, func(t *testing.T) {
			if testing.Short() && name != "ecoli" && name != "537_houses" {
				t.Skip("-short")
			}
			d := readDataset(t, name)
			opts := Options{MaxDepth: 4, Name: name}
			if task == "regression" {
				opts.Criterion = MSE
			}
			m, err := Train(d, opts)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			tree := &m.Trees[0]
			if got := tree.Depth(); got > 4 || got < 1 {
				t.Errorf("depth %d", got)
			}
			if checkPreorder(t, tree.Nodes, 0) != len(tree.Nodes) {
				t.Fatal("nodes unreachable in pre-order")
			}
			if task == "regression" {
				if m.Task != ir.Regression {
					t.Fatalf("task %s", m.Task)
				}
			} else if m.Task != ir.Binary && m.Task != ir.Multiclass {
				t.Fatalf("task %s", m.Task)
			}
			labels, class, _ := data.Classes(d.Y)
			for i, rows := range visits(m, d) {
				n := &tree.Nodes[i]
				if len(rows) == 0 {
					t.Errorf("node %d: no training row reaches it", i)
					continue
				}
				if n.IsSplit() {
					continue
				}
				nf := float64(len(rows))
				if task == "regression" {
					sum := 0.0
					for _, r := range rows {
						sum += d.Y[r]
					}
					if got, want := n.Value[0], sum/nf; math.Abs(got-want) > 1e-9*math.Abs(want) {
						t.Errorf("leaf %d: value %v, mean of its rows %v", i, got, want)
					}
					continue
				}
				count := make([]float64, len(labels))
				for _, r := range rows {
					count[class[r]]++
				}
				want := make([]float64, len(labels))
				for k := range want {
					want[k] = count[k] / nf
				}
				if len(labels) == 2 {
					want = want[1:]
				}
				for k := range want {
					if n.Value[k] != want[k] {
						t.Errorf("leaf %d: value %v, fractions of its rows %v", i, n.Value, want)
						break
					}
				}
			}
			if task != "regression" {
				t.Logf("training accuracy %.4f", accuracy(m, d))
			}
		})
	}
}

// BenchmarkTrain trains depth-8 trees on the largest shared data sets.
func BenchmarkTrain(b *testing.B) {
	datasetTasks(b)
	for _, bc := range []struct {
		name string
		c    Criterion
	}{{"sleep", Gini}, {"sleep", Entropy}, {"letter", Gini}, {"537_houses", MSE}} {
		d := readDataset(b, bc.name)
		b.Run(bc.name+"/"+string(bc.c), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Train(d, Options{Criterion: bc.c, MaxDepth: 8}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
