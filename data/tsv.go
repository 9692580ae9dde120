package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
)

// table collects the rows of a TSV or CSV file.
type table struct {
	file   string
	names  []string // all column names, in file order
	target int      // index of the target column in names, or -1
	x, y   []float64
	rows   int
}

// maxListed is how many column names a "no column" error lists.
const maxListed = 10

// newTable checks the header (on line 1) and finds the target column.
func newTable(file string, names []string, opts Options) (*table, error) {
	seen := make(map[string]int, len(names))
	for i, n := range names {
		if n == "" {
			return nil, errorf(file, 1, i+1, "column %d has an empty name", i+1)
		}
		if j, ok := seen[n]; ok {
			return nil, errorf(file, 1, i+1, "duplicate column name %q (columns %d and %d)", n, j+1, i+1)
		}
		seen[n] = i
	}
	t := &table{file: file, names: names, target: -1}
	if i, ok := seen[opts.target()]; ok {
		t.target = i
	} else if opts.RequireTarget {
		list := names
		more := ""
		if len(list) > maxListed {
			list = list[:maxListed]
			more = fmt.Sprintf(", ... (%d columns)", len(names))
		}
		return nil, errorf(file, 1, 0, "no column %q; columns are: %s%s", opts.target(), strings.Join(list, ", "), more)
	}
	return t, nil
}

// addCell parses the cell in column col (0-based) of the given line and
// appends it to X or Y.
func addCell[T string | []byte](t *table, col int, cell T, line int) error {
	v, st := parseNumber(cell)
	switch st {
	case cellBad:
		return errorf(t.file, line, col+1, "cell %s in column %q is not a number", quoteCell(cell), t.names[col])
	case cellRange:
		return errorf(t.file, line, col+1, "cell %s in column %q is out of range", quoteCell(cell), t.names[col])
	}
	if col == t.target {
		if math.IsNaN(v) {
			return errorf(t.file, line, col+1, "missing target value %s in column %q", quoteCell(cell), t.names[col])
		}
		t.y = append(t.y, v)
	} else {
		t.x = append(t.x, v)
	}
	return nil
}

func (t *table) raggedErr(line, n int) error {
	return errorf(t.file, line, 0, "row has %d fields, header has %d", n, len(t.names))
}

// dataset turns the collected rows into a Dataset.
func (t *table) dataset() (*Dataset, error) {
	if t.rows == 0 {
		return nil, errorf(t.file, 0, 0, "no data rows")
	}
	d := &Dataset{X: t.x, Rows: t.rows, Cols: len(t.names)}
	if t.target >= 0 {
		d.Cols--
		d.Y = t.y
		d.Features = make([]string, 0, d.Cols)
		d.Features = append(d.Features, t.names[:t.target]...)
		d.Features = append(d.Features, t.names[t.target+1:]...)
	} else {
		d.Features = t.names
	}
	if d.X == nil {
		d.X = []float64{}
	}
	return d, nil
}

func readTSV(in *input, opts Options) (*Dataset, error) {
	lr := &lineReader{br: in.br}
	line, ok := lr.next()
	if ok && isBlank(line) {
		for {
			l, ok := lr.next()
			if !ok {
				break
			}
			if !isBlank(l) {
				return nil, errorf(in.name, 1, 0, "empty header line")
			}
		}
		ok = false
	}
	if !ok {
		if lr.err != nil {
			return nil, in.readErr(lr.err)
		}
		return nil, errorf(in.name, 0, 0, "empty file")
	}
	names := strings.Split(string(line), "\t")
	for i, n := range names {
		names[i] = strings.TrimSpace(n)
	}
	t, err := newTable(in.name, names, opts)
	if err != nil {
		return nil, err
	}
	ncols := len(names)
	blank := 0 // first empty line not yet followed by data
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		if isBlank(line) {
			if blank == 0 {
				blank = lr.n
			}
			continue
		}
		if blank != 0 {
			return nil, errorf(in.name, blank, 0, "empty line")
		}
		if n := bytes.Count(line, tab) + 1; n != ncols {
			return nil, t.raggedErr(lr.n, n)
		}
		rest := line
		for col := range ncols {
			cell := rest
			if j := bytes.IndexByte(rest, '\t'); j >= 0 {
				cell, rest = rest[:j], rest[j+1:]
			}
			if err := addCell(t, col, cell, lr.n); err != nil {
				return nil, err
			}
		}
		t.rows++
	}
	if lr.err != nil {
		return nil, in.readErr(lr.err)
	}
	return t.dataset()
}

var tab = []byte{'\t'}

func readCSV(in *input, opts Options) (*Dataset, error) {
	cr := csv.NewReader(in.br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	rec, err := cr.Read()
	if err == io.EOF && in.rec.err == nil {
		return nil, errorf(in.name, 0, 0, "empty file")
	}
	if err != nil {
		return nil, in.csvErr(err)
	}
	if line, _ := cr.FieldPos(0); line != 1 {
		return nil, errorf(in.name, 1, 0, "empty header line")
	}
	names := make([]string, len(rec))
	for i, n := range rec {
		names[i] = strings.TrimSpace(n)
	}
	t, err := newTable(in.name, names, opts)
	if err != nil {
		return nil, err
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF && in.rec.err == nil {
			break
		}
		if err != nil {
			return nil, in.csvErr(err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(names) {
			return nil, t.raggedErr(line, len(rec))
		}
		for col, cell := range rec {
			if col > 0 {
				// A quoted field may span lines.
				line, _ = cr.FieldPos(col)
			}
			if err := addCell(t, col, cell, line); err != nil {
				return nil, err
			}
		}
		t.rows++
	}
	return t.dataset()
}

// csvErr converts an error from encoding/csv. Errors of the underlying
// reader take precedence, as they may have caused the parse error.
func (in *input) csvErr(err error) error {
	if in.rec.err != nil {
		return in.readErr(in.rec.err)
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: in.name, Line: pe.Line, Msg: fmt.Sprintf("%v (byte %d)", pe.Err, pe.Column), err: err}
	}
	return in.readErr(err)
}
