package tel

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/optim"
	"github.com/treegen/treegen/train/internal/trainset"
)

// condRows is the number of rows of a minibatch in a unit of work of the
// conditional passes. The units are fixed by the minibatch, not by the
// number of goroutines.
const condRows = 16

// evalRows is the number of rows of a unit of work of evaluation passes.
const evalRows = 256

// Ensemble is a trained tree ensemble layer: the weights, the input
// standardisation and the training history. Model converts it to an
// ir.Model.
type Ensemble struct {
	e         *ensemble
	proj      *Projection // Options.Project; nil without
	s         settings
	tgt       *target
	st        *standardiser
	features  []string
	history   []EpochInfo
	bestEpoch int
	name      string
	fp        map[string]string // data fingerprints for the provenance
}

// History returns the report of every epoch trained, in order.
func (en *Ensemble) History() []EpochInfo { return slices.Clone(en.history) }

// BestEpoch returns the epoch whose weights the ensemble holds: the last
// one trained, or with early stopping the one of least validation loss.
func (en *Ensemble) BestEpoch() int { return en.bestEpoch }

// NumFeatures returns the number of input features.
func (en *Ensemble) NumFeatures() int { return len(en.st.shift) }

// NumOutputs returns the number of outputs (margins).
func (en *Ensemble) NumOutputs() int { return en.e.k }

// PredictMargin writes the raw scores (margins, before the link) of the
// raw (unstandardised) row x into out, as the model's interpreter computes
// them: a missing value (NaN) makes the margin of every node that uses its
// feature NaN, and such a node routes by its default direction.
func (en *Ensemble) PredictMargin(x, out []float64) error {
	e := en.e
	if len(x) != len(en.st.shift) {
		return fmt.Errorf("tel: the row has %d features, the model %d", len(x), len(en.st.shift))
	}
	if len(out) != e.k {
		return fmt.Errorf("tel: the output has room for %d values, the model has %d outputs", len(out), e.k)
	}
	xs := make([]float64, len(x))
	for j, v := range x {
		xs[j] = (v - en.st.shift[j]) * en.st.scale[j]
	}
	xs = en.proj.apply(xs, 1)
	copy(out, en.tgt.base)
	e.forward(xs, out, make([]float64, e.k))
	if en.tgt.loss == SquaredError {
		out[0] = en.tgt.shift + en.tgt.scale*out[0]
	}
	return nil
}

// ReachableLeaves returns the mean number of leaves that a row of d
// reaches per tree (out of 2^Depth), the extent of conditional
// computation, with the ensemble's final weights. Missing values in d are
// imputed as in training when Options.Impute was set, else refused.
func (en *Ensemble) ReachableLeaves(d *data.Dataset) (float64, error) {
	if d == nil || d.Rows <= 0 || len(d.X) != d.Rows*d.Cols {
		return 0, errors.New("tel: ReachableLeaves needs a data set with rows")
	}
	if d.Cols != len(en.st.shift) {
		return 0, fmt.Errorf("tel: the data set has %d features, the model %d", d.Cols, len(en.st.shift))
	}
	x, err := en.st.apply(d, en.s.impute, "input")
	if err != nil {
		return 0, err
	}
	x = en.proj.apply(x, d.Rows)
	_, reached := en.e.evaluate(x, d.Rows, en.tgt.base, en.s.threads)
	return float64(reached) / float64(d.Rows*en.e.trees), nil
}

// evaluate returns the margins (n × k, base included) of the n
// standardised rows of x, and the number of (row, tree, leaf) triples
// reached.
func (e *ensemble) evaluate(x []float64, n int, base []float64, threads int) ([]float64, int) {
	out := make([]float64, n*e.k)
	units := (n + evalRows - 1) / evalRows
	reached := make([]int, units)
	parallel.For(units, threads, func(u int) {
		tv := make([]float64, e.k)
		for r := u * evalRows; r < min(n, (u+1)*evalRows); r++ {
			o := out[r*e.k : (r+1)*e.k]
			copy(o, base)
			reached[u] += e.forward(x[r*e.p:(r+1)*e.p], o, tv)
		}
	})
	total := 0
	for _, c := range reached {
		total += c
	}
	return out, total
}

