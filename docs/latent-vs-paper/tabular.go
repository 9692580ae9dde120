package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gonum.org/v1/gonum/stat"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/internal/tooling/pmlb"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/cart"
	"github.com/treegen/treegen/train/latent"
)

// tabRow is one line of latent-tabular.csv: one data set, one seed.
type tabRow struct {
	dataset, metric       string
	seed                  uint64
	latent, cart          float64 // test metric
	active, nodes, epochs int
	seconds               float64
}

func tabularCmd(args []string) error {
	fs := flag.NewFlagSet("tabular", flag.ExitOnError)
	out := fs.String("out", "docs", "directory for latent-tabular.csv (empty: none)")
	dir := fs.String("data", "testdata/pmlb", "directory of the PMLB data sets and their MANIFEST.tsv")
	only := fs.String("only", "", "comma-separated data sets (default 537_houses and every binary set)")
	seeds := fs.Int("seeds", 4, "seeds 1..N")
	depth := fs.Int("depth", 6, "depth of both trees")
	lambda := fs.Float64("lambda", 0.01, "λ of the latent tree")
	lr := fs.Float64("lr", 0.01, "initial learning rate of the latent tree")
	batch := fs.Int("batch", 512, "minibatch of the latent tree")
	epochs := fs.Int("epochs", 100, "most epochs of the latent tree")
	check := fs.Bool("check", true, "check the generated code of every latent tree")
	fs.Parse(args)

	sets := []string{"537_houses"}
	if *only != "" {
		sets = strings.Split(*only, ",")
	} else {
		all, err := pmlb.ReadManifest(filepath.Join(*dir, "MANIFEST.tsv"))
		if err != nil {
			return err
		}
		for _, s := range all {
			if s.Classes == 2 {
				sets = append(sets, s.Name)
			}
		}
	}
	var rows []tabRow
	var ck checks
	for _, name := range sets {
		d, class, k, err := repro.Read(*dir, name)
		if err != nil {
			return err
		}
		regression := k > 100 || name == "537_houses"
		for seed := uint64(1); seed <= uint64(*seeds); seed++ {
			var rest, test []int
			if regression {
				rest, test = data.Split(d.Rows, 0.2, seed)
			} else {
				rest, test = data.StratifiedSplit(class, 0.2, seed)
			}
			var tr, va []int
			if regression {
				a, b := data.Split(len(rest), 0.2, seed)
				tr, va = pick(rest, a), pick(rest, b)
			} else {
				sub := make([]int, len(rest))
				for i, r := range rest {
					sub[i] = class[r]
				}
				a, b := data.StratifiedSplit(sub, 0.2, seed)
				tr, va = pick(rest, a), pick(rest, b)
			}
			train, valid, te := d.Subset(tr), d.Subset(va), d.Subset(test)
			o := latent.DefaultOptions(latent.Logistic)
			metric := "error"
			crit := cart.Gini
			if regression {
				o.Loss, metric, crit = latent.SquaredError, "mse", cart.MSE
			}
			o.Depth, o.Lambda, o.LearningRate, o.BatchSize, o.Epochs, o.Seed = *depth, *lambda, *lr, *batch, *epochs, seed
			start := time.Now()
			t, err := latent.Fit(train, valid, o)
			if err != nil {
				return fmt.Errorf("%s seed %d: %w", name, seed, err)
			}
			secs := time.Since(start).Seconds()
			m, err := t.Model()
			if err != nil {
				return err
			}
			cm, err := cart.Train(train, cart.Options{Criterion: crit, MaxDepth: *depth})
			if err != nil {
				return err
			}
			r := tabRow{dataset: name, metric: metric, seed: seed, active: t.Active(), nodes: len(m.Trees[0].Nodes), epochs: len(t.History()), seconds: secs}
			if r.latent, err = score(m, te, regression); err != nil {
				return err
			}
			if r.cart, err = score(cm, te, regression); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "%s seed %d: latent %s %.4g, CART %.4g (%d of %d nodes active, %d epochs, %.1fs)\n",
				name, seed, metric, r.latent, r.cart, r.active, 1<<(*depth+1)-1, r.epochs, secs)
			rows = append(rows, r)
			if *check {
				if err := ck.add(fmt.Sprintf("%s seed %d", name, seed), t, m, te); err != nil {
					return err
				}
			}
		}
	}
	if err := ck.run(); err != nil {
		return err
	}
	reportTabular(rows, *depth, *lambda, *lr, *batch)
	fmt.Println()
	fmt.Println(ck.summary())
	if *out == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("dataset,metric,seed,depth,latent_test,cart_test,active_nodes,model_nodes,epochs,train_seconds\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "%s,%s,%d,%d,%.6g,%.6g,%d,%d,%d,%.3f\n", r.dataset, r.metric, r.seed, *depth, r.latent, r.cart, r.active, r.nodes, r.epochs, r.seconds)
	}
	return writeFile(filepath.Join(*out, "latent-tabular.csv"), b.String())
}

// pick returns rows[i] for every i of idx.
func pick(rows, idx []int) []int {
	out := make([]int, len(idx))
	for i, j := range idx {
		out[i] = rows[j]
	}
	return out
}

// score returns the interpreter's mean squared error (regression) or
// error rate (classification) of m on d.
func score(m *ir.Model, d *data.Dataset, regression bool) (float64, error) {
	if !regression {
		acc, err := repro.Accuracy(m, d)
		return 1 - acc, err
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		return 0, err
	}
	out := make([]float64, 1)
	s := 0.0
	for r := range d.Rows {
		if err := p.Predict(d.Row(r), out); err != nil {
			return 0, err
		}
		s += (out[0] - d.Y[r]) * (out[0] - d.Y[r])
	}
	return s / float64(d.Rows), nil
}

func reportTabular(rows []tabRow, depth int, lambda, lr float64, batch int) {
	fmt.Printf("Latent tree (depth %d, λ = %g, learning rate %g, batch %d) against CART of depth %d; test metric, mean ± sd over seeds.\n\n", depth, lambda, lr, batch, depth)
	fmt.Println("| data set | metric | latent tree | CART | better | active nodes |")
	fmt.Println("|---|---|---|---|---|---|")
	wins, sets := 0, 0
	for i := 0; i < len(rows); {
		j := i
		for j < len(rows) && rows[j].dataset == rows[i].dataset {
			j++
		}
		var lt, ct, act []float64
		for _, r := range rows[i:j] {
			lt, ct, act = append(lt, r.latent), append(ct, r.cart), append(act, float64(r.active))
		}
		lm, ls := stat.MeanStdDev(lt, nil)
		cm, cs := stat.MeanStdDev(ct, nil)
		better := "CART"
		if lm < cm {
			better = "latent"
			wins++
		}
		sets++
		fmt.Printf("| %s | %s | %s ± %s | %s ± %s | %s | %.1f |\n", rows[i].dataset, rows[i].metric, g4(lm), g4(ls), g4(cm), g4(cs), better, stat.Mean(act, nil))
		i = j
	}
	fmt.Printf("\nThe latent tree is better on %d of %d data sets.\n", wins, sets)
}

// g4 formats v with 4 significant digits.
func g4(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.4g", v)
}
