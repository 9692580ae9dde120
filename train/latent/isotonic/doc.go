// Package isotonic is the forward and backward pass of the pruning-aware
// tree program of "Learning Binary Decision Trees by Argmin
// Differentiation" (Zantedeschi, Kusner and Niculae; arXiv v1, "latent
// trees by sparse relaxation", with one pruning preference η_t per node).
// Equation and proposition numbers are the paper's, Sections 3.1–3.2.
//
// # Problem
//
// A rooted tree of T nodes (Tree) carries a pruning preference η_t per node
// and, for each of n rows, a reward q_it per node. Problem (3) is
//
//	min_{z, a} ½ Σ_i ‖z_i - q_i‖² + ½ ‖η - a‖²
//	s.t. a_t ≤ a_p(t), z_it ≤ a_t, z_it ∈ [0, 1], a_t ∈ [0, 1],
//
// and by Proposition 1 its solution is a* of problem (4), equivalently (7),
//
//	a* = argmin_{a ∈ [0,1]^T, a_t ≤ a_p(t)} Σ_t g_t(a_t),
//	g_t(a) = ½(a - η_t)² + Σ_{i: q_it ≥ a} ½(a - q_it)²,
//
// with z*_it = clip(q_it, 0, a*_t). The term of a q_it equal to a and its
// derivative vanish, so g_t is convex and continuously differentiable:
// g'_t(a) = (a - η_t) + Σ_{i: q_it ≥ a} (a - q_it). The objective is
// strongly convex and a* unique.
//
// # Algorithm
//
// Solve runs Algorithm 1, the generalised pool-adjacent-violators algorithm
// of Yu and Xing (2016) for a rooted tree: every node starts as a group of
// its own at the minimiser of its one-dimensional problem (8); while some
// group's top t (its node nearest the root) has a_t > a_p(t), the violator
// with the largest a_t is taken, its group is merged into its parent's and
// the merged group's problem (8) is solved again. The groups are connected,
// and a_G is the value of every node of G.
//
// Problem (8), minimising Σ_{t∈G} g_t over [0, 1], is solved by
// Proposition 2: with the group's q in decreasing order q_(1) ≥ q_(2) ≥ …,
//
//	a(k) = (Σ_{t∈G} η_t + q_(1) + … + q_(k)) / (|G| + k),
//
// k* is the smallest k ≥ 0 with a(k) > q_(k+1) (q_(m+1) = -∞), and
// a_G = clip(a(k*), 0, 1), the clip being exact as the problem is convex.
// Only the q_it in (0, 1) need an order (an unclipped a_G lies in (0, 1), so
// its support holds every q_it ≥ 1 and no q_it ≤ 0): each node's are sorted
// once, and whether a_G clips is decided from the group's sums alone
// (a(k*) ≥ 1 iff f'_G(1) ≤ 0, a(k*) ≤ 0 iff f'_G(0) ≥ 0). Otherwise each
// member keeps a cursor into its sorted entries, and after a merge the
// cursors move from the two parts' supports to the new one, the largest
// entries coming in and the smallest going out by way of heaps over the
// members, to the set {q_it ≥ a(k*)}, which is Proposition 2's S(k*) (see
// group.go). The violators wait in a priority queue.
//
// # Conventions
//
//   - Violators: the largest a_t first, the smallest node index t among
//     equal values. Only a strict a_t > a_p(t) merges: a child group whose
//     value equals its parent's stays a group of its own.
//   - Support: S*_G = {(i, t): t ∈ G, q_it ≥ a_G} for 0 < a_G < 1, ties
//     q_it = a_G included (Proposition 2's k* is the smallest k), and
//     k* = |S*_G|. Equal q are kept in increasing row order.
//   - Clipping: a group whose a(k*) is ≤ 0 or ≥ 1, the bounds included, is
//     clipped: a_G = 0 or 1 exactly.
//   - Inputs: η must be finite and q must not be NaN (Solve panics); q_it
//     may be ±Inf, +Inf being q_root in problem (1), the minimum over no
//     ancestors; a group with a q_it = +Inf has a_G = 1.
//
// # Backward pass
//
// Backward and BackwardInto return the vector–Jacobian products of
// (η, q) ↦ (a*, z*) for upstream gradients gA on a* and gZ on z*, from the
// partition, the supports and the clipping that Solve keeps. With G the
// group of t (paper, Section 3.2, after Figure 1):
//
//	∂a_t/∂η_t'  = 1/(|G| + k*) if 0 < a_t < 1 and t' ∈ G, else 0,
//	∂a_t/∂q_it' = 1/(|G| + k*) if 0 < a_t < 1 and (i, t') ∈ S*_G, else 0,
//	∂z_it/∂q_it = 1 if 0 < q_it < a_t, else 0,
//	∂z_it/∂a_t  = 1 if q_it ≥ a_t (and a_t > 0), else 0,
//
// the last chained through a_t's own derivatives. So, with
// ga_t = gA_t + Σ_{i: q_it ≥ a_t} gZ_it and w_G = Σ_{t∈G} ga_t / (|G| + k*)
// for a group with 0 < a_G < 1 (w_G = 0 for a clipped one),
//
//	gEta_t = w_G(t),  gQ_it = w_G(t)·[(i, t) ∈ S*_G(t)] + gZ_it·[0 < q_it < a_t].
//
// The map is piecewise linear and these are its derivatives away from a
// set of measure zero; on that set the conventions are:
//
//   - q_it = a_t: z_it follows a_t (∂z_it/∂a_t = 1, ∂z_it/∂q_it = 0), as
//     (i, t) is in S*_G, the branch q_it ≥ a_t of the proof of
//     Proposition 1;
//   - q_it = 0 < a_t: ∂z_it/∂q_it = 0;
//   - a(k*) = 0 or 1 exactly: clipped, all derivatives of a_G 0;
//   - adjacent groups of equal values: separate, each with its own
//     derivatives; a merged group that would solve the problem as well
//     split: merged, one derivative for all.
//
// # Complexity
//
// With m_t the number of q_it in (0, 1) at node t and M = Σ_t m_t ≤ nT,
// Solve costs one pass over q, O(nT), the sorts, O(Σ_t m_t log m_t), and
// O(T + M) for the singletons. A merge making a group G costs
// O(|G| + X log |G| + P log T), X being the number of entries of G whose
// membership of the support changes (each moves at most twice) and P the
// number of queue entries it pushes (the merged group and the child groups
// of its lower part). In all O(nT + M log n + Σ_merges |G|·(1 + log T)
// + ΣX log T): at worst O(nT + T² log T + M·T log T) for at most T - 1
// merges of groups up to T nodes, and close to O(nT + M log n + T log T)
// when the groups stay small, as with trees' rewards, where most q_it are
// negative. Backward costs O(T + M + #{q_it ≥ 1}) and clearing gQ. Memory
// is O(nT): the kept q take n slots per node. Solve into a reused Solution
// and BackwardInto allocate nothing once sized.
//
// Everything is deterministic: no map is iterated, no goroutine started;
// the results depend on the inputs only. A Solution is not safe for
// concurrent use.
package isotonic