// trainer holds the state of a training run.
type trainer struct {
	e       *ensemble
	s       settings
	tgt     *target
	x, y    []float64 // standardised training rows, labels
	n       int
	g       *gradient
	opt     *optim.Adam
	ps      *passes // conditional mode
	proj    *Projection
	projOpt *optim.Adam
	yb, dyb []float64  // with proj: the projected rows of the minibatch, and their ∂L/∂y
	dw      *denseWork // dense mode
	xb      []float64  // dense mode, and with proj: the rows of the minibatch
	outb    []float64  // the margins of the minibatch's rows
	dTb     []float64  // their ∂L/∂T
	margins []float64  // n × k: every training row's margins in the epoch
	losses  []float64  // n: every training row's loss in the epoch
}

func newTrainer(e *ensemble, s settings, tgt *target, x, y []float64, n int) (*trainer, error) {
	tr := &trainer{
		e: e, s: s, tgt: tgt, x: x, y: y, n: n,
		g:       e.newGradient(),
		opt:     optim.NewAdam(len(e.theta), s.lr),
		margins: make([]float64, n*e.k),
		losses:  make([]float64, n),
	}
	batch := min(s.batch, n)
	tr.outb = make([]float64, batch*e.k)
	tr.dTb = make([]float64, batch*e.k)
	if s.mode == Dense {
		dw, err := newDenseWork(e, batch)
		if err != nil {
			return nil, err
		}
		tr.dw = dw
		tr.xb = make([]float64, batch*e.p)
		return tr, nil
	}
	tr.ps = newPasses(e, batch, s.threads)
	if s.project > 0 {
		tr.xb = make([]float64, batch*(len(x)/n))
		tr.yb = make([]float64, batch*e.p)
		tr.dyb = make([]float64, batch*e.p)
	}
	return tr, nil
}

// step trains on the minibatch of rows idx: gradient of the mean loss,
// L2 penalty, Adam step. It records the rows' margins and losses and
// returns the number of (row, tree, leaf) triples reached.
func (tr *trainer) step(idx []int) int {
	var reached int
	tr.opt.Begin()
	if tr.s.mode == Dense {
		reached = tr.denseGradient(idx)
		parallel.For(tr.e.trees, tr.s.threads, tr.update)
	} else {
		reached = tr.conditionalGradient(idx)
	}
	if tr.proj != nil {
		tr.projOpt.Step(tr.proj.theta, tr.proj.grads, tr.s.threads)
	}
	return reached
}

// update applies the step begun by tr.opt.Begin to the parameters of
// tree t, whose gradient is in tr.g: the L2 penalty's gradient added to
// the node weights', Adam's update of the weights, biases and leaves, and
// the L1 penalty's proximal step (sparsify). Every parameter's update
// depends on its own values only, so updating tree by tree is one step of
// the whole.
func (tr *trainer) update(t int) {
	e, g := tr.e, tr.g
	wlo, whi := t*e.inner*e.p, (t+1)*e.inner*e.p
	if l2 := tr.s.l2; l2 > 0 {
		for i := wlo; i < whi; i++ {
			g.w[i] += 2 * l2 * e.w[i]
		}
	}
	tr.opt.Update(e.theta, g.all, wlo, whi)
	if e.hasBias {
		nw := len(e.w)
		tr.opt.Update(e.theta, g.all, nw+t*e.inner, nw+(t+1)*e.inner)
	}
	olo := len(e.theta) - len(e.o)
	tr.opt.Update(e.theta, g.all, olo+t*e.leaves*e.k, olo+(t+1)*e.leaves*e.k)
	if tr.s.l1 > 0 {
		tr.sparsify(t)
	}
}

// sparsify applies the L1 penalty's proximal step to the node weights of
// tree t (optim.Adam.ProxL1), then gives every node's weight vector back
// the Euclidean norm it had before, so that the penalty chooses the
// features a node uses without shrinking its weights: the routing's
// sharpness is the norm of the weights over γ, and plain proximal steps,
// which shrink the norms, would soften the routing until most rows reach
// most leaves, which costs speed in training and in generated code. A
// node whose weights all become 0 keeps them 0.
func (tr *trainer) sparsify(t int) {
	e, p := tr.e, tr.e.p
	for r := t * e.inner; r < (t+1)*e.inner; r++ {
		row := e.w[r*p : (r+1)*p]
		before := 0.0
		for _, w := range row {
			before += w * w
		}
		tr.opt.ProxL1(e.w, r*p, (r+1)*p, tr.s.l1)
		after := 0.0
		for _, w := range row {
			after += w * w
		}
		if after > 0 && after != before {
			f := math.Sqrt(before / after)
			for j := range row {
				row[j] *= f
			}
		}
	}
}

