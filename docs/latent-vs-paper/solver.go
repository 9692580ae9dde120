package main

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/treegen/treegen/train/latent/isotonic"
)

// instance is a random tree program: the rewards q of n rows (Eq. 1 over
// random oblique splits of random rows, the root's capped at 1, so that
// a generic solver can take it) and preferences η.
type instance struct {
	tree   isotonic.Tree
	n      int
	q, eta []float64
}

func newInstance(depth, n int, seed uint64) instance {
	rng := rand.New(rand.NewPCG(seed, uint64(depth)<<32|uint64(n)))
	tree := isotonic.Heap(depth)
	T := tree.Len()
	const p = 8
	w := make([]float64, T*p)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	q := make([]float64, n*T)
	x := make([]float64, p)
	for i := range n {
		for j := range x {
			x[j] = rng.NormFloat64()
		}
		qi := q[i*T : (i+1)*T]
		qi[0] = 1
		for t := 0; 2*t+2 < T; t++ {
			s := rng.NormFloat64() * 0.1
			for j, v := range x {
				s += w[t*p+j] * v / math.Sqrt(p)
			}
			qi[2*t+1] = min(qi[t], -s)
			qi[2*t+2] = min(qi[t], s)
		}
	}
	eta := make([]float64, T)
	for t := range eta {
		eta[t] = rng.Float64()*2 - 0.5
	}
	return instance{tree: tree, n: n, q: q, eta: eta}
}

// solverRow is one line of latent-solver.csv.
type solverRow struct {
	depth, n, nodes         int
	forwardNs, backwardNs   float64
	genericNs               float64
	genericIters, genericCG int
	maxDiff                 float64
}

// timeIt runs f until budget has passed (at least once) and returns the
// mean nanoseconds per call.
func timeIt(budget time.Duration, f func()) float64 {
	f() // warm up: sizes the scratch
	calls := 0
	start := time.Now()
	for calls == 0 || time.Since(start) < budget {
		f()
		calls++
	}
	return float64(time.Since(start).Nanoseconds()) / float64(calls)
}

func solverCmd(args []string) error {
	fs := flag.NewFlagSet("solver", flag.ExitOnError)
	out := fs.String("out", "docs", "directory for latent-solver.csv (empty: none)")
	depths := fs.String("depths", "2,4,6,8", "depths D at the fixed batch size -n")
	batches := fs.String("batches", "8,32,128,512", "batch sizes n at the fixed depth -depth")
	n0 := fs.Int("n", 64, "batch size of the depth sweep")
	d0 := fs.Int("depth", 4, "depth of the batch-size sweep")
	budget := fs.Duration("time", 200*time.Millisecond, "time spent timing each of Algorithm 1's passes")
	maxIter := fs.Int("max-iter", 20000, "ADMM iterations at most")
	fs.Parse(args)
	var sizes [][2]int
	for _, d := range ints(*depths) {
		sizes = append(sizes, [2]int{d, *n0})
	}
	for _, n := range ints(*batches) {
		sizes = append(sizes, [2]int{*d0, n})
	}
	var rows []solverRow
	for _, sz := range sizes {
		in := newInstance(sz[0], sz[1], 1)
		T := in.tree.Len()
		var sol isotonic.Solution
		r := solverRow{depth: sz[0], n: sz[1], nodes: T}
		r.forwardNs = timeIt(*budget, func() { sol.Solve(in.tree, in.eta, in.q, in.n) })
		gEta, gQ := make([]float64, T), make([]float64, in.n*T)
		gZ := make([]float64, in.n*T)
		rng := rand.New(rand.NewPCG(2, 3))
		for i := range gZ {
			gZ[i] = rng.NormFloat64()
		}
		gA := make([]float64, T)
		r.backwardNs = timeIt(*budget, func() { sol.BackwardInto(gEta, gQ, gA, gZ) })
		qp := newADMM(in.tree.Parent, in.n)
		var a []float64
		start := time.Now()
		a, _ = qp.solve(in.q, in.eta, *maxIter)
		r.genericNs = float64(time.Since(start).Nanoseconds())
		r.genericIters, r.genericCG = qp.iters, qp.cgIter
		sol.Solve(in.tree, in.eta, in.q, in.n)
		for t := range a {
			r.maxDiff = max(r.maxDiff, math.Abs(a[t]-sol.A[t]))
		}
		fmt.Fprintf(os.Stderr, "depth %d, n %d: forward %.0f ns, backward %.0f ns, generic %.3g ms (%d ADMM iterations), max |Δa| %.1e\n",
			r.depth, r.n, r.forwardNs, r.backwardNs, r.genericNs/1e6, r.genericIters, r.maxDiff)
		rows = append(rows, r)
	}
	fmt.Println("| D | n | nodes | Algorithm 1 forward | backward | generic QP (ADMM) | ratio | ADMM iterations | max abs(a difference) |")
	fmt.Println("|---|---|---|---|---|---|---|---|---|")
	for _, r := range rows {
		fmt.Printf("| %d | %d | %d | %s | %s | %s | %.0f× | %d | %.1e |\n", r.depth, r.n, r.nodes,
			dur(r.forwardNs), dur(r.backwardNs), dur(r.genericNs), r.genericNs/r.forwardNs, r.genericIters, r.maxDiff)
	}
	if *out == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("depth,batch,nodes,forward_ns,backward_ns,generic_ns,generic_iterations,generic_cg_iterations,max_abs_diff_a\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%d,%d,%d,%.0f,%.0f,%.0f,%d,%d,%.3g\n", r.depth, r.n, r.nodes, r.forwardNs, r.backwardNs, r.genericNs, r.genericIters, r.genericCG, r.maxDiff)
	}
	return writeFile(filepath.Join(*out, "latent-solver.csv"), b.String())
}

// dur formats nanoseconds.
func dur(ns float64) string {
	return time.Duration(ns).Round(time.Duration(math.Max(1, math.Pow(10, math.Floor(math.Log10(ns))-2)))).String()
}
