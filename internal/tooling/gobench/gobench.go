package gobench

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"
	"text/template"
	"time"

	"golang.org/x/tools/benchmark/parse"

	"github.com/treegen/treegen/internal/tooling/harness"
)

// Options tunes a run.
type Options struct {
	// BenchTime is the -benchtime of every benchmark run: each runs at least
	// this long (0: the go command's default, 1s).
	BenchTime time.Duration
	// Count is the -count: how many times each benchmark runs; the fastest
	// run counts (0: once).
	Count int
	// Go is the go command (default "go" from PATH).
	Go string
	// SIMD builds the benchmark with GOEXPERIMENT=simd, which takes the
	// vector file of a generated package (vector.go) on amd64. Without it,
	// the go command gets the environment as it is, GOEXPERIMENT included.
	SIMD bool
}

// Result is what the benchmarks of a package measured.
type Result struct {
	// Rows is the number of rows of one pass: one operation of either
	// benchmark.
	Rows int
	// NsPerRow is the time per row of Predict, called on one row at a time;
	// NsPerRowBatch that of PredictBatch on all rows at once. Each is the
	// fastest of the runs.
	NsPerRow, NsPerRowBatch float64
	// AllocsPerOp and AllocsPerOpBatch are the heap allocations of one pass
	// over the rows (allocs/op), the most of the runs.
	AllocsPerOp, AllocsPerOpBatch uint64
	// Build is the time "go test -c" took to build the package and its
	// benchmark.
	Build time.Duration
	// Instructions names the instructions with which PredictBatch scored
	// blocks of rows, as the package's BatchInstructions reports them:
	// "AVX-512", "AVX2" or "portable" ("portable" too for a package without
	// BatchInstructions).
	Instructions string
}

// AllocsPerRow returns the heap allocations per call of Predict.
func (r *Result) AllocsPerRow() float64 { return float64(r.AllocsPerOp) / float64(r.Rows) }

// Benchmark names, below BenchmarkPredict/<pkg>/.
const (
	OneRow = "one-row"
	Batch  = "batch"
)

// Run times the generated package in dir on rows: it copies the package's
// Go files (not its tests) into a temporary module, writes the rows and the
// benchmark file beside them, builds the test binary and runs the
// benchmarks. Every row must have the package's NumFeatures values.
func Run(ctx context.Context, dir string, rows [][]float64, opts Options) (*Result, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows to benchmark %s on", dir)
	}
	pkg, err := harness.Inspect(dir)
	if err != nil {
		return nil, err
	}
	gocmd := opts.Go
	if gocmd == "" {
		gocmd = "go"
	}
	if _, err := exec.LookPath(gocmd); err != nil {
		return nil, fmt.Errorf("the go command is needed to benchmark the generated package: %w", err)
	}
	tmp, err := os.MkdirTemp("", "treegen-gobench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	pkgDir := filepath.Join(tmp, pkg.Name)
	if err := os.MkdirAll(filepath.Join(pkgDir, "testdata"), 0o755); err != nil {
		return nil, err
	}
	if err := harness.CopyPackage(dir, pkgDir); err != nil {
		return nil, err
	}
	bench, err := benchFile(pkg)
	if err != nil {
		return nil, err
	}
	data, err := encodeRows(rows)
	if err != nil {
		return nil, err
	}
	for _, f := range []struct {
		path string
		data []byte
	}{
		// Go 1.24 is the first with testing.B.Loop.
		{filepath.Join(tmp, "go.mod"), []byte("module " + modulePath + "\n\ngo 1.24\n")},
		{filepath.Join(pkgDir, "bench_test.go"), bench},
		{filepath.Join(pkgDir, "testdata", "rows.bin"), data},
	} {
		if err := os.WriteFile(f.path, f.data, 0o644); err != nil {
			return nil, err
		}
	}

	bin := filepath.Join(tmp, "bench.test")
	if goruntime.GOOS == "windows" {
		bin += ".exe"
	}
	res := &Result{Rows: len(rows)}
	start := time.Now()
	build := exec.CommandContext(ctx, gocmd, "test", "-c", "-vet=off", "-o", bin, "./"+pkg.Name)
	build.Dir = tmp
	build.Env = harness.GoEnv()
	if opts.SIMD {
		build.Env = append(build.Env, "GOEXPERIMENT="+withSIMD(os.Getenv("GOEXPERIMENT")))
	}
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the benchmark of %s failed: %v\n%s", dir, err, out)
	}
	res.Build = time.Since(start)

	// The flags of "go test -run ^$ -bench . -benchmem -benchtime T -count N",
	// given to the test binary as go test gives them, in the package
	// directory.
	args := []string{"-test.run=^$", "-test.bench=.", "-test.benchmem"}
	if opts.BenchTime > 0 {
		args = append(args, "-test.benchtime="+opts.BenchTime.String())
	}
	if opts.Count > 0 {
		args = append(args, "-test.count="+strconv.Itoa(opts.Count))
	}
	run := exec.CommandContext(ctx, bin, args...)
	run.Dir = pkgDir
	out, err := run.CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("benchmarking %s failed: %v\n%s", dir, err, out)
	}
	res.Instructions = "portable"
	if m := instructionsRE.FindSubmatch(out); m != nil {
		res.Instructions = string(m[1])
	}
	set, err := parse.ParseSet(bytes.NewReader(out))
	if err != nil {
		return nil, err
	}
	one, err := best(set, pkg.Name, OneRow, out)
	if err != nil {
		return nil, err
	}
	batch, err := best(set, pkg.Name, Batch, out)
	if err != nil {
		return nil, err
	}
	n := float64(len(rows))
	res.NsPerRow, res.AllocsPerOp = one.NsPerOp/n, one.AllocsPerOp
	res.NsPerRowBatch, res.AllocsPerOpBatch = batch.NsPerOp/n, batch.AllocsPerOp
	return res, nil
}

