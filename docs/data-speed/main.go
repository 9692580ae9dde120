// Command data-speed measures how fast treegen reads data files and scores
// them from the command line, and in how much memory, on generated files
// of a million rows and more.
//
// Run it from the repository root:
//
//	go run ./docs/data-speed -out docs
//	go run ./docs/data-speed -out /tmp/ds -rows 100000 -big-gb 0 -repeat 1
//
// The first writes docs/data-speed.csv (every figure) and docs/data-speed.md
// (a paragraph on the machine, then the tables of docs/DATA.md), and prints
// the Markdown; it needs about 25 GB of free disk in -dir (default: a new
// temporary directory, removed at the end) and, on two cores, about a
// quarter of an hour. The second is a quick check of the set-up.
//
// # Files
//
// Every file is generated from -seed, in blocks of 10,000 rows, each from
// its own random stream, so that the files do not depend on the number of
// cores. A row has 50 features x1..x50 and a binary target: x1..x20 and
// x41..x50 are standard normal, x21..x40 correlated with the first twenty
// (x(20+j) = 0.8·xj + 0.6·z), and the target is 1 when
//
//	x1·x2 + sin(2·x3) + |x4| - 0.8 + 0.5·(x5² - 1) + 0.8·x6·[x7 > 0] + ε > 0,
//
// ε standard normal (the synthetic set of docs/gbdt-speed). The features
// are written with 7 significant digits (strconv 'g', 7), about 510 bytes
// a row in CSV. The files:
//
//   - rows.csv, rows.tsv and rows.libsvm: -rows rows (default 1,000,000;
//     with a comma-separated list, a CSV of each), the same rows in the
//     three formats, and rows.parquet, written from rows.csv by
//     parquet.Writer of package data/parquet (DOUBLE columns);
//   - counts.csv: as many rows of 50 integer features 0..255 (the features
//     above, scaled and rounded);
//   - model.json: a GBDT model of 100 trees of depth 8 (logistic),
//     trained by "treegen train gbdt" on 100,000 rows of another seed;
//   - big.csv: rows up to -big-gb gigabytes (default 10; 0 skips it).
//
// # What is measured
//
// Reading: data.ReadFile (the whole file into a Dataset) and a data.Stream
// read to its end without keeping the rows, in this process, on
// GOMAXPROCS cores (the fastest of -repeat runs); MB/s counts the file's
// bytes. Commands: "treegen predict", "treegen eval" and "treegen train
// gbdt" (10 trees of depth 6, for its memory, with the features in float64
// and compact) run as users run them, under
// /usr/bin/time, which reports the wall time and the peak resident set
// size (the fastest time and the largest peak of -repeat runs); predict
// also reads gzip from its standard input (zcat rows.csv.gz | treegen
// predict --data -), and Parquet, and writes Parquet. The binary is built
// once with "go build" into -dir.
//
// big.csv is scored whole, and then in 10 pieces of consecutive rows, each
// piece given the header line and fed to "treegen predict --data -" on its
// standard input; the program checks that the whole file's output is,
// byte for byte, the pieces' outputs one after the other (each piece's
// header line dropped but the first).
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"flag"
	"fmt"
	"io"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/data/parquet" // writes rows.parquet, and registers the format: ReadFile reads it
	"github.com/treegen/treegen/docs/internal/repro"
	"github.com/treegen/treegen/internal/atomicfile"
)

type config struct {
	out, dir string
	rows     []int
	bigGB    float64
	repeat   int
	seed     uint64
	keep     bool
}

// result is one measurement: a row of data-speed.csv.
type result struct {
	what, file   string
	rows         int
	bytes        int64
	seconds      float64
	peakMiB      float64 // 0 when not measured
	note         string
	perRowBytes  float64 // peak RSS per row, for training
	throughputMB float64
}

