package main

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/data/parquet"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

func (a *app) predictCmd() *cobra.Command {
	var model, out string
	var df dataFlags
	var rounds int
	var margin, leaves bool
	prec := codegen.Float64
	cmd := &cobra.Command{
		Use:   "predict --model MODEL.json --data FILE|- [--out FILE|-] [--margin | --leaves]",
		Short: "Predict with the interpreter; CSV or Parquet out",
		Long: `predict runs the interpreter over every row of a data file (with or without
its target column) and writes CSV: one column per output, then, for
classifiers, the predicted class. A classifier's outputs are the
probabilities of its classes, named p_<class> (p_<second class> alone for a
binary classifier); other outputs are named output_0, output_1, ...
--margin writes raw scores before the link, in columns named margin_<class>
(margin_0, margin_1, ... for outputs that are not classes), --leaves the
leaf each tree sends the row to (columns tree_0, tree_1, ...). Numbers are
printed so that they parse back to the same float64 (float32 with
--precision float32). An --out file named *.parquet gets Parquet instead:
DOUBLE columns (FLOAT with --precision float32, INT64 for --leaves) and a
STRING column for the class.

predict streams: it parses and scores the file block by block on every
core and writes the lines in file order, in memory that does not grow with
the file. --data - reads the standard input (gzip too), --out - or no
--out writes the standard output. A LibSVM file streams with --libsvm-base
0 or 1; with auto it is read whole.

A target column in the data file is left out without being read, so it may
hold anything. The feature columns are matched to the model's by name
(--by-position to match them by position; a LibSVM file always is). A TSV or
CSV file whose first line is all numbers has no header line: its columns
are matched by position (--header and --no-header override the guess, and
--target-column N names the column to leave out).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if model == "" {
				return fmt.Errorf("--model is required")
			}
			if leaves && margin {
				return fmt.Errorf("--leaves and --margin exclude each other")
			}
			m, err := loadModelRounds(model, rounds)
			if err != nil {
				return err
			}
			s, err := df.streamFor(m, false, a.stderr)
			if err != nil {
				return err
			}
			defer s.Close()
			var cols *columns
			switch {
			case leaves && prec.Is32():
				cols, err = leafColumns[float32](m)
			case leaves:
				cols, err = leafColumns[float64](m)
			case prec.Is32():
				cols, err = predictionColumns[float32](m, margin)
			default:
				cols, err = predictionColumns[float64](m, margin)
			}
			if err != nil {
				return err
			}
			return writeOut(out, a.stdout, func(w io.Writer) error {
				if isParquet(out) {
					return cols.writeParquet(w, s)
				}
				return cols.writeCSV(w, s)
			})
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	df.register(cmd, "data file (the target column, if present, is left out unread); - reads the standard input", true)
	cmd.Flags().StringVarP(&out, "out", "o", "", "output file: CSV, or Parquet when its name ends in .parquet (default: CSV on stdout)")
	cmd.Flags().BoolVar(&margin, "margin", false, "write raw scores (margins) instead of predictions")
	cmd.Flags().BoolVar(&leaves, "leaves", false, "write the leaf each tree sends the row to (its node index in the tree), one column per tree, like XGBoost's pred_leaf")
	cmd.Flags().Var(&prec, "precision", "interpreter precision: float64, or float32 to match float32 generated code")
	return cmd
}

// columns are the columns that predict writes, and how to fill them for a
// block of rows.
type columns struct {
	names   []string // the numeric columns
	classes []string // the names of the classes, for a class column; nil for none
	ints    bool     // the numbers are integers (leaf indices)
	bits    int      // 32 or 64: the precision of the numbers
	// fill sets b.Scores to the numbers of every row, row-major, followed
	// by the class index of every row when classes is set. It is called
	// on several goroutines at once.
	fill func(b *data.Block)
}

// predictionColumns returns the columns of the predictions (or margins)
// of m, computed by the interpreter in precision F.
func predictionColumns[F runtime.Float](m *ir.Model, margin bool) (*columns, error) {
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	c := &columns{names: outputNames(m, margin), bits: floatBits[F]()}
	if m.IsClassifier() {
		c.classes = make([]string, max(m.NumOutputs, 2))
		for k := range c.classes {
			c.classes[k] = className(m, k)
		}
	}
	k := m.NumOutputs
	var scratch sync.Pool
	c.fill = func(b *data.Block) {
		buf, _ := scratch.Get().(*[]F)
		if buf == nil {
			buf = new([]F)
		}
		defer scratch.Put(buf)
		var x, out []F
		x, out, *buf = batchBuffers(*buf, b, k)
		if err := p.PredictBatch(x, out, margin); err != nil {
			panic(err) // the shapes are right by construction
		}
		n := b.Rows * k
		b.Scores = slices.Grow(b.Scores[:0], n+b.Rows)[:n]
		for i, v := range out {
			b.Scores[i] = float64(v)
		}
		if c.classes != nil {
			for r := range b.Rows {
				b.Scores = append(b.Scores, float64(p.ClassOf(out[r*k:(r+1)*k])))
			}
		}
	}
	return c, nil
}

// leafColumns returns the columns of the leaves that a row reaches in each
// tree of m, tree_0, tree_1, ...: the index of the leaf's node in its tree
// (ir.Tree.Nodes), computed in precision F.
func leafColumns[F runtime.Float](m *ir.Model) (*columns, error) {
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	if !p.HardTrees() {
		return nil, fmt.Errorf("--leaves: the model has soft or latent trees, which send a row to several leaves: leaf indices need hard trees")
	}
	trees := p.NumTrees()
	c := &columns{names: make([]string, trees), ints: true, bits: 64}
	for t := range c.names {
		c.names[t] = "tree_" + strconv.Itoa(t)
	}
	cols := m.NumFeatures
	c.fill = func(b *data.Block) {
		leaves := make([]int, trees)
		x := make([]F, cols)
		b.Scores = b.Scores[:0]
		for r := range b.Rows {
			for j, v := range b.X[r*cols : (r+1)*cols] {
				x[j] = F(v)
			}
			if err := p.PredictLeaves(x, leaves); err != nil {
				panic(err) // the shapes are right by construction
			}
			for _, l := range leaves {
				b.Scores = append(b.Scores, float64(l))
			}
		}
	}
	return c, nil
}

// batchBuffers returns the rows of b in precision F and room for k
// outputs of each, taken from buf, which it grows if it is too short and
// returns for the next call. In float64 the rows are b.X itself, which
// buf never holds: it is the block's, and goes back to the stream.
func batchBuffers[F runtime.Float](buf []F, b *data.Block, k int) (x, out, grown []F) {
	n := len(b.X)
	if xs, ok := any(b.X).([]F); ok {
		n, x = 0, xs
	}
	need := n + b.Rows*k
	if cap(buf) < need {
		buf = make([]F, need)
	}
	buf = buf[:need]
	if n > 0 {
		x = buf[:n]
		for i, v := range b.X {
			x[i] = F(v)
		}
	}
	return x, buf[n:], buf
}

// floatBits is 32 for float32 and 64 for float64.
func floatBits[F runtime.Float]() int {
	if _, ok := any(F(0)).(float32); ok {
		return 32
	}
	return 64
}

// writeCSV writes the columns of every row of s as CSV, in file order. The
// blocks of rows are scored and written out as text on the goroutines that
// parse them.
func (c *columns) writeCSV(w io.Writer, s *data.Stream) error {
	classes := make([]string, len(c.classes))
	for k, name := range c.classes {
		classes[k] = csvField(name)
	}
	k := len(c.names)
	s.Prepare = func(b *data.Block) {
		c.fill(b)
		o := b.Out[:0]
		for r := range b.Rows {
			for j, v := range b.Scores[r*k : (r+1)*k] {
				if j > 0 {
					o = append(o, ',')
				}
				if c.ints {
					o = strconv.AppendInt(o, int64(v), 10)
				} else {
					o = strconv.AppendFloat(o, v, 'g', -1, c.bits)
				}
			}
			if c.classes != nil {
				o = append(o, ',')
				o = append(o, classes[int(b.Scores[b.Rows*k+r])]...)
			}
			o = append(o, '\n')
		}
		b.Out = o
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	header := slices.Clone(c.names)
	if c.classes != nil {
		header = append(header, "class")
	}
	for j, h := range header {
		if j > 0 {
			bw.WriteByte(',')
		}
		bw.WriteString(csvField(h))
	}
	bw.WriteByte('\n')
	err := s.Each(func(b *data.Block) error {
		_, err := bw.Write(b.Out)
		return err
	})
	if err != nil {
		return err
	}
	return bw.Flush()
}

// writeParquet writes the columns of every row of s as a Parquet file:
// DOUBLE columns (FLOAT in precision float32, INT64 for leaf indices) and
// a STRING column, class, for a classifier.
func (c *columns) writeParquet(w io.Writer, s *data.Stream) error {
	kind := parquet.Double
	switch {
	case c.ints:
		kind = parquet.Int64
	case c.bits == 32:
		kind = parquet.Float
	}
	var spec []parquet.Column
	for _, name := range c.names {
		spec = append(spec, parquet.Column{Name: name, Kind: kind})
	}
	if c.classes != nil {
		spec = append(spec, parquet.Column{Name: "class", Kind: parquet.String})
	}
	pw, err := parquet.NewWriter(w, spec)
	if err != nil {
		return err
	}
	s.Prepare = c.fill
	k := len(c.names)
	var texts []string
	err = s.Each(func(b *data.Block) error {
		texts = texts[:0]
		if c.classes != nil {
			for _, v := range b.Scores[b.Rows*k:] {
				texts = append(texts, c.classes[int(v)])
			}
		}
		return pw.WriteRows(b.Rows, b.Scores[:b.Rows*k], texts)
	})
	if err != nil {
		return err
	}
	return pw.Close()
}

// isParquet reports whether an output file is named as Parquet.
func isParquet(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".parquet")
}

// outputNames names the output columns: p_<class> for the probability of a
// class, margin_<class> for its raw score (margin), and output_<k> or
// margin_<k> for other outputs.
func outputNames(m *ir.Model, margin bool) []string {
	prob, other := "p_", "output_"
	if margin {
		prob, other = "margin_", "margin_"
	}
	names := make([]string, m.NumOutputs)
	for k := range names {
		switch {
		case m.Task == ir.Binary && len(m.ClassNames) == 2:
			names[k] = prob + m.ClassNames[1]
		case m.Task == ir.Multiclass && len(m.ClassNames) == m.NumOutputs:
			names[k] = prob + m.ClassNames[k]
		default:
			names[k] = other + strconv.Itoa(k)
		}
	}
	return names
}

// className is the name of class c.
func className(m *ir.Model, c int) string {
	if c < len(m.ClassNames) {
		return m.ClassNames[c]
	}
	return strconv.Itoa(c)
}

// csvField quotes s if CSV needs it.
func csvField(s string) string {
	for _, r := range s {
		if r == ',' || r == '"' || r == '\n' || r == '\r' {
			return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
		}
	}
	return s
}
