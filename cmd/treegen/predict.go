package main

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/data"
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
		Use:   "predict --model MODEL.json --data FILE [--out FILE] [--margin | --leaves]",
		Short: "Predict with the interpreter; CSV out",
		Long: `predict runs the interpreter over every row of a data file (with or without
its target column) and writes CSV: one column per output, then, for
classifiers, the predicted class. A classifier's outputs are the
probabilities of its classes, named p_<class> (p_<second class> alone for a
binary classifier); other outputs are named output_0, output_1, ...
--margin writes raw scores before the link, in columns named margin_<class>
(margin_0, margin_1, ... for outputs that are not classes), --leaves the
leaf each tree sends the row to (columns tree_0, tree_1, ...). Numbers are
printed so that they parse back to the same float64 (float32 with
--precision float32).

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
			return writeOut(out, a.stdout, func(w io.Writer) error {
				switch {
				case leaves && prec.Is32():
					return writeLeaves[float32](w, m, s)
				case leaves:
					return writeLeaves[float64](w, m, s)
				case prec.Is32():
					return writePredictions[float32](w, m, s, margin)
				}
				return writePredictions[float64](w, m, s, margin)
			})
		},
	}
	cmd.Flags().StringVar(&model, "model", "", "model file (IR JSON)")
	addIterations(cmd, &rounds)
	df.register(cmd, "data file (the target column, if present, is left out unread)", true)
	cmd.Flags().StringVarP(&out, "out", "o", "", "output CSV file (default: stdout)")
	cmd.Flags().BoolVar(&margin, "margin", false, "write raw scores (margins) instead of predictions")
	cmd.Flags().BoolVar(&leaves, "leaves", false, "write the leaf each tree sends the row to (its node index in the tree), one column per tree, like XGBoost's pred_leaf")
	cmd.Flags().Var(&prec, "precision", "interpreter precision: float64, or float32 to match float32 generated code")
	return cmd
}

// writePredictions writes the CSV of predictions (or margins) of every row
// of s, computed by the interpreter in precision F. The blocks of rows are
// scored and written out on the goroutines that parse them, and the text
// is written in file order.
func writePredictions[F runtime.Float](w io.Writer, m *ir.Model, s *data.Stream, margin bool) error {
	p, err := runtime.New[F](m)
	if err != nil {
		return err
	}
	bits := floatBits[F]()
	header := outputNames(m, margin)
	var classes []string
	if m.IsClassifier() {
		header = append(header, "class")
		classes = make([]string, max(m.NumOutputs, 2))
		for c := range classes {
			classes[c] = csvField(className(m, c))
		}
	}
	k := m.NumOutputs
	var scratch sync.Pool
	s.Prepare = func(b *data.Block) {
		buf, _ := scratch.Get().(*[]F)
		if buf == nil {
			buf = new([]F)
		}
		defer scratch.Put(buf)
		x, out := batchBuffers(*buf, b, k)
		*buf = x[:cap(x)]
		if err := p.PredictBatch(x, out, margin); err != nil {
			panic(err) // the shapes are right by construction
		}
		o := b.Out[:0]
		for r := range b.Rows {
			row := out[r*k : (r+1)*k]
			for j, v := range row {
				if j > 0 {
					o = append(o, ',')
				}
				o = strconv.AppendFloat(o, float64(v), 'g', -1, bits)
			}
			if classes != nil {
				o = append(o, ',')
				o = append(o, classes[p.ClassOf(row)]...)
			}
			o = append(o, '\n')
		}
		b.Out = o
	}
	for j, h := range header {
		header[j] = csvField(h)
	}
	return writeBlocks(w, s, strings.Join(header, ","))
}

// batchBuffers returns, from buf, the rows of b in precision F and room for
// k outputs of each; in float64 the rows are b.X itself.
func batchBuffers[F runtime.Float](buf []F, b *data.Block, k int) (x, out []F) {
	n := len(b.X)
	need := b.Rows * k
	if xs, ok := any(b.X).([]F); ok {
		n, x = 0, xs
	}
	if cap(buf) < n+need {
		buf = make([]F, n+need)
	}
	buf = buf[:n+need]
	if n > 0 {
		x = buf[:n]
		for i, v := range b.X {
			x[i] = F(v)
		}
	}
	return x, buf[n:]
}

// floatBits is 32 for float32 and 64 for float64.
func floatBits[F runtime.Float]() int {
	if _, ok := any(F(0)).(float32); ok {
		return 32
	}
	return 64
}

// writeBlocks writes a header line and then the text of every block of s
// (its Out, filled by s.Prepare), in file order.
func writeBlocks(w io.Writer, s *data.Stream, header string) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.WriteString(header)
	bw.WriteByte('\n')
	for {
		b, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		if _, err := bw.Write(b.Out); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writeLeaves writes the CSV of the leaves that every row of s reaches in
// each tree: columns tree_0, tree_1, ..., each the index of the leaf's node
// in its tree (ir.Tree.Nodes), computed in precision F.
func writeLeaves[F runtime.Float](w io.Writer, m *ir.Model, s *data.Stream) error {
	p, err := runtime.New[F](m)
	if err != nil {
		return err
	}
	if !p.HardTrees() {
		return fmt.Errorf("--leaves: the model has soft or latent trees, which send a row to several leaves: leaf indices need hard trees")
	}
	trees := p.NumTrees()
	header := make([]string, trees)
	for t := range header {
		header[t] = "tree_" + strconv.Itoa(t)
	}
	cols := m.NumFeatures
	s.Prepare = func(b *data.Block) {
		leaves := make([]int, trees)
		x := make([]F, cols)
		o := b.Out[:0]
		for r := range b.Rows {
			for j, v := range b.X[r*cols : (r+1)*cols] {
				x[j] = F(v)
			}
			if err := p.PredictLeaves(x, leaves); err != nil {
				panic(err) // the shapes are right by construction
			}
			for t, l := range leaves {
				if t > 0 {
					o = append(o, ',')
				}
				o = strconv.AppendInt(o, int64(l), 10)
			}
			o = append(o, '\n')
		}
		b.Out = o
	}
	return writeBlocks(w, s, strings.Join(header, ","))
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