func main() {
	var c config
	flag.StringVar(&c.out, "out", "docs", "directory for data-speed.csv and data-speed.md (empty: none)")
	flag.StringVar(&c.dir, "dir", "", "directory for the generated files (default: a new temporary one, removed at the end)")
	rows := flag.String("rows", "1000000,10000000", "comma-separated row counts of the generated CSV files; the first is also written as TSV, LibSVM and counts.csv")
	flag.Float64Var(&c.bigGB, "big-gb", 10, "size of big.csv in gigabytes (0: no big file)")
	flag.IntVar(&c.repeat, "repeat", 3, "runs of every measurement; the fastest counts")
	flag.Uint64Var(&c.seed, "seed", 1, "seed of the generated files")
	flag.BoolVar(&c.keep, "keep", false, "keep the generated files")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("data-speed: ")
	for _, f := range strings.Split(*rows, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1000 {
			log.Fatalf("-rows: %q is not a row count of at least 1000", f)
		}
		c.rows = append(c.rows, n)
	}
	if c.repeat < 1 {
		log.Fatal("-repeat must be at least 1")
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		log.Fatal("/usr/bin/time is needed to measure the commands (Debian package time)")
	}
	if err := run(c); err != nil {
		log.Fatal(err)
	}
}

func run(c config) error {
	if c.dir == "" {
		dir, err := os.MkdirTemp("", "data-speed-")
		if err != nil {
			return err
		}
		c.dir = dir
		if !c.keep {
			defer os.RemoveAll(dir)
		}
	}
	bin := filepath.Join(c.dir, "treegen")
	log.Printf("building %s", bin)
	if out, err := exec.Command("go", "build", "-o", bin, "./cmd/treegen").CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %v\n%s", err, out)
	}
	path := func(name string) string { return filepath.Join(c.dir, name) }
	g := generator{seed: c.seed}

	// The model, from rows of another seed.
	trainRows := 100_000
	if err := (&generator{seed: c.seed + 1000}).write(path("train.csv"), trainRows, csvRow); err != nil {
		return err
	}
	log.Print("training model.json")
	if _, err := command(bin, "train", "gbdt", "--objective", "logistic", "--trees", "100", "--max-depth", "8",
		"--data", path("train.csv"), "-o", path("model.json")); err != nil {
		return err
	}

	var res []result
	n := c.rows[0]
	files := []struct {
		name string
		row  rowFormat
	}{{"rows.csv", csvRow}, {"rows.tsv", tsvRow}, {"rows.libsvm", libsvmRow}, {"counts.csv", countsRow}}
	for _, f := range files {
		log.Printf("writing %s (%d rows)", f.name, n)
		if err := g.write(path(f.name), n, f.row); err != nil {
			return err
		}
	}

	log.Print("writing rows.parquet")
	if err := toParquet(path("rows.csv"), path("rows.parquet")); err != nil {
		return err
	}

	// Reading, in this process.
	for _, name := range []string{"rows.csv", "rows.tsv", "rows.libsvm", "rows.parquet"} {
		r, err := measureRead(path(name), n, c.repeat)
		if err != nil {
			return err
		}
		res = append(res, r...)
	}

	// The commands.
	csv := path("rows.csv")
	predict := func(file string, rows, repeat int, args ...string) error {
		r, err := timed(repeat, bin, append([]string{"predict", "--model", path("model.json"), "--data", file, "-o", path("out.csv")}, args...)...)
		if err != nil {
			return err
		}
		r.what, r.file, r.rows = "treegen predict", filepath.Base(file), rows
		r.bytes = size(file)
		r.throughputMB = float64(r.bytes) / 1e6 / r.seconds
		res = append(res, r)
		return nil
	}
	if err := predict(csv, n, c.repeat); err != nil {
		return err
	}
	if err := predict(path("rows.tsv"), n, c.repeat); err != nil {
		return err
	}
	if err := predict(path("rows.parquet"), n, c.repeat); err != nil {
		return err
	}
	if err := predict(csv, n, c.repeat, "-o", path("out.parquet")); err != nil {
		return err
	}
	res[len(res)-1].note = "Parquet out"
	r, err := timed(c.repeat, bin, "eval", "--model", path("model.json"), "--data", csv)
	if err != nil {
		return err
	}
	r.what, r.file, r.rows, r.bytes = "treegen eval", "rows.csv", n, size(csv)
	r.throughputMB = float64(r.bytes) / 1e6 / r.seconds
	res = append(res, r)

	// gzip on the standard input.
	log.Print("compressing rows.csv")
	if err := gzipFile(csv, csv+".gz"); err != nil {
		return err
	}
	r, err = timedShell(c.repeat, fmt.Sprintf("zcat %q | /usr/bin/time -f '%%e %%M' %q predict --model %q --data - -o %q",
		csv+".gz", bin, path("model.json"), path("out.csv")))
	if err != nil {
		return err
	}
	r.what, r.file, r.rows, r.bytes = "zcat | treegen predict --data -", "rows.csv.gz", n, size(csv)
	r.throughputMB = float64(r.bytes) / 1e6 / r.seconds
	r.note = fmt.Sprintf("%.0f MB gzip (-6)", float64(size(csv+".gz"))/1e6)
	res = append(res, r)

	// Training memory.
	for _, f := range []struct{ name, compact, note string }{
		{"rows.csv", "false", "float64 features (--compact=false)"},
		{"rows.csv", "true", "compact features (short decimals)"},
		{"counts.csv", "true", "compact features (integers)"},
		{"rows.parquet", "true", "compact features (short decimals)"},
	} {
		r, err := timed(1, bin, "train", "gbdt", "--objective", "logistic", "--trees", "10", "--max-depth", "6",
			"--compact="+f.compact, "--data", path(f.name), "-o", path("trained.json"))
		if err != nil {
			return err
		}
		r.what, r.file, r.rows, r.bytes = "treegen train gbdt (10 trees)", f.name, n, size(path(f.name))
		r.perRowBytes = r.peakMiB * (1 << 20) / float64(n)
		r.note = f.note
		res = append(res, r)
	}
	for _, f := range files {
		os.Remove(path(f.name))
	}
	os.Remove(path("rows.parquet"))

	// Larger CSV files.
	for _, rows := range c.rows[1:] {
		name := path(fmt.Sprintf("rows-%d.csv", rows))
		log.Printf("writing %s", name)
		if err := g.write(name, rows, csvRow); err != nil {
			return err
		}
		if err := predict(name, rows, 1); err != nil {
			return err
		}
		os.Remove(name)
	}

	if c.bigGB > 0 {
		r, err := big(c, g, bin, path)
		if err != nil {
			return err
		}
		res = append(res, r...)
	}
	return report(c, res)
}

