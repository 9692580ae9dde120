package gbdt

import (
	"math"
	"slices"
)

// scorer returns the scorer of margins against the regression target y or
// the classes cls, with the row weights w (nil: all 1), for t's objective
// and evaluation metric.
func (t *target) scorer(y []float64, cls []int32, w []float64) *scorer {
	s := newScorer(t.obj, t.k, y, cls)
	s.w, s.os = w, t.os
	return s
}

// weight returns the weight of row r.
func (s *scorer) weight(r int) float64 {
	if s.w == nil {
		return 1
	}
	return s.w[r]
}

// otherLoss returns the loss of the margins for the objectives other than
// squarederror, logistic and softmax, and for those with weights: the
// weighted mean of the objective's default metric (mean squared error, not
// its root, for squarederror; log-loss for logistic and softmax).
func (s *scorer) otherLoss(margins []float64) float64 {
	switch s.obj {
	case SquaredError:
		return s.meanOf(margins, "mse")
	case Logistic, Softmax:
		return s.weightedLogLoss(margins)
	}
	return s.meanOf(margins, defaultMetric(s.obj, s.os.rho))
}

// metric returns the value of the evaluation metric on the margins, and
// the value that early stopping minimises: the same, its negative for auc,
// and for rmse its square (the mean squared error, which orders the rounds
// alike and, for squarederror without weights, is the loss).
func (s *scorer) metric(margins []float64) (value, stop float64) {
	switch name := s.os.metric; name {
	case "logloss", "mlogloss":
		v := s.loss(margins)
		return v, v
	case "auc":
		v := s.auc(margins)
		return v, -v
	case "error", "merror":
		v := s.errorRate(margins)
		return v, v
	case "rmse":
		mse := s.meanOf(margins, "mse")
		if s.obj == SquaredError && s.w == nil {
			mse = s.loss(margins)
		}
		return math.Sqrt(mse), mse
	default:
		v := s.meanOf(margins, name)
		return v, v
	}
}

// meanOf returns the weighted mean over the rows of the regression metric
// name ("mse" for the mean squared error) of the predictions of the
// margins (exp(m) for the objectives with the exp link, m otherwise).
func (s *scorer) meanOf(margins []float64, name string) float64 {
	expLink := hasExpLink(s.obj)
	sum, sumW := 0.0, 0.0
	rho := s.os.metricRho
	for r, y := range s.y {
		m := margins[r]
		p := m
		if expLink {
			p = math.Exp(m)
		}
		var l float64
		switch name {
		case "mse":
			l = (p - y) * (p - y)
		case "mae":
			l = math.Abs(p - y)
		case "mphe":
			d := s.os.slope
			z := (p - y) / d
			l = d * d * (math.Sqrt(1+z*z) - 1)
		case "quantile":
			if y >= p {
				l = s.os.alpha * (y - p)
			} else {
				l = (1 - s.os.alpha) * (p - y)
			}
		case "poisson-nloglik":
			p = math.Max(p, 1e-16)
			lg, _ := math.Lgamma(y + 1)
			l = lg + p - math.Log(p)*y
		case "gamma-nloglik":
			l = y/p + m
		default: // tweedie-nloglik@ρ
			l = -y*math.Exp((1-rho)*m)/(1-rho) + math.Exp((2-rho)*m)/(2-rho)
		}
		w := s.weight(r)
		sum += w * l
		sumW += w
	}
	return sum / sumW
}

// weightedLogLoss returns the weighted mean log-loss of the margins, the
// probabilities clipped to [1e-15, 1-1e-15] as metrics.LogLoss clips them.
func (s *scorer) weightedLogLoss(margins []float64) float64 {
	w := s.probabilities(margins)
	const eps = 1e-15
	sum, sumW := 0.0, 0.0
	for r, c := range s.truth {
		p := math.Min(math.Max(s.probs[r*w+c], eps), 1-eps)
		sum -= s.weight(r) * math.Log(p)
		sumW += s.weight(r)
	}
	return sum / sumW
}

// errorRate returns the weighted fraction of the rows whose predicted
// class is not theirs: probability > 0.5 for the second class of
// Logistic, the class of the largest probability (the first on a tie) for
// Softmax.
func (s *scorer) errorRate(margins []float64) float64 {
	w := s.probabilities(margins)
	wrong, sumW := 0.0, 0.0
	for r, c := range s.truth {
		row := s.probs[r*w : (r+1)*w]
		pred := 0
		if s.obj == Logistic {
			if row[1] > 0.5 {
				pred = 1
			}
		} else {
			for k, p := range row {
				if p > row[pred] {
					pred = k
				}
			}
		}
		if pred != c {
			wrong += s.weight(r)
		}
		sumW += s.weight(r)
	}
	return wrong / sumW
}

// weightedAUC returns the AUC of s.probs (rows of width w) with the rows
// weighted: a pair of a positive and a negative row counts w_i·w_j (half
// when their scores tie). For two classes it is the AUC of the second
// class, for more the mean one-vs-rest AUC over the classes that have
// positive and negative weight (NaN if none), as metrics.MacroAUC.
func (s *scorer) weightedAUC(w int) float64 {
	n := len(s.truth)
	idx := make([]int, n)
	classes := []int{1}
	if s.obj == Softmax {
		classes = make([]int, s.k)
		for c := range classes {
			classes[c] = c
		}
	}
	sum, count := 0.0, 0
	for _, c := range classes {
		for i := range idx {
			idx[i] = i
		}
		score := func(r int) float64 { return s.probs[r*w+c] }
		slices.SortFunc(idx, func(a, b int) int {
			switch {
			case score(a) < score(b):
				return -1
			case score(a) > score(b):
				return 1
			}
			return a - b
		})
		area, negBelow, posW, negW := 0.0, 0.0, 0.0, 0.0
		for i := 0; i < n; {
			j := i
			p, q := 0.0, 0.0 // positive and negative weight of the tie group
			for ; j < n && score(idx[j]) == score(idx[i]); j++ {
				if int(s.truth[idx[j]]) == c {
					p += s.weight(idx[j])
				} else {
					q += s.weight(idx[j])
				}
			}
			area += p * (negBelow + q/2)
			negBelow += q
			posW += p
			negW += q
			i = j
		}
		if posW > 0 && negW > 0 {
			sum += area / (posW * negW)
			count++
		}
	}
	if count == 0 {
		return math.NaN()
	}
	return sum / float64(count)
}
