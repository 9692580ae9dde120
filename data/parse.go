package data

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"unsafe"
)

// parseChunk parses the records of a TSV or CSV chunk into c.block.X and,
// when the target column is read, c.tcells and c.tlines (and c.block.Y
// when withY, where a target out of range is an error: a Stream cannot
// wait for the end of the column to know whether it holds text). It stops
// at the first error, which it sets in c.err.
func (t *table) parseChunk(c *chunk, withY bool) {
	c.block.fitsDecimal = t.compact
	switch {
	case t.format == FormatTSV:
		c.err = t.parseLines(c, '\t')
	case c.quoted:
		c.err = t.parseQuoted(c)
	default:
		c.err = t.parseLines(c, ',')
	}
	c.block.Line = c.line
	if t.compact {
		c.block.compactKinds()
	}
	if withY && t.target >= 0 && !t.drop {
		c.block.Y = c.block.Y[:0]
		for r, cell := range c.tcells {
			v, st := parseNumber(cell)
			switch st {
			case cellBad:
				v, c.text = math.NaN(), true
			case cellRange:
				c.err = errorf(t.file, int(c.tlines[r]), t.target+1, "cell %s in column %q is out of range", quoteCell(cell), t.names[t.target])
				return
			}
			c.block.Y = append(c.block.Y, v)
		}
	}
}

// parseLines parses records that are lines, with fields separated by sep:
// TSV, and CSV without quotes, which it reads as encoding/csv does: a line
// break is \n or \r\n, empty lines are skipped, and a \r that ends the
// input is dropped. A TSV file's blank lines are recorded for the "empty
// line" error.
func (t *table) parseLines(c *chunk, sep byte) error {
	buf, n := c.buf, c.line-1
	ncols := len(t.names)
	tsv := sep == '\t'
	for len(buf) > 0 {
		n++
		var l []byte
		l, buf = cutLine(buf)
		if tsv {
			if isBlank(l) {
				if c.trailBlank == 0 {
					c.trailBlank = n
				}
				continue
			}
			if c.firstData == 0 {
				c.firstData = n
			}
			if c.trailBlank != 0 {
				return errorf(t.file, c.trailBlank, 0, "empty line")
			}
		} else if len(l) == 0 {
			continue
		}
		if k := bytes.Count(l, []byte{sep}) + 1; k != ncols {
			return t.raggedErr(n, k)
		}
		row := t.newRow(c)
		rest := l
		for col := range ncols {
			cell := rest
			if j := bytes.IndexByte(rest, sep); j >= 0 {
				cell, rest = rest[:j], rest[j+1:]
			}
			if err := t.cell(c, col, row, cell, n); err != nil {
				return err
			}
		}
		c.block.Rows++
	}
	return nil
}

// cutLine returns the first line of buf, without its line break (\n, or
// \r\n, or a \r that ends buf), and the rest of buf.
func cutLine(buf []byte) (line, rest []byte) {
	line = buf
	if i := bytes.IndexByte(buf, '\n'); i >= 0 {
		line, rest = buf[:i], buf[i+1:]
	}
	if k := len(line); k > 0 && line[k-1] == '\r' {
		line = line[:k-1]
	}
	return line, rest
}

// parseQuoted parses a CSV chunk that holds quotes with encoding/csv.
func (t *table) parseQuoted(c *chunk) error {
	cr := csv.NewReader(bytes.NewReader(c.buf))
	cr.FieldsPerRecord = -1
	cr.ReuseRecord = true
	base := c.line - 1
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return t.csvErr(err, base)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(t.names) {
			return t.raggedErr(base+line, len(rec))
		}
		row := t.newRow(c)
		for col, cell := range rec {
			if col > 0 {
				// A quoted field may span lines.
				line, _ = cr.FieldPos(col)
			}
			if err := t.cell(c, col, row, unsafe.Slice(unsafe.StringData(cell), len(cell)), base+line); err != nil {
				return err
			}
		}
		c.block.Rows++
	}
}

