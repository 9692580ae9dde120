package isotonic

// Objective returns the objective of problem (4) at a,
//
//	Σ_t ½(a_t - η_t)² + Σ_{(i,t): q_it ≥ a_t} ½(a_t - q_it)²,
//
// for n rows of q (row-major n×T) and eta (len T). It does not check the
// constraints (0 ≤ a_t ≤ 1, a_t ≤ a_Parent[t]); the tree only sets T. It
// differs from the objective of problem (3) at (a, clip(q, 0, a)) by
// Σ_{q_it<0} ½q_it², a constant.
func Objective(tr Tree, eta, q []float64, n int, a []float64) float64 {
	T := len(tr.Parent)
	var f float64
	for t := range T {
		d := a[t] - eta[t]
		f += 0.5 * d * d
	}
	for i := range n {
		for t, v := range q[i*T : (i+1)*T] {
			if v >= a[t] {
				d := a[t] - v
				f += 0.5 * d * d
			}
		}
	}
	return f
}