// conditionalGradient computes the gradient of the minibatch with the
// conditional passes (or the full ones: see passes) into tr.g.
func (tr *trainer) conditionalGradient(idx []int) int {
	e, tgt := tr.e, tr.tgt
	p, k, n := e.p, e.k, len(idx)
	scale := 1 / float64(n)
	out, dT := tr.outb[:n*k], tr.dTb[:n*k]
	for b := range n {
		copy(out[b*k:(b+1)*k], tgt.base)
	}
	row := func(b int) []float64 { r := idx[b]; return tr.x[r*p : (r+1)*p] }
	var dy []float64
	if pr := tr.proj; pr != nil {
		for b, r := range idx {
			copy(tr.xb[b*pr.in:(b+1)*pr.in], tr.x[r*pr.in:(r+1)*pr.in])
		}
		_ = pr.Forward(tr.xb[:n*pr.in], n, tr.yb[:n*p]) // the sizes are right by construction
		row = func(b int) []float64 { return tr.yb[b*p : (b+1)*p] }
		dy = tr.dyb[:n*p]
	}
	reached := tr.ps.forward(n, row, out, func(b int, o, d []float64) {
		r := idx[b]
		tr.losses[r] = tgt.grad(o, tr.y[r], d, scale)
	}, dT, dy)
	tr.ps.gradient(tr.g, dT, tr.update)
	if pr := tr.proj; pr != nil {
		pr.ZeroGrads()
		_ = pr.Backward(dy, nil)
	}
	for b, r := range idx {
		copy(tr.margins[r*k:(r+1)*k], out[b*k:(b+1)*k])
	}
	return reached
}

// denseGradient computes the gradient of the minibatch with the dense
// passes into tr.g.
func (tr *trainer) denseGradient(idx []int) int {
	e, tgt := tr.e, tr.tgt
	p, k, n := e.p, e.k, len(idx)
	for q, r := range idx {
		copy(tr.xb[q*p:(q+1)*p], tr.x[r*p:(r+1)*p])
		copy(tr.outb[q*k:(q+1)*k], tgt.base)
	}
	reached := e.denseForward(tr.dw, tr.xb, n, tr.outb, tr.s.threads)
	scale := 1 / float64(n)
	for q, r := range idx {
		out := tr.outb[q*k : (q+1)*k]
		copy(tr.margins[r*k:(r+1)*k], out)
		tr.losses[r] = tgt.grad(out, tr.y[r], tr.dTb[q*k:(q+1)*k], scale)
	}
	e.denseBackward(tr.dw, tr.xb, n, tr.dTb, tr.g, nil, tr.s.threads)
	return reached
}

// evaluate returns the margins of the n standardised rows of x, by the
// passes of the training mode.
func (tr *trainer) evaluate(x []float64, n int) []float64 {
	e := tr.e
	x = tr.proj.apply(x, n)
	if tr.dw == nil {
		out, _ := e.evaluate(x, n, tr.tgt.base, tr.s.threads)
		return out
	}
	out := make([]float64, n*e.k)
	for r := range n {
		copy(out[r*e.k:(r+1)*e.k], tr.tgt.base)
	}
	for lo := 0; lo < n; lo += tr.dw.rows {
		hi := min(n, lo+tr.dw.rows)
		e.denseForward(tr.dw, x[lo*e.p:hi*e.p], hi-lo, out[lo*e.k:hi*e.k], tr.s.threads)
	}
	return out
}

// meanLoss returns the mean loss of the n rows of x with labels y.
func (tr *trainer) meanLoss(margins, y []float64) float64 {
	k := tr.e.k
	dz := make([]float64, k)
	s := 0.0
	for r, v := range y {
		s += tr.tgt.grad(margins[r*k:(r+1)*k], v, dz, 1)
	}
	return s / float64(len(y))
}

