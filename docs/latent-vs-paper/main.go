// Command latent-vs-paper checks train/latent against the claims of
// Zantedeschi, Kusner and Niculae, "Learning Binary Trees via Sparse
// Relaxation" (arXiv v1). Run it from the repository root, one subcommand
// at a time:
//
//	go run ./docs/latent-vs-paper solver  [flags]   # Figure 1
//	go run ./docs/latent-vs-paper tabular [flags]   # Table 1's claim
//	go run ./docs/latent-vs-paper glass   [flags]   # Table 2 (Glass)
//	go run ./docs/latent-vs-paper pruning [flags]   # Figure 3
//
// Each writes its CSV (and dot) files into -out (default "docs"; empty:
// none), prints a Markdown summary on stdout and its progress on stderr.
// `go run ./docs/latent-vs-paper SUBCOMMAND -h` lists the flags.
//
// # solver (Figure 1)
//
// Times Algorithm 1 (package train/latent/isotonic: Solve, and
// BackwardInto for the vector–Jacobian products) against a generic
// quadratic-programming solution of the same problem (3): ADMM in the form
// of OSQP, the solver the paper times through CVXPY, written here with
// conjugate gradients for its linear system (qp.go), to a residual of
// 1e-7. The instances are random rewards of random oblique splits of
// random rows (the root's capped at 1, so that the generic solver has a
// finite problem) and random preferences η ∈ [-0.5, 1.5), for depths
// -depths at batch size -n and batch sizes -batches at depth -depth. The
// table gives both times, their ratio and the largest difference between
// the two solutions' activities. latent-solver.csv.
//
// # tabular (Table 1's claim: a latent tree beats CART)
//
// For 537_houses (regression, mean squared error) and every binary data
// set of testdata/pmlb (error rate), -seeds seeds (default 4, as the
// paper): 20% of the rows are test rows (stratified by class for
// classification), 20% of the rest validation rows, the others training
// rows. A latent tree of depth -depth (default 6, the paper's largest) and
// a CART of the same depth are trained on the training rows; the latent
// tree uses the validation rows for its learning-rate schedule and early
// stopping, CART has no use for them. λ is -lambda, the learning rate
// -lr, the batch -batch. The table gives the mean ± standard deviation of
// the test metric of both, and which wins. latent-tabular.csv.
//
// # glass (Table 2)
//
// Self-supervised hierarchical clustering on Glass: RI and Na are
// regressed from the other features (squared error, linear read-out,
// linear splits, batch 8, as the paper), 60/20/20 train/validation/test
// split per seed. D ∈ -depths and λ ∈ -lambdas are chosen on the
// validation rows' dendrogram purity, as the paper tunes them on the
// validation set; the table gives the test rows' dendrogram purity,
// mean ± standard deviation over -seeds seeds, against the paper's 0.494 ±
// 0.025. latent-glass.csv.
//
// # pruning (Figure 3)
//
// Glass with depth 3 (the paper's Figure 3), λ ∈ -lambdas (0, 0.001, 0.1):
// how many of the 15 nodes stay active, how many no row reaches, the share
// of rows through each node, the dendrogram purity; and the tree of each
// as Graphviz dot (treegen inspect --dot), latent-pruning-λ.dot.
//
// All models of tabular, glass and pruning are also compiled with the
// ifelse backend (internal/gencheck, float64) and checked to equal the
// interpreter bit for bit on every test row, and the interpreter is
// checked to equal the trainer (Tree.PredictMargin) to 1e-12 on every test
// row. The summary counts the models and rows so checked.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/treegen/treegen/internal/atomicfile"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: latent-vs-paper solver|tabular|glass|pruning [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "solver":
		err = solverCmd(os.Args[2:])
	case "tabular":
		err = tabularCmd(os.Args[2:])
	case "glass":
		err = glassCmd(os.Args[2:])
	case "pruning":
		err = pruningCmd(os.Args[2:])
	default:
		fmt.Fprintf(os.Stderr, "latent-vs-paper: unknown subcommand %q: want solver, tabular, glass or pruning\n", os.Args[1])
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "latent-vs-paper:", err)
		os.Exit(1)
	}
}

// ints parses a comma-separated list of integers, exiting on an error.
func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			fmt.Fprintf(os.Stderr, "latent-vs-paper: %q: %v\n", s, err)
			os.Exit(2)
		}
		out = append(out, v)
	}
	return out
}

// floats parses a comma-separated list of numbers, exiting on an error.
func floats(s string) []float64 {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			fmt.Fprintf(os.Stderr, "latent-vs-paper: %q: %v\n", s, err)
			os.Exit(2)
		}
		out = append(out, v)
	}
	return out
}

// writeFile writes s to path atomically.
func writeFile(path, s string) error {
	return atomicfile.WriteFile(path, []byte(s), 0o644)
}
