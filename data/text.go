package data

import (
	"bytes"
	"encoding/csv"
	"io"
	"slices"
	"strings"
)

// textSource is the Source of a TSV or CSV file: its chunks parsed on the
// goroutines of a pipeline, handed back in file order.
type textSource struct {
	name    string
	t       *table
	sp      *splitter
	first   *chunk
	pipe    *pipeline
	cur     *chunk
	blank   blankLines // TSV
	whole   bool       // read for Read: the table keeps the target cells
	prepare func(*Block)
	labels  map[string]string // text targets of a Stream, each kept once
}

// openTextSource reads the header of a TSV or CSV file and returns its
// source; see openStream for whole.
func openTextSource(in *input, format Format, opts Options, whole bool) (*textSource, error) {
	t, sp, first, err := openText(in, format, opts)
	if err != nil {
		return nil, err
	}
	t.compact = whole && opts.Compact
	return &textSource{name: in.name, t: t, sp: sp, first: first, whole: whole}, nil
}

func (s *textSource) Columns() Columns {
	t := s.t
	return Columns{Features: t.feats, Skipped: t.skipped, NoHeader: !t.header, Target: t.target >= 0 && !t.drop}
}

func (s *textSource) setPrepare(f func(*Block)) { s.prepare = f }

// Next returns the block of the next chunk that holds rows. Read whole,
// the target cells of its rows go to the table first, those of the rows
// before an error (and of the row of the error, if its target comes
// before the bad cell) included, as reading line by line would.
func (s *textSource) Next(*Block) (*Block, error) {
	if s.pipe == nil {
		s.pipe = startPipeline(s.sp, s.first, s.parse)
		s.first = nil
	}
	for {
		c := s.pipe.advance(&s.cur)
		if c == nil {
			return nil, io.EOF
		}
		if err := s.blank.check(s.name, c); err != nil {
			return nil, err
		}
		if s.whole {
			for r, cell := range c.tcells {
				if err := addTarget(s.t, cell, int(c.tlines[r])); err != nil {
					return nil, err
				}
			}
		}
		if c.err != nil {
			return nil, c.err
		}
		s.t.rows += c.block.Rows
		if c.block.Rows == 0 {
			continue
		}
		if c.text {
			s.fillText(c)
		}
		c.block.inBytes = len(c.buf)
		return &c.block, nil
	}
}

// targets returns the target column, once every block has been read
// whole; see table.targets.
func (s *textSource) targets() ([]float64, []string, error) { return s.t.targets() }

func (s *textSource) Close() {
	if s.pipe != nil {
		s.pipe.stop()
	}
}

// parse parses a chunk, on a goroutine of the pipeline.
func (s *textSource) parse(c *chunk) {
	s.t.parseChunk(c, !s.whole)
	if c.err == nil && s.prepare != nil && c.block.Rows > 0 {
		s.prepare(&c.block)
	}
}

// fillText sets the YText of a block whose targets are not all numbers.
func (s *textSource) fillText(c *chunk) {
	b := &c.block
	b.YText = b.YText[:0]
	if s.labels == nil {
		s.labels = make(map[string]string)
	}
	for r, cell := range c.tcells {
		if b.Y[r] == b.Y[r] {
			b.YText = append(b.YText, "")
			continue
		}
		l, ok := s.labels[string(cell)]
		if !ok {
			l = string(cell)
			s.labels[l] = l
		}
		b.YText = append(b.YText, l)
	}
}

// blankLines is the first blank line of a TSV file not yet followed by
// data, 0 if none, across its chunks.
type blankLines int

// check reports an empty line of the file that data follows in chunk c, the
// next chunk in file order.
func (b *blankLines) check(file string, c *chunk) error {
	if *b != 0 && c.firstData != 0 {
		return errorf(file, int(*b), 0, "empty line")
	}
	switch {
	case c.trailBlank != 0 && (c.firstData != 0 || *b == 0):
		*b = blankLines(c.trailBlank)
	case c.firstData != 0:
		*b = 0
	}
	return nil
}

// openText reads the header of a TSV or CSV file and returns its table,
// the splitter of the rest and the first chunk of it.
func openText(in *input, format Format, opts Options) (*table, *splitter, *chunk, error) {
	sp := &splitter{src: in.br, in: in, csv: format == FormatCSV, size: opts.chunkBytes()}
	// The first records: read until a byte that is not blank is followed
	// by the end of a record, or to the end of the input.
	buf := make([]byte, 0, sp.size)
	end := 0
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := readFull(in.br, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			sp.eof, end = true, len(buf)
			break
		}
		if err != nil {
			return nil, nil, nil, in.readErr(err)
		}
		end, _ = sp.boundary(buf)
		if i := firstNonBlank(buf); i >= 0 && i < end {
			break
		}
	}
	sp.carry = append([]byte(nil), buf[end:]...)
	sp.line = 1 + bytes.Count(buf[:end], newline)
	head := buf[:end]
	var cells []string
	off := 0
	if format == FormatTSV {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, off = head[:i], i+1
		} else {
			off = len(head)
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if isBlank(line) {
			if firstNonBlank(head) >= 0 {
				return nil, nil, nil, emptyFirstLine(in.name, opts)
			}
			return nil, nil, nil, errorf(in.name, 0, 0, "empty file")
		}
		cells = strings.Split(string(line), "\t")
		for i, c := range cells {
			cells[i] = strings.TrimSpace(c)
		}
	} else {
		cr := csv.NewReader(bytes.NewReader(head))
		cr.FieldsPerRecord = -1
		rec, err := cr.Read()
		if err == io.EOF {
			return nil, nil, nil, errorf(in.name, 0, 0, "empty file")
		}
		t := &table{file: in.name}
		if err != nil {
			return nil, nil, nil, t.csvErr(err, 0)
		}
		if line, _ := cr.FieldPos(0); line != 1 {
			return nil, nil, nil, emptyFirstLine(in.name, opts)
		}
		off = int(cr.InputOffset())
		cells = make([]string, len(rec))
		for i, c := range rec {
			cells[i] = strings.TrimSpace(c)
		}
	}
	t, err := newTable(in.name, cells, opts)
	if err != nil {
		return nil, nil, nil, err
	}
	t.format = format
	first := &chunk{buf: head, line: 1}
	if t.header {
		first.buf = head[off:]
		first.line = 1 + bytes.Count(head[:off], newline)
	}
	first.quoted = format == FormatCSV && bytes.IndexByte(first.buf, '"') >= 0
	return t, sp, first, nil
}

// firstNonBlank returns the index of the first byte of buf that is not
// white space, or -1.
func firstNonBlank(buf []byte) int {
	for i, c := range buf {
		if !isSpace(c) {
			return i
		}
	}
	return -1
}