// big writes big.csv, scores it whole and in 10 pieces, and checks that
// the outputs agree.
func big(c config, g generator, bin string, path func(string) string) ([]result, error) {
	name := path("big.csv")
	rows := int(c.bigGB * 1e9 / 510)
	rows -= rows % 10
	log.Printf("writing %s (%d rows, about %.1f GB)", name, rows, c.bigGB)
	if err := g.write(name, rows, csvRow); err != nil {
		return nil, err
	}
	defer os.Remove(name)
	whole := path("big-out.csv")
	r, err := timed(1, bin, "predict", "--model", path("model.json"), "--data", name, "-o", whole)
	if err != nil {
		return nil, err
	}
	defer os.Remove(whole)
	r.what, r.file, r.rows, r.bytes = "treegen predict", "big.csv", rows, size(name)
	r.throughputMB = float64(r.bytes) / 1e6 / r.seconds
	res := []result{r}

	// The pieces: their offsets, then each fed on the standard input.
	header, offs, err := pieces(name, rows, 10)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	var total time.Duration
	peak := 0.0
	for i := range 10 {
		out := path(fmt.Sprintf("piece-%d.csv", i))
		cmd := exec.Command("/usr/bin/time", "-f", "%e %M", bin, "predict", "--model", path("model.json"), "--data", "-", "-o", out)
		cmd.Stdin = io.MultiReader(bytes.NewReader(header), io.NewSectionReader(f, offs[i], offs[i+1]-offs[i]))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		start := time.Now()
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("piece %d: %v\n%s", i, err, stderr.Bytes())
		}
		total += time.Since(start)
		_, kib, err := parseTime(stderr.Bytes())
		if err != nil {
			return nil, err
		}
		peak = max(peak, kib/1024)
		if err := appendPiece(h, out, i == 0); err != nil {
			return nil, err
		}
		os.Remove(out)
	}
	wholeSum, err := fileHash(whole)
	if err != nil {
		return nil, err
	}
	same := bytes.Equal(h.Sum(nil), wholeSum)
	note := "output byte-identical to the whole file's"
	if !same {
		note = "OUTPUT DIFFERS from the whole file's"
	}
	res = append(res, result{what: "10 pieces on stdin", file: "big.csv", rows: rows, bytes: size(name),
		seconds: total.Seconds(), peakMiB: peak, note: note, throughputMB: float64(size(name)) / 1e6 / total.Seconds()})
	if !same {
		return res, fmt.Errorf("the outputs of big.csv whole and in pieces differ")
	}
	return res, nil
}

