package gbdt

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/parallel"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/internal/trainset"
)

// result is what boost returns: the model, and for tests the training
// margins after the last tree grown (before any early-stopping cut).
type result struct {
	model   *ir.Model
	margins []float64 // k × n: margins[k*n+r] is margin k of row r
}

// boost is Train: it prepares a booster, runs the rounds and assembles the
// model from their trees.
func boost(train, valid *data.Dataset, opts Options) (*result, error) {
	start := time.Now()
	b, err := newBooster(train, valid, opts, start)
	if err != nil {
		return nil, err
	}
	prepared := time.Now()
	trees, bestRound, err := b.run()
	if err != nil {
		return nil, err
	}
	r, err := b.finish(trees, bestRound)
	if err == nil && opts.Timing != nil {
		*opts.Timing = Timing{Prepare: prepared.Sub(start), Boost: time.Since(prepared)}
	}
	return r, err
}

// booster is the state of one run of boost: the settings, the data and its
// bins, the margins and gradients, the random draws and the tree growers.
type booster struct {
	s            settings
	opts         Options
	train, valid *data.Dataset
	tgt          *target
	start        time.Time // when Train started, for RoundInfo.Elapsed
	model        *ir.Model // everything but the trees until finish

	n, p, k int // training rows, features, and margins per row (tgt.k)
	nv      int // validation rows, 0 without a validation set

	bm *binned
	// growers holds the tree growers free to take: one per goroutine that
	// grows a tree of a round, treeThreads of them.
	growers     chan *grower
	treeThreads int
	gradThreads int // goroutines that compute the gradients

	// Margins class by class: margins[k*n+r] is margin k of row r, and
	// vmargins[k*nv+r] that of validation row r.
	margins, vmargins      []float64
	grads                  [][]gradPair // grads[k][r]: of margin k of row r
	trainScore, validScore *scorer      // nil when not needed

	rng      *rand.Rand
	sample   []int32 // the rows of the round's trees, the first sampled of them
	sampled  int
	inSample []bool // whether a row is in the sample; nil without subsampling
	// features[k] are the features of the tree of class k in a round, the
	// first nfeat of them.
	features [][]int
	nfeat    int
	// colSeeds[k] seeds the draws of the features of the levels and nodes
	// of the tree of class k in a round (see grower.sampleFeatures).
	colSeeds []uint64

	roundTrees []ir.Tree // the trees of the current round, one per class
	errs       []error   // their errors
}

// newBooster checks the options and the data sets and prepares a run of
// boost that started at start: the model without its trees, the bins, the
// growers, the margins at the base score and the random draws.
func newBooster(train, valid *data.Dataset, opts Options, start time.Time) (*booster, error) {
	s, err := opts.settings(valid != nil)
	if err != nil {
		return nil, err
	}
	if valid != nil && valid.IsCompact() {
		// Validation rows are scored tree by tree, row by row: in float64.
		v := *valid
		v.Expand()
		valid = &v
	}
	if err := checkData(train, valid); err != nil {
		return nil, err
	}
	if err := s.resolveFeatures(opts, train); err != nil {
		return nil, err
	}
	tgt, err := newTarget(train, &s, opts.Weights)
	if err != nil {
		return nil, err
	}
	if opts.ValidWeights != nil && len(opts.ValidWeights) != valid.Rows {
		return nil, fmt.Errorf("gbdt: %d ValidWeights for %d validation rows", len(opts.ValidWeights), valid.Rows)
	}
	var validCls []int32
	if valid != nil {
		if validCls, err = tgt.classesOf(valid); err != nil {
			return nil, err
		}
	}

	b := &booster{
		s:     s,
		opts:  opts,
		train: train,
		valid: valid,
		tgt:   tgt,
		start: start,
		model: newModel(train, valid, opts, s, tgt),
		n:     train.Rows,
		p:     train.Cols,
		k:     tgt.k,
	}
	b.setupGrowers()
	b.setupMargins(validCls)
	b.setupDraws()
	b.roundTrees = make([]ir.Tree, b.k)
	b.errs = make([]error, b.k)
	return b, nil
}

