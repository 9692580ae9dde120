package gobench

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	goruntime "runtime"
	"time"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// Timing is what Loop measured: the time and the heap allocations per row.
type Timing struct {
	// NsPerRow is the fastest time per row of the runs.
	NsPerRow float64
	// AllocsPerPass is the most heap allocations of one pass over the rows
	// in a run, in whole allocations as go test -benchmem counts them
	// (allocations of the run divided by its passes, rounded down).
	AllocsPerPass uint64
}

// Loop times pass, one pass over n rows, as a benchmark of the testing
// package would, without that package: count runs (at least one), each
// repeating pass until it has run for at least d (1s when d is 0), the
// number of passes of a run growing as testing.B grows b.N. It counts the
// heap allocations of each run with runtime.ReadMemStats, as testing does,
// and returns the fastest run's time per row and the most allocations per
// pass.
func Loop(count, n int, d time.Duration, pass func()) Timing {
	if d <= 0 {
		d = time.Second
	}
	var t Timing
	for i := range max(count, 1) {
		ns, allocs := run(d, pass)
		perRow := ns / float64(max(n, 1))
		if i == 0 || perRow < t.NsPerRow {
			t.NsPerRow = perRow
		}
		t.AllocsPerPass = max(t.AllocsPerPass, allocs)
	}
	return t
}

// run repeats pass for at least d and returns the time per pass and the
// heap allocations per pass of the last, longest repetition.
func run(d time.Duration, pass func()) (nsPerPass float64, allocsPerPass uint64) {
	var ms goruntime.MemStats
	for passes := 1; ; {
		goruntime.GC()
		goruntime.ReadMemStats(&ms)
		mallocs := ms.Mallocs
		start := time.Now()
		for range passes {
			pass()
		}
		elapsed := time.Since(start)
		goruntime.ReadMemStats(&ms)
		const most = 1_000_000_000
		if elapsed >= d || passes >= most {
			return float64(elapsed.Nanoseconds()) / float64(passes), (ms.Mallocs - mallocs) / uint64(passes)
		}
		// Aim 20% past d, growing at least by one pass and at most 100
		// times, as testing.B does.
		next := passes * 100
		if ns := elapsed.Nanoseconds(); ns > 0 {
			next = min(next, int(1.2*float64(d.Nanoseconds())*float64(passes)/float64(ns)))
		}
		passes = min(max(next, passes+1), most)
	}
}

// Interpreter times the interpreter on rows with m, in precision prec, as
// Run times a generated package: NsPerRow calling Predict on each row in
// turn, NsPerRowBatch calling PredictBatch on all rows at once, each the
// fastest of opts.Count runs of at least opts.BenchTime (see Loop), with
// the heap allocations of one pass. Its Build is the time of loading the
// model into the interpreter, its Instructions "portable".
func Interpreter(m *ir.Model, rows [][]float64, prec ir.Precision, opts Options) (*Result, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("no rows to time the interpreter on")
	}
	if prec.Is32() {
		return interpreter[float32](m, rows, opts)
	}
	return interpreter[float64](m, rows, opts)
}

func interpreter[F runtime.Float](m *ir.Model, rows [][]float64, opts Options) (*Result, error) {
	start := time.Now()
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	load := time.Since(start)
	xs := make([][]F, len(rows))
	flat := make([]F, 0, len(rows)*m.NumFeatures)
	for i, r := range rows {
		if len(r) != m.NumFeatures {
			return nil, fmt.Errorf("row %d has %d values, the model %d features", i+1, len(r), m.NumFeatures)
		}
		xs[i] = make([]F, len(r))
		for j, v := range r {
			xs[i][j] = F(v)
		}
		flat = append(flat, xs[i]...)
	}
	out := make([]F, m.NumOutputs)
	batch := make([]F, len(rows)*m.NumOutputs)
	var failed error
	one := Loop(opts.Count, len(rows), opts.BenchTime, func() {
		for _, x := range xs {
			if err := p.Predict(x, out); err != nil {
				failed = err
			}
		}
	})
	batched := Loop(opts.Count, len(rows), opts.BenchTime, func() {
		if err := p.PredictBatch(flat, batch, false); err != nil {
			failed = err
		}
	})
	if failed != nil {
		return nil, failed
	}
	return &Result{
		Rows: len(rows), NsPerRow: one.NsPerRow, NsPerRowBatch: batched.NsPerRow,
		AllocsPerOp: one.AllocsPerPass, AllocsPerOpBatch: batched.AllocsPerPass,
		Build: load, Instructions: "portable",
	}, nil
}

// Generated generates the package of m with the named backend in precision
// prec into a temporary folder and times it with Run. It returns the
// result and the size of the generated source in bytes.
func Generated(ctx context.Context, m *ir.Model, backend string, prec ir.Precision, rows [][]float64, opts Options) (*Result, int, error) {
	files, err := codegen.Generate(m, codegen.Options{Package: "bench", Backend: backend, Precision: prec})
	if err != nil {
		return nil, 0, err
	}
	dir, err := os.MkdirTemp("", "treegen-bench-")
	if err != nil {
		return nil, 0, err
	}
	defer os.RemoveAll(dir)
	pkg := filepath.Join(dir, "bench")
	if err := os.Mkdir(pkg, 0o755); err != nil {
		return nil, 0, err
	}
	if err := codegen.WriteDir(pkg, files); err != nil {
		return nil, 0, err
	}
	size := 0
	for _, f := range files {
		size += len(f.Data)
	}
	res, err := Run(ctx, pkg, rows, opts)
	if err != nil {
		return nil, 0, err
	}
	return res, size, nil
}
