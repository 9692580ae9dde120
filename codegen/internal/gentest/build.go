package gentest

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/treegen/treegen/codegen"
)

// Case is one generated package to build and run.
type Case struct {
	// Name is the package name, also its directory in the module.
	Name string
	// Files are the generated files.
	Files []codegen.File
	// Float32 says that the package computes in float32.
	Float32 bool
	// NumFeatures and NumOutputs are the model's P and K.
	NumFeatures, NumOutputs int
	// Classifier says that the package has PredictClass.
	Classifier bool
	// Inputs are the rows to predict (rounded to float32 for a float32
	// package).
	Inputs [][]float64
	// Allocs asks for testing.AllocsPerRun of Predict and PredictBatch.
	Allocs bool
}

// Result is what a generated package computed for its inputs. Float32
// values are widened to float64 (exactly).
type Result struct {
	Margin, Predict [][]float64
	Class           []int // -1 without PredictClass
	// PredictAllocs and BatchAllocs are allocations per call (Case.Allocs).
	PredictAllocs, BatchAllocs float64
}

// Module is a temporary Go module holding generated packages, one per Case,
// and a driver program that runs them all: one build for many models.
type Module struct {
	Dir   string
	cases []Case
	// BuildTime is how long the last go build took.
	BuildTime time.Duration
}

// NewModule creates an empty module in dir (example.com/gen, go 1.21).
func NewModule(dir string) (*Module, error) {
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/gen\n\ngo 1.21\n"), 0o644); err != nil {
		return nil, err
	}
	return &Module{Dir: dir}, nil
}

// Add writes the files of c into the module.
func (mod *Module) Add(c Case) error {
	dir := filepath.Join(mod.Dir, c.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := codegen.WriteDir(dir, c.Files); err != nil {
		return err
	}
	mod.cases = append(mod.cases, c)
	return nil
}

// Gofmt returns an error unless gofmt -l finds every file of the cases
// formatted.
func (mod *Module) Gofmt() error {
	gofmt := "gofmt"
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		gofmt = filepath.Join(strings.TrimSpace(string(out)), "bin", "gofmt")
	}
	args := []string{"-l"}
	for _, c := range mod.cases {
		args = append(args, c.Name)
	}
	cmd := exec.Command(gofmt, args...)
	cmd.Dir = mod.Dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("gofmt: %v\n%s", err, out)
	}
	if len(out) > 0 {
		return fmt.Errorf("files not gofmt-formatted:\n%s", out)
	}
	return nil
}

// GoCmd runs the go command in the module with a hermetic environment and
// returns its combined output.
func (mod *Module) GoCmd(args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = mod.Dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOTOOLCHAIN=local", "GOPROXY=off", "GOFLAGS=-mod=mod")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out, nil
}

// Run writes the driver, builds it (and vets the module if vet is set), runs
// it on every case's inputs and returns the results, in the order of the
// cases.
func (mod *Module) Run(vet bool) ([]Result, error) {
	if err := mod.writeDriver(); err != nil {
		return nil, err
	}
	if err := mod.writeInputs(); err != nil {
		return nil, err
	}
	if vet {
		if _, err := mod.GoCmd("vet", "./..."); err != nil {
			return nil, err
		}
	}
	start := time.Now()
	if _, err := mod.GoCmd("build", "-o", "driver.exe", "./driver"); err != nil {
		return nil, err
	}
	mod.BuildTime = time.Since(start)
	cmd := exec.Command(filepath.Join(mod.Dir, "driver.exe"), filepath.Join(mod.Dir, "inputs.txt"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("driver: %v\n%s", err, stderr.Bytes())
	}
	return mod.parse(out)
}

func (mod *Module) writeInputs() error {
	var b bytes.Buffer
	for _, c := range mod.cases {
		fmt.Fprintf(&b, "%s %d\n", c.Name, len(c.Inputs))
		for _, row := range c.Inputs {
			for j, v := range row {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strconv.FormatUint(math.Float64bits(v), 16))
			}
			b.WriteByte('\n')
		}
	}
	return os.WriteFile(filepath.Join(mod.Dir, "inputs.txt"), b.Bytes(), 0o644)
}