// newModel returns the model that training on train (watching valid, which
// may be nil) with s makes, but for its trees: the features, the task, the
// base score and the provenance.
func newModel(train, valid *data.Dataset, opts Options, s settings, tgt *target) *ir.Model {
	m := &ir.Model{
		FormatVersion: ir.FormatVersion,
		Name:          opts.Name,
		NumFeatures:   train.Cols,
		FeatureNames:  slices.Clone(train.Features),
		Aggregation:   ir.Sum,
		BaseScore:     tgt.baseScore(),
		Provenance: &ir.Provenance{
			Producer: Producer,
			Params:   s.params(),
			Data:     trainset.Fingerprint(train, valid),
		},
	}
	trainset.Describe(m, tgt.k, tgt.names)
	if hasExpLink(s.objective) {
		m.Link = ir.Exp
	}
	if baseScoreForTest != nil {
		m.BaseScore = slices.Clone(baseScoreForTest)
	}
	return m
}

// setupGrowers bins the training set and makes the growers.
//
// With K trees per round, up to threads of them grow at once, each on a
// grower of its own; every grower spreads its tree's work over all the
// goroutines, so that the last trees of a round, when fewer than threads
// remain, keep every core busy too. Which trees grow together changes no
// tree.
func (b *booster) setupGrowers() {
	s, K := &b.s, b.k
	b.bm = newBinnedCat(b.train, s.maxBins, s.threads, s.categorical)
	b.treeThreads = min(K, s.threads)
	b.growers = make(chan *grower, b.treeThreads)
	for range b.treeThreads {
		b.growers <- newGrower(s, b.bm, s.threads, b.treeThreads)
	}
}

// setupMargins sets the training margins, and the validation ones when
// there is a validation set (whose classes are validCls), to the base
// score, and makes the gradients and the scorers of the losses.
func (b *booster) setupMargins(validCls []int32) {
	n, K := b.n, b.k
	b.margins = make([]float64, n*K)
	for k, bs := range b.model.BaseScore {
		for r := range n {
			b.margins[k*n+r] = bs
		}
	}
	if b.valid != nil {
		nv := b.valid.Rows
		b.nv = nv
		b.vmargins = make([]float64, nv*K)
		for k, bs := range b.model.BaseScore {
			for r := range nv {
				b.vmargins[k*nv+r] = bs
			}
		}
	}
	b.grads = make([][]gradPair, K)
	for k := range b.grads {
		b.grads[k] = make([]gradPair, n)
	}
	if b.opts.OnRound != nil {
		b.trainScore = b.tgt.scorer(b.train.Y, b.tgt.cls, b.opts.Weights)
	}
	if b.valid != nil {
		b.validScore = b.tgt.scorer(b.valid.Y, validCls, b.opts.ValidWeights)
	}
	b.gradThreads = b.s.threads
	if n*K < 1<<12 {
		b.gradThreads = 1
	}
}

// setupDraws seeds the random numbers and sizes the row sample and the
// feature sets of the trees; before the first draw they hold every row and
// the first features.
func (b *booster) setupDraws() {
	s, n, p := &b.s, b.n, b.p
	b.rng = rand.New(rand.NewPCG(s.seed, s.seed^0x9e3779b97f4a7c15))
	b.sample = make([]int32, n)
	for r := range b.sample {
		b.sample[r] = int32(r)
	}
	b.sampled = n
	if s.subsample < 1 {
		b.sampled = sampleSize(s.subsample, n)
		b.sample = b.sample[:b.sampled]
		b.inSample = make([]bool, n)
	}
	b.features = make([][]int, b.k)
	b.nfeat = p
	if s.colsample < 1 {
		b.nfeat = sampleSize(s.colsample, p)
	}
	for k := range b.features {
		b.features[k] = make([]int, b.nfeat)
		for f := range b.nfeat {
			b.features[k][f] = f
		}
	}
	b.colSeeds = make([]uint64, b.k)
}

