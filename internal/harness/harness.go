// Package harness builds a generated predictor package for real and runs
// rows through it: the package is copied into a temporary module beside a
// small driver program, compiled with the go command, and run. It returns
// the package's outputs bit for bit (so callers can compare them with the
// interpreter), its speed per row and its build time. treegen check, demo
// and the tests use it.
package harness

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Package describes a generated package, read from its source.
type Package struct {
	Dir        string
	Name       string // Go package name
	Float32    bool   // Predict takes *[NumFeatures]float32
	Classifier bool   // the package has PredictClass
}

// Inspect parses the generated package in dir.
func Inspect(dir string) (*Package, error) {
	fset := token.NewFileSet()
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	pkg := &Package{Dir: dir}
	found := false
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		pkg.Name = f.Name.Name
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Recv != nil {
				continue
			}
			switch fd.Name.Name {
			case "Predict":
				found = true
				if len(fd.Type.Params.List) == 1 {
					if st, ok := fd.Type.Params.List[0].Type.(*ast.StarExpr); ok {
						if at, ok := st.X.(*ast.ArrayType); ok {
							if id, ok := at.Elt.(*ast.Ident); ok {
								pkg.Float32 = id.Name == "float32"
							}
						}
					}
				}
			case "PredictClass":
				pkg.Classifier = true
			}
		}
	}
	if !found {
		return nil, fmt.Errorf("%s holds no generated predictor (no func Predict)", dir)
	}
	return pkg, nil
}

// Result is what a run of the generated package produced.
type Result struct {
	Margins [][]float64 // PredictMargin per row, each value exact (float32 widened)
	Preds   [][]float64 // Predict per row
	Classes []int       // PredictClass per row; nil if not a classifier
	// NsPerRow and NsPerRowBatch are the time per row of Predict and of
	// PredictBatch over all rows (0 unless Options.Time).
	NsPerRow, NsPerRowBatch float64
	// AllocsPerRow is the number of heap allocations per Predict call.
	AllocsPerRow float64
	// Build is the time the go command took to build the driver.
	Build time.Duration
}

// Options tunes a run.
type Options struct {
	// Time measures Predict and PredictBatch for at least this long each
	// (0: no timing).
	Time time.Duration
	// Go is the go command (default "go" from PATH).
	Go string
}

// Run builds the package in dir with a driver, feeds it rows and returns
// what it computed.
func Run(ctx context.Context, dir string, rows [][]float64, opts Options) (*Result, error) {
	pkg, err := Inspect(dir)
	if err != nil {
		return nil, err
	}
	gocmd := opts.Go
	if gocmd == "" {
		gocmd = "go"
	}
	if _, err := exec.LookPath(gocmd); err != nil {
		return nil, fmt.Errorf("the go command is needed to build the generated package: %w", err)
	}
	tmp, err := os.MkdirTemp("", "treegen-harness-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	gen := filepath.Join(tmp, "gen")
	if err := os.Mkdir(gen, 0o755); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(gen, e.Name()), data, 0o644); err != nil {
			return nil, err
		}
	}
	files := map[string]string{
		"go.mod":  "module treegenharness\n\ngo 1.21\n",
		"main.go": driver(pkg),
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(tmp, name), []byte(src), 0o644); err != nil {
			return nil, err
		}
	}
	var in bytes.Buffer
	for _, row := range rows {
		for j, v := range row {
			if j > 0 {
				in.WriteByte(' ')
			}
			in.WriteString(strconv.FormatUint(math.Float64bits(v), 16))
		}
		in.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(tmp, "rows.txt"), in.Bytes(), 0o644); err != nil {
		return nil, err
	}
	res := &Result{}
	start := time.Now()
	build := exec.CommandContext(ctx, gocmd, "build", "-o", "driver", ".")
	build.Dir = tmp
	build.Env = goEnv()
	if out, err := build.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building the generated package in %s failed: %v\n%s", dir, err, out)
	}
	res.Build = time.Since(start)
	run := exec.CommandContext(ctx, filepath.Join(tmp, "driver"), "rows.txt", strconv.FormatInt(int64(opts.Time), 10))
	run.Dir = tmp
	var stderr bytes.Buffer
	run.Stderr = &stderr
	out, err := run.Output()
	if err != nil {
		return nil, fmt.Errorf("running the generated package failed: %v\n%s", err, stderr.Bytes())
	}
	if err := parseOutput(out, pkg, res); err != nil {
		return nil, err
	}
	if len(res.Preds) != len(rows) {
		return nil, fmt.Errorf("the driver answered %d rows of %d", len(res.Preds), len(rows))
	}
	return res, nil
}

// MeasureRows runs pass, which predicts n rows, repeatedly and returns the
// best time per row of five rounds of at least budget/5 each: the procedure
// of the driver program, for timing the interpreter the same way.
func MeasureRows(budget time.Duration, n int, pass func()) float64 {
	pass()
	best := math.Inf(1)
	for round := 0; round < 5; round++ {
		start := time.Now()
		passes := 0
		for time.Since(start) < budget/5 || passes == 0 {
			pass()
			passes++
		}
		best = math.Min(best, float64(time.Since(start).Nanoseconds())/float64(passes*n))
	}
	return best
}

