package latent

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/train/internal/optim"
	"github.com/treegen/treegen/train/internal/trainset"
	"github.com/treegen/treegen/train/latent/isotonic"
)

// Tree is a trained latent tree with its read-out, its activities frozen
// on the training set, the input standardisation and the training
// history. Model converts it to an ir.Model.
type Tree struct {
	nt           *net
	a            []float64 // frozen activities a*, per node
	left         []bool    // per branching node: a missing margin goes left
	tgt          *target
	s            settings
	shift, scale []float64 // x' = (x - shift)·scale, per input
	features     []string  // the inputs' names
	history      []EpochInfo
	bestEpoch    int
	name         string
	fp           map[string]string
}

// Fit trains a latent tree on train, watching valid (which may be nil) for
// the learning-rate schedule and early stopping. With Options.Regress the
// named columns are the targets and the others the inputs, in both sets.
func Fit(train, valid *data.Dataset, opts Options) (*Tree, error) {
	if err := trainset.Check(train, "training"); err != nil {
		return nil, fmt.Errorf("latent: %w", err)
	}
	if valid != nil {
		if err := trainset.CheckValid(train, valid); err != nil {
			return nil, fmt.Errorf("latent: %w", err)
		}
	}
	s, err := opts.settings(valid != nil)
	if err != nil {
		return nil, err
	}
	if len(s.regress) > 0 && train.Features == nil {
		return nil, errors.New("latent: Regress names columns, but the training set has no feature names")
	}
	tgt, err := newTarget(train, s)
	if err != nil {
		return nil, err
	}
	in := inputs(train, tgt.inputs)
	if err := complete(in, "training"); err != nil {
		return nil, err
	}
	if valid != nil {
		if err := complete(valid, "validation"); err != nil {
			return nil, err
		}
	}
	shift, scale, err := trainset.FitStandardiser(in, "latent", false)
	if err != nil {
		return nil, err
	}
	x, err := trainset.Standardise(in, shift, scale, "training", "latent", false)
	if err != nil {
		return nil, err
	}
	y, err := tgt.labels(train, "training")
	if err != nil {
		return nil, err
	}
	var vx, vy []float64
	if valid != nil {
		if vx, err = trainset.Standardise(inputs(valid, tgt.inputs), shift, scale, "validation", "latent", false); err != nil {
			return nil, err
		}
		if vy, err = tgt.labels(valid, "validation"); err != nil {
			return nil, err
		}
	}

	n, p := train.Rows, len(tgt.inputs)
	nt := newNet(p, tgt.k, s.depth, s.split == LinearElu)
	rng := rand.New(rand.NewPCG(s.seed, 0x1a7e47))
	nt.init(x, n, tgt, y, rng)
	en := &Tree{
		nt: nt, tgt: tgt, s: s, shift: shift, scale: scale,
		features: in.Features, name: opts.Name, fp: trainset.Fingerprint(train, valid),
	}

	batch := min(s.batch, n)
	ps := newPass(nt, tgt, batch, s.threads)
	step := optimiser(s, len(nt.theta))
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	t0 := time.Now()
	lr := s.lr
	bestLoss, wait := math.Inf(1), 0
	var best []float64
	for epoch := 1; epoch <= s.epochs; epoch++ {
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		sum := 0.0
		for lo := 0; lo < n; lo += batch {
			sum += ps.gradient(x, y, order[lo:min(n, lo+batch)], s.lambda)
			step(nt.theta, ps.grad.theta, lr)
		}
		info := EpochInfo{Epoch: epoch, Epochs: s.epochs, TrainLoss: tgt.report(sum / float64(n)), ValidLoss: math.NaN(), LearningRate: lr}
		if !finite(info.TrainLoss) || !allFinite(nt.theta) {
			return nil, fmt.Errorf("latent: training diverged in epoch %d (the training loss is %v): lower the LearningRate", epoch, info.TrainLoss)
		}
		en.a = nt.freeze(x, n, batch, s.threads)
		info.Active = countActive(en.a)
		en.bestEpoch = epoch
		if valid != nil {
			info.ValidLoss = tgt.report(nt.meanLoss(vx, vy, en.a, tgt, s.threads))
			if info.ValidLoss < bestLoss {
				bestLoss, wait = info.ValidLoss, 0
				best = append(best[:0], nt.theta...)
				en.bestEpoch = epoch
			} else {
				wait++
				if s.patience > 0 && wait%s.patience == 0 {
					lr *= s.decay
				}
			}
		}
		info.Elapsed = time.Since(t0)
		en.history = append(en.history, info)
		if opts.OnEpoch != nil {
			opts.OnEpoch(info)
		}
		if s.stop > 0 && wait >= s.stop {
			break
		}
	}
	if best != nil {
		copy(nt.theta, best)
		en.bestEpoch = en.history[len(en.history)-1].Epoch - wait
		en.a = nt.freeze(x, n, batch, s.threads)
	}
	en.left = nt.defaults(x, n)
	return en, nil
}

