package smoothstep_test

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/ir"
)

// telModel returns a model shaped like a trained Tree Ensemble Layer:
// trees perfect soft trees of the given depth over p standardised features,
// dense weights of scale wscale, γ = 1, leaves of k values, softmax link.
func telModel(seed uint64, trees, depth, p, k int, wscale float64) *ir.Model {
	r := rand.New(rand.NewPCG(seed, 1))
	m := &ir.Model{FormatVersion: ir.FormatVersion, Name: "tel-like", Task: ir.Multiclass, NumFeatures: p, NumOutputs: k,
		Aggregation: ir.Sum, Link: ir.Softmax}
	all := make([]int, p)
	for j := range all {
		all[j] = j
	}
	for i := 0; i < trees; i++ {
		t := ir.Tree{Output: ir.AllOutputs}
		var grow func(d int) int
		grow = func(d int) int {
			i := len(t.Nodes)
			t.Nodes = append(t.Nodes, ir.Node{})
			if d == depth {
				v := make([]float64, k)
				for c := range v {
					v[c] = r.NormFloat64()
				}
				t.Nodes[i] = ir.Node{Kind: ir.Leaf, Value: v}
				return i
			}
			w := make([]float64, p)
			for j := range w {
				w[j] = r.NormFloat64() * wscale
			}
			n := ir.Node{Kind: ir.Soft, Indices: all, Weights: w, Bias: r.NormFloat64() * wscale, Gamma: 1, DefaultLeft: r.IntN(2) == 0}
			n.Left = grow(d + 1)
			n.Right = grow(d + 1)
			t.Nodes[i] = n
			return i
		}
		grow(0)
		m.Trees = append(m.Trees, t)
	}
	return m
}

// reachable returns the mean number of leaves per tree and row that the
// rows reach with a probability > 0 (in float64).
func reachable(m *ir.Model, rows [][]float64) float64 {
	count := 0
	var visit func(t *ir.Tree, i int, p float64, x []float64)
	visit = func(t *ir.Tree, i int, p float64, x []float64) {
		n := &t.Nodes[i]
		if n.IsLeaf() {
			count++
			return
		}
		s := n.Bias
		for j, f := range n.Indices {
			s += float64(n.Weights[j] * x[f])
		}
		pl := ir.SmoothStep(s, n.Gamma)
		if s != s {
			pl = 0
			if n.DefaultLeft {
				pl = 1
			}
		}
		if l := p * pl; l != 0 {
			visit(t, n.Left, l, x)
		}
		if r := p * (1 - pl); r != 0 {
			visit(t, n.Right, r, x)
		}
	}
	for _, x := range rows {
		for i := range m.Trees {
			visit(&m.Trees[i], 0, 1, x)
		}
	}
	return float64(count) / float64(len(rows)*len(m.Trees))
}

// benchSource is the benchmark of the measuring module: the generated
// packages and the interpreter on the same rows, in one run.
const benchSource = `package bench

import (
	"testing"

	"example.com/bench/tel"
	"example.com/bench/tel32"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

func BenchmarkPredict(b *testing.B) {
	m, err := ir.Load("model.json")
	if err != nil {
		b.Fatal(err)
	}
	x64 := make([][tel.NumFeatures]float64, len(rows))
	x32 := make([][tel.NumFeatures]float32, len(rows))
	for i, r := range rows {
		for j, v := range r {
			x64[i][j], x32[i][j] = v, float32(v)
		}
	}
	b.Run("tel/smoothstep", func(b *testing.B) {
		b.ReportAllocs()
		var sink float64
		i := 0
		for b.Loop() {
			sink += tel.Predict(&x64[i])[0]
			if i++; i == len(rows) {
				i = 0
			}
		}
		_ = sink
	})
	b.Run("tel/smoothstep-f32", func(b *testing.B) {
		b.ReportAllocs()
		var sink float32
		i := 0
		for b.Loop() {
			sink += tel32.Predict(&x32[i])[0]
			if i++; i == len(rows) {
				i = 0
			}
		}
		_ = sink
	})
	b.Run("tel/interp", interp[float64](m, x64))
	b.Run("tel/interp-f32", interp[float32](m, x32))
}

func interp[F runtime.Float](m *ir.Model, xs [][tel.NumFeatures]F) func(*testing.B) {
	return func(b *testing.B) {
		p, err := runtime.New[F](m)
		if err != nil {
			b.Fatal(err)
		}
		out := make([]F, m.NumOutputs)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			p.Predict(xs[i][:], out)
			if i++; i == len(xs) {
				i = 0
			}
		}
	}
}
`