// driverTemplate is the driver program; %s receives the imports, the
// per-package functions and the table of them.
const driverTemplate = `// Command driver runs generated packages on the rows of an input file and
// prints their outputs as hex bits.
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
%s)

var (
	sink64 float64
	sink32 float32
)

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for len(lines) > 0 {
		var name string
		var n int
		fmt.Sscan(lines[0], &name, &n)
		var rows [][]uint64
		for _, l := range lines[1 : 1+n] {
			var row []uint64
			for _, f := range strings.Fields(l) {
				u, err := strconv.ParseUint(f, 16, 64)
				if err != nil {
					panic(err)
				}
				row = append(row, u)
			}
			rows = append(rows, row)
		}
		lines = lines[1+n:]
		fmt.Fprintf(w, "case %%s\n", name)
		runners[name](rows, w)
	}
}

func put64(w *bufio.Writer, tag string, v []float64) {
	w.WriteString(tag)
	for _, x := range v {
		w.WriteString(" " + strconv.FormatUint(math.Float64bits(x), 16))
	}
	w.WriteByte('\n')
}

func put32(w *bufio.Writer, tag string, v []float32) {
	w.WriteString(tag)
	for _, x := range v {
		w.WriteString(" " + strconv.FormatUint(math.Float64bits(float64(x)), 16))
	}
	w.WriteByte('\n')
}

func same64(a, b []float64) bool {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

func same32(a, b []float32) bool {
	for i := range a {
		if math.Float32bits(a[i]) != math.Float32bits(b[i]) && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

var _ = testing.AllocsPerRun

%s
var runners = map[string]func([][]uint64, *bufio.Writer){
%s}
`

// runnerTemplate is the driver function of one package; %[1]s is the
// package name, %[2]s its float type, %[3]s the conversion from float64
// bits, %[4]s "64" or "32", %[5]s the class statement, %[6]s the alloc
// statements.
const runnerTemplate = `
func run_%[1]s(rows [][]uint64, w *bufio.Writer) {
	var batch []%[2]s
	var want []%[2]s
	for _, r := range rows {
		var x [%[1]s.NumFeatures]%[2]s
		for j := range x {
			x[j] = %[3]s
		}
		mg := %[1]s.PredictMargin(&x)
		p := %[1]s.Predict(&x)
		put%[4]s(w, "m", mg[:])
		put%[4]s(w, "p", p[:])
		%[5]s
		ps, err := %[1]s.PredictSlice(x[:])
		if err != nil || !same%[4]s(ps[:], p[:]) {
			w.WriteString("error PredictSlice differs from Predict\n")
		}
		batch = append(batch, x[:]...)
		want = append(want, p[:]...)
	}
	out := make([]%[2]s, len(want))
	if err := %[1]s.PredictBatch(batch, out); err != nil || !same%[4]s(out, want) {
		fmt.Fprintf(w, "error PredictBatch differs from Predict: %%v\n", err)
	}
	// Rows without NaN, several blocks of them: PredictBatch may score
	// blocks of rows together.
	if len(batch) > 0 {
		var clean, cwant []%[2]s
		for len(clean) < 150*%[1]s.NumFeatures {
			for i := 0; i < len(batch); i += %[1]s.NumFeatures {
				var x [%[1]s.NumFeatures]%[2]s
				copy(x[:], batch[i:])
				for j := range x {
					if x[j] != x[j] {
						x[j] = %[2]s(j%%3) - 1
					}
				}
				p := %[1]s.Predict(&x)
				clean = append(clean, x[:]...)
				cwant = append(cwant, p[:]...)
			}
		}
		out := make([]%[2]s, len(cwant))
		if err := %[1]s.PredictBatch(clean, out); err != nil || !same%[4]s(out, cwant) {
			fmt.Fprintf(w, "error PredictBatch differs from Predict on rows without NaN: %%v\n", err)
		}
	}
	if _, err := %[1]s.PredictSlice(make([]%[2]s, %[1]s.NumFeatures+1)); err != %[1]s.ErrFeatureCount {
		w.WriteString("error PredictSlice accepts a long row\n")
	}
	if nf := %[1]s.NumFeatures; nf > 1 {
		if err := %[1]s.PredictBatch(make([]%[2]s, 2*nf+1), make([]%[2]s, 2*%[1]s.NumOutputs)); err != %[1]s.ErrFeatureCount {
			w.WriteString("error PredictBatch accepts a partial row\n")
		}
	}
	if err := %[1]s.PredictBatch(make([]%[2]s, 2*%[1]s.NumFeatures), make([]%[2]s, 2*%[1]s.NumOutputs+1)); err != %[1]s.ErrOutputCount {
		w.WriteString("error PredictBatch accepts a wrong output length\n")
	}
	%[6]s
}
`

