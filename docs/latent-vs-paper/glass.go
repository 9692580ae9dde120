package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/metrics"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/latent"
)

// glassSplit returns seed's 60/20/20 training, validation and test rows
// of Glass, stratified by class.
func glassSplit(d *data.Dataset, class []int, seed uint64) (train, valid, test *data.Dataset) {
	rest, te := data.StratifiedSplit(class, 0.2, seed)
	sub := make([]int, len(rest))
	for i, r := range rest {
		sub[i] = class[r]
	}
	a, b := data.StratifiedSplit(sub, 0.25, seed)
	return d.Subset(pick(rest, a)), d.Subset(pick(rest, b)), d.Subset(te)
}

// glassOptions are the paper's settings for Glass: RI and Na regressed,
// linear splits and read-out, batch 8, learning rate lr (the paper's:
// 0.001).
func glassOptions(depth int, lambda float64, seed uint64, epochs int, lr float64) latent.Options {
	o := latent.DefaultOptions(latent.SquaredError)
	o.LearningRate = lr
	o.Regress = []string{"RI", "Na"}
	o.Depth, o.Lambda, o.Seed, o.BatchSize, o.Epochs = depth, lambda, seed, 8, epochs
	return o
}

// paths returns every row's path through the latent tree of m: the nodes
// with a positive traversal z.
func paths(m *ir.Model, rows [][]float64) ([][]int, error) {
	p, err := runtime.New[float64](m)
	if err != nil {
		return nil, err
	}
	z := make([]float64, m.LatentSize())
	out := make([][]int, len(rows))
	for r, x := range rows {
		if err := p.PredictLatent(x, z); err != nil {
			return nil, err
		}
		out[r] = []int{0}
		for t := 1; t < len(z); t++ {
			if z[t] > 0 {
				out[r] = append(out[r], t)
			}
		}
	}
	return out, nil
}

// purity returns the dendrogram purity of the latent tree t (exported as
// m) over the labelled rows of d.
func purity(t *latent.Tree, m *ir.Model, d *data.Dataset) (float64, error) {
	ps, err := paths(m, inputRows(t, d))
	if err != nil {
		return 0, err
	}
	_, class, err := data.Classes(d.Y)
	if err != nil {
		return 0, err
	}
	return metrics.DendrogramPurity(ps, class), nil
}

// glassRow is one line of latent-glass.csv.
type glassRow struct {
	seed               uint64
	depth              int
	lambda             float64
	validDP, testDP    float64
	allDP              float64 // over every row of the data set
	active, modelNodes int
	chosen             bool
}