// complete refuses a data set with a missing value, in the inputs or a
// regressed column. what names d in the error.
func complete(d *data.Dataset, what string) error {
	return trainset.Complete(d, what, "latent", "every split reads every feature, so latent trees train on complete rows (a missing value at prediction sends the row the way most training rows went)")
}

// inputs returns d restricted to the columns cols (d itself when they
// are all of its columns).
func inputs(d *data.Dataset, cols []int) *data.Dataset {
	if len(cols) == d.Cols {
		return d
	}
	out := &data.Dataset{Rows: d.Rows, Cols: len(cols), Y: d.Y, Labels: d.Labels, X: make([]float64, d.Rows*len(cols))}
	if d.Features != nil {
		for _, j := range cols {
			out.Features = append(out.Features, d.Features[j])
		}
	}
	for r := range d.Rows {
		row := d.Row(r)
		for o, j := range cols {
			out.X[r*len(cols)+o] = row[j]
		}
	}
	return out
}

// optimiser returns the update of the optimiser of s for n parameters:
// step(theta, g, lr) moves theta against g with step size lr.
func optimiser(s settings, n int) func(theta, g []float64, lr float64) {
	if s.opt == AdamOptimizer {
		a := optim.NewAdam(n, s.lr)
		return func(theta, g []float64, lr float64) {
			a.SetLearningRate(lr)
			a.Step(theta, g, 1)
		}
	}
	q := optim.NewQHAdam(n, s.lr)
	return func(theta, g []float64, lr float64) {
		q.SetLearningRate(lr)
		q.Step(theta, g)
	}
}

func allFinite(v []float64) bool {
	for _, e := range v {
		if !finite(e) {
			return false
		}
	}
	return true
}

func countActive(a []float64) int {
	c := 0
	for _, v := range a {
		if v > 0 {
			c++
		}
	}
	return c
}

// init draws the initial parameters: every split a random direction whose
// hyperplane passes through the median of the training rows that reach
// it (so the initial tree is balanced), η = 0 (no preference: a node that
// no row of a minibatch reaches is pruned in it, one that rows reach is
// kept), a zero read-out with the log prior odds (classification) as its
// biases.
func (nt *net) init(x []float64, n int, tgt *target, y []float64, rng *rand.Rand) {
	p := nt.p
	for i := range nt.w {
		nt.w[i] = rng.NormFloat64() / math.Sqrt(float64(p))
	}
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	proj := make([]float64, n)
	var place func(t int, rows []int)
	place = func(t int, rows []int) {
		if t >= nt.B {
			return
		}
		w := nt.w[t*p : (t+1)*p]
		if len(rows) > 0 {
			pr := proj[:len(rows)]
			for i, r := range rows {
				m := 0.0
				for j, v := range x[r*p : (r+1)*p] {
					m += w[j] * v
				}
				pr[i] = m
			}
			sorted := slices.Clone(pr)
			slices.Sort(sorted)
			nt.b[t] = -sorted[len(sorted)/2]
		}
		var l, r []int
		for i, row := range rows {
			if proj[i]+nt.b[t] < 0 {
				l = append(l, row)
			} else {
				r = append(r, row)
			}
		}
		place(2*t+1, l)
		place(2*t+2, r)
	}
	place(0, rows)
	for t := range nt.eta {
		nt.eta[t] = 0
	}
	if tgt.names == nil {
		return
	}
	count := make([]float64, len(tgt.names))
	for _, c := range y {
		count[int(c)]++
	}
	if tgt.loss == Logistic {
		q := min(max(count[1]/float64(n), 1e-15), 1-1e-15)
		nt.c[0] = math.Log(q / (1 - q))
		return
	}
	for c, m := range count {
		nt.c[c] = math.Log(max(m, 1) / float64(n))
	}
}