// Fit trains a tree ensemble layer on train, watching valid (which may be
// nil) for Options.OnEpoch and early stopping. It accepts every option,
// LogisticActivation included; Train is Fit followed by Ensemble.Model.
//
// Fit does not modify its data sets. It fails, with an error that starts
// with "tel:", when an option is invalid, when train has no rows, no
// features or no target, when a target value is NaN or infinite, when a
// classification target has a single class (or Logistic more than two),
// when SquaredError meets a target of text labels, when a feature value
// is infinite, or missing without Options.Impute, when valid is empty, has
// other columns than train or a class train lacks (classes are matched by
// data.Dataset.LabelName), and when training diverges.
func Fit(train, valid *data.Dataset, opts Options) (*Ensemble, error) {
	start := time.Now()
	s, err := opts.settings(valid != nil)
	if err != nil {
		return nil, err
	}
	if err := trainset.Check(train, "training"); err != nil {
		return nil, fmt.Errorf("tel: %w", err)
	}
	if valid != nil {
		if err := trainset.CheckValid(train, valid); err != nil {
			return nil, fmt.Errorf("tel: %w", err)
		}
	}
	tgt, err := newTarget(train, s.loss)
	if err != nil {
		return nil, err
	}
	y, err := tgt.labelsOf(train, "training")
	if err != nil {
		return nil, err
	}
	st, err := fitStandardiser(train, s.impute)
	if err != nil {
		return nil, err
	}
	x, err := st.apply(train, s.impute, "training")
	if err != nil {
		return nil, err
	}
	var xv, yv []float64
	if valid != nil {
		if yv, err = tgt.labelsOf(valid, "validation"); err != nil {
			return nil, err
		}
		if xv, err = st.apply(valid, s.impute, "validation"); err != nil {
			return nil, err
		}
	}

	n, p := train.Rows, train.Cols
	var proj *Projection
	if s.project > 0 {
		if proj, err = NewProjection(p, s.project, s.seed); err != nil {
			return nil, err
		}
		p = s.project
	}
	e := newEnsemble(s.trees, s.depth, p, tgt.k, s)
	rng := rand.New(rand.NewPCG(s.seed, s.seed^0x9e3779b97f4a7c15))
	e.init(rng)
	tr, err := newTrainer(e, s, tgt, x, y, n)
	if err != nil {
		return nil, err
	}
	if proj != nil {
		tr.proj, tr.projOpt = proj, optim.NewAdam(len(proj.theta), s.lr)
	}
	en := &Ensemble{e: e, proj: proj, s: s, tgt: tgt, st: st, features: slices.Clone(train.Features), name: opts.Name, fp: trainset.Fingerprint(train, valid)}

	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	bestLoss, bestEpoch := math.Inf(1), 0
	var best, bestProj []float64
	for epoch := 1; epoch <= s.epochs; epoch++ {
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		t0 := time.Now()
		reached := 0
		for b := 0; b < n; b += s.batch {
			reached += tr.step(order[b:min(n, b+s.batch)])
		}
		info := EpochInfo{
			Epoch:           epoch,
			Epochs:          s.epochs,
			TrainTime:       time.Since(t0),
			ReachableLeaves: float64(reached) / float64(n*s.trees),
			ZeroWeights:     e.zeroWeights(),
			ValidLoss:       math.NaN(),
			ValidAUC:        math.NaN(),
		}
		sum := 0.0
		for _, l := range tr.losses {
			sum += l
		}
		info.TrainLoss = tgt.report(sum / float64(n))
		if math.IsNaN(info.TrainLoss) || math.IsInf(info.TrainLoss, 0) {
			return nil, fmt.Errorf("tel: training diverged in epoch %d (the training loss is %v): lower the LearningRate", epoch, info.TrainLoss)
		}
		info.TrainAUC = tgt.auc(y, tr.margins)
		if valid != nil {
			vm := tr.evaluate(xv, valid.Rows)
			info.ValidLoss = tgt.report(tr.meanLoss(vm, yv))
			info.ValidAUC = tgt.auc(yv, vm)
		}
		info.Elapsed = time.Since(start)
		en.history = append(en.history, info)
		en.bestEpoch = epoch
		if opts.OnEpoch != nil {
			opts.OnEpoch(info)
		}
		if s.earlyStopping > 0 {
			if info.ValidLoss < bestLoss {
				bestLoss, bestEpoch = info.ValidLoss, epoch
				best = append(best[:0], e.theta...)
				if proj != nil {
					bestProj = append(bestProj[:0], proj.theta...)
				}
			} else if epoch-bestEpoch >= s.earlyStopping {
				break
			}
		}
	}
	if s.earlyStopping > 0 && best != nil {
		copy(e.theta, best)
		if proj != nil {
			copy(proj.theta, bestProj)
		}
		en.bestEpoch = bestEpoch
	}
	if !e.logistic {
		e.setDefaultDirections(proj.apply(x, n), n, s.threads)
	}
	return en, nil
}

// zeroWeights returns the fraction of the node weights that are exactly 0.
func (e *ensemble) zeroWeights() float64 {
	zeros := 0
	for _, w := range e.w {
		if w == 0 {
			zeros++
		}
	}
	return float64(zeros) / float64(len(e.w))
}