// toParquet writes the rows of a CSV file, targets included, to a Parquet
// file of DOUBLE columns named as the CSV's.
func toParquet(from, to string) error {
	s, err := data.OpenFileStream(from, data.Options{RequireTarget: true})
	if err != nil {
		return err
	}
	defer s.Close()
	var spec []parquet.Column
	for _, name := range s.Features() {
		spec = append(spec, parquet.Column{Name: name})
	}
	spec = append(spec, parquet.Column{Name: "target"})
	return atomicfile.Write(to, 0o644, func(w io.Writer) error {
		pw, err := parquet.NewWriter(w, spec)
		if err != nil {
			return err
		}
		cols := len(s.Features())
		var nums []float64
		err = s.Each(func(b *data.Block) error {
			nums = nums[:0]
			for r := range b.Rows {
				nums = append(nums, b.X[r*cols:(r+1)*cols]...)
				nums = append(nums, b.Y[r])
			}
			return pw.WriteRows(b.Rows, nums, nil)
		})
		if err != nil {
			return err
		}
		return pw.Close()
	})
}

// pieces returns the header line of a CSV file of rows rows, and the byte
// offsets where k pieces of equal rows start, and its size.
func pieces(name string, rows, k int) ([]byte, []int64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	header, err := br.ReadBytes('\n')
	if err != nil {
		return nil, nil, err
	}
	offs := []int64{int64(len(header))}
	per := rows / k
	pos, row := int64(len(header)), 0
	buf := make([]byte, 1<<20)
	for {
		n, err := br.Read(buf)
		for i := 0; i < n; {
			j := bytes.IndexByte(buf[i:n], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			row++
			if row%per == 0 && len(offs) < k+1 {
				offs = append(offs, pos+int64(i))
			}
		}
		pos += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, err
		}
	}
	if len(offs) != k+1 || offs[k] != pos {
		return nil, nil, fmt.Errorf("%s: %d rows, not %d in %d pieces", name, row, rows, k)
	}
	return header, offs, nil
}

// appendPiece adds the output file of a piece to h, without its header
// line unless first.
func appendPiece(h io.Writer, name string, first bool) error {
	f, err := os.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	if !first {
		if _, err := br.ReadBytes('\n'); err != nil {
			return err
		}
	}
	_, err = io.Copy(h, br)
	return err
}