// freeze returns the activities of the deployed tree: the mean, weighted
// by rows, of a* over the training set cut into minibatches of the
// training size in row order, so that a prediction never depends on which
// rows share a batch, and a node pruned (a* = 0) in every minibatch stays
// pruned. The mean keeps a_t ≤ a_p(t).
func (nt *net) freeze(x []float64, n, batch, threads int) []float64 {
	B, T, p := nt.B, nt.T, nt.p
	a := make([]float64, T)
	s := make([]float64, batch*B)
	q := make([]float64, batch*T)
	path := make([]int32, batch*(nt.depth+1))
	L := nt.depth + 1
	var sol isotonic.Solution
	for lo := 0; lo < n; lo += batch {
		hi := min(n, lo+batch)
		parallel.For((hi-lo+unitRows-1)/unitRows, threads, func(u int) {
			for i := u * unitRows; i < min(hi-lo, (u+1)*unitRows); i++ {
				r := lo + i
				nt.margins(x[r*p:(r+1)*p], s[i*B:(i+1)*B], q[i*T:(i+1)*T], path[i*L:(i+1)*L])
			}
		})
		sol.Solve(nt.tree, nt.eta, q[:(hi-lo)*T], hi-lo)
		for t, v := range sol.A {
			a[t] += v * float64(hi-lo)
		}
	}
	for t := range a {
		a[t] /= float64(n)
	}
	// Division by n can round a child above its parent by an ulp.
	for t := 1; t < T; t++ {
		a[t] = min(a[t], a[(t-1)/2])
	}
	return a
}

// predict writes the margins of the standardised row x with activities a
// into out, using s and q (len B, T), z (len T) and path (len D+1) as
// scratch.
func (nt *net) predict(x, a, s, q, z []float64, path []int32, out []float64) {
	n := nt.margins(x, s, q, path)
	for _, t := range path[:n] {
		z[t] = min(q[t], a[t]) // q_t > 0 on the path
	}
	nt.readout(x, z, path[:n], out)
}

// meanLoss returns the mean loss of the standardised rows x with targets y
// under activities a.
func (nt *net) meanLoss(x, y, a []float64, tgt *target, threads int) float64 {
	n := len(x) / nt.p
	units := (n + unitRows - 1) / unitRows
	sums := make([]float64, units)
	wd := tgt.width()
	parallel.For(units, threads, func(u int) {
		s, q, z := make([]float64, nt.B), make([]float64, nt.T), make([]float64, nt.T)
		out, dz, path := make([]float64, nt.k), make([]float64, nt.k), make([]int32, nt.depth+1)
		for r := u * unitRows; r < min(n, (u+1)*unitRows); r++ {
			nt.predict(x[r*nt.p:(r+1)*nt.p], a, s, q, z, path, out)
			sums[u] += tgt.grad(out, y[r*wd:(r+1)*wd], dz, 1)
		}
	})
	total := 0.0
	for _, v := range sums {
		total += v
	}
	return total / float64(n)
}

// defaults returns, per branching node, whether a row with a missing
// margin goes left: towards the child more training rows take.
func (nt *net) defaults(x []float64, n int) []bool {
	counts := make([]int, nt.T)
	s, q, path := make([]float64, nt.B), make([]float64, nt.T), make([]int32, nt.depth+1)
	for r := range n {
		for _, t := range path[:nt.margins(x[r*nt.p:(r+1)*nt.p], s, q, path)] {
			counts[t]++
		}
	}
	left := make([]bool, nt.B)
	for t := range left {
		left[t] = counts[2*t+1] > counts[2*t+2]
	}
	return left
}
