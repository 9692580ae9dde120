package harness

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ModulePath is the module path of a Module: the package in its folder
// NAME is imported as ModulePath/NAME.
const ModulePath = "example.com/gen"

// Module is a temporary Go module holding generated packages, one per
// folder, and a driver program that runs them all: one go build for any
// number of packages.
type Module struct {
	// Dir is the root folder of the module.
	Dir string
	// Go is the go command (default "go" from PATH).
	Go string
	// Vet runs go vet on the module, driver included, before the build.
	Vet bool
	// Trimpath vets and builds with -trimpath: the folder of a package is
	// then not part of what it compiles to, so that a package that was
	// built or vetted before in another module (a test's earlier run) comes
	// from the go command's cache.
	Trimpath bool
	// VetTime, BuildTime and RunTime are how long the last go vet, go
	// build of the driver and run of the driver took.
	VetTime, BuildTime, RunTime time.Duration

	members []member
}

// member is a package that the driver runs.
type member struct {
	name string
	pkg  *Package
	rows [][]float64
	opts Options
}

// NewModule makes the empty folder dir a module, ModulePath, for packages
// written into its subfolders.
func NewModule(dir string) (*Module, error) {
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module "+ModulePath+"\n\ngo 1.21\n"), 0o644); err != nil {
		return nil, err
	}
	return &Module{Dir: dir}, nil
}

// PackageDir returns the folder of the package name: where the caller
// writes a generated package before it calls Add.
func (mod *Module) PackageDir(name string) string { return filepath.Join(mod.Dir, name) }

// Add adds the generated package written into PackageDir(name) to the
// driver, to run on rows with the checks and measurements of opts (whose
// Go is ignored: Module.Go names the go command). Every row must have the
// package's NumFeatures values.
func (mod *Module) Add(name string, rows [][]float64, opts Options) error {
	for _, m := range mod.members {
		if m.name == name {
			return fmt.Errorf("package %s added twice", name)
		}
	}
	pkg, err := Inspect(mod.PackageDir(name))
	if err != nil {
		return err
	}
	mod.members = append(mod.members, member{name: name, pkg: pkg, rows: rows, opts: opts})
	return nil
}

// GoCmd runs the go command with args in the module and returns its
// combined output.
func (mod *Module) GoCmd(args ...string) ([]byte, error) {
	return mod.goCmd(context.Background(), nil, args...)
}

// GoCmdEnv is GoCmd with the variables env ("NAME=value") added to the
// go command's environment.
func (mod *Module) GoCmdEnv(env []string, args ...string) ([]byte, error) {
	return mod.goCmd(context.Background(), env, args...)
}

// goCmd is GoCmdEnv under ctx.
func (mod *Module) goCmd(ctx context.Context, env []string, args ...string) ([]byte, error) {
	gocmd, err := goCommand(mod.Go)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, gocmd, args...)
	cmd.Dir = mod.Dir
	cmd.Env = append(GoEnv(), env...)
	if mod.Trimpath {
		cmd.Env = append(cmd.Env, "GOFLAGS=-mod=mod -trimpath")
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		return out, fmt.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out, nil
}

