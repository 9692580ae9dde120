package smoothstep_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"text/template"
	"time"

	"golang.org/x/tools/benchmark/parse"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/smoothstep"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// sparsify returns a copy of m whose soft nodes keep, of their weights,
// only the fraction frac of largest |w| (at least one; ties go to the
// lower feature), in their order: a sparse model as an L1 penalty makes
// them, from a dense one. frac >= 1 returns m itself.
func sparsify(m *ir.Model, frac float64) *ir.Model {
	if frac >= 1 {
		return m
	}
	return editSoft(m, func(n *ir.Node) {
		if len(n.Weights) == 0 {
			return
		}
		keep := max(1, int(math.Round(frac*float64(len(n.Weights)))))
		order := make([]int, len(n.Weights))
		for k := range order {
			order[k] = k
		}
		sort.SliceStable(order, func(a, b int) bool { return math.Abs(n.Weights[order[a]]) > math.Abs(n.Weights[order[b]]) })
		order = order[:keep]
		sort.Ints(order)
		idx, ws := make([]int, keep), make([]float64, keep)
		for k, o := range order {
			idx[k], ws[k] = n.Indices[o], n.Weights[o]
		}
		n.Indices, n.Weights = idx, ws
	})
}

// visited returns the mean number of soft nodes per row that the rows
// reach with a probability other than 0 (in float64, every tree).
func visited(m *ir.Model, rows [][]float64) float64 {
	count := 0
	walkReached(m, rows, func(n *ir.Node) {
		if !n.IsLeaf() {
			count++
		}
	})
	return float64(count) / float64(len(rows))
}

// densityModel is a model that TestDensity measures at every density.
type densityModel struct {
	name string
	m    *ir.Model
	rows [][]float64
}

// densityModels returns the models of TestDensity: TEL-shaped random
// models (TREEGEN_SHAPES, a comma-separated list of TREESxDEPTHxFEATURES,
// default 10x4x20,10x4x60,10x8x20; 3 outputs, weights and biases of
// standard deviation 0.3, γ = 1, rows from the standard normal) and the
// trained models of TREEGEN_MODELS, a comma-separated list of file name
// patterns, each optionally followed by =DATA (see trainedModel). An empty
// TREEGEN_SHAPES with TREEGEN_MODELS set measures the trained models only.
func densityModels(t *testing.T) []densityModel {
	var ms []densityModel
	shapes, set := os.LookupEnv("TREEGEN_SHAPES")
	if !set {
		shapes = "10x4x20,10x4x60,10x8x20"
	}
	for i, shape := range strings.Split(shapes, ",") {
		if shape == "" {
			continue
		}
		var trees, depth, p int
		if _, err := fmt.Sscanf(shape, "%dx%dx%d", &trees, &depth, &p); err != nil {
			t.Fatalf("TREEGEN_SHAPES: %q: %v", shape, err)
		}
		m := randmodel.TEL(uint64(40+i), trees, depth, p, 3, 0.3)
		r := rand.New(rand.NewPCG(uint64(50+i), 7))
		rows := make([][]float64, 1000)
		for i := range rows {
			rows[i] = make([]float64, p)
			for j := range rows[i] {
				rows[i][j] = r.NormFloat64()
			}
		}
		ms = append(ms, densityModel{fmt.Sprintf("t%dd%dp%d", trees, depth, p), m, rows})
	}
	if s := os.Getenv("TREEGEN_MODELS"); s != "" {
		for _, spec := range strings.Split(s, ",") {
			pattern, file, _ := strings.Cut(spec, "=")
			paths, err := filepath.Glob(pattern)
			if err != nil || len(paths) == 0 {
				t.Fatalf("TREEGEN_MODELS: %q names no file (%v)", pattern, err)
			}
			for _, path := range paths {
				ms = append(ms, trainedModel(t, path, file))
			}
		}
	}
	return ms
}