// run boosts the rounds, stopping early when the validation metric (see
// report) has not improved for s.earlyStopping rounds, and returns the
// trees of every round grown and, with early stopping, the round of its
// best value (0 when none was finite).
func (b *booster) run() (trees []ir.Tree, bestRound int, err error) {
	bestLoss := math.Inf(1)
	for round := 1; round <= b.s.rounds; round++ {
		if err := b.round(); err != nil {
			return nil, 0, err
		}
		trees = append(trees, b.roundTrees...)

		validLoss := b.report(round)
		if b.s.earlyStopping > 0 {
			if validLoss < bestLoss {
				bestLoss, bestRound = validLoss, round
			} else if round-bestRound >= b.s.earlyStopping {
				break
			}
		}
	}
	return trees, bestRound, nil
}

// round runs one boosting round: the gradients at the current margins, the
// random draws, then one tree per class, grown in parallel into
// b.roundTrees, the margins moved by them.
func (b *booster) round() error {
	n := b.n
	parallel.For((n+gradBlock-1)/gradBlock, b.gradThreads, func(blk int) {
		b.tgt.gradients(b.margins, b.grads, blk*gradBlock, min((blk+1)*gradBlock, n))
	})
	b.draw()
	parallel.For(b.k, b.treeThreads, func(k int) {
		g := <-b.growers
		b.roundTrees[k], b.errs[k] = b.growTree(g, k)
		b.growers <- g
	})
	for k := range b.k {
		if b.errs[k] != nil {
			return b.errs[k]
		}
	}
	return nil
}

// draw makes the random draws of a round, in a fixed order: the row
// sample, the features of the tree of each class, then with
// ColSampleByLevel or ColSampleByNode the seed of each tree's draws.
func (b *booster) draw() {
	if b.inSample != nil {
		clear(b.inSample)
		choose(b.rng, b.n, b.sampled, func(i, r int) {
			b.sample[i] = int32(r)
			b.inSample[r] = true
		})
	}
	if b.nfeat < b.p {
		for k := range b.k {
			choose(b.rng, b.p, b.nfeat, func(i, f int) { b.features[k][i] = f })
		}
	}
	if b.s.colsampleLevel < 1 || b.s.colsampleNode < 1 {
		for k := range b.k {
			b.colSeeds[k] = b.rng.Uint64()
		}
	}
}

// growTree grows the tree of class k of a round with g, moves the margins
// by it and returns it.
func (b *booster) growTree(g *grower, k int) (ir.Tree, error) {
	n := b.n
	parallel.For((b.sampled+gradBlock-1)/gradBlock, g.threads, func(blk int) {
		lo, hi := blk*gradBlock, min((blk+1)*gradBlock, b.sampled)
		copy(g.rows[lo:hi], b.sample[lo:hi])
	})
	g.colSeed = b.colSeeds[k]
	nodes, err := g.grow(b.grads[k], b.sampled, b.features[k])
	if err != nil {
		return ir.Tree{}, err
	}
	mk := b.margins[k*n : (k+1)*n]
	if b.s.objective == Quantile {
		b.tgt.refitLeaves(nodes, g.rows, mk, b.s.eta)
	}
	// Every margin is moved once, by one goroutine: a leaf's rows, a block
	// of the rows out of the sample, a block of the validation rows.
	threads := g.threads
	if n < minParallelWork {
		threads = 1
	}
	parallel.For(len(nodes), threads, func(i int) {
		if nd := &nodes[i]; nd.leaf {
			for _, r := range g.rows[nd.lo:nd.hi] {
				mk[r] += nd.value
			}
		}
	})
	if b.inSample != nil {
		parallel.For((n+gradBlock-1)/gradBlock, threads, func(blk int) {
			for r := blk * gradBlock; r < min((blk+1)*gradBlock, n); r++ {
				if !b.inSample[r] {
					mk[r] += nodes[leafByBins(nodes, b.bm, r)].value
				}
			}
		})
	}
	if b.valid != nil {
		nv := b.nv
		vk := b.vmargins[k*nv : (k+1)*nv]
		parallel.For((nv+gradBlock-1)/gradBlock, threads, func(blk int) {
			for r := blk * gradBlock; r < min((blk+1)*gradBlock, nv); r++ {
				vk[r] += nodes[leafByValues(nodes, b.valid.Row(r))].value
			}
		})
	}
	return toIR(nodes, k), nil
}

