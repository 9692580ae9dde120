// Package l1 holds the L1-regularised convex solvers of the tree alternating
// optimisation (TAO) trainer of softmax trees: the weighted binary logistic
// regression of a decision node's surrogate problem and the weighted
// multinomial logistic regression of a leaf's softmax.
//
// # Problems
//
// Both problems sum over the rows (they are not means) with per-row
// non-negative weights c_n, penalise the weights by λ times their L1 norm
// and leave the bias unpenalised:
//
//	binary:      F(w, b) = Σ_n c_n·log(1 + exp(-t_n(wᵀx_n + b))) + λ‖w‖₁
//	multinomial: F(W, b) = Σ_n c_n·[logsumexp_c(z_nc) - z_{n,y_n}] + λ Σ_{c,j} |W_cj|
//
// where t_n = +1 for a row sent right (y[n] true) and -1 otherwise, and
// z_nc = W_cᵀx_n + b_c. Because the loss is a sum, λ is on the scale of
// one row: λ = 0.01 leaves a problem of thousands of rows nearly
// unregularised. Rows of weight 0 contribute nothing. The data may be
// separable; every loss is evaluated in a stable form (softplus as
// max(u, 0) + log1p(exp(-|u|)), logsumexp after a shift), so no result
// overflows or becomes NaN, and the iteration caps bound the work.
//
// # Method
//
// The solvers are proximal Newton methods with coordinate descent, as
// LIBLINEAR's newGLMNET and glmnet. An outer iteration linearises the loss
// at the current point: per-row gradient coefficients a_n and curvatures h_n
// give the gradient g = Xᵀa (and Σa for the bias) and the Hessian
// H = Xᵀdiag(h)X, with the bias as a column of ones, plus a ridge of
// 1e-12·(1 + Σh) on its diagonal. Sweeps of coordinate descent
// (at most Options.InnerSweeps) minimise the quadratic model
//
//	q(d) = gᵀd + g_b·d_b + ½ dᵀHd + λ‖w + d‖₁
//
// by soft-thresholded Newton steps on one coordinate at a time, the bias
// unpenalised, until a sweep decreases q by less than 1e-3 of the decrease
// so far. The sweeps either keep r_n = x_nᵀd + d_b up to date, a scan of
// the rows per coordinate, or run on the Gram matrix H of the active
// features, formed once per model, whichever costs less for the number of
// sweeps; both give the same step. Coordinates with w_j = 0 and |g_j| < λ,
// which meet their optimality condition, sit out the sweeps of that
// iteration (newGLMNET's shrinking). A backtracking Armijo line search on
// the true objective (σ = 0.01, the step halved at most 30 times) then
// moves along d, from the full step or, if that would move a logit by more
// than 256, the step that moves none by more (far from the optimum the
// curvature vanishes and a Newton step can be absurdly long). Each row's
// change of loss is computed as log1p(σ(u)·expm1(Δ)), not as a difference
// of losses, so that the test stays reliable for the small steps near the
// optimum. A step that decreases nothing ends the solve.
//
// The multinomial solver is block coordinate descent over the classes: one
// proximal Newton step on (W_c, b_c) with the other classes fixed, with
// a_n = c_n(p_nc - [y_n = c]) and h_n = c_n·p_nc(1 - p_nc), and the line
// search on the full multinomial objective; one outer iteration is a pass
// over all classes, which skips a class already within the tolerance. The
// solver keeps each row's shifted logits, their
// exponentials and the sum of those of the classes other than the row's
// label, so that p_nc and 1 - p_nc come as ratios of sums without
// cancellation and without a transcendental function, and a class's line
// search costs O(N), not O(N·k). After each pass with λ > 0 it shifts each
// feature's weights W_·j by their median, which leaves the loss unchanged
// and minimises their penalty, as glmnet does: block coordinate descent
// alone moves along that flat direction only by a zigzag of small steps.
//
// Transcendental functions are evaluated per row once per step (the
// binary σ; the multinomial exponentials of the updated logits, most of
// them reused from the line search) and per trial step of the line search,
// never in the coordinate descent, whose scans of the rows run down the
// contiguous columns of the column-major Design.
//
// # Stopping
//
// The optimality measure is the largest violation of the KKT conditions:
// |g_j + λ·sign(w_j)| for a weight w_j ≠ 0, max(|g_j| - λ, 0) for a zero
// weight, |g_b| for a bias, g the gradient of the loss. A solve stops when
// it is at most Options.Tol·Σ_n c_n, after Options.MaxIter outer
// iterations, or when the line search finds no decrease.
//
// # Conventions
//
// The code is sequential and deterministic: on one platform the same
// inputs give the same bits (gonum's dot products and sums are assembly on
// some architectures and plain Go on others). A Workspace keeps the buffers of a solve for the next; it is not
// safe for concurrent use, but separate Workspaces are independent.
// Mismatched argument lengths, labels out of range and negative weights
// are programming errors of the (internal) callers: the solvers panic with
// a message naming the argument.
package l1
