package gbdt

import (
	"math"
	"testing"

	"github.com/treegen/treegen/ir"
)

// TestSplitStats checks the split statistics of the IR against a hand
// computation: gain is XGBoost's loss_chg, G_L²/(H_L+λ) + G_R²/(H_R+λ) −
// G²/(H+λ) (no ½, no γ), cover the node's hessian sum.
func TestSplitStats(t *testing.T) {
	type want struct {
		feature     int
		threshold   float64
		gain, cover float64
	}
	for _, c := range []struct {
		name  string
		x, y  []float64
		opts  Options
		nodes map[int]want // IR node index -> split
	}{
		{
			// Squared error from the mean 0: g = m - y = 3, 3, 1, -1, -3, -3,
			// h = 1, λ = 1. Root (G 0, H 6): x < 4 gives 7²/4 + 7²/4 - 0 =
			// 24.5. Its left child (G 7, H 3): x < 3 gives 6²/3 + 1²/2 - 7²/4
			// = 0.25, and the right one (G -7, H 3) x < 5 likewise.
			name: "squared error",
			x:    []float64{1, 2, 3, 4, 5, 6},
			y:    []float64{-3, -3, -1, 1, 3, 3},
			opts: Options{Objective: SquaredError, Rounds: 1, MaxDepth: 2, Lambda: 1},
			nodes: map[int]want{
				0: {0, 4, 24.5, 6},
				1: {0, 3, 0.25, 3},
				4: {0, 5, 0.25, 3},
			},
		},
		{
			// Logistic from the log-odds 0 of two classes of two rows: p =
			// 0.5, g = p - y = ±0.5, h = p(1-p) = 0.25, λ = 1. The root (G 0,
			// H 1): x < 3 gives 1²/1.5 + 1²/1.5 - 0 = 4/3, cover 1.
			name:  "logistic",
			x:     []float64{1, 2, 3, 4},
			y:     []float64{0, 0, 1, 1},
			opts:  Options{Objective: Logistic, Rounds: 1, MaxDepth: 1, Lambda: 1, MinChildWeight: 1e-300},
			nodes: map[int]want{0: {0, 3, 4.0 / 3, 1}},
		},
	} {
		c.opts.Threads = 1
		m, err := Train(column(c.x, c.y), nil, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Trees) != 1 {
			t.Fatalf("%s: %d trees", c.name, len(m.Trees))
		}
		nodes := m.Trees[0].Nodes
		splits := 0
		for i := range nodes {
			n := &nodes[i]
			if !n.IsSplit() {
				if n.HasStats() {
					t.Errorf("%s: leaf %d has gain %v, cover %v", c.name, i, n.Gain, n.Cover)
				}
				continue
			}
			splits++
			w, ok := c.nodes[i]
			if !ok {
				t.Errorf("%s: unexpected split at node %d: %+v", c.name, i, *n)
				continue
			}
			if n.Kind != ir.Axis || n.Feature != w.feature || n.Threshold != w.threshold ||
				math.Abs(n.Gain-w.gain) > 1e-12*w.gain || math.Abs(n.Cover-w.cover) > 1e-12*w.cover {
				t.Errorf("%s: node %d: %s x[%d] < %v, gain %v, cover %v; want x[%d] < %v, gain %v, cover %v",
					c.name, i, n.Kind, n.Feature, n.Threshold, n.Gain, n.Cover, w.feature, w.threshold, w.gain, w.cover)
			}
		}
		if splits != len(c.nodes) {
			t.Errorf("%s: %d splits, want %d", c.name, splits, len(c.nodes))
		}
		if v := m.MinFormatVersion(); v != "1.3" {
			t.Errorf("%s: format version %s, want 1.3", c.name, v)
		}
	}
}