// instructionsRE matches the line in which the benchmark reports the
// instructions of PredictBatch.
var instructionsRE = regexp.MustCompile(`(?m)^treegen-instructions: (.+)$`)

// withSIMD returns the value of GOEXPERIMENT with simd added, if it is not
// there.
func withSIMD(exp string) string {
	for _, e := range strings.Split(exp, ",") {
		if e == "simd" {
			return exp
		}
	}
	if exp == "" {
		return "simd"
	}
	return exp + ",simd"
}

// modulePath is the path of the temporary module.
const modulePath = "treegenbench"

// procsSuffix is the "-GOMAXPROCS" suffix that the testing package appends
// to benchmark names when GOMAXPROCS is not 1.
var procsSuffix = regexp.MustCompile(`-[0-9]+$`)

// best returns the fastest run of BenchmarkPredict/pkg/sub in set, with
// the most allocations of all its runs; out is the output, for errors.
func best(set parse.Set, pkg, sub string, out []byte) (parse.Benchmark, error) {
	want := "BenchmarkPredict/" + pkg + "/" + sub
	var b parse.Benchmark
	var allocs uint64
	found := false
	for name, runs := range set {
		if procsSuffix.ReplaceAllString(name, "") != want {
			continue
		}
		for _, r := range runs {
			const need = parse.NsPerOp | parse.AllocsPerOp
			if r.Measured&need != need {
				return b, fmt.Errorf("%s: the go command reported no ns/op or allocs/op: %s", want, r)
			}
			if !found || r.NsPerOp < b.NsPerOp {
				b = *r
			}
			allocs = max(allocs, r.AllocsPerOp)
			found = true
		}
	}
	if !found {
		return b, fmt.Errorf("the go command reported no result for %s:\n%s", want, out)
	}
	b.AllocsPerOp = allocs
	return b, nil
}

// encodeRows returns rows as the benchmark reads them: the bits of every
// value, little-endian, row after row. The rows must be equally long.
func encodeRows(rows [][]float64) ([]byte, error) {
	width := len(rows[0])
	data := make([]byte, 0, 8*width*len(rows))
	for i, row := range rows {
		if len(row) != width {
			return nil, fmt.Errorf("row %d has %d values, row 0 has %d", i, len(row), width)
		}
		for _, v := range row {
			data = binary.LittleEndian.AppendUint64(data, math.Float64bits(v))
		}
	}
	return data, nil
}

// benchFile returns the source of bench_test.go for pkg.
func benchFile(pkg *harness.Package) ([]byte, error) {
	float := "float64"
	if pkg.Precision.Is32() {
		float = "float32"
	}
	var buf bytes.Buffer
	err := benchTemplate.Execute(&buf, map[string]any{
		"Instructions": pkg.Instructions,
		"Pkg":          pkg.Name,
		"Import":       modulePath + "/" + pkg.Name,
		"Float":        float,
		"OneRow":       OneRow,
		"Batch":        Batch,
	})
	return buf.Bytes(), err
}

var benchTemplate = template.Must(template.New("bench").Parse(`// Code generated by treegen bench. DO NOT EDIT.

package {{.Pkg}}_test

import (
	"encoding/binary"
{{- if .Instructions}}
	"fmt"
{{- end}}
	"math"
	"os"
	"testing"

	gen "{{.Import}}"
)
{{if .Instructions}}
// init reports the instructions of PredictBatch, which treegen bench reads.
func init() { fmt.Println("treegen-instructions:", gen.BatchInstructions()) }
{{end}}
var sink {{.Float}}

// loadRows reads testdata/rows.bin, rows of gen.NumFeatures values stored as
// little-endian float64 bits, and returns them one array per row and all in
// one slice, for PredictBatch.
func loadRows(b *testing.B) ([]*[gen.NumFeatures]{{.Float}}, []{{.Float}}) {
	data, err := os.ReadFile("testdata/rows.bin")
	if err != nil {
		b.Fatal(err)
	}
	const rowBytes = 8 * gen.NumFeatures
	if len(data) == 0 || len(data)%rowBytes != 0 {
		b.Fatalf("testdata/rows.bin has %d bytes, not a positive multiple of %d (rows of %d features)", len(data), rowBytes, gen.NumFeatures)
	}
	flat := make([]{{.Float}}, len(data)/8)
	for i := range flat {
		flat[i] = {{.Float}}(math.Float64frombits(binary.LittleEndian.Uint64(data[8*i:])))
	}
	rows := make([]*[gen.NumFeatures]{{.Float}}, len(flat)/gen.NumFeatures)
	for i := range rows {
		rows[i] = new([gen.NumFeatures]{{.Float}})
		copy(rows[i][:], flat[i*gen.NumFeatures:])
	}
	return rows, flat
}

// BenchmarkPredict times Predict on every row in turn ({{.OneRow}}) and
// PredictBatch on all rows at once ({{.Batch}}): an operation is one pass over
// the rows.
func BenchmarkPredict(b *testing.B) {
	rows, flat := loadRows(b)
	out := make([]{{.Float}}, len(rows)*gen.NumOutputs)
	b.Run("{{.Pkg}}", func(b *testing.B) {
		b.Run("{{.OneRow}}", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, x := range rows {
					sink += gen.Predict(x)[0]
				}
			}
		})
		b.Run("{{.Batch}}", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := gen.PredictBatch(flat, out); err != nil {
					b.Fatal(err)
				}
			}
			sink += out[0]
		})
	})
}
`))
