package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
)

// table collects the rows of a TSV or CSV file.
type table struct {
	file   string
	names  []string // all column names, in file order
	target int      // index of the target column in names, or -1
	drop   bool     // skip the target column (Options.DropTarget)
	x      []float64
	y      targetColumn
	rows   int
}

// maxNumericTarget is how many distinct numbers a target column may hold
// before its cells stop being kept as text: past it, the column is read as
// numbers, as a regression target wants, and a later cell that is not a
// number is an error.
const maxNumericTarget = 1 << 16

// targetColumn collects the cells of the target column of a TSV or CSV
// file. It keeps each distinct cell (trimmed) once, and every row's id of
// it, and decides at the end whether the column holds numbers or class
// labels. A column of more than maxNumericTarget distinct numbers is read
// as numbers from then on.
type targetColumn struct {
	ids   []int32          // id of every row's cell (nil once numeric)
	index map[string]int32 // id of each distinct cell
	cells []string         // distinct cells, by id
	vals  []float64        // their values (0 for a cell that is not a number)
	text  bool             // some cell is not a number

	numeric bool      // too many distinct numbers: y holds the values
	y       []float64 // values of the rows, once numeric

	rangeLine int    // first line with a number out of range, 0 if none
	rangeCell string // its cell
}

// addTarget adds the target cell of a row on the given line.
func addTarget[T string | []byte](t *table, cell T, line int) error {
	tc := &t.y
	c := trimSpace(cell)
	if tc.numeric {
		v, st := parseNumber(c)
		switch st {
		case cellBad:
			if tc.rangeLine > 0 {
				return t.targetRangeErr()
			}
			return errorf(t.file, line, t.target+1, "cell %s in column %q is not a number (its first %d distinct values are numbers, so it is read as numbers)", quoteCell(c), t.names[t.target], maxNumericTarget)
		case cellRange:
			tc.noteRange(line, string(c))
		}
		if math.IsNaN(v) {
			return t.missingTargetErr(string(c), line)
		}
		tc.y = append(tc.y, v)
		return nil
	}
	id, ok := tc.index[string(c)]
	if !ok {
		v, st := parseNumber(c)
		switch st {
		case cellBad:
			tc.text = true
		case cellRange:
			tc.noteRange(line, string(c))
		}
		if math.IsNaN(v) {
			return t.missingTargetErr(string(c), line)
		}
		if tc.index == nil {
			tc.index = make(map[string]int32)
		}
		id = int32(len(tc.cells))
		text := string(c)
		tc.index[text] = id
		tc.cells = append(tc.cells, text)
		tc.vals = append(tc.vals, v)
		if !tc.text && len(tc.cells) > maxNumericTarget {
			tc.y = tc.values()
			tc.y = append(tc.y, v)
			tc.numeric = true
			tc.ids, tc.index, tc.cells, tc.vals = nil, nil, nil, nil
			return nil
		}
	}
	tc.ids = append(tc.ids, id)
	return nil
}

// noteRange remembers the first cell out of range.
func (tc *targetColumn) noteRange(line int, cell string) {
	if tc.rangeLine == 0 {
		tc.rangeLine, tc.rangeCell = line, cell
	}
}

// values returns the numeric value of every row's cell.
func (tc *targetColumn) values() []float64 {
	if tc.numeric {
		return tc.y
	}
	y := make([]float64, len(tc.ids), len(tc.ids)+1)
	for r, id := range tc.ids {
		y[r] = tc.vals[id]
	}
	return y
}

// labels returns the distinct cells sorted in byte order, and every row's
// index in them.
func (tc *targetColumn) labels() ([]string, []float64) {
	order := make([]int32, len(tc.cells))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(tc.cells[a], tc.cells[b]) })
	labels := make([]string, len(order))
	rank := make([]float64, len(order))
	for i, id := range order {
		labels[i] = tc.cells[id]
		rank[id] = float64(i)
	}
	y := make([]float64, len(tc.ids))
	for r, id := range tc.ids {
		y[r] = rank[id]
	}
	return labels, y
}

// missingTargetErr reports a missing target cell.
func (t *table) missingTargetErr(cell string, line int) error {
	return errorf(t.file, line, t.target+1, "missing target value %s in column %q", quoteCell(cell), t.names[t.target])
}

// targetRangeErr reports the first target cell out of range.
func (t *table) targetRangeErr() error {
	tc := &t.y
	return errorf(t.file, tc.rangeLine, t.target+1, "cell %s in column %q is out of range", quoteCell(tc.rangeCell), t.names[t.target])
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
	t := &table{file: file, names: names, target: -1, drop: opts.DropTarget}
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
// appends it to X, or hands it to the target column.
func addCell[T string | []byte](t *table, col int, cell T, line int) error {
	if col == t.target {
		if t.drop {
			return nil
		}
		return addTarget(t, cell, line)
	}
	v, st := parseNumber(cell)
	switch st {
	case cellBad:
		return errorf(t.file, line, col+1, "cell %s in column %q is not a number", quoteCell(cell), t.names[col])
	case cellRange:
		return errorf(t.file, line, col+1, "cell %s in column %q is out of range", quoteCell(cell), t.names[col])
	}
	t.x = append(t.x, v)
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
		switch tc := &t.y; {
		case t.drop:
		case tc.text:
			d.Labels, d.Y = tc.labels()
		case tc.rangeLine > 0:
			return nil, t.targetRangeErr()
		default:
			d.Y = tc.values()
		}
		d.Cols--
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
