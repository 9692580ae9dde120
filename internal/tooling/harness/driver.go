package harness

import (
	"bytes"
	_ "embed"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path"
	"text/template"
)

// measureSource is the source of MeasureRows, which the driver holds too.
//
//go:embed measure.go
var measureSource string

// measureFunc returns the declaration of MeasureRows, doc comment included,
// as it stands in measure.go.
func measureFunc() (string, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "measure.go", measureSource, parser.ParseComments)
	if err != nil {
		return "", err
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Name.Name == "MeasureRows" {
			return measureSource[fset.Position(fd.Doc.Pos()).Offset:fset.Position(fd.End()).Offset], nil
		}
	}
	return "", fmt.Errorf("measure.go declares no MeasureRows")
}

// driverEntry is a package as the driver template sees it.
type driverEntry struct {
	Name       string // folder, and name in the input
	Path       string // import path
	Alias      string // import name in the driver
	F          string // float64 or float32
	Classifier bool
	// Instructions says that the package has BatchInstructions.
	Instructions bool
}

// driverSource returns the source of the driver program that runs the
// packages of members.
func driverSource(members []member) ([]byte, error) {
	measure, err := measureFunc()
	if err != nil {
		return nil, err
	}
	data := struct {
		Packages []driverEntry
		Measure  string
	}{Measure: measure}
	for i, m := range members {
		f := "float64"
		if m.pkg.Precision.Is32() {
			f = "float32"
		}
		data.Packages = append(data.Packages, driverEntry{
			Name: m.name, Path: path.Join(ModulePath, m.name), Alias: fmt.Sprintf("p%d", i), F: f, Classifier: m.pkg.Classifier, Instructions: m.pkg.Instructions,
		})
	}
	var b bytes.Buffer
	if err := driverTemplate.Execute(&b, data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// driverTemplate is the driver program. Each package is one entry of
// runners: closures that call its entry points on slices, so that one
// generic function runs them all.
var driverTemplate = template.Must(template.New("driver").Parse(`// Command driver runs generated predictor packages on the rows of the
// input file named by its argument and prints what they compute, each value
// as the hexadecimal bits of a float64 (see package harness of treegen).
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
{{range .Packages}}
	{{.Alias}} {{printf "%q" .Path}}{{end}}
)

// runners run the packages, by name.
var runners = map[string]func(*section, *bufio.Writer){
{{- range .Packages}}
	{{printf "%q" .Name}}: run(&pkg[{{.F}}]{
		nf: {{.Alias}}.NumFeatures,
		no: {{.Alias}}.NumOutputs,
		predict: func(x, out []{{.F}}) {
			r := {{.Alias}}.Predict((*[{{.Alias}}.NumFeatures]{{.F}})(x))
			copy(out, r[:])
		},
		margin: func(x, out []{{.F}}) {
			r := {{.Alias}}.PredictMargin((*[{{.Alias}}.NumFeatures]{{.F}})(x))
			copy(out, r[:])
		},
		slice: func(x, out []{{.F}}) error {
			r, err := {{.Alias}}.PredictSlice(x)
			copy(out, r[:])
			return err
		},
		batch: {{.Alias}}.PredictBatch,
		{{- if .Classifier}}
		class: func(x []{{.F}}) int { return {{.Alias}}.PredictClass((*[{{.Alias}}.NumFeatures]{{.F}})(x)) },
		{{- end}}
		{{- if .Instructions}}
		instructions: {{.Alias}}.BatchInstructions,
		{{- end}}
		pass: func(xs []{{.F}}) (s {{.F}}) {
			for i := 0; i+{{.Alias}}.NumFeatures <= len(xs); i += {{.Alias}}.NumFeatures {
				s += {{.Alias}}.Predict((*[{{.Alias}}.NumFeatures]{{.F}})(xs[i:]))[0]
			}
			return s
		},
		errFeatures: {{.Alias}}.ErrFeatureCount,
		errOutputs:  {{.Alias}}.ErrOutputCount,
	}),
{{- end}}
}

// float is the type of the values of a generated package.
type float interface{ float32 | float64 }

// pkg is what the driver calls of a generated package of type F: its entry
// points on slices of NumFeatures and NumOutputs values (class is nil when
// the package has no PredictClass), pass, which adds up the first
// prediction of each row of xs, and BatchInstructions (nil when the package
// has none).
type pkg[F float] struct {
	nf, no                 int
	predict, margin        func(x, out []F)
	slice, batch           func(x, out []F) error
	class                  func(x []F) int
	pass                   func(xs []F) F
	instructions           func() string
	errFeatures, errOutputs error
}

// section is the part of the input for one package: its rows, and what to
// do besides predicting them.
type section struct {
	rows   [][]float64
	check  bool
	allocs bool
	budget time.Duration
}

// sink keeps the results of timed calls alive.
var sink float64

func main() {
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	w := bufio.NewWriter(os.Stdout)
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines) && lines[i] != ""; {
		var name string
		var n, withChecks, withAllocs int
		var budget int64
		if _, err := fmt.Sscanf(lines[i], "pkg %s %d %d %d %d", &name, &n, &withChecks, &withAllocs, &budget); err != nil {
			fail(fmt.Errorf("line %d: %v", i+1, err))
		}
		s := &section{check: withChecks == 1, allocs: withAllocs == 1, budget: time.Duration(budget)}
		for _, line := range lines[i+1 : i+1+n] {
			var row []float64
			for _, f := range strings.Fields(line) {
				u, err := strconv.ParseUint(f, 16, 64)
				if err != nil {
					fail(err)
				}
				row = append(row, math.Float64frombits(u))
			}
			s.rows = append(s.rows, row)
		}
		i += 1 + n
		fmt.Fprintf(w, "pkg %s\n", name)
		runners[name](s, w)
	}
	if err := w.Flush(); err != nil {
		fail(err)
	}
}

// run returns the function that runs p on a section: it prints the margins,
// predictions and class of every row and the instructions of PredictBatch,
// then does the checks, counts and timing that the section asks for.
func run[F float](p *pkg[F]) func(*section, *bufio.Writer) {
	return func(s *section, w *bufio.Writer) {
		n := len(s.rows)
		xs := make([]F, 0, n*p.nf)
		for _, r := range s.rows {
			if len(r) != p.nf {
				fail(fmt.Errorf("row has %d values, want %d", len(r), p.nf))
			}
			for _, v := range r {
				xs = append(xs, F(v))
			}
		}
		preds := make([]F, n*p.no)
		margin := make([]F, p.no)
		for i := 0; i < n; i++ {
			x, pr := xs[i*p.nf:(i+1)*p.nf], preds[i*p.no:(i+1)*p.no]
			p.margin(x, margin)
			p.predict(x, pr)
			w.WriteString("row")
			put(w, margin)
			w.WriteString(" |")
			put(w, pr)
			if p.class != nil {
				fmt.Fprintf(w, " | %d\n", p.class(x))
			} else {
				w.WriteString(" | -\n")
			}
		}
		if p.instructions != nil {
			fmt.Fprintf(w, "instructions %s\n", p.instructions())
		}
		if s.check {
			check(p, xs, preds, w)
		}
		if s.allocs || s.budget > 0 {
			allocs(p, xs, w)
		}
		if s.budget > 0 && n > 0 {
			out := make([]F, n*p.no)
			var sum F
			single := MeasureRows(s.budget, n, func() { sum += p.pass(xs) })
			batch := MeasureRows(s.budget, n, func() {
				if err := p.batch(xs, out); err != nil {
					fail(err)
				}
			})
			sink += float64(sum)
			fmt.Fprintf(w, "time %g %g\n", single, batch)
		}
	}
}

// check prints a line "problem ..." for each way in which the entry points
// of p disagree with Predict, whose results on the rows xs are preds, or
// accept inputs or outputs of the wrong length.
func check[F float](p *pkg[F], xs, preds []F, w *bufio.Writer) {
	problem := func(format string, args ...any) {
		w.WriteString("problem " + fmt.Sprintf(format, args...) + "\n")
	}
	out := make([]F, p.no)
	for i := 0; i*p.nf < len(xs); i++ {
		if err := p.slice(xs[i*p.nf:(i+1)*p.nf], out); err != nil || !same(out, preds[i*p.no:(i+1)*p.no]) {
			problem("row %d: PredictSlice returns %v (error %v), Predict %v", i, out, err, preds[i*p.no:(i+1)*p.no])
			break
		}
	}
	got := make([]F, len(preds))
	if err := p.batch(xs, got); err != nil || !same(got, preds) {
		problem("PredictBatch differs from Predict (error %v)", err)
	}
	// The rows as they are, NaN included, repeated into several blocks:
	// PredictBatch may score blocks with NaN together (the vector code).
	if len(xs) > 0 {
		var many, want []F
		for len(many) < 150*p.nf {
			many = append(many, xs...)
			want = append(want, preds...)
		}
		got := make([]F, len(want))
		if err := p.batch(many, got); err != nil || !same(got, want) {
			problem("PredictBatch differs from Predict on %d rows, NaN included (error %v)", len(many)/p.nf, err)
		}
	}
	// Rows without NaN, several blocks of them: PredictBatch may score
	// blocks of rows together.
	if len(xs) > 0 {
		var clean, want []F
		for len(clean) < 150*p.nf {
			for i := 0; i < len(xs); i += p.nf {
				x := append([]F(nil), xs[i:i+p.nf]...)
				for j := range x {
					if x[j] != x[j] {
						x[j] = F(j%3) - 1
					}
				}
				p.predict(x, out)
				clean = append(clean, x...)
				want = append(want, out...)
			}
		}
		got := make([]F, len(want))
		if err := p.batch(clean, got); err != nil || !same(got, want) {
			problem("PredictBatch differs from Predict on %d rows without NaN (error %v)", len(clean)/p.nf, err)
		}
	}
	if err := p.slice(make([]F, p.nf+1), out); err != p.errFeatures {
		problem("PredictSlice of a row of %d values: error %v, want ErrFeatureCount", p.nf+1, err)
	}
	if p.nf > 1 {
		if err := p.batch(make([]F, 2*p.nf+1), make([]F, 2*p.no)); err != p.errFeatures {
			problem("PredictBatch of %d values: error %v, want ErrFeatureCount", 2*p.nf+1, err)
		}
	}
	if err := p.batch(make([]F, 2*p.nf), make([]F, 2*p.no+1)); err != p.errOutputs {
		problem("PredictBatch of 2 rows into %d outputs: error %v, want ErrOutputCount", 2*p.no+1, err)
	}
}

// allocs prints "allocs A B": the heap allocations of a call of Predict (on
// the first row of xs, or zeros) and of PredictBatch on 130 rows.
func allocs[F float](p *pkg[F], xs []F, w *bufio.Writer) {
	x := make([]F, p.nf)
	copy(x, xs)
	out := make([]F, p.no)
	rows := make([]F, 130*p.nf)
	outs := make([]F, 130*p.no)
	a := testing.AllocsPerRun(100, func() { p.predict(x, out) })
	b := testing.AllocsPerRun(100, func() { _ = p.batch(rows, outs) })
	fmt.Fprintf(w, "allocs %g %g\n", a, b)
}

// put prints the values v, each as " " and the hexadecimal bits of the
// float64 value.
func put[F float](w *bufio.Writer, v []F) {
	for _, x := range v {
		w.WriteString(" " + strconv.FormatUint(math.Float64bits(float64(x)), 16))
	}
}

// same reports whether a and b hold the same values bit for bit, any NaN
// equal to any NaN.
func same[F float](a, b []F) bool {
	for i := range a {
		if math.Float64bits(float64(a[i])) != math.Float64bits(float64(b[i])) && !(a[i] != a[i] && b[i] != b[i]) {
			return false
		}
	}
	return len(a) == len(b)
}

// fail reports err and exits.
func fail(err error) {
	fmt.Fprintln(os.Stderr, "driver:", err)
	os.Exit(1)
}

{{.Measure}}
`))