// setDefaultDirections sends a NaN margin at every node to the side that
// received more of the training rows' probability mass (left on a tie,
// and at nodes no training row reaches).
func (e *ensemble) setDefaultDirections(x []float64, n, threads int) {
	parallel.For(e.trees, threads, func(t int) {
		mass := make([]float64, e.inner+e.leaves) // heap order
		tv := make([]float64, e.k)
		var tr trace
		for r := range n {
			tr.reset()
			e.forwardTree(t, x[r*e.p:(r+1)*e.p], tv, &tr)
			for _, l := range tr.leaves {
				mass[e.inner+int(l.leaf)] += l.prob
			}
		}
		for i := e.inner - 1; i >= 0; i-- {
			l, r := mass[2*i+1], mass[2*i+2]
			mass[i] = l + r
			e.defaultLeft[t*e.inner+i] = l >= r
		}
	})
}

// Train trains a tree ensemble layer on train, watching valid (which may
// be nil) for Options.OnEpoch and early stopping, and returns it as a
// validated model of soft trees (see the package documentation). It is
// Fit followed by Ensemble.Model, and refuses LogisticActivation before
// training, since the IR cannot express it.
func Train(train, valid *data.Dataset, opts Options) (*ir.Model, error) {
	s, err := opts.settings(valid != nil)
	if err != nil {
		return nil, err
	}
	if s.act == LogisticActivation {
		return nil, errLogisticExport
	}
	en, err := Fit(train, valid, opts)
	if err != nil {
		return nil, err
	}
	return en.Model()
}

var errLogisticExport = errors.New("tel: a model with the logistic activation cannot be exported: the IR's soft nodes route by the smooth-step; train with the smooth-step (use Fit to train with the logistic activation for comparisons)")

// Model returns the ensemble as a validated ir.Model: m trees of soft
// nodes in breadth-first order, with the input standardisation as its
// Preprocess (see the package documentation). It fails for an ensemble
// trained with LogisticActivation.
func (en *Ensemble) Model() (*ir.Model, error) {
	e, s, tgt := en.e, en.s, en.tgt
	if e.logistic {
		return nil, errLogisticExport
	}
	params := s.params()
	if s.earlyStopping > 0 {
		params["best_epoch"] = strconv.Itoa(en.bestEpoch)
	}
	fp := make(map[string]string, len(en.fp))
	for key, v := range en.fp {
		fp[key] = v
	}
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Name:          en.name,
		NumFeatures:   len(en.st.shift),
		FeatureNames:  slices.Clone(en.features),
		Preprocess:    &ir.Affine{Shift: slices.Clone(en.st.shift), Scale: slices.Clone(en.st.scale)},
		Aggregation:   ir.Sum,
		Provenance:    &ir.Provenance{Producer: Producer, Params: params, Data: fp},
	}
	trainset.Describe(m, tgt.k, tgt.names)
	m.BaseScore = make([]float64, e.k)
	for j, b := range tgt.base {
		m.BaseScore[j] = tgt.shift + tgt.scale*b
	}
	output := 0
	if e.k > 1 {
		output = ir.AllOutputs
	}
	w, bias := e.w, e.b
	p := e.p
	if en.proj != nil {
		w, bias = en.proj.fold(e)
		p = en.proj.in
	}
	m.Trees = make([]ir.Tree, e.trees)
	for t := range e.trees {
		nodes := make([]ir.Node, e.inner+e.leaves)
		for i := range e.inner {
			r := t*e.inner + i
			nd := ir.Node{Kind: ir.Soft, Left: 2*i + 1, Right: 2*i + 2, DefaultLeft: e.defaultLeft[r], Bias: bias[r], Gamma: e.gamma}
			for j, w := range w[r*p : (r+1)*p] {
				if w != 0 {
					nd.Indices = append(nd.Indices, j)
					nd.Weights = append(nd.Weights, w)
				}
			}
			nodes[i] = nd
		}
		for l := range e.leaves {
			v := slices.Clone(e.o[(t*e.leaves+l)*e.k : (t*e.leaves+l+1)*e.k])
			for j := range v {
				v[j] *= tgt.scale
			}
			nodes[e.inner+l] = ir.Node{Kind: ir.Leaf, Value: v}
		}
		m.Trees[t] = ir.Tree{Output: output, Nodes: nodes}
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("tel: the trained model is invalid: %w", err)
	}
	return m, nil
}