// Gofmt returns an error unless gofmt -l finds every file of the added
// packages formatted.
func (mod *Module) Gofmt() error {
	gocmd, err := goCommand(mod.Go)
	if err != nil {
		return err
	}
	gofmt := "gofmt"
	if out, err := exec.Command(gocmd, "env", "GOROOT").Output(); err == nil {
		gofmt = filepath.Join(strings.TrimSpace(string(out)), "bin", "gofmt")
	}
	args := []string{"-l"}
	for _, m := range mod.members {
		args = append(args, m.name)
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

// Run writes the driver and the rows, vets the module if Vet is set, builds
// the driver, runs it and returns the results of the added packages, in the
// order of Add. A package whose checks fail has Problems; a package that
// does not build, or a driver that fails, is an error.
func (mod *Module) Run(ctx context.Context) ([]*Result, error) {
	if err := mod.write(); err != nil {
		return nil, err
	}
	if mod.Vet {
		start := time.Now()
		if _, err := mod.goCmd(ctx, nil, "vet", "./..."); err != nil {
			return nil, err
		}
		mod.VetTime = time.Since(start)
	}
	start := time.Now()
	if _, err := mod.goCmd(ctx, nil, "build", "-o", "driver.exe", "./driver"); err != nil {
		return nil, fmt.Errorf("building failed: %w", err)
	}
	mod.BuildTime = time.Since(start)
	start = time.Now()
	cmd := exec.CommandContext(ctx, filepath.Join(mod.Dir, "driver.exe"), "rows.txt")
	cmd.Dir = mod.Dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("running failed: %v\n%s", err, stderr.Bytes())
	}
	mod.RunTime = time.Since(start)
	results, err := mod.parse(out)
	if err != nil {
		return nil, err
	}
	for i, r := range results {
		if len(r.Preds) != len(mod.members[i].rows) {
			return nil, fmt.Errorf("package %s: the driver answered %d rows of %d", mod.members[i].name, len(r.Preds), len(mod.members[i].rows))
		}
		r.Build = mod.BuildTime
	}
	return results, nil
}

// write writes the driver program and its input, rows.txt: for each
// package a line "pkg NAME ROWS CHECK ALLOCS TIME" and its rows, each value
// as the hexadecimal bits of a float64.
func (mod *Module) write() error {
	src, err := driverSource(mod.members)
	if err != nil {
		return err
	}
	dir := filepath.Join(mod.Dir, "driver")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644); err != nil {
		return err
	}
	var b bytes.Buffer
	flag := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	for _, m := range mod.members {
		fmt.Fprintf(&b, "pkg %s %d %d %d %d\n", m.name, len(m.rows), flag(m.opts.Check), flag(m.opts.Allocs), int64(m.opts.Time))
		for _, row := range m.rows {
			for j, v := range row {
				if j > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(strconv.FormatUint(math.Float64bits(v), 16))
			}
			b.WriteByte('\n')
		}
	}
	return os.WriteFile(filepath.Join(mod.Dir, "rows.txt"), b.Bytes(), 0o644)
}

// parse reads the driver's output: a line "pkg NAME" starts the output of a
// package, then a line "row MARGINS | PREDICTIONS | CLASS" per row and
// lines "instructions NAME", "problem TEXT", "allocs PREDICT BATCH" and
// "time SINGLE BATCH".
func (mod *Module) parse(out []byte) ([]*Result, error) {
	results := make([]*Result, len(mod.members))
	index := make(map[string]int, len(mod.members))
	for i, m := range mod.members {
		index[m.name] = i
		results[i] = &Result{}
	}
	var cur *Result
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for sc.Scan() {
		line := sc.Text()
		tag, rest, _ := strings.Cut(line, " ")
		if tag == "pkg" {
			i, ok := index[rest]
			if !ok {
				return nil, fmt.Errorf("driver: unknown package in %q", line)
			}
			cur = results[i]
			continue
		}
		if cur == nil {
			return nil, fmt.Errorf("driver: output before the first package: %q", line)
		}
		var err error
		switch tag {
		case "row":
			err = parseRow(rest, cur)
		case "instructions":
			cur.Instructions = rest
		case "problem":
			cur.Problems = append(cur.Problems, rest)
		case "allocs":
			cur.AllocsPerRow, cur.BatchAllocs, err = twoFloats(rest)
		case "time":
			cur.NsPerRow, cur.NsPerRowBatch, err = twoFloats(rest)
		default:
			err = fmt.Errorf("unexpected line")
		}
		if err != nil {
			return nil, fmt.Errorf("driver: %v: %q", err, line)
		}
	}
	return results, sc.Err()
}

// parseRow reads "MARGINS | PREDICTIONS | CLASS" into res; CLASS is "-"
// for a package without PredictClass.
func parseRow(s string, res *Result) error {
	parts := strings.Split(s, " | ")
	if len(parts) != 3 {
		return fmt.Errorf("bad row")
	}
	m, err := hexFloats(parts[0])
	if err != nil {
		return err
	}
	p, err := hexFloats(parts[1])
	if err != nil {
		return err
	}
	res.Margins = append(res.Margins, m)
	res.Preds = append(res.Preds, p)
	if parts[2] != "-" {
		c, err := strconv.Atoi(parts[2])
		if err != nil {
			return err
		}
		res.Classes = append(res.Classes, c)
	}
	return nil
}

// hexFloats reads float64 values written as the hexadecimal bits.
func hexFloats(s string) ([]float64, error) {
	fields := strings.Fields(s)
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

// twoFloats reads two numbers separated by a space.
func twoFloats(s string) (a, b float64, err error) {
	f := strings.Fields(s)
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("want two numbers")
	}
	if a, err = strconv.ParseFloat(f[0], 64); err != nil {
		return 0, 0, err
	}
	b, err = strconv.ParseFloat(f[1], 64)
	return a, b, err
}
