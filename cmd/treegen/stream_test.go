package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/predict"
	"github.com/treegen/treegen/runtime"
)

// withStdin runs f with in as the standard input.
func withStdin(in []byte, f func()) {
	old := stdin
	stdin = bytes.NewReader(in)
	defer func() { stdin = old }()
	f()
}

// TestPredictStdin checks that predict and eval read --data - from the
// standard input, plain or gzipped, as they read the file, and that
// predict writes -o - to the standard output.
func TestPredictStdin(t *testing.T) {
	model := trained(t)
	file := "testdata/small.tsv"
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(raw)
	zw.Close()
	for _, cmd := range [][]string{
		{"predict", "--model", model},
		{"predict", "--model", model, "--margin", "--precision", "float32"},
		{"predict", "--model", model, "--leaves"},
		{"eval", "--model", model, "--json"},
	} {
		code, want, stderr := treegen(t, append(cmd, "--data", file)...)
		if code != 0 {
			t.Fatalf("%v: %s", cmd, stderr)
		}
		for name, in := range map[string][]byte{"plain": raw, "gzip": gz.Bytes()} {
			args := append(slices.Clone(cmd), "--data", "-")
			if cmd[0] == "predict" {
				args = append(args, "-o", "-")
			}
			var got string
			withStdin(in, func() { code, got, stderr = treegen(t, args...) })
			if code != 0 {
				t.Fatalf("%v on %s stdin: %s", cmd, name, stderr)
			}
			if cmd[0] == "eval" {
				want = strings.ReplaceAll(want, file, "-")
			}
			if got != want {
				t.Errorf("%v on %s stdin:\n%s\nwant\n%s", cmd, name, got, want)
			}
		}
	}
}

// TestPredictStreamErrors checks the errors of rows read from the
// standard input, and that an error in a later row leaves no output file.
func TestPredictStreamErrors(t *testing.T) {
	model := trained(t)
	raw, err := os.ReadFile("testdata/small.tsv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(raw), "\n")
	bad := strings.Join(lines[:3], "") + strings.Replace(lines[3], "\t", "\tx", 1) + strings.Join(lines[4:], "")
	out := filepath.Join(t.TempDir(), "p.csv")
	var code int
	var stderr string
	withStdin([]byte(bad), func() { code, _, stderr = treegen(t, "predict", "--model", model, "--data", "-", "-o", out) })
	if code == 0 || !strings.HasPrefix(stderr, "treegen: stdin:4:") {
		t.Errorf("exit %d, stderr %q, want an error at stdin:4", code, stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("%s was written despite the error", out)
	}
}

// TestPredictManyChunks predicts a file of many chunks (parsed and scored
// on several goroutines at once: 3 chunks of the default size, thousands
// of small ones) and compares every line with the interpreter's prediction
// of the row read whole.
func TestPredictManyChunks(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("a,b,c,target\n")
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 120_000 {
		fmt.Fprintf(&b, "%.6g,%.4g,%d,%d\n", r.NormFloat64(), r.Float64()*100, r.IntN(7), i%2)
	}
	file := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.json")
	if code, _, stderr := treegen(t, "train", "gbdt", "--objective", "logistic", "--trees", "5", "--data", file, "-o", model); code != 0 {
		t.Fatal(stderr)
	}
	m, err := ir.Load(model)
	if err != nil {
		t.Fatal(err)
	}
	p, err := runtime.New[float64](m)
	if err != nil {
		t.Fatal(err)
	}
	d, err := data.ReadFile(file, data.Options{DropTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"p_1,class"}
	pred := make([]float64, 1)
	for i := range d.Rows {
		p.Predict(d.Row(i), pred)
		c, _ := p.PredictClass(d.Row(i))
		want = append(want, strconv.FormatFloat(pred[0], 'g', -1, 64)+","+m.ClassNames[c])
	}
	check := func(how, out string) {
		t.Helper()
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if len(lines) != len(want) {
			t.Fatalf("%s: %d lines, want %d", how, len(lines), len(want))
		}
		for i := range lines {
			if lines[i] != want[i] {
				t.Fatalf("%s: line %d: %q, want %q", how, i+1, lines[i], want[i])
			}
		}
	}
	code, out, stderr := treegen(t, "predict", "--model", model, "--data", file)
	if code != 0 {
		t.Fatal(stderr)
	}
	check("predict", out)
	for _, size := range []int{300, 4096} {
		s, err := data.OpenFileStream(file, data.Options{DropTarget: true, ChunkBytes: size})
		if err != nil {
			t.Fatal(err)
		}
		cols, err := predict.Outputs(m, false, ir.Float64)
		if err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := cols.WriteCSV(&buf, s); err != nil {
			t.Fatal(err)
		}
		s.Close()
		check(fmt.Sprintf("chunks of %d bytes", size), buf.String())
	}
}
