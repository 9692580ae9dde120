package data

// The sequential TSV and CSV readers that the chunked, parallel one
// replaced, kept as the reference it must agree with.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// addCell parses the cell in column col (0-based) of the given line and
// appends it to X, or hands it to the target column.
func refAddCell[T string | []byte](t *table, col int, cell T, line int) error {
	if col == t.target {
		if t.drop {
			return nil
		}
		return addTarget(t, cell, line)
	}
	v, st := parseNumber(cell)
	switch st {
	case cellBad:
		return errorf(t.file, line, col+1, "cell %s in column %q %s", quoteCell(cell), t.names[col], notANumber(cell))
	case cellRange:
		return errorf(t.file, line, col+1, "cell %s in column %q is out of range", quoteCell(cell), t.names[col])
	}
	t.x = append(t.x, v)
	return nil
}

func refReadTSV(in *input, opts Options) (*Dataset, error) {
	lr := &lineReader{br: in.br}
	line, ok := lr.next()
	if ok && isBlank(line) {
		for {
			l, ok := lr.next()
			if !ok {
				break
			}
			if !isBlank(l) {
				return nil, emptyFirstLine(in.name, opts)
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
	cells := strings.Split(string(line), "\t")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	t, err := newTable(in.name, cells, opts)
	if err != nil {
		return nil, err
	}
	if !t.header {
		if err := t.refAddTSVRow(line, 1); err != nil {
			return nil, err
		}
	}
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
		if err := t.refAddTSVRow(line, lr.n); err != nil {
			return nil, err
		}
	}
	if lr.err != nil {
		return nil, in.readErr(lr.err)
	}
	return t.dataset()
}

// refAddTSVRow adds the row on the given line of a TSV file.
func (t *table) refAddTSVRow(line []byte, n int) error {
	ncols := len(t.names)
	if k := bytes.Count(line, []byte{'\t'}) + 1; k != ncols {
		return t.raggedErr(n, k)
	}
	rest := line
	for col := range ncols {
		cell := rest
		if j := bytes.IndexByte(rest, '\t'); j >= 0 {
			cell, rest = rest[:j], rest[j+1:]
		}
		if err := refAddCell(t, col, cell, n); err != nil {
			return err
		}
	}
	t.rows++
	return nil
}

func refReadCSV(in *input, opts Options) (*Dataset, error) {
	cr := csv.NewReader(in.br)
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	rec, err := cr.Read()
	if err == io.EOF && in.rec.err == nil {
		return nil, errorf(in.name, 0, 0, "empty file")
	}
	if err != nil {
		return nil, in.refCSVErr(err)
	}
	if line, _ := cr.FieldPos(0); line != 1 {
		return nil, emptyFirstLine(in.name, opts)
	}
	cells := make([]string, len(rec))
	for i, c := range rec {
		cells[i] = strings.TrimSpace(c)
	}
	t, err := newTable(in.name, cells, opts)
	if err != nil {
		return nil, err
	}
	if !t.header {
		if err := t.refAddCSVRecord(cr, rec); err != nil {
			return nil, err
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF && in.rec.err == nil {
			break
		}
		if err != nil {
			return nil, in.refCSVErr(err)
		}
		if err := t.refAddCSVRecord(cr, rec); err != nil {
			return nil, err
		}
	}
	return t.dataset()
}

// refAddCSVRecord adds the record the CSV reader cr has just read.
func (t *table) refAddCSVRecord(cr *csv.Reader, rec []string) error {
	line, _ := cr.FieldPos(0)
	if len(rec) != len(t.names) {
		return t.raggedErr(line, len(rec))
	}
	for col, cell := range rec {
		if col > 0 {
			// A quoted field may span lines.
			line, _ = cr.FieldPos(col)
		}
		if err := refAddCell(t, col, cell, line); err != nil {
			return err
		}
	}
	t.rows++
	return nil
}

// csvErr converts an error from encoding/csv. Errors of the underlying
// reader take precedence, as they may have caused the parse error.
func (in *input) refCSVErr(err error) error {
	if in.rec.err != nil {
		return in.readErr(in.rec.err)
	}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &Error{File: in.name, Line: pe.Line, Msg: fmt.Sprintf("%v (byte %d)", pe.Err, pe.Column), Err: err}
	}
	return in.readErr(err)
}

// refRead is Read with the sequential readers.
func refRead(r io.Reader, name string, opts Options) (*Dataset, error) {
	in, format, err := open(r, name, opts)
	if err != nil {
		return nil, err
	}
	var d *Dataset
	switch format {
	case FormatTSV:
		d, err = refReadTSV(in, opts)
	case FormatCSV:
		d, err = refReadCSV(in, opts)
	case FormatLibSVM:
		d, err = refReadLibSVM(in, opts)
	default:
		return nil, errors.New("not a text format")
	}
	if err != nil {
		if in.rec.err != nil {
			return nil, in.readErr(in.rec.err)
		}
		return nil, err
	}
	d.Source = name
	d.Format = format
	return d, nil
}

func newGzipWriter(w io.Writer) *gzip.Writer { return gzip.NewWriter(w) }

func refReadLibSVM(in *input, opts Options) (*Dataset, error) {
	if opts.NumFeatures < 0 {
		return nil, errorf(in.name, 0, 0, "NumFeatures is negative (%d)", opts.NumFeatures)
	}
	if opts.NumFeatures > maxFeatures {
		return nil, errorf(in.name, 0, 0, "NumFeatures %d exceeds the limit of %d features", opts.NumFeatures, maxFeatures)
	}
	maxIndex := maxFeatures // the highest index allowed
	if opts.IndexBase == IndexZero {
		maxIndex--
	}
	var (
		y       []float64
		rowEnd  []int     // rowEnd[r] is the end of row r's entries in idx and val
		idx     []int32   // feature index of each entry, as written
		val     []float64 // value of each entry
		top     = -1      // highest index seen
		lr      = &lineReader{br: in.br}
		sawLine bool // a line was read
		rows    int
		// Where the first index 0 and the first index maxFeatures are, for
		// the errors of a file that turns out 0-based or 1-based.
		zeroLine        int
		maxLine, maxCol int
		// Where the highest index first is, for the error of a matrix too
		// large.
		topLine, topCol int
	)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		sawLine = true
		off := 1 // converts 0-based offsets in line to 1-based columns
		if lr.n == 1 {
			off += in.bom
		}
		if i := bytes.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		pos := 0
		tok, start := nextToken(line, &pos)
		if tok == nil {
			continue
		}
		if opts.DropTarget {
			if bytes.IndexByte(tok, ':') >= 0 {
				pos = start // no label: the token is the first pair
			}
		} else {
			label, st := parseNumber(tok)
			switch {
			case st == cellBad:
				return nil, errorf(in.name, lr.n, start+off, "label %s %s", quoteCell(tok), notANumber(tok))
			case st == cellRange:
				return nil, errorf(in.name, lr.n, start+off, "label %s is out of range", quoteCell(tok))
			case math.IsNaN(label):
				return nil, errorf(in.name, lr.n, start+off, "missing label %s", quoteCell(tok))
			}
			y = append(y, label)
		}
		prev := -1
		for {
			tok, start := nextToken(line, &pos)
			if tok == nil {
				break
			}
			c := bytes.IndexByte(tok, ':')
			if c <= 0 || c == len(tok)-1 {
				return nil, errorf(in.name, lr.n, start+off, "expected INDEX:VALUE, got %s", quoteCell(tok))
			}
			is, vs := tok[:c], tok[c+1:]
			if string(is) == "qid" {
				continue
			}
			k, err := strconv.Atoi(string(is))
			switch {
			case err != nil && err.(*strconv.NumError).Err == strconv.ErrRange && k > 0:
				return nil, errorf(in.name, lr.n, start+off, "index %s exceeds the limit of %d features", is, maxFeatures)
			case err != nil:
				return nil, errorf(in.name, lr.n, start+off, "bad index %s in %s", quoteCell(is), quoteCell(tok))
			case k == 0 && opts.IndexBase == IndexOne:
				return nil, errorf(in.name, lr.n, start+off, "index 0 in a 1-based file: indices start at 1")
			case k < 0:
				return nil, errorf(in.name, lr.n, start+off, "index %d is out of range: indices start at %s", k, indexStart(opts.IndexBase))
			case k > maxIndex:
				return nil, errorf(in.name, lr.n, start+off, "index %d exceeds the limit of %d features", k, maxFeatures)
			case k <= prev:
				return nil, errorf(in.name, lr.n, start+off, "index %d follows index %d: indices must be strictly increasing", k, prev)
			}
			switch {
			case k == 0 && zeroLine == 0:
				zeroLine = lr.n
			case k == maxFeatures && maxLine == 0:
				maxLine, maxCol = lr.n, start+off
			}
			if k > top {
				top, topLine, topCol = k, lr.n, start+off
			}
			prev = k
			v, st := parseNumber(vs)
			switch st {
			case cellBad:
				return nil, errorf(in.name, lr.n, start+c+1+off, "value %s of index %d %s", quoteCell(vs), k, notANumber(vs))
			case cellRange:
				return nil, errorf(in.name, lr.n, start+c+1+off, "value %s of index %d is out of range", quoteCell(vs), k)
			}
			idx = append(idx, int32(k))
			val = append(val, v)
		}
		rows++
		rowEnd = append(rowEnd, len(idx))
	}
	if lr.err != nil {
		return nil, in.readErr(lr.err)
	}
	if !sawLine {
		return nil, errorf(in.name, 0, 0, "empty file")
	}
	if rows == 0 {
		return nil, errorf(in.name, 0, 0, "no data rows")
	}
	base := 1
	if opts.IndexBase == IndexZero || (opts.IndexBase == IndexAuto && zeroLine > 0) {
		base = 0
	}
	if base == 0 && maxLine > 0 {
		msg := "index %d exceeds the limit of %d features in a 0-based file"
		if opts.IndexBase == IndexAuto {
			msg += fmt.Sprintf(" (0-based since line %d has index 0)", zeroLine)
		}
		return nil, errorf(in.name, maxLine, maxCol, msg, maxFeatures, maxFeatures)
	}
	ncols := max(opts.NumFeatures, top+1-base)
	if budget := max(minCellBudget, cellsPerPair*len(idx)); ncols > 0 && rows > budget/ncols {
		msg := fmt.Sprintf("a dense matrix of %d rows × %d columns = %d cells, more than the limit of max(%d, %d × %d INDEX:VALUE pairs) = %d cells: the file is too sparse to be read densely",
			rows, ncols, int64(rows)*int64(ncols), minCellBudget, cellsPerPair, len(idx), budget)
		if ncols > top+1-base {
			return nil, errorf(in.name, 0, 0, "NumFeatures %d makes %s", opts.NumFeatures, msg)
		}
		return nil, errorf(in.name, topLine, topCol, "index %d makes %s", top, msg)
	}
	x := make([]float64, rows*ncols)
	if opts.Absent == AbsentMissing {
		nan := math.NaN()
		for i := range x {
			x[i] = nan
		}
	}
	begin := 0
	for r, end := range rowEnd {
		row := x[r*ncols : (r+1)*ncols]
		for e := begin; e < end; e++ {
			row[int(idx[e])-base] = val[e]
		}
		begin = end
	}
	features := make([]string, ncols)
	for i := range features {
		features[i] = "f" + strconv.Itoa(i+base)
	}
	return &Dataset{Features: features, X: x, Y: y, Rows: rows, Cols: ncols}, nil
}

// lineReader returns the lines of a bufio.Reader without their line
// endings. A partial line cut short by a read error is not returned.
type lineReader struct {
	br  *bufio.Reader
	acc []byte
	n   int   // number of the last line returned
	err error // read error other than io.EOF
}

// next returns the next line, valid until the following call, or false at
// the end of the input or on a read error (then lr.err is set).
func (lr *lineReader) next() ([]byte, bool) {
	lr.acc = lr.acc[:0]
	for {
		b, err := lr.br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			lr.acc = append(lr.acc, b...)
			continue
		}
		line := b
		if len(lr.acc) > 0 {
			lr.acc = append(lr.acc, b...)
			line = lr.acc
		}
		if err != nil {
			if err != io.EOF {
				lr.err = err
				return nil, false
			}
			if len(line) == 0 {
				return nil, false
			}
		}
		lr.n++
		if n := len(line); n > 0 && line[n-1] == '\n' {
			line = line[:n-1]
		}
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		return line, true
	}
}