func glassCmd(args []string) error {
	fs := flag.NewFlagSet("glass", flag.ExitOnError)
	out := fs.String("out", "docs", "directory for latent-glass.csv (empty: none)")
	dir := fs.String("data", "testdata/pmlb", "directory of glass.tsv.gz")
	seeds := fs.Int("seeds", 4, "seeds 1..N (the paper: four runs)")
	depths := fs.String("depths", "2,3,4,5,6", "depths to choose from (the paper: 2 to 6)")
	lambdas := fs.String("lambdas", "0.001,0.01,0.1,1", "λ to choose from (the paper: log-uniform in [1e-3, 1e3])")
	epochs := fs.Int("epochs", 200, "most epochs")
	lr := fs.Float64("lr", 0.001, "initial learning rate (the paper: 0.001)")
	check := fs.Bool("check", true, "check the generated code of every chosen model")
	fs.Parse(args)
	d, class, _, err := repro.Read(*dir, "glass")
	if err != nil {
		return err
	}
	var rows []glassRow
	var ck checks
	var best, bestAll []float64
	for seed := uint64(1); seed <= uint64(*seeds); seed++ {
		train, valid, test := glassSplit(d, class, seed)
		var pick *glassRow
		var pickTree *latent.Tree
		var pickModel *ir.Model
		first := len(rows)
		for _, depth := range ints(*depths) {
			for _, lambda := range floats(*lambdas) {
				t, err := latent.Fit(train, valid, glassOptions(depth, lambda, seed, *epochs, *lr))
				if err != nil {
					return err
				}
				m, err := t.Model()
				if err != nil {
					return err
				}
				r := glassRow{seed: seed, depth: depth, lambda: lambda, active: t.Active(), modelNodes: len(m.Trees[0].Nodes)}
				if r.validDP, err = purity(t, m, valid); err != nil {
					return err
				}
				if r.testDP, err = purity(t, m, test); err != nil {
					return err
				}
				if r.allDP, err = purity(t, m, d); err != nil {
					return err
				}
				rows = append(rows, r)
				if pick == nil || r.validDP > pick.validDP {
					pick, pickTree, pickModel = &rows[len(rows)-1], t, m
				}
			}
		}
		chosen := *pick
		for i := first; i < len(rows); i++ {
			rows[i].chosen = rows[i].depth == chosen.depth && rows[i].lambda == chosen.lambda
		}
		best, bestAll = append(best, chosen.testDP), append(bestAll, chosen.allDP)
		fmt.Fprintf(os.Stderr, "seed %d: chose depth %d, λ %g (validation purity %.4f): test purity %.4f, %d of %d nodes active\n",
			seed, chosen.depth, chosen.lambda, chosen.validDP, chosen.testDP, chosen.active, 1<<(chosen.depth+1)-1)
		if *check {
			if err := ck.add(fmt.Sprintf("glass seed %d", seed), pickTree, pickModel, test); err != nil {
				return err
			}
		}
	}
	if err := ck.run(); err != nil {
		return err
	}
	// The purity of a hierarchy of one cluster, for scale.
	flat := make([][]int, d.Rows)
	for i := range flat {
		flat[i] = []int{0}
	}
	mean, sd := stat.MeanStdDev(best, nil)
	fmt.Printf("Glass (PMLB: %d rows, %d classes), RI and Na regressed; depth and λ chosen on the validation rows' dendrogram purity; test rows' purity over %d seeds.\n\n", d.Rows, len(d.Labels)+countClasses(class), *seeds)
	fmt.Println("| | dendrogram purity |")
	fmt.Println("|---|---|")
	fmt.Printf("| latent tree (treegen), test rows | %.3f ± %.3f |\n", mean, sd)
	fmt.Printf("| latent tree (treegen), all %d rows | %.3f ± %.3f |\n", d.Rows, stat.Mean(bestAll, nil), stat.StdDev(bestAll, nil))
	fmt.Printf("| paper: latent tree | 0.494 ± 0.025 |\n| paper: HKMeans | 0.508 ± 0.008 |\n| paper: BIRCH | 0.429 ± 0.013 |\n| paper: gHHC | 0.463 ± 0.002 |\n")
	fmt.Printf("| one cluster (all rows at the root) | %.3f |\n\n", metrics.DendrogramPurity(flat, class))
	fmt.Println("Per seed, the chosen model:")
	fmt.Println()
	fmt.Println("| seed | depth | λ | validation purity | test purity | purity over all rows | active nodes |")
	fmt.Println("|---|---|---|---|---|---|---|")
	for _, r := range rows {
		if r.chosen {
			fmt.Printf("| %d | %d | %g | %.4f | %.4f | %.4f | %d of %d |\n", r.seed, r.depth, r.lambda, r.validDP, r.testDP, r.allDP, r.active, 1<<(r.depth+1)-1)
		}
	}
	fmt.Println()
	fmt.Println(ck.summary())
	if *out == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("seed,depth,lambda,valid_purity,test_purity,all_purity,active_nodes,model_nodes,chosen\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%d,%d,%g,%.6f,%.6f,%.6f,%d,%d,%v\n", r.seed, r.depth, r.lambda, r.validDP, r.testDP, r.allDP, r.active, r.modelNodes, r.chosen)
	}
	return writeFile(filepath.Join(*out, "latent-glass.csv"), b.String())
}

// countClasses returns the number of distinct classes (0 when the data set
// has text labels, which len(d.Labels) counts).
func countClasses(class []int) int {
	seen := map[int]bool{}
	for _, c := range class {
		seen[c] = true
	}
	return len(seen)
}