// goEnv is the environment of the go command: no workspace, no network, no
// toolchain switch, so that a build never downloads anything.
func goEnv() []string {
	env := os.Environ()
	return append(env, "GOWORK=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local", "GOPROXY=off")
}

func parseOutput(out []byte, pkg *Package, res *Result) error {
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	vec := func(fields []string) ([]float64, error) {
		v := make([]float64, len(fields))
		for i, f := range fields {
			u, err := strconv.ParseUint(f, 16, 64)
			if err != nil {
				return nil, err
			}
			if pkg.Float32 {
				v[i] = float64(math.Float32frombits(uint32(u)))
			} else {
				v[i] = math.Float64frombits(u)
			}
		}
		return v, nil
	}
	for sc.Scan() {
		line := sc.Text()
		tag, rest, _ := strings.Cut(line, " ")
		switch tag {
		case "row":
			parts := strings.Split(rest, " | ")
			if len(parts) != 3 {
				return fmt.Errorf("driver: bad line %q", line)
			}
			m, err := vec(strings.Fields(parts[0]))
			if err != nil {
				return fmt.Errorf("driver: %v", err)
			}
			p, err := vec(strings.Fields(parts[1]))
			if err != nil {
				return fmt.Errorf("driver: %v", err)
			}
			res.Margins = append(res.Margins, m)
			res.Preds = append(res.Preds, p)
			if pkg.Classifier {
				c, err := strconv.Atoi(strings.TrimSpace(parts[2]))
				if err != nil {
					return fmt.Errorf("driver: %v", err)
				}
				res.Classes = append(res.Classes, c)
			}
		case "time":
			f := strings.Fields(rest)
			if len(f) != 3 {
				return fmt.Errorf("driver: bad line %q", line)
			}
			res.NsPerRow, _ = strconv.ParseFloat(f[0], 64)
			res.NsPerRowBatch, _ = strconv.ParseFloat(f[1], 64)
			res.AllocsPerRow, _ = strconv.ParseFloat(f[2], 64)
		default:
			return fmt.Errorf("driver: unexpected line %q", line)
		}
	}
	if err := sc.Err(); err != nil {
		return err
	}
	return nil
}

// driver returns the source of the driver program for pkg.
func driver(pkg *Package) string {
	f := "float64"
	bits := "math.Float64bits(float64(v))"
	if pkg.Float32 {
		f = "float32"
		bits = "uint64(math.Float32bits(float32(v)))"
	}
	class := `"-"`
	if pkg.Classifier {
		class = "strconv.Itoa(gen.PredictClass(x))"
	}
	r := strings.NewReplacer("FLOAT", f, "BITS", bits, "CLASS", class)
	return r.Replace(driverTemplate)
}

const driverTemplate = `package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	gen "treegenharness/gen"
)

var sink FLOAT

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	budget, _ := strconv.ParseInt(os.Args[2], 10, 64)
	var rows []*[gen.NumFeatures]FLOAT
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if line == "" {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != gen.NumFeatures {
			fail(fmt.Errorf("row has %d values, want %d", len(fields), gen.NumFeatures))
		}
		x := new([gen.NumFeatures]FLOAT)
		for j, s := range fields {
			u, err := strconv.ParseUint(s, 16, 64)
			if err != nil {
				fail(err)
			}
			x[j] = FLOAT(math.Float64frombits(u))
		}
		rows = append(rows, x)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for _, x := range rows {
		w.WriteString("row")
		for _, v := range gen.PredictMargin(x) {
			w.WriteString(" " + strconv.FormatUint(BITS, 16))
		}
		w.WriteString(" |")
		for _, v := range gen.Predict(x) {
			w.WriteString(" " + strconv.FormatUint(BITS, 16))
		}
		w.WriteString(" | " + CLASS + "\n")
	}
	if budget <= 0 || len(rows) == 0 {
		return
	}
	flat := make([]FLOAT, 0, len(rows)*gen.NumFeatures)
	for _, x := range rows {
		flat = append(flat, x[:]...)
	}
	out := make([]FLOAT, len(rows)*gen.NumOutputs)
	single := measure(time.Duration(budget), len(rows), func() {
		for _, x := range rows {
			sink += gen.Predict(x)[0]
		}
	})
	batch := measure(time.Duration(budget), len(rows), func() {
		if err := gen.PredictBatch(flat, out); err != nil {
			fail(err)
		}
	})
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for _, x := range rows {
		sink += gen.Predict(x)[0]
	}
	runtime.ReadMemStats(&after)
	allocs := float64(after.Mallocs-before.Mallocs) / float64(len(rows))
	fmt.Fprintf(w, "time %g %g %g\n", single, batch, allocs)
}

// measure runs pass (over n rows) repeatedly for at least budget and returns
// the best ns per row over five rounds.
func measure(budget time.Duration, n int, pass func()) float64 {
	pass()
	best := math.Inf(1)
	for round := 0; round < 5; round++ {
		start := time.Now()
		passes := 0
		for time.Since(start) < budget/5 || passes == 0 {
			pass()
			passes++
		}
		ns := float64(time.Since(start).Nanoseconds()) / float64(passes*n)
		if ns < best {
			best = ns
		}
	}
	return best
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "driver:", err)
	os.Exit(1)
}
`
