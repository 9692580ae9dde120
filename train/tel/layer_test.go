package tel

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/treegen/treegen/runtime"
)

// TestLayerGradients checks the composed Projection and Layer against
// central finite differences of L = Σ_rows <r, Layer(Projection(x))>: the
// gradients with respect to A, c, W, b, O and x, with the conditional and
// with the full passes, to 1e-6 relative.
func TestLayerGradients(t *testing.T) {
	const in, proj, out, n, h = 4, 3, 2, 3, 1e-6
	for _, full := range []bool{false, true} {
		for _, depth := range []int{1, 3, 5} {
			t.Run(fmt.Sprintf("full=%v/depth=%d", full, depth), func(t *testing.T) {
				rng := rand.New(rand.NewPCG(uint64(depth), 9))
				var pr *Projection
				var l *Layer
				var x []float64
				for try := 0; ; try++ {
					if try == 1000 {
						t.Fatal("no point away from the kinks")
					}
					var err error
					if pr, err = NewProjection(in, proj, uint64(try)); err != nil {
						t.Fatal(err)
					}
					for i := range pr.C() {
						pr.C()[i] = 0.3 * (2*rng.Float64() - 1)
					}
					if l, err = NewLayer(LayerConfig{Inputs: proj, Outputs: out, Trees: 2, Depth: depth, Gamma: 1, Bias: true, Seed: 1, Threads: 2}); err != nil {
						t.Fatal(err)
					}
					for i := range l.e.w {
						l.e.w[i] = 0.4 * (2*rng.Float64() - 1)
					}
					for i := range l.e.b {
						l.e.b[i] = 0.2 * (2*rng.Float64() - 1)
					}
					for i := range l.e.o {
						l.e.o[i] = 2*rng.Float64() - 1
					}
					x = make([]float64, n*in)
					for i := range x {
						x[i] = 2*rng.Float64() - 1
					}
					y := pr.apply(x, n)
					ok := true
					for b := range n {
						ok = ok && awayFromKinks(l.e, y[b*proj:(b+1)*proj], 1e-4)
					}
					if ok {
						break
					}
				}
				r := []float64{0.7, -1.3}
				loss := func() float64 {
					y := make([]float64, n*proj)
					o := make([]float64, n*out)
					if err := pr.Forward(x, n, y); err != nil {
						t.Fatal(err)
					}
					l.ps = nil // forget the density: the passes are chosen below
					if err := l.Forward(y, n, o); err != nil {
						t.Fatal(err)
					}
					s := 0.0
					for b := range n {
						for j := range out {
							s += r[j] * o[b*out+j]
						}
					}
					return s
				}
				// Analytic gradients.
				y := make([]float64, n*proj)
				o := make([]float64, n*out)
				if err := pr.Forward(x, n, y); err != nil {
					t.Fatal(err)
				}
				if err := l.Forward(y, n, o); err != nil {
					t.Fatal(err)
				}
				if l.ps.full != full {
					l.ps.density = 0
					if full {
						l.ps.density = 1
					}
					if err := l.Forward(y, n, o); err != nil {
						t.Fatal(err)
					}
				}
				if l.ps.full != full {
					t.Fatalf("the passes are full=%v, want %v", l.ps.full, full)
				}
				dOut := make([]float64, n*out)
				for b := range n {
					copy(dOut[b*out:(b+1)*out], r)
				}
				dy := make([]float64, n*proj)
				dx := make([]float64, n*in)
				if err := l.Backward(dOut, dy); err != nil {
					t.Fatal(err)
				}
				if err := pr.Backward(dy, dx); err != nil {
					t.Fatal(err)
				}
				nw, nb := len(l.e.w), len(l.e.b)
				g := l.Grads()
				for _, c := range []struct {
					name    string
					got, at []float64
				}{
					{"A", pr.Grads()[:proj*in], pr.A()},
					{"c", pr.Grads()[proj*in:], pr.C()},
					{"W", g[:nw], l.e.w},
					{"b", g[nw : nw+nb], l.e.b},
					{"O", g[nw+nb:], l.e.o},
					{"x", dx, x},
				} {
					fd := centralDiff(c.at, h, loss)
					if err := relErr(c.got, fd); err > 1e-6 {
						t.Errorf("∂L/∂%s: relative error %.3g against finite differences", c.name, err)
					}
				}
			})
		}
	}
}