// TestMeasure compares, in one benchmark run, the generated smoothstep
// packages (float64 and float32) with the interpreter on a TEL-like model:
// 10 perfect soft trees of depth 8, 20 standardised features, dense
// weights, γ = 1, 3 outputs, rows drawn from the standard normal. It is a
// measurement, not a check: it runs only with TREEGEN_MEASURE=1
// (TREEGEN_BENCHTIME, default 2s, sets -benchtime; TREEGEN_DEPTH, default
// 8, the depth of the trees; and TREEGEN_MEASURE_DIR names an existing
// directory for the measuring module, left in place for profiling).
func TestMeasure(t *testing.T) {
	if os.Getenv("TREEGEN_MEASURE") != "1" {
		t.Skip("set TREEGEN_MEASURE=1 to measure")
	}
	depth := 8
	if d, err := strconv.Atoi(os.Getenv("TREEGEN_DEPTH")); err == nil {
		depth = d
	}
	m := telModel(1, 10, depth, 20, 3, 0.3)
	r := rand.New(rand.NewPCG(2, 3))
	rows := make([][]float64, 1000)
	for i := range rows {
		rows[i] = make([]float64, m.NumFeatures)
		for j := range rows[i] {
			rows[i][j] = r.NormFloat64()
		}
	}
	t.Logf("%d trees of depth %d, %d features: %.1f leaves reached per tree and row (of %d)", len(m.Trees), depth, m.NumFeatures, reachable(m, rows), 1<<depth)

	dir := t.TempDir()
	if d := os.Getenv("TREEGEN_MEASURE_DIR"); d != "" {
		dir = d // kept, for profiling
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/bench\n\ngo 1.24\n\nrequire github.com/treegen/treegen v0.0.0\n\nreplace github.com/treegen/treegen => " + root + "\n"
	var data bytes.Buffer
	data.WriteString("package bench\n\nvar rows = [][]float64{\n")
	for _, row := range rows {
		data.WriteString("\t{")
		for j, v := range row {
			if j > 0 {
				data.WriteString(", ")
			}
			data.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		data.WriteString("},\n")
	}
	data.WriteString("}\n")
	model, err := ir.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{
		"go.mod": []byte(gomod), "go.sum": sum, "model.json": model,
		"rows_test.go": data.Bytes(), "bench_test.go": []byte(benchSource),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	size := 0
	for pkg, prec := range map[string]codegen.Precision{"tel": codegen.Float64, "tel32": codegen.Float32} {
		files, err := codegen.Generate(m, codegen.Options{Package: pkg, Backend: smoothstep.Name, Precision: prec})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.Mkdir(filepath.Join(dir, pkg), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := codegen.WriteDir(filepath.Join(dir, pkg), files); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			size += len(f.Data)
		}
	}
	benchtime := os.Getenv("TREEGEN_BENCHTIME")
	if benchtime == "" {
		benchtime = "2s"
	}
	cmd := exec.Command("go", "test", "-run", "XXX", "-bench", ".", "-benchtime", benchtime, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go test -bench: %v\n%s", err, out)
	}
	t.Logf("generated source: %d bytes (both precisions)\n%s", size, out)
	ns := map[string]float64{}
	re := regexp.MustCompile(`BenchmarkPredict/tel/(\S+?)(?:-\d+)?\s+\d+\s+([0-9.]+) ns/op`)
	for _, mm := range re.FindAllStringSubmatch(string(out), -1) {
		ns[mm[1]], _ = strconv.ParseFloat(mm[2], 64)
	}
	for _, prec := range []struct{ name, suffix string }{{"float64", ""}, {"float32", "-f32"}} {
		g, i := ns["smoothstep"+prec.suffix], ns["interp"+prec.suffix]
		if g == 0 || i == 0 {
			t.Errorf("%s: measurements missing from the benchmark output", prec.name)
			continue
		}
		t.Logf("%s: smoothstep %.0f ns/row, interpreter %.0f ns/row: interpreter/smoothstep = %.2f", prec.name, g, i, i/g)
	}
}