func pruningCmd(args []string) error {
	fs := flag.NewFlagSet("pruning", flag.ExitOnError)
	out := fs.String("out", "docs", "directory for latent-pruning.csv and the dot files (empty: none)")
	dir := fs.String("data", "testdata/pmlb", "directory of glass.tsv.gz")
	lambdas := fs.String("lambdas", "0,0.001,0.1", "λ values (the paper's Figure 3)")
	depth := fs.Int("depth", 3, "depth (the paper's Figure 3: 3)")
	seeds := fs.Int("seeds", 4, "seeds 1..N")
	epochs := fs.Int("epochs", 200, "most epochs")
	lr := fs.Float64("lr", 0.001, "initial learning rate (the paper: 0.001)")
	check := fs.Bool("check", true, "check the generated code of every model")
	fs.Parse(args)
	d, class, _, err := repro.Read(*dir, "glass")
	if err != nil {
		return err
	}
	var ck checks
	var b strings.Builder
	b.WriteString("lambda,seed,active_nodes,empty_nodes,model_nodes,test_purity,all_purity,rows_per_node_percent\n")
	T := 1<<(*depth+1) - 1
	fmt.Printf("Glass, depth %d (%d nodes), RI and Na regressed; mean over %d seeds; the node shares are seed 1's, over all %d rows, in the model's node order.\n\n", *depth, T, *seeds, d.Rows)
	fmt.Println("| λ | active nodes | empty nodes (no row reaches) | nodes in the model | test purity | seed 1: % of rows through each node |")
	fmt.Println("|---|---|---|---|---|---|")
	for _, lambda := range floats(*lambdas) {
		var act, empty, nodes, dps []float64
		var shares string
		for seed := uint64(1); seed <= uint64(*seeds); seed++ {
			train, valid, test := glassSplit(d, class, seed)
			o := glassOptions(*depth, lambda, seed, *epochs, *lr)
			o.Name = fmt.Sprintf("glass, lambda %g, seed %d", lambda, seed)
			t, err := latent.Fit(train, valid, o)
			if err != nil {
				return err
			}
			m, err := t.Model()
			if err != nil {
				return err
			}
			ps, err := paths(m, inputRows(t, d))
			if err != nil {
				return err
			}
			through := make([]int, len(m.Trees[0].Nodes))
			for _, p := range ps {
				for _, n := range p {
					through[n]++
				}
			}
			reached := 0
			var pct []string
			for _, c := range through {
				if c > 0 {
					reached++
				}
				pct = append(pct, strconv.Itoa(int(math.Round(100*float64(c)/float64(d.Rows)))))
			}
			dp, err := purity(t, m, test)
			if err != nil {
				return err
			}
			all := metrics.DendrogramPurity(ps, class)
			act, empty, nodes, dps = append(act, float64(t.Active())), append(empty, float64(T-reached)), append(nodes, float64(len(m.Trees[0].Nodes))), append(dps, dp)
			fmt.Fprintf(&b, "%g,%d,%d,%d,%d,%.6f,%.6f,%s\n", lambda, seed, t.Active(), T-reached, len(m.Trees[0].Nodes), dp, all, strings.Join(pct, " "))
			if seed == 1 {
				shares = strings.Join(pct, " ")
				if *out != "" {
					if err := drawDot(m, filepath.Join(*out, fmt.Sprintf("latent-pruning-%g.dot", lambda))); err != nil {
						return err
					}
				}
			}
			if *check {
				if err := ck.add(fmt.Sprintf("glass λ %g seed %d", lambda, seed), t, m, test); err != nil {
					return err
				}
			}
		}
		fmt.Printf("| %g | %.2f | %.2f | %.2f | %.3f ± %.3f | %s |\n", lambda, stat.Mean(act, nil), stat.Mean(empty, nil), stat.Mean(nodes, nil), stat.Mean(dps, nil), stat.StdDev(dps, nil), shares)
	}
	if err := ck.run(); err != nil {
		return err
	}
	fmt.Println()
	fmt.Println(ck.summary())
	if *out == "" {
		return nil
	}
	return writeFile(filepath.Join(*out, "latent-pruning.csv"), b.String())
}

// drawDot writes the tree of m as treegen inspect --dot draws it.
func drawDot(m *ir.Model, path string) error {
	tmp, err := os.CreateTemp("", "latent-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	tmp.Close()
	if err := ir.Save(tmp.Name(), m); err != nil {
		return err
	}
	dot, err := exec.Command("go", "run", "./cmd/treegen", "inspect", "--dot", tmp.Name()).Output()
	if err != nil {
		return fmt.Errorf("treegen inspect --dot: %w", err)
	}
	return writeFile(path, string(dot))
}
