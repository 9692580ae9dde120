package latent

import (
	"bytes"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

func readPMLB(t testing.TB, name string, rows int) *data.Dataset {
	t.Helper()
	d, err := data.ReadFile(filepath.Join("..", "..", "testdata", "pmlb", name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	if rows > 0 && rows < d.Rows {
		idx := make([]int, rows)
		for i := range idx {
			idx[i] = i
		}
		d = d.Subset(idx)
	}
	return d
}

// split cuts d into a training and a validation set (every fifth row).
func split(d *data.Dataset) (train, valid *data.Dataset) {
	var tr, va []int
	for i := range d.Rows {
		if i%5 == 0 {
			va = append(va, i)
		} else {
			tr = append(tr, i)
		}
	}
	return d.Subset(tr), d.Subset(va)
}

// TestInterpreterEqualsTrainer trains a tree for each loss and split and
// checks the exported model: it is valid, it leaves the pruned nodes out,
// and the interpreter's margins equal the trainer's on every row to 1e-12
// (relative to the margin's size).
func TestInterpreterEqualsTrainer(t *testing.T) {
	cases := []struct {
		name, set string
		rows      int
		loss      Loss
		split     Split
		depth     int
		regress   []string
	}{
		{"glass softmax", "glass", 0, Softmax, Linear, 4, nil},
		{"glass softmax elu", "glass", 0, Softmax, LinearElu, 3, nil},
		{"breast cancer logistic", "breast_cancer_wisconsin", 0, Logistic, Linear, 3, nil},
		{"houses regression elu", "537_houses", 3000, SquaredError, LinearElu, 4, nil},
		{"glass regress RI, Na", "glass", 0, SquaredError, Linear, 5, []string{"RI", "Na"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			train, valid := split(readPMLB(t, c.set, c.rows))
			o := DefaultOptions(c.loss)
			o.Split, o.Depth, o.Regress = c.split, c.depth, c.regress
			o.Epochs, o.BatchSize, o.LearningRate = 15, 32, 0.01
			lt, err := Fit(train, valid, o)
			if err != nil {
				t.Fatal(err)
			}
			m, err := lt.Model()
			if err != nil {
				t.Fatal(err)
			}
			checkExport(t, lt, m)
			if c.regress != nil && (m.NumOutputs != 2 || m.NumFeatures != train.Cols-2 || m.FeatureNames[0] != "Mg") {
				t.Fatalf("regressing %v: %d outputs, %d features %v", c.regress, m.NumOutputs, m.NumFeatures, m.FeatureNames)
			}
			p, err := runtime.New[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			want, got := make([]float64, m.NumOutputs), make([]float64, m.NumOutputs)
			cols := lt.target().inputs
			x := make([]float64, len(cols))
			for _, d := range []*data.Dataset{train, valid} {
				for r := range d.Rows {
					for i, j := range cols {
						x[i] = d.Row(r)[j]
					}
					if err := lt.PredictMargin(x, want); err != nil {
						t.Fatal(err)
					}
					if err := p.PredictMargin(x, got); err != nil {
						t.Fatal(err)
					}
					for o := range want {
						if math.Abs(got[o]-want[o]) > 1e-12*max(1, math.Abs(want[o])) {
							t.Fatalf("row %d output %d: interpreter %v, trainer %v", r, o, got[o], want[o])
						}
					}
				}
			}
		})
	}
}

// checkExport checks that the model holds exactly the nodes the frozen
// activities keep: every exported node's parent is active, only leaves
// may have activity 0, and their read-out weights are 0.
func checkExport(t *testing.T, lt *Tree, m *ir.Model) {
	t.Helper()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	a := lt.Activities()
	active := 0
	for _, v := range a {
		if v > 0 {
			active++
		}
	}
	if active != lt.Active() || a[0] != 1 {
		t.Fatalf("Active() = %d, %d activities > 0; root activity %v", lt.Active(), active, a[0])
	}
	tree := m.Trees[0]
	zeros := 0
	for i, nd := range tree.Nodes {
		if *nd.Activity == 0 {
			zeros++
			if nd.IsSplit() {
				t.Fatalf("node %d is pruned but splits", i)
			}
			for o := range m.NumOutputs {
				if w := m.Readout.Weights[o][m.NumFeatures+i]; w != 0 {
					t.Fatalf("pruned node %d has read-out weight %v", i, w)
				}
			}
		}
	}
	if len(tree.Nodes)-zeros > active {
		t.Fatalf("%d active nodes exported, %d are active", len(tree.Nodes)-zeros, active)
	}
}

// target exposes the tree's target to the tests.
func (t *Tree) target() *target { return t.tgt }

// TestThreads: the model does not depend on the number of goroutines.
func TestThreads(t *testing.T) {
	train, valid := split(readPMLB(t, "glass", 0))
	var first []byte
	for _, threads := range []int{1, 2, 5} {
		o := DefaultOptions(Softmax)
		o.Depth, o.Epochs, o.BatchSize, o.Threads, o.Seed = 4, 5, 64, threads, 7
		m, err := Train(train, valid, o)
		if err != nil {
			t.Fatal(err)
		}
		b, err := ir.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = b
		} else if !bytes.Equal(b, first) {
			t.Fatalf("%d threads give another model than 1", threads)
		}
	}
}

// TestEmptyNodesPruned: on a deep tree over few rows some nodes are
// reached by no row of any minibatch; with η near 0 (λ pins it there)
// their activity is 0 and the exported tree leaves them out.
func TestEmptyNodesPruned(t *testing.T) {
	train, valid := split(readPMLB(t, "glass", 0))
	o := DefaultOptions(Softmax)
	o.Depth, o.Epochs, o.BatchSize, o.Lambda, o.LearningRate = 6, 30, 8, 0.1, 0.01
	lt, err := Fit(train, valid, o)
	if err != nil {
		t.Fatal(err)
	}
	m, err := lt.Model()
	if err != nil {
		t.Fatal(err)
	}
	checkExport(t, lt, m)
	if lt.Active() >= 127 || len(m.Trees[0].Nodes) >= 127 {
		t.Fatalf("depth 6 on %d rows: %d of 127 nodes active, %d exported", train.Rows, lt.Active(), len(m.Trees[0].Nodes))
	}
}

func TestOptionsErrors(t *testing.T) {
	train, _ := split(readPMLB(t, "glass", 0))
	houses := readPMLB(t, "537_houses", 200)
	nan := readPMLB(t, "glass", 0)
	nan.X[3*nan.Cols+2] = math.NaN()
	cases := []struct {
		name string
		d    *data.Dataset
		edit func(*Options)
		want string
	}{
		{"no loss", train, func(o *Options) { o.Loss = "" }, "no loss"},
		{"unknown loss", train, func(o *Options) { o.Loss = "hinge" }, `unknown loss "hinge"`},
		{"depth 0", train, func(o *Options) { o.Depth = 0 }, "Depth must be between 1 and 12, got 0"},
		{"depth 13", train, func(o *Options) { o.Depth = 13 }, "Depth must be between 1 and 12, got 13"},
		{"negative lambda", train, func(o *Options) { o.Lambda = -1 }, "Lambda must be a finite number >= 0"},
		{"unknown split", train, func(o *Options) { o.Split = "relu" }, `unknown split "relu"`},
		{"unknown optimizer", train, func(o *Options) { o.Optimizer = "sgd" }, `unknown optimizer "sgd"`},
		{"epochs 0", train, func(o *Options) { o.Epochs = 0 }, "Epochs must be at least 1"},
		{"batch 0", train, func(o *Options) { o.BatchSize = 0 }, "BatchSize must be at least 1"},
		{"lr 0", train, func(o *Options) { o.LearningRate = 0 }, "LearningRate must be a finite number > 0"},
		{"decay 1", train, func(o *Options) { o.Decay = 1 }, "Decay must be in (0, 1)"},
		{"threads", train, func(o *Options) { o.Threads = -1 }, "Threads is negative"},
		{"logistic on 5 classes", train, func(o *Options) { o.Loss = Logistic }, "the logistic loss needs two classes, the target has 5: use softmax"},
		{"softmax on a regression target", houses, func(*Options) {}, "a regression target"},
		{"regression on labels", labelled(train), func(o *Options) { o.Loss = SquaredError }, "holds text labels"},
		{"regress with softmax", train, func(o *Options) { o.Regress = []string{"RI"} }, "needs the squarederror loss"},
		{"regress unknown column", train, func(o *Options) { o.Loss, o.Regress = SquaredError, []string{"Zn"} }, `Regress names column "Zn", which the training set lacks`},
		{"regress twice", train, func(o *Options) { o.Loss, o.Regress = SquaredError, []string{"RI", "RI"} }, `Regress names column "RI" twice`},
		{"missing value", nan, func(*Options) {}, "is missing (NaN)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := DefaultOptions(Softmax)
			o.Epochs = 1
			c.edit(&o)
			_, err := Fit(c.d, nil, o)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "latent: ") {
				t.Fatalf("got %v, want an error with %q", err, c.want)
			}
		})
	}
}

// labelled returns d with text labels for its classes.
func labelled(d *data.Dataset) *data.Dataset {
	c := *d
	labels, index, _ := data.Classes(d.Y)
	c.Labels = make([]string, len(labels))
	for i := range labels {
		c.Labels[i] = "class " + string(rune('A'+i))
	}
	c.Y = make([]float64, len(index))
	for r, i := range index {
		c.Y[r] = float64(i)
	}
	return &c
}
