// Command auto-grid measures how fast each backend scores one row per call
// on a grid of model shapes, and checks the rule by which "treegen gen
// --backend auto" picks a backend (codegen.Choose) against the figures: it
// writes docs/auto-grid.csv and docs/auto-grid.md, the tables of
// docs/PERFORMANCE.md's section "Which backend auto picks".
//
// Run it from the repository root:
//
//	go run ./docs/auto-grid -out docs
//	go run ./docs/auto-grid -out docs -shapes /tmp/vs   # also the five XGBoost shapes of docs/vector-speed
//
// The grid: gradient-boosted trees trained by treegen's own trainer (train
// gbdt, seed 1) on two datasets of testdata/pmlb, 537_houses (regression, 8
// features, 20,640 rows) and spambase (binary, 57 features, 4,601 rows),
// grown depth-wise to depth 2, 4, 6, 8 and 10, and leaf-wise to 31 leaves
// (LightGBM's default) and 255. Each model is scored with its first 1, 8,
// 16, 32, 64 and 512 rounds (bench --iterations), which makes 84 shapes.
// Then the
// real models: the seven XGBoost fixtures of testdata/xgboost, imported
// with treegen import xgboost, and with -shapes the five models that
// docs/vector-speed/make_models.py writes, each in float64 and float32.
//
// Every shape is measured with treegen bench (--backends
// ifelse,quickscorer,walk,interp, on 2,048 rows of its data, which for the
// grid are drawn from the dataset at random): ns per row of
// Predict called one row at a time, the fastest of three runs. The table
// gives every backend's figure, the fastest, the one the rule picks, and
// the ratio of the two. The whole grid takes about half an hour on two
// cores; the machine is noisy, so compare within a line.
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/ir"
)

// backends are the columns of the tables, the interpreter last.
var backends = []string{"ifelse", "quickscorer", "walk", "interp"}

// dataset is one of the grid's training sets.
type dataset struct {
	name, file, objective string
}

var datasets = []dataset{
	{"houses", "testdata/pmlb/537_houses.tsv.gz", "squarederror"},
	{"spambase", "testdata/pmlb/spambase.tsv.gz", "logistic"},
}

// growth is how the grid's trees are grown: depth-wise to a depth, or
// leaf-wise to a number of leaves.
type growth struct {
	name  string
	flags []string
}

var growths = []growth{
	{"depth 2", []string{"--max-depth", "2"}},
	{"depth 4", []string{"--max-depth", "4"}},
	{"depth 6", []string{"--max-depth", "6"}},
	{"depth 8", []string{"--max-depth", "8"}},
	{"depth 10", []string{"--max-depth", "10"}},
	{"31 leaves", []string{"--max-leaves", "31"}},
	{"255 leaves", []string{"--max-leaves", "255"}},
}

// rounds are the numbers of rounds of each grid model that are measured.
var rounds = []int{1, 8, 16, 32, 64, 512}

// real are the XGBoost fixtures of testdata/xgboost.
var real = []string{
	"bcw_binary_d4", "churn_logitraw_d5", "houses_reg_d8", "letter_softprob_d6",
	"satimage_softmax_d5", "spambase_nan_d6", "twonorm_1000x64",
}

// shapes are the models of docs/vector-speed/make_models.py.
var shapes = []string{"b100", "b1000", "r300", "nan200", "m500"}

// result is a line of treegen bench --json.
type result struct {
	Backend  string  `json:"backend"`
	NsPerRow float64 `json:"ns_per_row"`
}

// line is a measured shape: its description, the figures of the
// backends that compile it, and auto's pick.
type line struct {
	group, model, precision string
	trees, depth, leaves    int
	ns                      map[string]float64
	auto, why               string
}

func main() {
	out := flag.String("out", "docs", "folder of auto-grid.csv and auto-grid.md")
	shapeDir := flag.String("shapes", "", "folder of the models of docs/vector-speed/make_models.py (optional)")
	benchTime := flag.String("time", "600ms", "treegen bench --time")
	quick := flag.Bool("quick", false, "a smaller grid: houses only, rounds 1 to 32")
	flag.Parse()
	tmp, err := os.MkdirTemp("", "auto-grid")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	tg := filepath.Join(tmp, "treegen")
	repro.Run("go", "build", "-o", tg, "./cmd/treegen")
	bench := func(model, data, prec string, iters int, extra ...string) map[string]float64 {
		args := []string{"bench", "--model", model, "--data", data, "--rows", "2048", "--precision", prec,
			"--time", *benchTime, "--count", "3", "--backends", strings.Join(backends, ","), "--json"}
		if iters > 0 {
			args = append(args, "--iterations", strconv.Itoa(iters))
		}
		var got struct{ Results []result }
		if err := json.Unmarshal(repro.Run(tg, append(args, extra...)...), &got); err != nil {
			log.Fatal(err)
		}
		ns := map[string]float64{}
		for _, r := range got.Results {
			if r.NsPerRow > 0 {
				ns[r.Backend] = r.NsPerRow
			}
		}
		return ns
	}
	var lines []line
	measure := func(group, name, path, data, prec string, iters int, extra ...string) {
		m := load(path)
		if iters > 0 {
			if m, err = m.FirstRounds(iters); err != nil {
				log.Fatal(err)
			}
		}
		c, err := codegen.Choose(m)
		if err != nil {
			log.Fatal(err)
		}
		l := line{group: group, model: name, precision: prec, trees: len(m.Trees), auto: c.Backend.Name(), why: c.Why}
		for i := range m.Trees {
			l.depth = max(l.depth, m.Trees[i].Depth())
			l.leaves += m.Trees[i].NumLeaves()
		}
		l.ns = bench(path, data, prec, iters, extra...)
		lines = append(lines, l)
		log.Printf("%s %s %s: %v, auto %s", group, name, prec, l.ns, l.auto)
	}
	ds, rs := datasets, rounds
	if *quick {
		ds, rs = datasets[:1], rounds[:4]
	}
	for _, d := range ds {
		rows := shuffled(d.file, filepath.Join(tmp, d.name+".tsv"))
		for _, g := range growths {
			model := filepath.Join(tmp, d.name+"-"+strings.ReplaceAll(g.name, " ", "")+".json")
			args := []string{"train", "gbdt", "--data", d.file, "--objective", d.objective, "--trees", strconv.Itoa(rs[len(rs)-1]),
				"--seed", "1", "--quiet", "-o", model}
			repro.Run(tg, append(args, g.flags...)...)
			for _, n := range rs {
				measure("grid", d.name+", "+g.name, model, rows, "float64", n)
			}
		}
	}
	for _, name := range real {
		dir := filepath.Join("testdata", "xgboost", name)
		model := filepath.Join(tmp, name+".json")
		repro.Run(tg, "import", "xgboost", filepath.Join(dir, "model.json"), "-o", model)
		for _, prec := range []string{"float64", "float32"} {
			measure("fixture", name, model, filepath.Join(dir, "inputs.csv"), prec, 0)
		}
	}
	if *shapeDir != "" {
		for _, name := range shapes {
			model := filepath.Join(tmp, name+".json")
			repro.Run(tg, "import", "xgboost", filepath.Join(*shapeDir, name+".json"), "-o", model)
			for _, prec := range []string{"float64", "float32"} {
				measure("shape", name, model, filepath.Join(*shapeDir, name+".csv"), prec, 0)
			}
		}
	}
	repro.Write(filepath.Join(*out, "auto-grid.csv"), table(lines))
	md := markdown(lines)
	repro.Write(filepath.Join(*out, "auto-grid.md"), md)
	os.Stdout.Write(md)
}