// trainedModel returns the model of the file path, named after the file,
// with the first 1,000 rows of the data file (its target left out) as its
// rows: the file data, or, when data is "", the file of testdata/pmlb whose
// name is the model's name followed by ".tsv.gz" (treegen train names a
// model after its data file).
func trainedModel(t *testing.T, path, file string) densityModel {
	m, err := ir.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if file == "" {
		file = filepath.Join("..", "..", "testdata", "pmlb", m.Name+".tsv.gz")
	}
	d, err := data.ReadFile(file, data.Options{DropTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]float64
	for i := 0; i < d.Rows && i < 1000; i++ {
		rows = append(rows, d.Row(i))
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, strings.ToLower(strings.TrimSuffix(filepath.Base(path), ".json")))
	if name == "" || name[0] <= '9' {
		name = "m" + name // a package name
	}
	return densityModel{name, m, rows}
}

// envList returns the comma-separated list of the environment variable
// name, or def.
func envList(name, def string) []string {
	if s := os.Getenv(name); s != "" {
		return strings.Split(s, ",")
	}
	return strings.Split(def, ",")
}

// densityPackage is a package of TestDensity's module.
type densityPackage struct {
	Name, Float string // folder, F
	Bench       string // benchmark name: MODEL/DENSITY/PATH/F
	Rows        string // the file of its rows, in testdata
	model       string
	density     float64
	path        string
	prec        codegen.Precision
}

// TestDensity measures both paths of the smoothstep backend on TEL-shaped
// models whose soft nodes keep only a fraction of their weights (sparsify),
// the table of docs/SMOOTHSTEP.md: each model, density, path (level,
// unrolled) and precision is a generated package of one module, timed by
// one testing.B benchmark (BenchmarkPaths/MODEL/DENSITY/PATH/F, one row per
// operation, Predict's margins without the link, b.ReportAllocs) in one go
// test run, so that the paths compare as ratios of one run. It is a
// measurement, not a check: it runs only with TREEGEN_MEASURE=1.
// TREEGEN_DENSITIES (default 1,0.5,0.3,0.15,0.05), TREEGEN_PRECISIONS
// (default float64), TREEGEN_SHAPES and TREEGEN_MODELS (densityModels) say
// what to measure, TREEGEN_BENCHTIME (default 1s) and TREEGEN_COUNT
// (default 3; the fastest counts) how.
//
//	TREEGEN_MEASURE=1 go test ./codegen/smoothstep -run TestDensity -v -timeout 1h
func TestDensity(t *testing.T) {
	if os.Getenv("TREEGEN_MEASURE") != "1" {
		t.Skip("set TREEGEN_MEASURE=1 to measure")
	}
	benchtime, count := "1s", "3"
	if s := os.Getenv("TREEGEN_BENCHTIME"); s != "" {
		benchtime = s
	}
	if s := os.Getenv("TREEGEN_COUNT"); s != "" {
		count = s
	}
	var densities []float64
	for _, s := range envList("TREEGEN_DENSITIES", "1,0.5,0.3,0.15,0.05") {
		d, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		densities = append(densities, d)
	}
	var precs []codegen.Precision
	for _, s := range envList("TREEGEN_PRECISIONS", "float64") {
		precs = append(precs, codegen.Precision(s))
	}
	dir := t.TempDir()
	if d := os.Getenv("TREEGEN_MEASURE_DIR"); d != "" {
		dir = d // kept, for profiling
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/density\n\ngo 1.24\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "testdata"), 0o755); err != nil {
		t.Fatal(err)
	}
	var pkgs []densityPackage
	type modelInfo struct {
		weights, nodes float64 // weights per soft node, soft nodes visited per row
		auto           string
	}
	info := map[string]modelInfo{}
	for _, dm := range densityModels(t) {
		if err := os.WriteFile(filepath.Join(dir, "testdata", dm.name+".bin"), encodeRows(dm.rows), 0o644); err != nil {
			t.Fatal(err)
		}
		for _, d := range densities {
			m := sparsify(dm.m, d)
			if err := m.Validate(); err != nil {
				t.Fatal(err)
			}
			key := dm.name + "/" + pct(d)
			mi := modelInfo{nodes: visited(m, dm.rows), auto: autoPath(t, m)}
			nodes, weights := 0, 0
			for _, tr := range m.Trees {
				for _, n := range tr.Nodes {
					if n.Kind == ir.Soft {
						nodes++
						weights += len(n.Weights)
					}
				}
			}
			mi.weights = float64(weights) / float64(nodes)
			info[key] = mi
			for _, path := range []string{smoothstep.PathLevel, smoothstep.PathUnrolled} {
				for _, prec := range precs {
					p := densityPackage{Name: fmt.Sprintf("%s_%s_%s_%d", dm.name, strings.ReplaceAll(pct(d), ".", "p"), path, prec.BitSize()),
						Bench: key + "/" + path + "/" + prec.String(), Float: prec.String(),
						Rows: dm.name + ".bin", model: dm.name, density: d, path: path, prec: prec}
					files, err := codegen.Generate(m, codegen.Options{Package: p.Name, Backend: smoothstep.Name, Precision: prec,
						BackendOptions: &smoothstep.Options{Path: path}})
					if err != nil {
						t.Fatal(err)
					}
					if err := os.Mkdir(filepath.Join(dir, p.Name), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := codegen.WriteDir(filepath.Join(dir, p.Name), files); err != nil {
						t.Fatal(err)
					}
					pkgs = append(pkgs, p)
				}
			}
		}
	}
	var src bytes.Buffer
	if err := densityBench.Execute(&src, pkgs); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bench_test.go"), src.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cmd := exec.Command("go", "test", "-c", "-o", "density.test", ".")
	cmd.Dir, cmd.Env = dir, harness.GoEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test -c: %v\n%s", err, out)
	}
	t.Logf("%d packages built in %v", len(pkgs), time.Since(start).Round(time.Second))
	cmd = exec.Command(filepath.Join(dir, "density.test"), "-test.run=^$", "-test.bench=.", "-test.benchmem",
		"-test.benchtime="+benchtime, "-test.count="+count)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("benchmarks: %v\n%s", err, out)
	}
	if err := os.WriteFile(filepath.Join(dir, "bench.txt"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := parse.ParseSet(bytes.NewReader(out))
	if err != nil {
		t.Fatal(err)
	}
	best := map[string]*parse.Benchmark{}
	procs := regexp.MustCompile(`-[0-9]+$`)
	for name, runs := range set {
		for _, r := range runs {
			name := procs.ReplaceAllString(strings.TrimPrefix(name, "BenchmarkPaths/"), "")
			if b, ok := best[name]; !ok || r.NsPerOp < b.NsPerOp {
				best[name] = r
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| model | F | density | weights per node | nodes per row | level ns/row | unrolled ns/row | unrolled / level | auto |\n")
	fmt.Fprintf(&b, "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, p := range pkgs {
		if p.path != smoothstep.PathLevel {
			continue
		}
		key := p.model + "/" + pct(p.density)
		lv, un := best[key+"/level/"+p.Float], best[key+"/unrolled/"+p.Float]
		if lv == nil || un == nil {
			t.Errorf("%s: no result", key)
			continue
		}
		if lv.AllocsPerOp != 0 || un.AllocsPerOp != 0 {
			t.Errorf("%s %s: allocates (%d, %d allocs/op)", key, p.Float, lv.AllocsPerOp, un.AllocsPerOp)
		}
		mi := info[key]
		fmt.Fprintf(&b, "| %s | %s | %s%% | %.1f | %.1f | %.0f | %.0f | %.2f | %s |\n", p.model, p.Float, pct(p.density),
			mi.weights, mi.nodes, lv.NsPerOp, un.NsPerOp, un.NsPerOp/lv.NsPerOp, mi.auto)
	}
	t.Log(b.String())
}

// autoPath returns the path that the cost model picks for m: level,
// unrolled, or mixed when it picks both for different runs of trees.
func autoPath(t *testing.T, m *ir.Model) string {
	files, err := codegen.Generate(m, codegen.Options{Package: "p", Backend: smoothstep.Name})
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range files {
		src = append(src, f.Data...)
	}
	level, unrolled := bytes.Contains(src, []byte("func lvTrees")), bytes.Contains(src, []byte("func tree"))
	switch {
	case level && unrolled:
		return "mixed"
	case level:
		return smoothstep.PathLevel
	}
	return smoothstep.PathUnrolled
}

// encodeRows returns rows as the benchmarks read them: the bits of every
// value, little-endian, row after row.
func encodeRows(rows [][]float64) []byte {
	var b []byte
	for _, r := range rows {
		for _, v := range r {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// densityBench is the benchmark of TestDensity's module.
var densityBench = template.Must(template.New("bench").Parse(`package density_test

import (
	"encoding/binary"
	"math"
	"os"
	"testing"
{{range $i, $p := .}}
	p{{$i}} "example.com/density/{{$p.Name}}"{{end}}
)

var sink float64

// load returns the rows of testdata/file, n values each.
func load(b *testing.B, file string, n int) [][]float64 {
	data, err := os.ReadFile("testdata/" + file)
	if err != nil {
		b.Fatal(err)
	}
	rows := make([][]float64, len(data)/(8*n))
	for i := range rows {
		rows[i] = make([]float64, n)
		for j := range rows[i] {
			rows[i][j] = math.Float64frombits(binary.LittleEndian.Uint64(data[8*(i*n+j):]))
		}
	}
	return rows
}

// BenchmarkPaths times PredictMargin of each package, one row per
// operation, the rows in turn.
func BenchmarkPaths(b *testing.B) {
{{- range $i, $p := .}}
	b.Run("{{$p.Bench}}", func(b *testing.B) {
		in := load(b, "{{$p.Rows}}", p{{$i}}.NumFeatures)
		rows := make([][p{{$i}}.NumFeatures]{{$p.Float}}, len(in))
		for i, r := range in {
			for j, v := range r {
				rows[i][j] = {{$p.Float}}(v)
			}
		}
		b.ReportAllocs()
		var s {{$p.Float}}
		i := 0
		for b.Loop() {
			s += p{{$i}}.PredictMargin(&rows[i])[0]
			if i++; i == len(rows) {
				i = 0
			}
		}
		sink += float64(s)
	})
{{- end}}
}
`))

// pct returns the density d as a percentage, as the table writes it.
func pct(d float64) string { return strconv.FormatFloat(d*100, 'g', 4, 64) }
