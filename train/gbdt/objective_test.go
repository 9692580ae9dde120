package gbdt

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// TestObjectiveErrors checks the refusals of the objectives' targets and
// options, the weights and the metrics.
func TestObjectiveErrors(t *testing.T) {
	good := column([]float64{1, 2, 3, 4}, []float64{0, 1, 1, 0})
	reg := column([]float64{1, 2, 3, 4}, []float64{0.5, 1, 2, 3})
	inf, nan := math.Inf(1), math.NaN()
	for _, tt := range []struct {
		name         string
		train, valid *data.Dataset
		opts         Options
		want         string
	}{
		{"poisson, negative target", column([]float64{1, 2}, []float64{1, -1}), nil, Options{Objective: Poisson}, "the poisson objective needs targets >= 0, and training row 1 (0-based) has -1"},
		{"tweedie, negative target", column([]float64{1, 2}, []float64{-2, 1}), nil, Options{Objective: Tweedie}, "training row 0 (0-based) has -2"},
		{"gamma, zero target", column([]float64{1, 2}, []float64{1, 0}), nil, Options{Objective: GammaRegression}, "the gamma objective needs targets > 0, and training row 1 (0-based) has 0"},
		{"gamma, validation", reg, column([]float64{1, 2}, []float64{1, -3}), Options{Objective: GammaRegression}, "validation row 1 (0-based) has -3"},
		{"text target", func() *data.Dataset {
			d := reg.Subset(seqRows(4))
			d.Y = []float64{0, 1, 0, 1}
			d.Labels = []string{"a", "b"}
			return d
		}(), nil, Options{Objective: Quantile}, "holds text labels"},
		{"tweedie power 2", reg, nil, Options{Objective: Tweedie, TweedieVariancePower: 2}, "TweedieVariancePower must be in (1, 2), got 2"},
		{"tweedie power 0.5", reg, nil, Options{Objective: Tweedie, TweedieVariancePower: 0.5}, "TweedieVariancePower must be in (1, 2)"},
		{"huber slope", reg, nil, Options{Objective: PseudoHuber, HuberSlope: -1}, "HuberSlope must be a finite number > 0, got -1"},
		{"quantile alpha 1", reg, nil, Options{Objective: Quantile, QuantileAlpha: 1}, "QuantileAlpha must be in (0, 1), got 1"},
		{"quantile alpha NaN", reg, nil, Options{Objective: Quantile, QuantileAlpha: nan}, "QuantileAlpha must be in (0, 1)"},
		{"max delta step", reg, nil, Options{Objective: Poisson, MaxDeltaStep: -1}, "MaxDeltaStep must be a finite number >= 0, got -1"},
		{"scale_pos_weight, softmax", good, nil, Options{Objective: Softmax, ScalePosWeight: 2}, "ScalePosWeight is for the logistic objective, not softmax"},
		{"scale_pos_weight negative", good, nil, Options{Objective: Logistic, ScalePosWeight: -2}, "ScalePosWeight must be a finite number > 0"},
		{"weights, length", good, nil, Options{Objective: Logistic, Weights: []float64{1, 2}}, "2 Weights for 4 training rows"},
		{"weights, negative", good, nil, Options{Objective: Logistic, Weights: []float64{1, 2, -1, 1}}, "Weights[2] (row 2, 0-based) is -1"},
		{"weights, infinite", good, nil, Options{Objective: Logistic, Weights: []float64{1, inf, 1, 1}}, "Weights[1] (row 1, 0-based) is +Inf"},
		{"weights, NaN", good, nil, Options{Objective: Logistic, Weights: []float64{1, 1, 1, nan}}, "Weights[3] (row 3, 0-based) is NaN"},
		{"weights, all 0", good, nil, Options{Objective: Logistic, Weights: make([]float64, 4)}, "the 4 Weights are all 0"},
		{"valid weights without a validation set", good, nil, Options{Objective: Logistic, ValidWeights: []float64{1}}, "ValidWeights without a validation set"},
		{"valid weights, length", good, good, Options{Objective: Logistic, ValidWeights: []float64{1}}, "1 ValidWeights for 4 validation rows"},
		{"unknown metric", good, nil, Options{Objective: Logistic, EvalMetric: "f1"}, `EvalMetric "f1" is unknown`},
		{"classification metric", reg, nil, Options{Objective: SquaredError, EvalMetric: "auc"}, `EvalMetric "auc" is for classification, and the squarederror objective is a regression`},
		{"regression metric", good, nil, Options{Objective: Logistic, EvalMetric: "rmse"}, `EvalMetric "rmse" is for regression`},
		{"likelihood metric", reg, nil, Options{Objective: SquaredError, EvalMetric: "poisson-nloglik"}, "needs a positive prediction"},
		{"tweedie metric power", reg, nil, Options{Objective: Tweedie, EvalMetric: "tweedie-nloglik@2.5"}, "variance power that is not a number in (1, 2)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Train(tt.train, tt.valid, tt.opts)
			if err == nil || !strings.HasPrefix(err.Error(), "gbdt: ") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// withTarget returns a copy of the data set name with the target replaced
// by f of its class number (0, 1, ... in ascending order of the values).
func withTarget(t *testing.T, name string, f func(class int) float64) *data.Dataset {
	t.Helper()
	d := readDataset(t, name)
	d = d.Subset(seqRows(d.Rows))
	_, index, err := data.Classes(d.Y)
	if err != nil {
		t.Fatal(err)
	}
	for r, k := range index {
		d.Y[r] = f(k)
	}
	d.Labels = nil
	return d
}

// TestWeightsDuplicate checks that weighing rows by 2 trains the model
// that repeating them trains. What holds exactly: the features here have
// fewer than 256 distinct values, so both data sets have the same bins
// (with more, the repeated rows would move the quantile edges); every sum
// of gradients and hessians holds the same terms, but a weighted row's
// 2g is one addition where the repeated row's g + g are two, at other
// places in the order, so the sums, and the leaf values, agree up to
// rounding, and the splits agree but for near-ties. The quantile refit
// counts a row of weight 2 twice, so it gives the same quantile of the
// same residuals.
func TestWeightsDuplicate(t *testing.T) {
	// 250 rows: fewer than 256 distinct values in every feature, and
	// targets with few ties (so few tied splits).
	houses := readDataset(t, "537_houses").Subset(seqRows(250))
	target := func(f func(y float64) float64) *data.Dataset {
		d := houses.Subset(seqRows(houses.Rows))
		for r, v := range d.Y {
			d.Y[r] = f(v)
		}
		return d
	}
	yeast := readDataset(t, "yeast").Subset(seqRows(250))
	for _, tt := range []struct {
		name string
		d    *data.Dataset
		opts Options
	}{
		{"squared error", houses, Options{Objective: SquaredError}},
		{"logistic", readDataset(t, "heart_c"), Options{Objective: Logistic, ScalePosWeight: 1.5}},
		{"softmax", yeast, Options{Objective: Softmax, Rounds: 3}},
		{"poisson", target(func(y float64) float64 { return math.Round(y / 50000) }), Options{Objective: Poisson}},
		{"gamma", target(func(y float64) float64 { return y / 100000 }), Options{Objective: GammaRegression}},
		{"tweedie", target(func(y float64) float64 { return math.Round(y / 50000) }), Options{Objective: Tweedie}},
		{"pseudohuber", target(func(y float64) float64 { return y / 100000 }), Options{Objective: PseudoHuber}},
		{"quantile", target(func(y float64) float64 { return y / 100000 }), Options{Objective: Quantile, QuantileAlpha: 0.3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.d
			rows := seqRows(d.Rows)
			w := make([]float64, d.Rows)
			for r := range w {
				w[r] = 1
				if r%3 == 0 {
					w[r] = 2
					rows = append(rows, r)
				}
			}
			opts := tt.opts
			if opts.Rounds == 0 {
				opts.Rounds = 5
			}
			opts.MaxDepth, opts.Threads = 4, 1
			dup, err := Train(d.Subset(rows), nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			opts.Weights = w
			weighted, err := Train(d, nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
			for k, b := range dup.BaseScore {
				if !close(weighted.BaseScore[k], b) {
					t.Errorf("base score %d: %v weighted, %v repeated", k, weighted.BaseScore[k], b)
				}
			}
			if len(weighted.Trees) != len(dup.Trees) {
				t.Fatalf("%d trees weighted, %d repeated", len(weighted.Trees), len(dup.Trees))
			}
			for i := range dup.Trees {
				a, b := weighted.Trees[i].Nodes, dup.Trees[i].Nodes
				if len(a) != len(b) {
					t.Fatalf("tree %d: %d nodes weighted, %d repeated", i, len(a), len(b))
				}
				for j := range b {
					x, y := a[j], b[j]
					if x.Kind != y.Kind || x.Feature != y.Feature || x.Threshold != y.Threshold || x.DefaultLeft != y.DefaultLeft {
						t.Fatalf("tree %d node %d: %+v weighted, %+v repeated", i, j, x, y)
					}
					if x.Kind == ir.Leaf && !close(x.Value[0], y.Value[0]) {
						t.Errorf("tree %d leaf %d: %v weighted, %v repeated", i, j, x.Value[0], y.Value[0])
					}
				}
			}
		})
	}
}

// TestWeightedQuantile checks the quantile against LightGBM's formula by
// hand, and that integer weights count as repeated values.
func TestWeightedQuantile(t *testing.T) {
	v := []float64{4, 1, 40, 3, 10, 2, 30, 20}
	// Decreasing: 40 30 20 10 4 3 2 1 (d_0 .. d_7); x = (1-α)·8, j = ⌊x⌋.
	for _, tt := range []struct{ alpha, want float64 }{
		{0.5, 10},          // x = 4: d_3 - (d_3 - d_4)·0
		{0.3, 4 - 0.6},     // x = 5.6: d_4 - (d_4 - d_5)·0.6
		{0.05, 2 - 0.6},    // x = 7.6: d_6 - (d_6 - d_7)·0.6
		{0.9, 40},          // x = 0.8, j = 0 < 1: d_0
		{0.75, 30},         // x = 2: d_1
		{0.7, 30 - 10*0.4}, // x = 2.4: d_1 - (d_1 - d_2)·0.4
	} {
		got := weightedQuantile(slices.Clone(v), nil, tt.alpha)
		if math.Abs(got-tt.want) > 1e-12 {
			t.Errorf("α %v: %v, want %v", tt.alpha, got, tt.want)
		}
		w := []float64{1, 1, 2, 0, 3, 1, 1, 0}
		var rep []float64
		for i, x := range v {
			for range int(w[i]) {
				rep = append(rep, x)
			}
		}
		if a, b := weightedQuantile(slices.Clone(v), w, tt.alpha), weightedQuantile(rep, nil, tt.alpha); a != b {
			t.Errorf("α %v: %v weighted, %v repeated", tt.alpha, a, b)
		}
	}
}

// TestQuantileByHand checks one round of the quantile objective, worked
// out by hand: α = 0.3, y = 1 2 3 4 | 10 20 30 40 for x = 0 | 1, η = 1.
// Base score: in decreasing order 40 30 20 10 4 3 2 1, x = 0.7·8 = 5.6,
// d_4 - (d_4 - d_5)·0.6 = 3.4. Gradients 0.7 for y <= 3.4, -0.3 above:
// the left leaf has G = 1.8, the right G = -1.2, and the split on x is
// made. Refit: the left residuals -2.4 -1.4 -0.4 0.6 give (x = 2.8)
// -0.4 - (1.0)(0.8) = -1.2; the right ones 6.6 16.6 26.6 36.6 give
// 26.6 - 10·0.8 = 18.6.
func TestQuantileByHand(t *testing.T) {
	d := column([]float64{0, 0, 0, 0, 1, 1, 1, 1}, []float64{1, 2, 3, 4, 10, 20, 30, 40})
	m, err := Train(d, nil, Options{Objective: Quantile, QuantileAlpha: 0.3, Rounds: 1, LearningRate: 1, MaxDepth: 1, MinChildWeight: 1e-300})
	if err != nil {
		t.Fatal(err)
	}
	if b := m.BaseScore[0]; math.Abs(b-3.4) > 1e-12 {
		t.Errorf("base score %v, want 3.4", b)
	}
	nodes := m.Trees[0].Nodes
	if len(nodes) != 3 {
		t.Fatalf("%d nodes, want a split and two leaves", len(nodes))
	}
	left, right := nodes[nodes[0].Left].Value[0], nodes[nodes[0].Right].Value[0]
	if math.Abs(left+1.2) > 1e-12 || math.Abs(right-18.6) > 1e-12 {
		t.Errorf("leaves %v and %v, want -1.2 and 18.6", left, right)
	}
	if m.Link != ir.Identity || m.Provenance.Params["quantile_alpha"] != "0.3" || m.Provenance.Params["eval_metric"] != "quantile" {
		t.Errorf("link %s, params %v", m.Link, m.Provenance.Params)
	}
}

// TestQuantileCoverage checks on a real regression data set that the
// fraction of the training targets below the prediction is close to α.
func TestQuantileCoverage(t *testing.T) {
	d := readDataset(t, "537_houses")
	for _, alpha := range []float64{0.1, 0.5, 0.9} {
		m, err := Train(d, nil, Options{Objective: Quantile, QuantileAlpha: alpha, Rounds: 30, LearningRate: 0.3})
		if err != nil {
			t.Fatal(err)
		}
		p, err := runtime.New[float64](m)
		if err != nil {
			t.Fatal(err)
		}
		below := 0
		out := make([]float64, 1)
		for r := range d.Rows {
			if err := p.Predict(d.Row(r), out); err != nil {
				t.Fatal(err)
			}
			if d.Y[r] < out[0] {
				below++
			}
		}
		frac := float64(below) / float64(d.Rows)
		t.Logf("α %v: %.4f of the targets below the prediction", alpha, frac)
		if math.Abs(frac-alpha) > 0.02 {
			t.Errorf("α %v: %.4f of the targets below the prediction", alpha, frac)
		}
	}
}

// TestMetricValues checks the metrics, weighted, on fixed margins against
// the values of scikit-learn 1.2 (log_loss, roc_auc_score,
// mean_squared_error, mean_absolute_error, mean_pinball_loss with
// sample_weight) and, for the likelihoods and mphe, XGBoost 1.7.4's
// evaluation of the same margins (base_margin, eta 0; XGBoost computes in
// float32, hence the tolerance).
func TestMetricValues(t *testing.T) {
	w := []float64{1, 2, 0.5, 1, 1.5, 1, 2, 0.5}
	m := []float64{-1.2, 0.3, 0.8, -0.1, 1.5, -2.0, 0.3, 0.05}
	cls := []int32{0, 1, 1, 0, 1, 0, 0, 1}
	yc := []float64{0, 3, 1, 0, 7, 2, 1, 4}
	yg := make([]float64, len(yc))
	for i, v := range yc {
		yg[i] = v + 0.5
	}
	for _, tt := range []struct {
		obj    Objective
		metric string
		y      []float64
		os     objectiveSettings
		want   float64
		tol    float64
	}{
		{Logistic, "logloss", nil, objectiveSettings{}, 0.49199244108245715, 1e-12},
		{Logistic, "auc", nil, objectiveSettings{}, 0.8666666666666667, 1e-12},
		{Logistic, "error", nil, objectiveSettings{}, 0.21052631578947367, 1e-12},
		{SquaredError, "rmse", yc, objectiveSettings{}, 3.012364869212088, 1e-12},
		{SquaredError, "mae", yc, objectiveSettings{}, 2.360526315789474, 1e-12},
		{Quantile, "quantile", yc, objectiveSettings{alpha: 0.3}, 0.7081578947368421, 1e-12},
		{PseudoHuber, "mphe", yc, objectiveSettings{slope: 2}, 2.6868013331764624, 1e-6},
		{Poisson, "poisson-nloglik", yc, objectiveSettings{}, 2.0110713619934883, 1e-6},
		{GammaRegression, "gamma-nloglik", yg, objectiveSettings{}, 3.542730980797818, 1e-6},
		{Tweedie, "tweedie-nloglik@1.3", yc, objectiveSettings{metricRho: 1.3}, 8.860921213501378, 1e-6},
		{Poisson, "rmse", yc, objectiveSettings{}, 1.6120751204809056, 1e-6},
	} {
		var s *scorer
		if tt.y == nil {
			s = newScorer(tt.obj, 1, nil, cls)
		} else {
			s = newScorer(tt.obj, 1, tt.y, nil)
		}
		s.w, s.os = w, tt.os
		s.os.metric = tt.metric
		got, _ := s.metric(m)
		if math.Abs(got-tt.want) > tt.tol*tt.want {
			t.Errorf("%s %s: %v, want %v", tt.obj, tt.metric, got, tt.want)
		}
	}
}

// TestEarlyStoppingMetric trains on a validation split where the round of
// the least validation log-loss is not the round of the largest
// validation AUC, and checks that early stopping keeps the best round of
// the chosen metric, with the per-round values in RoundInfo.
func TestEarlyStoppingMetric(t *testing.T) {
	d := readDataset(t, "heart_c")
	_, class, err := data.Classes(d.Y)
	if err != nil {
		t.Fatal(err)
	}
	tr, va := data.StratifiedSplit(class, 0.3, 1)
	train, valid := d.Subset(tr), d.Subset(va)
	best := map[string]int{}
	for _, metric := range []string{"logloss", "auc", "error"} {
		var values []float64
		opts := Options{Objective: Logistic, Rounds: 40, EarlyStopping: 40, EvalMetric: metric, Threads: 1,
			OnRound: func(ri RoundInfo) {
				if ri.Metric != metric {
					t.Fatalf("RoundInfo.Metric %q, want %q", ri.Metric, metric)
				}
				values = append(values, ri.ValidMetric)
				if metric == "logloss" && ri.ValidMetric != ri.ValidLoss {
					t.Errorf("round %d: logloss %v, ValidLoss %v", ri.Round, ri.ValidMetric, ri.ValidLoss)
				}
				if metric == "auc" && math.Abs(ri.ValidMetric-ri.ValidAUC) > 1e-12 {
					t.Errorf("round %d: auc %v, ValidAUC %v", ri.Round, ri.ValidMetric, ri.ValidAUC)
				}
			}}
		m, err := Train(train, valid, opts)
		if err != nil {
			t.Fatal(err)
		}
		// The first round of the best value: auc is maximised.
		want := 0
		for i, v := range values {
			better := v < values[max(want-1, 0)]
			if metric == "auc" {
				better = v > values[max(want-1, 0)]
			}
			if want == 0 || better {
				want = i + 1
			}
		}
		if len(m.Trees) != want {
			t.Errorf("%s: %d trees, want the best round %d of %v", metric, len(m.Trees), want, values)
		}
		best[metric] = want
	}
	if best["logloss"] == best["auc"] {
		t.Errorf("the best rounds of logloss and auc are both %d: the test needs them apart", best["auc"])
	}
	t.Logf("best rounds: %v", best)
}

// TestNewObjectives trains every new objective on a real data set and
// checks the link, that the training loss falls, that the margins the
// trainer accumulated are the interpreter's bit for bit, and that the
// number of threads does not change the model.
func TestNewObjectives(t *testing.T) {
	counts := func(d *data.Dataset) *data.Dataset {
		c := d.Subset(seqRows(d.Rows))
		for r, v := range c.Y {
			c.Y[r] = math.Round(v / 50000)
		}
		return c
	}
	positive := func(d *data.Dataset) *data.Dataset {
		c := d.Subset(seqRows(d.Rows))
		for r, v := range c.Y {
			c.Y[r] = v / 100000
		}
		return c
	}
	houses := readDataset(t, "537_houses").Subset(seqRows(5000))
	for _, tt := range []struct {
		name string
		d    *data.Dataset
		opts Options
		link ir.Link
	}{
		{"poisson", counts(houses), Options{Objective: Poisson}, ir.Exp},
		{"gamma", positive(houses), Options{Objective: GammaRegression, Subsample: 0.8, Seed: 3}, ir.Exp},
		{"tweedie", counts(houses), Options{Objective: Tweedie, TweedieVariancePower: 1.3, MaxLeaves: 16}, ir.Exp},
		{"pseudohuber", positive(houses), Options{Objective: PseudoHuber, HuberSlope: 0.5}, ir.Identity},
		{"quantile", positive(houses), Options{Objective: Quantile, QuantileAlpha: 0.8, Subsample: 0.7, Seed: 1}, ir.Identity},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := withSpecials(tt.d, 5)
			var losses []float64
			opts := tt.opts
			opts.Rounds = 10
			opts.OnRound = func(ri RoundInfo) { losses = append(losses, ri.TrainLoss) }
			r, err := boost(d, nil, opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.model.Link != tt.link {
				t.Errorf("link %s, want %s", r.model.Link, tt.link)
			}
			if !(losses[9] < losses[0]) {
				t.Errorf("training loss %v after round 1, %v after round 10", losses[0], losses[9])
			}
			checkMargins(t, d, r)
			opts.OnRound = nil
			sameForThreads(t, d, opts, 1, 3)
		})
	}
}

// TestObjectiveParams checks that the provenance of the old objectives'
// models has none of the new options, and that of the new ones has theirs.
func TestObjectiveParams(t *testing.T) {
	d := column([]float64{1, 2, 3, 4, 5, 6}, []float64{1, 2, 2, 3, 5, 8})
	old := []string{"objective", "rounds", "learning_rate", "max_depth", "max_leaves", "min_child_weight", "lambda",
		"gamma", "subsample", "colsample", "max_bins", "early_stopping", "seed"}
	for _, tt := range []struct {
		opts Options
		want map[string]string
	}{
		{Options{Objective: SquaredError}, nil},
		{Options{Objective: SquaredError, EvalMetric: "rmse"}, nil},
		{Options{Objective: SquaredError, EvalMetric: "mae"}, map[string]string{"eval_metric": "mae"}},
		{Options{Objective: Poisson}, map[string]string{"max_delta_step": "0.7", "eval_metric": "poisson-nloglik"}},
		{Options{Objective: Tweedie}, map[string]string{"tweedie_variance_power": "1.5", "eval_metric": "tweedie-nloglik@1.5"}},
		{Options{Objective: Tweedie, EvalMetric: "tweedie-nloglik"}, map[string]string{"tweedie_variance_power": "1.5", "eval_metric": "tweedie-nloglik@1.5"}},
		{Options{Objective: PseudoHuber, HuberSlope: 3}, map[string]string{"huber_slope": "3", "eval_metric": "mphe"}},
		{Options{Objective: GammaRegression, Weights: []float64{1, 1, 1, 1, 1, 0}}, map[string]string{"eval_metric": "gamma-nloglik",
			"weights_sha256": weightsHash([]float64{1, 1, 1, 1, 1, 0})}},
	} {
		m, err := Train(d, nil, tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		p := m.Provenance.Params
		if len(p) != len(old)+len(tt.want) {
			t.Errorf("%+v: params %v", tt.opts, p)
		}
		for _, k := range old {
			if _, ok := p[k]; !ok {
				t.Errorf("%+v: no param %q", tt.opts, k)
			}
		}
		for k, v := range tt.want {
			if p[k] != v {
				t.Errorf("%+v: param %q is %q, want %q", tt.opts, k, p[k], v)
			}
		}
	}
}

// TestGeneratedExpLink compiles poisson and gamma models into Go and
// compares the generated code with the interpreter bit for bit, the exp
// link included.
func TestGeneratedExpLink(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	houses := withSpecials(readDataset(t, "537_houses").Subset(seqRows(2000)), 2)
	for _, tt := range []struct {
		name string
		obj  Objective
		f    func(y float64) float64
	}{
		{"poisson", Poisson, func(y float64) float64 { return math.Round(y / 50000) }},
		{"gamma", GammaRegression, func(y float64) float64 { return y / 100000 }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d := houses.Subset(seqRows(houses.Rows))
			for r, v := range d.Y {
				d.Y[r] = tt.f(v)
			}
			m, err := Train(d, nil, Options{Objective: tt.obj, Rounds: 10, MaxDepth: 5})
			if err != nil {
				t.Fatal(err)
			}
			if m.Link != ir.Exp {
				t.Fatalf("link %s", m.Link)
			}
			verifyGenerated(t, m, d)
		})
	}
}