// shuffled writes the header and 2,048 rows of the gzipped TSV file at
// path, drawn at random without replacement (seed 1), to the file out and
// returns out. The datasets list their rows in an order (by a feature, by
// the target), in which a tree's branches repeat from one row to the next
// more than they do for a model in use.
func shuffled(path, out string) string {
	f, err := os.Open(path)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		log.Fatal(err)
	}
	data, err := io.ReadAll(z)
	if err != nil {
		log.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n")+"\n", "\n")
	lines = lines[:len(lines)-1] // the empty string after the last newline
	head, rows := lines[0], lines[1:]
	r := rand.New(rand.NewPCG(1, 1))
	r.Shuffle(len(rows), func(i, j int) { rows[i], rows[j] = rows[j], rows[i] })
	repro.Write(out, []byte(head+strings.Join(rows[:min(len(rows), 2048)], "")))
	return out
}

// load reads an IR model file or stops the program.
func load(path string) *ir.Model {
	m, err := ir.Load(path)
	if err != nil {
		log.Fatal(err)
	}
	return m
}

// best returns the fastest of a line's figures and who measured it.
func (l line) best() (float64, string) {
	ns, who := 0.0, ""
	for _, b := range backends {
		if v, ok := l.ns[b]; ok && (who == "" || v < ns) {
			ns, who = v, b
		}
	}
	return ns, who
}

// table returns the CSV of the lines.
func table(lines []line) []byte {
	var c bytes.Buffer
	w := csv.NewWriter(&c)
	w.Write(append([]string{"group", "model", "precision", "trees", "depth", "leaves"}, append(backends, "best", "auto", "auto_over_best")...))
	for _, l := range lines {
		rec := []string{l.group, l.model, l.precision, strconv.Itoa(l.trees), strconv.Itoa(l.depth), strconv.Itoa(l.leaves)}
		for _, b := range backends {
			rec = append(rec, strconv.FormatFloat(l.ns[b], 'f', 1, 64))
		}
		ns, who := l.best()
		rec = append(rec, who, l.auto, strconv.FormatFloat(l.ns[l.auto]/ns, 'f', 3, 64))
		w.Write(rec)
	}
	w.Flush()
	return c.Bytes()
}

// markdown returns the tables of docs/PERFORMANCE.md: the grid, then the
// real models, and a summary of how far auto's pick is from the fastest.
func markdown(lines []line) []byte {
	var md bytes.Buffer
	worst := map[string]float64{}
	for _, group := range []string{"grid", "fixture", "shape"} {
		first := true
		for _, l := range lines {
			if l.group != group {
				continue
			}
			if first {
				fmt.Fprintf(&md, "\n| %s | precision | trees | depth | leaves | ifelse | quickscorer | walk | interp | auto | auto / fastest |\n", map[string]string{"grid": "grid model", "fixture": "XGBoost fixture", "shape": "XGBoost shape"}[group])
				fmt.Fprintln(&md, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
				first = false
			}
			ns, who := l.best()
			fmt.Fprintf(&md, "| %s | %s | %d | %d | %s |", l.model, l.precision, l.trees, l.depth, repro.Thousands(float64(l.leaves)))
			for _, b := range backends {
				s := repro.Thousands(l.ns[b])
				if b == who {
					s = "**" + s + "**"
				}
				fmt.Fprintf(&md, " %s |", s)
			}
			r := l.ns[l.auto] / ns
			fmt.Fprintf(&md, " %s | %.2f |\n", l.auto, r)
			worst[group] = max(worst[group], r)
		}
	}
	fmt.Fprintf(&md, "\nauto's pick against the fastest, at worst: grid %.2f, fixtures %.2f", worst["grid"], worst["fixture"])
	if w, ok := worst["shape"]; ok {
		fmt.Fprintf(&md, ", shapes %.2f", w)
	}
	fmt.Fprintln(&md, ".")
	return md.Bytes()
}
