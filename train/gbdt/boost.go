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

// boost is Train.
func boost(train, valid *data.Dataset, opts Options) (*result, error) {
	start := time.Now()
	s, err := opts.settings(valid != nil)
	if err != nil {
		return nil, err
	}
	if err := checkData(train, valid); err != nil {
		return nil, err
	}
	tgt, err := newTarget(train, s.objective)
	if err != nil {
		return nil, err
	}
	var validCls []int32
	if valid != nil && tgt.labels != nil {
		if validCls, err = tgt.classesOf(valid); err != nil {
			return nil, err
		}
	}

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
			Data:     train.Fingerprint(),
		},
	}
	trainset.Describe(m, tgt.k, tgt.labels)
	if baseScoreForTest != nil {
		m.BaseScore = slices.Clone(baseScoreForTest)
	}
	if valid != nil {
		for k, v := range valid.Fingerprint() {
			m.Provenance.Data["valid_"+k] = v
		}
	}

	n, p, K := train.Rows, train.Cols, tgt.k
	bm := newBinned(train, s.maxBins, s.threads)
	// One tree per class and round: the trees of a round grow in parallel,
	// each on one goroutine with a grower of its own. One tree per round:
	// its growth is spread over the goroutines.
	treeThreads := 1
	growers := make(chan *grower, max(1, min(s.threads, K)))
	if K > 1 && s.threads > 1 {
		treeThreads = min(s.threads, K)
		for range treeThreads {
			growers <- newGrower(&s, bm, 1, treeThreads)
		}
	} else {
		growers <- newGrower(&s, bm, s.threads, 1)
	}
	// Margins class by class: margins[k*n+r] is margin k of row r.
	margins := make([]float64, n*K)
	for k, b := range m.BaseScore {
		for r := range n {
			margins[k*n+r] = b
		}
	}
	var vmargins []float64
	nv := 0
	if valid != nil {
		nv = valid.Rows
		vmargins = make([]float64, nv*K)
		for k, b := range m.BaseScore {
			for r := range nv {
				vmargins[k*nv+r] = b
			}
		}
	}
	grads := make([][]gradPair, K)
	for k := range grads {
		grads[k] = make([]gradPair, n)
	}
	var trainScore, validScore *scorer
	if opts.OnRound != nil {
		trainScore = newScorer(s.objective, K, train.Y, tgt.cls)
	}
	if valid != nil {
		validScore = newScorer(s.objective, K, valid.Y, validCls)
	}

	rng := rand.New(rand.NewPCG(s.seed, s.seed^0x9e3779b97f4a7c15))
	sample := make([]int32, n)
	for r := range sample {
		sample[r] = int32(r)
	}
	sampled := n
	var inSample []bool
	if s.subsample < 1 {
		sampled = max(1, int(math.Round(s.subsample*float64(n))))
		sample = sample[:sampled]
		inSample = make([]bool, n)
	}
	// features[k] are the features of the tree of class k in a round.
	features := make([][]int, K)
	nfeat := p
	if s.colsample < 1 {
		nfeat = max(1, int(math.Round(s.colsample*float64(p))))
	}
	for k := range features {
		features[k] = make([]int, nfeat)
		for f := range nfeat {
			features[k][f] = f
		}
	}

	// growTree grows the tree of class k of a round with g, moves the
	// margins by it and returns it.
	growTree := func(g *grower, k int) (ir.Tree, error) {
		copy(g.rows, sample)
		nodes, err := g.grow(grads[k], sampled, features[k])
		if err != nil {
			return ir.Tree{}, err
		}
		mk := margins[k*n : (k+1)*n]
		for i := range nodes {
			if nd := &nodes[i]; nd.leaf {
				for _, r := range g.rows[nd.lo:nd.hi] {
					mk[r] += nd.value
				}
			}
		}
		if inSample != nil {
			for r := range n {
				if !inSample[r] {
					mk[r] += nodes[leafByBins(nodes, bm, r)].value
				}
			}
		}
		if valid != nil {
			vk := vmargins[k*nv : (k+1)*nv]
			for r := range nv {
				vk[r] += nodes[leafByValues(nodes, valid.Row(r))].value
			}
		}
		return toIR(nodes, k), nil
	}

	gradThreads := s.threads
	if n*K < 1<<12 {
		gradThreads = 1
	}
	bestLoss, bestRound := math.Inf(1), 0
	var trees []ir.Tree
	roundTrees := make([]ir.Tree, K)
	errs := make([]error, K)
	for round := 1; round <= s.rounds; round++ {
		parallel.For((n+gradBlock-1)/gradBlock, gradThreads, func(b int) {
			tgt.gradients(margins, grads, b*gradBlock, min((b+1)*gradBlock, n))
		})
		// The random draws come first, in a fixed order.
		if inSample != nil {
			clear(inSample)
			choose(rng, n, sampled, func(i, r int) {
				sample[i] = int32(r)
				inSample[r] = true
			})
		}
		if nfeat < p {
			for k := range K {
				choose(rng, p, nfeat, func(i, f int) { features[k][i] = f })
			}
		}
		parallel.For(K, treeThreads, func(k int) {
			g := <-growers
			roundTrees[k], errs[k] = growTree(g, k)
			growers <- g
		})
		for k := range K {
			if errs[k] != nil {
				return nil, errs[k]
			}
		}
		trees = append(trees, roundTrees...)

		validLoss := math.NaN()
		if valid != nil && (s.earlyStopping > 0 || opts.OnRound != nil) {
			validLoss = validScore.loss(vmargins)
		}
		if opts.OnRound != nil {
			info := RoundInfo{
				Round:     round,
				Rounds:    s.rounds,
				TrainLoss: trainScore.loss(margins),
				ValidLoss: validLoss,
				ValidAUC:  math.NaN(),
			}
			if valid != nil {
				info.ValidAUC = validScore.auc(vmargins)
			}
			info.Elapsed = time.Since(start)
			opts.OnRound(info)
		}
		if s.earlyStopping > 0 {
			if validLoss < bestLoss {
				bestLoss, bestRound = validLoss, round
			} else if round-bestRound >= s.earlyStopping {
				break
			}
		}
	}
	if s.earlyStopping > 0 {
		trees = trees[:bestRound*K]
		m.Provenance.Params["best_round"] = strconv.Itoa(bestRound)
	}
	m.Trees = trees
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("gbdt: the trained model is invalid: %w", err)
	}
	return &result{model: m, margins: margins}, nil
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
		if b <= nd.bin || (nd.nanLeft && b == bm.nb[nd.feature]) {
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