func fileHash(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// measureRead times data.ReadFile and a data.Stream read to its end on a
// file of n rows.
func measureRead(name string, n, repeat int) ([]result, error) {
	bytes := size(name)
	best := [2]float64{math.Inf(1), math.Inf(1)}
	for range repeat {
		start := time.Now()
		d, err := data.ReadFile(name, data.Options{})
		if err != nil {
			return nil, err
		}
		best[0] = min(best[0], time.Since(start).Seconds())
		if d.Rows != n {
			return nil, fmt.Errorf("%s: %d rows, want %d", name, d.Rows, n)
		}
		d = nil
		goruntime.GC()

		start = time.Now()
		rows, err := streamRows(name)
		if err != nil {
			return nil, err
		}
		best[1] = min(best[1], time.Since(start).Seconds())
		if rows != n {
			return nil, fmt.Errorf("%s: %d rows streamed, want %d", name, rows, n)
		}
	}
	var res []result
	for i, what := range []string{"data.ReadFile", "data.Stream"} {
		res = append(res, result{what: what, file: filepath.Base(name), rows: n, bytes: bytes, seconds: best[i],
			throughputMB: float64(bytes) / 1e6 / best[i], note: fmt.Sprintf("%d goroutines", goruntime.GOMAXPROCS(0))})
	}
	return res, nil
}

func streamRows(name string) (int, error) {
	s, err := data.OpenFileStream(name, data.Options{})
	if err != nil {
		return 0, err
	}
	defer s.Close()
	err = s.Each(func(*data.Block) error { return nil })
	return s.Rows(), err
}

// command runs bin with args and returns its standard output.
func command(bin string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// timed runs bin with args under /usr/bin/time repeat times and returns
// the fastest wall time and the largest peak RSS.
func timed(repeat int, bin string, args ...string) (result, error) {
	return timedCmd(repeat, func() *exec.Cmd {
		return exec.Command("/usr/bin/time", append([]string{"-f", "%e %M", bin}, args...)...)
	})
}

// timedShell is timed for a shell pipeline whose last line of standard
// error is /usr/bin/time's "%e %M".
func timedShell(repeat int, script string) (result, error) {
	return timedCmd(repeat, func() *exec.Cmd { return exec.Command("bash", "-o", "pipefail", "-c", script) })
}

func timedCmd(repeat int, mk func() *exec.Cmd) (result, error) {
	r := result{seconds: math.Inf(1)}
	for range repeat {
		cmd := mk()
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		log.Printf("running %s", strings.Join(cmd.Args, " "))
		if err := cmd.Run(); err != nil {
			return r, fmt.Errorf("%s: %v\n%s", strings.Join(cmd.Args, " "), err, stderr.Bytes())
		}
		sec, kib, err := parseTime(stderr.Bytes())
		if err != nil {
			return r, err
		}
		r.seconds = min(r.seconds, sec)
		r.peakMiB = max(r.peakMiB, kib/1024)
	}
	return r, nil
}

// parseTime reads the last line of standard error that /usr/bin/time
// -f "%e %M" wrote: seconds and KiB.
func parseTime(stderr []byte) (float64, float64, error) {
	lines := strings.Split(strings.TrimSpace(string(stderr)), "\n")
	f := strings.Fields(lines[len(lines)-1])
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("cannot read /usr/bin/time's output %q", stderr)
	}
	sec, err1 := strconv.ParseFloat(f[0], 64)
	kib, err2 := strconv.ParseFloat(f[1], 64)
	if err1 != nil || err2 != nil {
		return 0, 0, fmt.Errorf("cannot read /usr/bin/time's output %q", stderr)
	}
	return sec, kib, nil
}

func size(name string) int64 {
	st, err := os.Stat(name)
	if err != nil {
		return 0
	}
	return st.Size()
}

func gzipFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	return atomicfile.Write(to, 0o644, func(w io.Writer) error {
		zw := gzip.NewWriter(w)
		if _, err := io.Copy(zw, in); err != nil {
			return err
		}
		return zw.Close()
	})
}

// generator writes the generated files.
type generator struct{ seed uint64 }

// rowFormat appends a row (features x, target y) to b.
type rowFormat func(b []byte, x []float64, y int) []byte

const features = 50

func csvRow(b []byte, x []float64, y int) []byte    { return delimited(b, x, y, ',') }
func tsvRow(b []byte, x []float64, y int) []byte    { return delimited(b, x, y, '\t') }
func countsRow(b []byte, x []float64, y int) []byte { return counts(b, x, y) }

func delimited(b []byte, x []float64, y int, sep byte) []byte {
	for _, v := range x {
		b = strconv.AppendFloat(b, v, 'g', 7, 64)
		b = append(b, sep)
	}
	b = strconv.AppendInt(b, int64(y), 10)
	return append(b, '\n')
}

func libsvmRow(b []byte, x []float64, y int) []byte {
	b = strconv.AppendInt(b, int64(y), 10)
	for j, v := range x {
		b = append(b, ' ')
		b = strconv.AppendInt(b, int64(j+1), 10)
		b = append(b, ':')
		b = strconv.AppendFloat(b, v, 'g', 7, 64)
	}
	return append(b, '\n')
}

func counts(b []byte, x []float64, y int) []byte {
	for _, v := range x {
		b = strconv.AppendInt(b, int64(max(0, min(255, math.Round(128+40*v)))), 10)
		b = append(b, ',')
	}
	b = strconv.AppendInt(b, int64(y), 10)
	return append(b, '\n')
}

// blockRows is how many rows one random stream generates.
const blockRows = 10_000