// TestLayerErrors checks the refusals of the layer API.
func TestLayerErrors(t *testing.T) {
	good := LayerConfig{Inputs: 2, Outputs: 1, Trees: 1, Depth: 2, Gamma: 1}
	for _, c := range []struct {
		name string
		edit func(*LayerConfig)
		want string
	}{
		{"inputs", func(c *LayerConfig) { c.Inputs = 0 }, "at least 1 input"},
		{"trees", func(c *LayerConfig) { c.Trees = 0 }, "Trees must be at least 1"},
		{"depth", func(c *LayerConfig) { c.Depth = MaxDepth + 1 }, "Depth must be between"},
		{"gamma", func(c *LayerConfig) { c.Gamma = math.NaN() }, "Gamma must be"},
		{"threads", func(c *LayerConfig) { c.Threads = -1 }, "Threads is negative"},
	} {
		cfg := good
		c.edit(&cfg)
		if _, err := NewLayer(cfg); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
	l, err := NewLayer(good)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Backward([]float64{1}, nil); err == nil {
		t.Error("Backward before Forward: no error")
	}
	if err := l.Forward([]float64{1, 2, 3}, 1, []float64{0}); err == nil {
		t.Error("Forward with 3 inputs for a row of 2: no error")
	}
	if err := l.Forward([]float64{1, 2}, 1, []float64{0}); err != nil {
		t.Fatal(err)
	}
	if err := l.Backward([]float64{1, 2}, nil); err == nil {
		t.Error("Backward with 2 output gradients for 1: no error")
	}
	if _, err := NewProjection(0, 2, 1); err == nil {
		t.Error("projection from 0 features: no error")
	}
}

// TestProjectFold trains a projection and a layer jointly (Options.Project)
// and checks that the exported model, whose nodes fold the projection in,
// gives the composed model's margins to 1e-12 on every row, and that the
// options refuse a negative Project and Project with the dense mode.
func TestProjectFold(t *testing.T) {
	for _, c := range []struct {
		loss    Loss
		classes int
		bias    bool
	}{{Logistic, 2, false}, {Softmax, 3, true}} {
		t.Run(string(c.loss), func(t *testing.T) {
			d := synthetic(7, 300, 5, c.classes)
			o := DefaultOptions(c.loss)
			o.Trees, o.Depth, o.Epochs, o.BatchSize, o.Project, o.Bias = 3, 4, 3, 64, 3, c.bias
			en, err := Fit(d, nil, o)
			if err != nil {
				t.Fatal(err)
			}
			m, err := en.Model()
			if err != nil {
				t.Fatal(err)
			}
			if m.NumFeatures != 5 || m.Provenance.Params["project"] != "3" {
				t.Fatalf("NumFeatures %d, provenance project %q", m.NumFeatures, m.Provenance.Params["project"])
			}
			pred, err := runtime.New[float64](m)
			if err != nil {
				t.Fatal(err)
			}
			got, want := make([]float64, en.NumOutputs()), make([]float64, en.NumOutputs())
			for r := range d.Rows {
				if err := pred.PredictMargin(d.Row(r), got); err != nil {
					t.Fatal(err)
				}
				if err := en.PredictMargin(d.Row(r), want); err != nil {
					t.Fatal(err)
				}
				for j := range got {
					if math.Abs(got[j]-want[j]) > 1e-12*math.Max(1, math.Abs(want[j])) {
						t.Fatalf("row %d output %d: folded model %v, composed %v", r, j, got[j], want[j])
					}
				}
			}
		})
	}
	for _, c := range []struct {
		edit func(*Options)
		want string
	}{
		{func(o *Options) { o.Project = -1 }, "Project is negative"},
		{func(o *Options) { o.Project, o.Mode = 2, Dense }, "Project needs the conditional mode"},
	} {
		o := DefaultOptions(Logistic)
		c.edit(&o)
		if _, err := Fit(synthetic(1, 50, 3, 2), nil, o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want an error with %q", err, c.want)
		}
	}
}