const allocTemplate = `{
		var x [%[1]s.NumFeatures]%[2]s
		xs := make([]%[2]s, 130*%[1]s.NumFeatures)
		out := make([]%[2]s, 130*%[1]s.NumOutputs)
		a := testing.AllocsPerRun(100, func() { r := %[1]s.Predict(&x); sink%[3]s += r[0] })
		b := testing.AllocsPerRun(100, func() { _ = %[1]s.PredictBatch(xs, out) })
		fmt.Fprintf(w, "allocs %%v %%v\n", a, b)
	}`

func (mod *Module) writeDriver() error {
	var imports, funcs, table strings.Builder
	for _, c := range mod.cases {
		fmt.Fprintf(&imports, "\t%q\n", "example.com/gen/"+c.Name)
		typ, conv, bits := "float64", "math.Float64frombits(r[j])", "64"
		if c.Float32 {
			typ, conv, bits = "float32", "float32(math.Float64frombits(r[j]))", "32"
		}
		class := `w.WriteString("c -1\n")`
		if c.Classifier {
			class = fmt.Sprintf(`fmt.Fprintf(w, "c %%d\n", %s.PredictClass(&x))`, c.Name)
		}
		allocs := ""
		if c.Allocs {
			allocs = fmt.Sprintf(allocTemplate, c.Name, typ, bits)
		}
		fmt.Fprintf(&funcs, runnerTemplate, c.Name, typ, conv, bits, class, allocs)
		fmt.Fprintf(&table, "\t%q: run_%s,\n", c.Name, c.Name)
	}
	src := fmt.Sprintf(driverTemplate, imports.String(), funcs.String(), table.String())
	dir := filepath.Join(mod.Dir, "driver")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.go"), []byte(src), 0o644)
}

// parse reads the driver's output.
func (mod *Module) parse(out []byte) ([]Result, error) {
	results := make([]Result, len(mod.cases))
	index := make(map[string]int, len(mod.cases))
	for i, c := range mod.cases {
		index[c.Name] = i
	}
	cur := -1
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	floats := func(fields []string) ([]float64, error) {
		v := make([]float64, len(fields))
		for i, f := range fields {
			u, err := strconv.ParseUint(f, 16, 64)
			if err != nil {
				return nil, err
			}
			v[i] = math.Float64frombits(u)
		}
		return v, nil
	}
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if fields[0] == "case" {
			cur = index[fields[1]]
			continue
		}
		if cur < 0 {
			return nil, fmt.Errorf("driver output before the first case: %q", sc.Text())
		}
		r := &results[cur]
		switch fields[0] {
		case "m", "p":
			v, err := floats(fields[1:])
			if err != nil {
				return nil, err
			}
			if fields[0] == "m" {
				r.Margin = append(r.Margin, v)
			} else {
				r.Predict = append(r.Predict, v)
			}
		case "c":
			c, err := strconv.Atoi(fields[1])
			if err != nil {
				return nil, err
			}
			r.Class = append(r.Class, c)
		case "allocs":
			r.PredictAllocs, _ = strconv.ParseFloat(fields[1], 64)
			r.BatchAllocs, _ = strconv.ParseFloat(fields[2], 64)
		case "error":
			return nil, fmt.Errorf("package %s: %s", mod.cases[cur].Name, strings.Join(fields[1:], " "))
		default:
			return nil, fmt.Errorf("unexpected driver output %q", sc.Text())
		}
	}
	return results, sc.Err()
}

// SameFloat reports whether a and b are the same float: the same bits, or
// both NaN (NaN payloads are not part of the semantics).
func SameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (a != a && b != b)
}

// SkipIfNoGo skips t when the go command is not available.
func SkipIfNoGo(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
}
