// Package metrics computes the evaluation measures treegen reports:
// accuracy, area under the ROC curve, log-loss and mean squared error, and
// the softmax that turns a multiclass model's margins into the
// probabilities they rank.
package metrics

import (
	"math"
	"slices"
	"sort"
)

// Accuracy returns the fraction of rows whose predicted class equals the
// true class.
func Accuracy(truth, pred []int) float64 {
	if len(truth) == 0 {
		return math.NaN()
	}
	ok := 0
	for i := range truth {
		if truth[i] == pred[i] {
			ok++
		}
	}
	return float64(ok) / float64(len(truth))
}

// AUC returns the area under the ROC curve of scores for the positive rows
// (positive[i] true): the probability that a random positive scores above a
// random negative, ties counting one half. It is NaN when either class is
// absent. NaN scores rank lowest.
func AUC(positive []bool, scores []float64) float64 {
	n := len(scores)
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) float64 {
		if math.IsNaN(scores[i]) {
			return math.Inf(-1)
		}
		return scores[i]
	}
	sort.SliceStable(idx, func(a, b int) bool { return key(idx[a]) < key(idx[b]) })
	// Sum of the (mid-)ranks of the positives: Mann-Whitney U.
	var pos, neg, rankSum float64
	for i := 0; i < n; {
		j := i
		for j < n && key(idx[j]) == key(idx[i]) {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1..j
		for k := i; k < j; k++ {
			if positive[idx[k]] {
				pos++
				rankSum += mid
			} else {
				neg++
			}
		}
		i = j
	}
	if pos == 0 || neg == 0 {
		return math.NaN()
	}
	return (rankSum - pos*(pos+1)/2) / (pos * neg)
}

// MacroAUC returns the mean over classes of the one-vs-rest AUC, where
// probs[i*k+c] is row i's score for class c; classes absent from truth are
// skipped. For k == 2 it is the AUC of class 1.
func MacroAUC(truth []int, probs []float64, k int) float64 {
	n := len(truth)
	pos := make([]bool, n)
	scores := make([]float64, n)
	if k == 2 {
		for i := range truth {
			pos[i] = truth[i] == 1
			scores[i] = probs[i*k+1]
		}
		return AUC(pos, scores)
	}
	sum, used := 0.0, 0
	for c := 0; c < k; c++ {
		for i := range truth {
			pos[i] = truth[i] == c
			scores[i] = probs[i*k+c]
		}
		if a := AUC(pos, scores); !math.IsNaN(a) {
			sum += a
			used++
		}
	}
	if used == 0 {
		return math.NaN()
	}
	return sum / float64(used)
}

// LogLoss returns the mean negative log-likelihood of the true classes,
// probs[i*k+c] being row i's probability of class c; probabilities are
// clipped to [1e-15, 1-1e-15] as scikit-learn does.
func LogLoss(truth []int, probs []float64, k int) float64 {
	if len(truth) == 0 {
		return math.NaN()
	}
	const eps = 1e-15
	s := 0.0
	for i, c := range truth {
		p := probs[i*k+c]
		p = math.Min(math.Max(p, eps), 1-eps)
		s -= math.Log(p)
	}
	return s / float64(len(truth))
}

// MSE returns the mean squared error of pred against truth.
func MSE(truth, pred []float64) float64 {
	if len(truth) == 0 {
		return math.NaN()
	}
	s := 0.0
	for i := range truth {
		d := pred[i] - truth[i]
		s += d * d
	}
	return s / float64(len(truth))
}

// Softmax writes into p the softmax of the margins m (p and m may be the
// same slice): p[c] = exp(m[c]-max(m)) / Σ exp(m[j]-max(m)), the sum added
// in order of c.
func Softmax(p, m []float64) {
	mx := slices.Max(m)
	s := 0.0
	for c, v := range m {
		p[c] = math.Exp(v - mx)
		s += p[c]
	}
	for c := range p[:len(m)] {
		p[c] /= s
	}
}