// write writes n rows in the given format to name, with a header line
// unless the format is LibSVM.
func (g generator) write(name string, n int, row rowFormat) error {
	return atomicfile.Write(name, 0o644, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		if !strings.HasSuffix(name, ".libsvm") {
			sep := ","
			if strings.HasSuffix(name, ".tsv") {
				sep = "\t"
			}
			for j := range features {
				fmt.Fprintf(bw, "x%d%s", j+1, sep)
			}
			bw.WriteString("target\n")
		}
		blocks := (n + blockRows - 1) / blockRows
		threads := goruntime.GOMAXPROCS(0)
		out := make([]chan []byte, blocks)
		for i := range out {
			out[i] = make(chan []byte, 1)
		}
		var wg sync.WaitGroup
		next := make(chan int)
		ahead := make(chan struct{}, 2*threads) // blocks generated, not yet written
		for range threads {
			wg.Go(func() {
				for b := range next {
					out[b] <- g.block(b, min(blockRows, n-b*blockRows), row)
				}
			})
		}
		go func() {
			defer close(next)
			for b := range blocks {
				ahead <- struct{}{}
				next <- b
			}
		}()
		var err error
		for b := range blocks {
			buf := <-out[b]
			if err == nil {
				_, err = bw.Write(buf)
			}
			<-ahead
		}
		wg.Wait()
		if err != nil {
			return err
		}
		return bw.Flush()
	})
}

// block generates block b of rows rows.
func (g generator) block(b, rows int, row rowFormat) []byte {
	r := rand.New(rand.NewPCG(g.seed, uint64(b)))
	x := make([]float64, features)
	var buf []byte
	for range rows {
		for j := range 20 {
			x[j] = r.NormFloat64()
		}
		for j := 20; j < 40; j++ {
			x[j] = 0.8*x[j-20] + 0.6*r.NormFloat64()
		}
		for j := 40; j < 50; j++ {
			x[j] = r.NormFloat64()
		}
		f := x[0]*x[1] + math.Sin(2*x[2]) + math.Abs(x[3]) - 0.8 + 0.5*(x[4]*x[4]-1) + r.NormFloat64()
		if x[6] > 0 {
			f += 0.8 * x[5]
		}
		y := 0
		if f > 0 {
			y = 1
		}
		buf = row(buf, x, y)
	}
	return buf
}

// report writes data-speed.csv and data-speed.md and prints the Markdown.
func report(c config, res []result) error {
	var csv strings.Builder
	csv.WriteString("what,file,rows,bytes,seconds,mb_per_s,peak_rss_mib,rss_bytes_per_row,note\n")
	for _, r := range res {
		fmt.Fprintf(&csv, "%s,%s,%d,%d,%.3f,%.1f,%.1f,%.1f,%s\n", r.what, r.file, r.rows, r.bytes, r.seconds, r.throughputMB, r.peakMiB, r.perRowBytes, r.note)
	}
	var md strings.Builder
	fmt.Fprintf(&md, "Measured on %s by `go run ./docs/data-speed -out docs` (%s, %d CPUs, %s/%s, %s), with files generated by the program (50 features written with 7 significant digits and a binary target; about 510 bytes a row in CSV) and a GBDT model of 100 trees of depth 8. Times are wall-clock seconds (the fastest of %d runs), MB/s counts the bytes of the uncompressed file, and peak RSS is the resident set size that `/usr/bin/time` reports.\n\n",
		time.Now().Format("2006-01-02"), repro.CPUModel(), goruntime.NumCPU(), goruntime.GOOS, goruntime.GOARCH, goruntime.Version(), c.repeat)
	md.WriteString("| what | file | rows | MB | seconds | MB/s | peak RSS MiB | note |\n| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |\n")
	for _, r := range res {
		peak := ""
		if r.peakMiB > 0 {
			peak = fmt.Sprintf("%.0f", r.peakMiB)
		}
		note := r.note
		if r.perRowBytes > 0 {
			note = fmt.Sprintf("%s; %.0f bytes a row", note, r.perRowBytes)
		}
		mbs := ""
		if r.throughputMB > 0 {
			mbs = fmt.Sprintf("%.0f", r.throughputMB)
		}
		what := strings.ReplaceAll(r.what, "|", "\\|")
		fmt.Fprintf(&md, "| %s | %s | %s | %.0f | %.2f | %s | %s | %s |\n", what, r.file, thousands(r.rows), float64(r.bytes)/1e6, r.seconds, mbs, peak, note)
	}
	fmt.Print(md.String())
	if c.out == "" {
		return nil
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(c.out, "data-speed.csv"), []byte(csv.String()), 0o644); err != nil {
		return err
	}
	return atomicfile.WriteFile(filepath.Join(c.out, "data-speed.md"), []byte(md.String()), 0o644)
}

// thousands writes n with commas between groups of three digits.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
