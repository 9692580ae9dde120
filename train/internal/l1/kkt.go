package l1

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"
)

// The objectives and KKT violations of the two problems at a given point,
// computed from scratch; the solvers report the same quantities for the
// point they return. Weights c nil mean all 1.

// LogisticObjective returns the binary objective F(w, b) (see Logistic).
func LogisticObjective(X *Design, y []bool, c, w []float64, b, lambda float64) float64 {
	checkLogistic(X, y, c, w)
	u := logisticMargins(X, y, w, b)
	var loss float64
	for n, un := range u {
		if cn := weight(c, n); cn != 0 {
			loss += cn * softplus(un)
		}
	}
	return loss + lambda*l1norm(w)
}

// LogisticViolation returns the largest KKT violation of the binary
// problem at (w, b), as Result.Violation.
func LogisticViolation(X *Design, y []bool, c, w []float64, b, lambda float64) float64 {
	checkLogistic(X, y, c, w)
	g, gb := logisticGradient(X, y, c, w, b)
	return violation(g, gb, w, lambda)
}

// logisticGradient returns the gradient of the binary loss (F without the
// penalty) in w and in b.
func logisticGradient(X *Design, y []bool, c, w []float64, b float64) ([]float64, float64) {
	a := logisticMargins(X, y, w, b)
	for n, un := range a {
		// The derivative of softplus(-t·z) in z is -t·σ(-t·z).
		s := -1.0
		if !y[n] {
			s = 1
		}
		a[n] = weight(c, n) * s * sigmoid(un)
	}
	g := make([]float64, X.D)
	for j, col := range X.Cols {
		g[j] = floats.Dot(a, col)
	}
	return g, floats.Sum(a)
}

// logisticMargins returns u_n = -t_n(wᵀx_n + b) for every row.
func logisticMargins(X *Design, y []bool, w []float64, b float64) []float64 {
	u := make([]float64, X.N)
	for n := range u {
		u[n] = b
	}
	for j, col := range X.Cols {
		floats.AddScaled(u, w[j], col)
	}
	for n, right := range y {
		if right {
			u[n] = -u[n]
		}
	}
	return u
}

// SoftmaxObjective returns the multinomial objective F(W, b) (see Softmax).
func SoftmaxObjective(X *Design, y []int, k int, c, W, b []float64, lambda float64) float64 {
	checkSoftmax(X, y, k, c, W, b)
	var l logits
	l.set(X, y, k, W, b)
	var loss float64
	for n, yn := range y {
		if cn := weight(c, n); cn != 0 {
			loss += cn * l.loss(n, yn)
		}
	}
	return loss + lambda*l1norm(W)
}

// SoftmaxViolation returns the largest KKT violation of the multinomial
// problem at (W, b), as Result.Violation.
func SoftmaxViolation(X *Design, y []int, k int, c, W, b []float64, lambda float64) float64 {
	checkSoftmax(X, y, k, c, W, b)
	G, gb := softmaxGradient(X, y, k, c, W, b)
	var v float64
	for cl := range k {
		v = max(v, violation(G[cl*X.D:(cl+1)*X.D], gb[cl], W[cl*X.D:(cl+1)*X.D], lambda))
	}
	return v
}

// softmaxGradient returns the gradient of the multinomial loss (F without
// the penalty) in W (k×D) and in b.
func softmaxGradient(X *Design, y []int, k int, c, W, b []float64) ([]float64, []float64) {
	N, D := X.N, X.D
	var l logits
	l.set(X, y, k, W, b)
	a := make([]float64, k*N)
	l.coefficients(a, make([]float64, N), y, c)
	G, gb := make([]float64, k*D), make([]float64, k)
	for cl := range k {
		ac := a[cl*N : (cl+1)*N]
		for j, col := range X.Cols {
			G[cl*D+j] = floats.Dot(ac, col)
		}
		gb[cl] = floats.Sum(ac)
	}
	return G, gb
}

// sigmoid returns 1/(1 + exp(-x)) without overflow.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}

// weight returns c[n], or 1 when c is nil.
func weight(c []float64, n int) float64 {
	if c == nil {
		return 1
	}
	return c[n]
}

// checkWeights panics unless c holds n non-negative weights, and returns
// their sum.
func checkWeights(c []float64, n int) float64 {
	if len(c) != n {
		panic(fmt.Sprintf("l1: %d weights for %d rows", len(c), n))
	}
	var total float64
	for i, v := range c {
		if !(v >= 0) || math.IsInf(v, 1) {
			panic(fmt.Sprintf("l1: weight %d is %v, want a finite non-negative number", i, v))
		}
		total += v
	}
	return total
}