// csvErr converts an error of encoding/csv on a chunk whose first line is
// line base+1.
func (t *table) csvErr(err error, base int) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		moved := *pe
		moved.StartLine += base
		moved.Line += base
		return &Error{File: t.file, Line: moved.Line, Msg: fmt.Sprintf("%v (byte %d)", pe.Err, pe.Column), Err: &moved}
	}
	return &Error{File: t.file, Msg: "read error: " + err.Error(), Err: err}
}

// newRow makes room for a row's features at the end of c.block.X (and of
// its compact values, while they are kept), and returns where they start.
func (t *table) newRow(c *chunk) int {
	b := &c.block
	row, n := len(b.X), len(t.feats)
	b.X = slices.Grow(b.X, n)[:row+n]
	if t.compact && b.fitsDecimal {
		b.xc = slices.Grow(b.xc, n)[:row+n]
	}
	return row
}

// cell parses the cell in column col (0-based) on the given line: a
// feature goes to its place in the row that starts at c.block.X[row], a
// target cell is noted, and a column left out is not read.
func (t *table) cell(c *chunk, col, row int, cell []byte, line int) error {
	f := t.role[col]
	if f < 0 {
		if f == roleSkip {
			return nil
		}
		cell = trimSpace(cell)
		if isMissing(cell) {
			return t.missingTargetErr(string(cell), line)
		}
		c.tcells = append(c.tcells, cell)
		c.tlines = append(c.tlines, int32(line))
		return nil
	}
	v, st := parseCell(cell)
	switch st {
	case cellBad:
		return errorf(t.file, line, col+1, "cell %s in column %q %s", quoteCell(cell), t.names[col], notANumber(cell))
	case cellRange:
		return errorf(t.file, line, col+1, "cell %s in column %q is out of range", quoteCell(cell), t.names[col])
	}
	b := &c.block
	b.X[row+int(f)] = v
	if t.compact && b.fitsDecimal {
		if code, ok := encodeCompactText(cell, v); ok {
			b.xc[row+int(f)] = code
		} else {
			b.fitsDecimal = false
			b.xc = b.xc[:0]
		}
	}
	return nil
}

// isMissing reports whether a trimmed cell is a missing value.
func isMissing(s []byte) bool {
	switch string(s) {
	case "", "NA", "na", "?", "nan", "NaN", "NAN":
		return true
	}
	return equalFold(s, "nan")
}

// parseCell is parseNumber for a cell of a feature column, without copying
// the cell.
func parseCell(s []byte) (float64, cellStatus) {
	s = trimSpace(s)
	if v, ok := parseSimple(s); ok {
		return v, cellOK
	}
	if len(s) == 0 {
		return math.NaN(), cellMissing
	}
	return parseNumber(unsafe.String(&s[0], len(s))) // a string: no copy
}

// pow10 are the powers of ten that a float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// parseSimple parses the numbers that most data files hold, an optional
// minus sign, at most 15 digits and an optional decimal point, when the
// result is exact: the digits as an integer, below 2^53, and a division by
// a power of ten that a float64 holds exactly give the correctly rounded
// value (as strconv.ParseFloat's own fast path does). It reports false for
// anything else, which the caller parses in full.
func parseSimple(s []byte) (float64, bool) {
	i := 0
	if len(s) > 0 && s[0] == '-' {
		i = 1
	}
	start := i
	var mant uint64
	for ; i < len(s) && s[i]-'0' < 10; i++ {
		mant = mant*10 + uint64(s[i]-'0')
	}
	digits, frac := i-start, 0
	if i < len(s) && s[i] == '.' {
		i++
		f := i
		for ; i < len(s) && s[i]-'0' < 10; i++ {
			mant = mant*10 + uint64(s[i]-'0')
		}
		frac = i - f
		digits += frac
	}
	if i != len(s) || digits == 0 || digits > 15 {
		return 0, false
	}
	v := float64(mant) / pow10[frac]
	if start == 1 {
		v = -v
	}
	return v, true
}
