package predict

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// Table is the columns of a prediction table, and how to fill them for a
// block of rows.
type Table struct {
	// Names are the names of the numeric columns.
	Names []string
	// Classes are the names of the classes, for a class column after the
	// numbers; nil for none.
	Classes []string
	// Ints says that the numbers are integers (leaf indices).
	Ints bool
	// Bits is 32 or 64: the precision of the numbers.
	Bits int
	// Fill sets b.Scores to the numbers of every row of b, row-major,
	// followed by the class index of every row when Classes is set. It
	// may be called on several goroutines at once, as data.Stream's
	// Prepare is.
	Fill func(b *data.Block)
}

// Outputs returns the table of the predictions of m, or its margins (raw
// scores before the link) with margin, computed by the interpreter in
// precision prec: one column per output (see OutputNames), then for a
// classifier the predicted class.
func Outputs(m *ir.Model, margin bool, prec ir.Precision) (*Table, error) {
	if prec.Is32() {
		return outputs[float32](m, margin)
	}
	return outputs[float64](m, margin)
}

func outputs[F runtime.Float](m *ir.Model, margin bool) (*Table, error) {
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	c := &Table{Names: OutputNames(m, margin), Bits: floatBits[F]()}
	if m.IsClassifier() {
		c.Classes = make([]string, max(m.NumOutputs, 2))
		for k := range c.Classes {
			c.Classes[k] = ClassName(m, k)
		}
	}
	k := m.NumOutputs
	var scratch sync.Pool
	c.Fill = func(b *data.Block) {
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
		if c.Classes != nil {
			for r := range b.Rows {
				b.Scores = append(b.Scores, float64(p.ClassOf(out[r*k:(r+1)*k])))
			}
		}
	}
	return c, nil
}

// Leaves returns the table of the leaves that a row reaches in each tree
// of m, columns tree_0, tree_1, ...: the index of the leaf's node in its
// tree (ir.Tree.Nodes), computed by the interpreter in precision prec, as
// XGBoost's pred_leaf. It refuses a model with soft or latent trees.
func Leaves(m *ir.Model, prec ir.Precision) (*Table, error) {
	if prec.Is32() {
		return leaves[float32](m)
	}
	return leaves[float64](m)
}

func leaves[F runtime.Float](m *ir.Model) (*Table, error) {
	p, err := runtime.New[F](m)
	if err != nil {
		return nil, err
	}
	if !p.HardTrees() {
		return nil, fmt.Errorf("the model has soft or latent trees, which send a row to several leaves: leaf indices need hard trees")
	}
	trees := p.NumTrees()
	c := &Table{Names: make([]string, trees), Ints: true, Bits: 64}
	for t := range c.Names {
		c.Names[t] = "tree_" + strconv.Itoa(t)
	}
	cols := m.NumFeatures
	c.Fill = func(b *data.Block) {
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

// WriteCSV writes the table of every row of s as CSV, in file order: a
// header line of the column names (and "class"), then one line per row,
// numbers in the shortest form that parses back to the same value in the
// table's precision. The blocks of rows are scored and written out as text
// on the goroutines that parse them (it sets s.Prepare).
func (c *Table) WriteCSV(w io.Writer, s *data.Stream) error {
	classes := make([]string, len(c.Classes))
	for k, name := range c.Classes {
		classes[k] = csvField(name)
	}
	k := len(c.Names)
	s.Prepare = func(b *data.Block) {
		c.Fill(b)
		o := b.Out[:0]
		for r := range b.Rows {
			for j, v := range b.Scores[r*k : (r+1)*k] {
				if j > 0 {
					o = append(o, ',')
				}
				if c.Ints {
					o = strconv.AppendInt(o, int64(v), 10)
				} else {
					o = strconv.AppendFloat(o, v, 'g', -1, c.Bits)
				}
			}
			if c.Classes != nil {
				o = append(o, ',')
				o = append(o, classes[int(b.Scores[b.Rows*k+r])]...)
			}
			o = append(o, '\n')
		}
		b.Out = o
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	header := slices.Clone(c.Names)
	if c.Classes != nil {
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

// OutputNames names the output columns of m: p_<class> for the
// probability of a class, margin_<class> for its raw score (margin), and
// output_<k> or margin_<k> for other outputs.
func OutputNames(m *ir.Model, margin bool) []string {
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

// ClassName is the name of class c of m: its class name, or else c.
func ClassName(m *ir.Model, c int) string {
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
