package data

// The sequential TSV and CSV readers that the chunked, parallel one
// replaced, kept as the reference it must agree with.

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
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
		return &Error{File: in.name, Line: pe.Line, Msg: fmt.Sprintf("%v (byte %d)", pe.Err, pe.Column), err: err}
	}
	return in.readErr(err)
}

// refRead is Read with the sequential readers.
func refRead(r io.Reader, name string, opts Options) (*Dataset, error) {
	if err := opts.check(name); err != nil {
		return nil, err
	}
	in, err := openInput(r, name, opts.maxExpansion())
	if err != nil {
		return nil, err
	}
	format, err := in.format(opts)
	if err != nil {
		return nil, err
	}
	var d *Dataset
	switch format {
	case FormatTSV:
		d, err = refReadTSV(in, opts)
	case FormatCSV:
		d, err = refReadCSV(in, opts)
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