// report returns the value that early stopping minimises after round (the
// validation metric, see scorer.metric), NaN when neither early stopping
// nor OnRound needs it or there is no validation set, and calls OnRound
// when set.
func (b *booster) report(round int) float64 {
	validLoss, validMetric, stop := math.NaN(), math.NaN(), math.NaN()
	if b.valid != nil && (b.s.earlyStopping > 0 || b.opts.OnRound != nil) {
		validMetric, stop = b.validScore.metric(b.vmargins)
		if b.opts.OnRound != nil {
			validLoss = b.validScore.loss(b.vmargins)
		}
	}
	if b.opts.OnRound != nil {
		info := RoundInfo{
			Round:     round,
			Rounds:    b.s.rounds,
			TrainLoss: b.trainScore.loss(b.margins),
			ValidLoss: validLoss,
			ValidAUC:  math.NaN(),
		}
		if b.valid != nil {
			info.ValidAUC = b.validScore.auc(b.vmargins)
		}
		info.Metric, info.ValidMetric = b.s.obj.metric, validMetric
		info.TrainMetric, _ = b.trainScore.metric(b.margins)
		info.Elapsed = time.Since(b.start)
		b.opts.OnRound(info)
	}
	return stop
}

// finish completes the model with trees, cut after bestRound with early
// stopping, validates it and returns the result.
func (b *booster) finish(trees []ir.Tree, bestRound int) (*result, error) {
	m := b.model
	if b.s.earlyStopping > 0 {
		trees = trees[:bestRound*b.k]
		m.Provenance.Params["best_round"] = strconv.Itoa(bestRound)
	}
	m.Trees = trees
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("gbdt: the trained model is invalid: %w", err)
	}
	return &result{model: m, margins: b.margins}, nil
}

// baseScoreForTest, when set by a test, replaces the base score.
var baseScoreForTest []float64

// gradBlock is the number of rows of a unit of work of the gradients.
const gradBlock = 4096

// choose draws k of the integers 0..n-1 without replacement, uniformly, and
// calls yield(i, v) for the i-th of them in increasing order (selection
// sampling: v is taken with probability (k - taken) / (n - v)).
func choose(rng *rand.Rand, n, k int, yield func(i, v int)) {
	taken := 0
	for v := 0; v < n && taken < k; v++ {
		if rng.IntN(n-v) < k-taken {
			yield(taken, v)
			taken++
		}
	}
}

// leafByBins returns the leaf that training row r reaches, from its bins.
func leafByBins(nodes []tnode, bm *binned, r int) int {
	i := 0
	for !nodes[i].leaf {
		nd := &nodes[i]
		b := bm.bin(nd.feature, r)
		var left bool
		switch {
		case b == bm.nb[nd.feature]:
			left = nd.nanLeft
		case nd.cat:
			left = nd.catLeft.has(b)
		default:
			left = b <= nd.bin
		}
		if left {
			i = nd.left
		} else {
			i = nd.right
		}
	}
	return i
}

// leafByValues returns the leaf that the row x reaches by the IR's tests.
func leafByValues(nodes []tnode, x []float64) int {
	i := 0
	for !nodes[i].leaf {
		nd := &nodes[i]
		v := x[nd.feature]
		var left bool
		switch {
		case v != v:
			left = nd.nanLeft
		case nd.cat:
			// As the IR's categorical test: the category trunc(v).
			left = v > -1 && v < 1<<31 && slices.Contains(nd.categories, int(v))
		case nd.lessEqual:
			left = v <= nd.threshold
		default:
			left = v < nd.threshold
		}
		if left {
			i = nd.left
		} else {
			i = nd.right
		}
	}
	return i
}
