package data

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// table collects the rows of a TSV or CSV file.
type table struct {
	file    string
	names   []string // all column names, in file order
	target  int      // index of the target column in names, or -1
	drop    bool     // skip the target column (Options.DropTarget)
	header  bool     // the first line is a header, not data
	format  Format   // FormatTSV or FormatCSV
	compact bool     // encode the features as compact values too (Options.Compact)
	x       []float64
	y       targetColumn
	rows    int

	feats   []string // the feature columns read, in the order of a row's values
	role    []int32  // per column: its feature's index in a row, or roleTarget, roleSkip
	skipped []string // columns not read because Options.Select does not name them
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
			return errorf(t.file, line, t.target+1, "cell %s in column %q %s (its first %d distinct values are numbers, so it is read as numbers)", quoteCell(c), t.names[t.target], notANumber(c), maxNumericTarget)
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

// Roles of the columns of a table that are not features.
const (
	roleTarget = -1 // the target column
	roleSkip   = -2 // a column left out: not selected, or the target dropped
)

// newTable checks the header (on line 1), or names the columns of a file
// without one by position, and finds the target and feature columns (see
// MatchColumns). cells are the trimmed cells of line 1.
func newTable(file string, cells []string, opts Options) (*table, error) {
	header, err := isHeader(file, cells, opts)
	if err != nil {
		return nil, err
	}
	names := cells
	if !header {
		names = make([]string, len(cells))
		for i := range names {
			names[i] = "c" + strconv.Itoa(i+1)
		}
		opts.Select = nil // columns without names are read by position
	}
	l, err := matchColumns(file, 1, names, opts, header)
	if err != nil {
		return nil, err
	}
	if !header && opts.TargetColumn == 0 && opts.RequireTarget {
		why := ""
		if opts.Header != HeaderAbsent {
			why = " (every cell of line 1 is a number)"
		}
		return nil, &Error{File: file, Line: 1, Msg: fmt.Sprintf("no header line%s, so no column is named %q", why, opts.target()), Err: ErrNoHeader}
	}
	t := &table{file: file, names: names, target: l.Target, drop: opts.DropTarget, header: header, feats: l.Features, skipped: l.Skipped}
	t.role = make([]int32, len(names))
	for i := range t.role {
		t.role[i] = roleSkip
	}
	for j, i := range l.Index {
		t.role[i] = int32(j)
	}
	if l.Target >= 0 && !opts.DropTarget {
		t.role[l.Target] = roleTarget
	}
	return t, nil
}

// isHeader decides whether line 1 of a file, split into trimmed cells, is
// its header, as opts.Header says.
func isHeader(file string, cells []string, opts Options) (bool, error) {
	switch opts.Header {
	case HeaderPresent:
		return true, nil
	case HeaderAbsent:
		return false, nil
	}
	if !looksLikeData(cells, opts) {
		return true, nil
	}
	if opts.Header == HeaderAuto {
		return false, nil
	}
	msg := "line 1 is a row of numbers, not column names: a header line naming the columns is needed"
	if opts.RequireTarget && opts.TargetColumn == 0 {
		msg += fmt.Sprintf(", the target %q among them", opts.target())
	}
	return false, &Error{File: file, Line: 1, Col: 1, Msg: msg, Err: ErrNoHeader}
}

// looksLikeData reports whether line 1, split into trimmed cells, reads as
// a row of data: every cell is a value (a number or a missing value), the
// cell of the target column aside when TargetColumn gives it, and the line
// neither holds the name of the target column, nor numbers the columns,
// nor consists of Names.
func looksLikeData(cells []string, opts Options) bool {
	for i, c := range cells {
		if _, st := parseNumber(c); st == cellBad && i != opts.TargetColumn-1 {
			return false
		}
	}
	if opts.TargetColumn == 0 && slices.Contains(cells, opts.target()) || numbersColumns(cells) {
		return false
	}
	expected := opts.Names
	if len(expected) == 0 {
		expected = opts.Select
	}
	if len(expected) == 0 {
		return true
	}
	names := make(map[string]bool, len(expected))
	for _, n := range expected {
		names[n] = true
	}
	for _, c := range cells {
		if !names[c] {
			return true
		}
	}
	return false
}

// minNumbered is how many columns a first line must number for it to be
// taken for a header: fewer consecutive integers are as likely to be data.
const minNumbered = 3

// numbersColumns reports whether cells number columns: at least minNumbered
// integers written with digits only, without leading zeros, each one more
// than the one before, as pandas names the columns of a NumPy array (0, 1,
// 2, ...) and PMLB the features of some data sets (2, 3, ...).
func numbersColumns(cells []string) bool {
	if len(cells) < minNumbered {
		return false
	}
	prev := -1
	for i, c := range cells {
		if c == "" || strings.Trim(c, "0123456789") != "" || len(c) > 1 && c[0] == '0' {
			return false
		}
		n, err := strconv.Atoi(c)
		if err != nil || i > 0 && n != prev+1 {
			return false
		}
		prev = n
	}
	return true
}

func (t *table) raggedErr(line, n int) error {
	if !t.header {
		return errorf(t.file, line, 0, "row has %d fields, line 1 has %d", n, len(t.names))
	}
	return errorf(t.file, line, 0, "row has %d fields, header has %d", n, len(t.names))
}

// dataset turns the collected rows into a Dataset.
func (t *table) dataset() (*Dataset, error) {
	if t.rows == 0 {
		return nil, errorf(t.file, 0, 0, "no data rows")
	}
	d := &Dataset{X: t.x, Rows: t.rows, Cols: len(t.feats), Features: t.feats, NoHeader: !t.header, Skipped: t.skipped}
	var err error
	if d.Y, d.Labels, err = t.targets(); err != nil {
		return nil, err
	}
	if d.X == nil {
		d.X = []float64{}
	}
	return d, nil
}

// targets returns the target column, whose cells have all been added:
// their numbers, or, when some cell is not a number, every row's index in
// the labels, which it returns too. It returns nil when the target column
// is not read.
func (t *table) targets() ([]float64, []string, error) {
	if t.target < 0 || t.drop {
		return nil, nil, nil
	}
	switch tc := &t.y; {
	case tc.text:
		labels, y := tc.labels()
		return y, labels, nil
	case tc.rangeLine > 0:
		return nil, nil, t.targetRangeErr()
	default:
		return tc.values(), nil, nil
	}
}

// emptyFirstLine reports an empty line 1 followed by more lines.
func emptyFirstLine(file string, opts Options) error {
	if opts.Header == HeaderAbsent {
		return errorf(file, 1, 0, "empty line")
	}
	return errorf(file, 1, 0, "empty header line")
}
