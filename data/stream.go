package data

import (
	"bytes"
	"encoding/csv"
	"io"
	"os"
	"slices"
	"strings"
)

// Stream reads the rows of a data file block by block, so that a file of
// any size can be scored in memory that does not grow with it. Text files
// are cut into chunks of whole records, which are parsed on every core
// (GOMAXPROCS goroutines) and handed back in file order; a Parquet file is
// read row group by row group. A LibSVM file streams when [Options] give
// its IndexBase (IndexOne or IndexZero) and NumFeatures, its width: an
// index past NumFeatures is then an error. Otherwise its index base and
// width depend on all its lines, and it is read whole and handed out in
// blocks.
//
// A Stream reads a file as [Read] does, with the same errors at the same
// lines and columns, with two differences, as it cannot wait for the end
// of the target column: the targets of a block are numbers, or text (a
// class label) where a cell is not a number, whereas Read decides for the
// whole column (see [Block]); and a target out of range (1e999) is an
// error at once, where Read would take it for a label if the column held
// text.
//
// A Stream is not safe for concurrent use; its Prepare function must be,
// as it runs on several goroutines at once.
type Stream struct {
	name     string
	format   Format
	features []string
	noHeader bool
	target   bool

	// Text files.
	t     *table
	sp    *splitter
	first *chunk
	pipe  *pipeline
	cur   *chunk
	blank blankLines // TSV

	// LibSVM files, streamed when their index base and width are given,
	// else read whole.
	svm   *svmParser
	whole *Dataset
	pos   int
	block Block

	// Parquet files, read row group by row group (from memory when they
	// come from a stream that is not a file).
	pq *parquetSource

	pf *os.File // the file OpenFileStream opened

	rows   int
	labels map[string]string // text targets, each kept once
	err    error

	// Prepare, if set before the first call of Next, is called on every
	// block after it is parsed and before Next returns it, on the
	// goroutines that parse, in no particular order. It may read and
	// change the block (its Out and Scores fields are for results), not
	// the Stream.
	Prepare func(*Block)
}

// OpenStream starts reading a data file from r, as [Read] would read it,
// and reads its header. name is used in errors and to choose the format,
// as by Read. The Stream must be closed.
func OpenStream(r io.Reader, name string, opts Options) (*Stream, error) {
	in, format, err := open(r, name, opts)
	if err != nil {
		return nil, err
	}
	s := &Stream{name: name, format: format}
	switch format {
	case FormatTSV, FormatCSV:
		t, sp, first, err := openText(in, format, opts)
		if err != nil {
			return nil, err
		}
		s.t, s.sp, s.first = t, sp, first
		s.features, s.noHeader = t.features(), !t.header
		s.target = t.target >= 0 && !t.drop
	case FormatParquet:
		ra, size, err := parquetInput(r, in)
		if err != nil {
			return nil, err
		}
		if s.pq, err = openParquet(ra, size, name, opts); err != nil {
			return nil, err
		}
		s.features, s.target = s.pq.features(), s.pq.hasTarget()
	default:
		if opts.IndexBase != IndexAuto && opts.NumFeatures > 0 && opts.NumFeatures <= maxFeatures {
			// The base and the width are known: the file streams.
			s.svm = newSVMParser(in, opts)
			s.svm.width = opts.NumFeatures
			s.sp = &splitter{src: in.br, in: in, line: 1, size: opts.chunkBytes()}
			s.features = svmFeatures(opts.NumFeatures, s.svm.base())
			s.target = !opts.DropTarget
			break
		}
		d, err := readLibSVM(in, opts)
		if err != nil {
			return nil, err
		}
		s.whole, s.features, s.target = d, d.Features, d.Y != nil
	}
	return s, nil
}

// OpenFileStream opens the data file at path and starts reading it as a
// [Stream]. Closing the Stream closes the file.
func OpenFileStream(path string, opts Options) (*Stream, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	s, err := OpenStream(f, path, opts)
	if err != nil {
		f.Close()
		return nil, err
	}
	s.pf = f
	return s, nil
}

// Features returns the names of the feature columns, in file order.
func (s *Stream) Features() []string { return s.features }

// Format returns the format of the file.
func (s *Stream) Format() Format { return s.format }

// NoHeader reports whether a TSV or CSV file has no header line, as
// [Dataset].NoHeader does.
func (s *Stream) NoHeader() bool { return s.noHeader }

// HasTarget reports whether the blocks carry targets (Y).
func (s *Stream) HasTarget() bool { return s.target }

// Source returns the name the file was opened with.
func (s *Stream) Source() string { return s.name }

// Rows returns how many rows the blocks returned so far hold.
func (s *Stream) Rows() int { return s.rows }

// blockRows is how many rows a block of a file read whole holds.
const blockRows = 8192

// Next returns the next block of rows, valid until the following call of
// Next or Close. At the end of the file it returns io.EOF, or an error if
// the file has no data rows at all. An error is returned again by every
// later call.
func (s *Stream) Next() (*Block, error) {
	if s.err != nil {
		return nil, s.err
	}
	b, err := s.next()
	if err == io.EOF && s.rows == 0 {
		err = errorf(s.name, 0, 0, "no data rows")
	}
	if err != nil {
		s.err = err
		s.stop()
		return nil, err
	}
	s.rows += b.Rows
	return b, nil
}

// Each calls f on every block left, in file order, and returns the first
// error of the stream or of f, or nil at the end of the file. A block is
// valid until f returns.
func (s *Stream) Each(f func(b *Block) error) error {
	for {
		b, err := s.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := f(b); err != nil {
			return err
		}
	}
}

func (s *Stream) next() (*Block, error) {
	switch {
	case s.whole != nil:
		return s.nextWhole()
	case s.pq != nil:
		b := &s.block
		if err := s.pq.next(b, blockRows); err != nil {
			return nil, err
		}
		if s.Prepare != nil {
			s.Prepare(b)
		}
		return b, nil
	}
	if s.pipe == nil {
		s.pipe = startPipeline(s.sp, s.first, s.parse)
		s.first = nil
	}
	for {
		if s.cur != nil {
			s.pipe.release(s.cur)
			s.cur = nil
		}
		c := s.pipe.next()
		if c == nil {
			return nil, io.EOF
		}
		s.cur = c
		if err := s.blank.check(s.name, c); err != nil {
			return nil, err
		}
		if c.err != nil {
			return nil, c.err
		}
		if c.block.Rows == 0 {
			continue
		}
		if c.text {
			s.fillText(c)
		}
		return &c.block, nil
	}
}

// parse parses a chunk of a text file, on a goroutine of the pipeline.
func (s *Stream) parse(c *chunk) {
	if s.svm != nil {
		s.svm.parseBlock(c, len(s.features))
	} else {
		s.t.parseChunk(c, true)
	}
	if c.err == nil && s.Prepare != nil && c.block.Rows > 0 {
		s.Prepare(&c.block)
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

// fillText sets the YText of a block whose targets are not all numbers.
func (s *Stream) fillText(c *chunk) {
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

// nextWhole returns the next block of a file read whole.
func (s *Stream) nextWhole() (*Block, error) {
	d := s.whole
	if s.pos == d.Rows {
		return nil, io.EOF
	}
	lo, hi := s.pos, min(d.Rows, s.pos+blockRows)
	s.pos = hi
	b := &s.block
	b.X = append(b.X[:0], d.X[lo*d.Cols:hi*d.Cols]...)
	b.Rows = hi - lo
	b.Line = 0
	b.Y, b.YText = b.Y[:0], nil
	if d.Y != nil {
		b.Y = append(b.Y, d.Y[lo:hi]...)
	}
	if s.Prepare != nil {
		s.Prepare(b)
	}
	return b, nil
}

// stop ends the goroutines of a text file, and releases the pages of a
// Parquet file.
func (s *Stream) stop() {
	if s.pipe != nil {
		s.pipe.stop()
	}
	if s.pq != nil {
		s.pq.close()
	}
}

// Close stops reading and closes the file that OpenFileStream opened.
func (s *Stream) Close() error {
	s.stop()
	if s.err == nil {
		s.err = errorf(s.name, 0, 0, "stream is closed")
	}
	if s.pf != nil {
		err := s.pf.Close()
		s.pf = nil
		return err
	}
	return nil
}

// check checks the options that every format shares.
func (opts Options) check(name string) error {
	switch {
	case opts.RequireTarget && opts.DropTarget:
		return errorf(name, 0, 0, "RequireTarget and DropTarget are both set")
	case opts.Absent != AbsentZero && opts.Absent != AbsentMissing:
		return errorf(name, 0, 0, "unknown Absent %d", int(opts.Absent))
	case opts.IndexBase < IndexAuto || opts.IndexBase > IndexZero:
		return errorf(name, 0, 0, "unknown IndexBase %d", int(opts.IndexBase))
	case opts.Header < HeaderRequired || opts.Header > HeaderAbsent:
		return errorf(name, 0, 0, "unknown Header %d", int(opts.Header))
	case opts.TargetColumn < 0:
		return errorf(name, 0, 0, "TargetColumn is negative (%d)", opts.TargetColumn)
	case opts.TargetColumn > 0 && opts.Target != "":
		return errorf(name, 0, 0, "Target and TargetColumn are both set")
	}
	return nil
}

// format decides the format of the input.
func (in *input) format(opts Options) (Format, error) {
	switch opts.Format {
	case FormatAuto:
		if f := formatFromName(in.name); f != FormatAuto {
			return f, nil
		}
		return in.sniff()
	case FormatTSV, FormatCSV, FormatLibSVM, FormatParquet:
		return opts.Format, nil
	}
	return 0, errorf(in.name, 0, 0, "unknown format %d", int(opts.Format))
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

// features returns the names of the feature columns.
func (t *table) features() []string {
	if t.target < 0 {
		return t.names
	}
	f := make([]string, 0, len(t.names)-1)
	f = append(f, t.names[:t.target]...)
	return append(f, t.names[t.target+1:]...)
}

// readText reads a whole TSV or CSV file; size is the size of the file
// when known, else 0.
func readText(in *input, format Format, opts Options, size int64) (*Dataset, error) {
	t, sp, first, err := openText(in, format, opts)
	if err != nil {
		return nil, err
	}
	var blank blankLines
	t.compact = opts.Compact
	p := startPipeline(sp, first, func(c *chunk) { t.parseChunk(c, false) })
	defer p.stop()
	fb := &featureBuilder{compact: opts.Compact}
	for {
		c := p.next()
		if c == nil {
			break
		}
		if err := blank.check(in.name, c); err != nil {
			return nil, err
		}
		// The targets of the rows up to an error (the row of the error
		// included, if its target comes before the bad cell) come first.
		for r, cell := range c.tcells {
			if err := addTarget(t, cell, int(c.tlines[r])); err != nil {
				return nil, err
			}
		}
		if c.err != nil {
			return nil, c.err
		}
		if fb.room == 0 && c.block.Rows > 0 && size > 0 {
			// Room for the rows the file holds at the density of its first
			// chunk, and 2% more, so that the rows are copied once.
			fb.reserve(int(min(float64(len(c.block.X))/float64(len(c.buf))*float64(size)*1.02, 1<<34)))
		}
		fb.add(c.block.X, c.xc, c.kind, c.fitsDecimal, c.fitsFloat32)
		t.rows += c.block.Rows
		p.release(c)
	}
	t.x = fb.x
	d, err := t.dataset()
	if err == nil {
		fb.finish(d)
	}
	return d, err
}

// featureBuilder puts the features of a file together, block by block, as
// compact values when it is asked to and they fit, else as float64.
type featureBuilder struct {
	compact bool // the values so far are compact, in xc
	x       []float64
	xc      []uint32
	kind    compactKind
	room    int // values reserved, 0 if none

	// Whether every value so far is a short decimal, and a float32.
	notDecimal, notFloat32 bool
}

// reserve sets aside room for n values, before the first are added.
// (make, not slices.Grow: fresh memory from the system needs no clearing,
// and is touched only as the values are written.)
func (fb *featureBuilder) reserve(n int) {
	fb.room = n
	if fb.compact {
		fb.xc = make([]uint32, 0, n)
	} else {
		fb.x = make([]float64, 0, n)
	}
}

// add appends the values x of a block, whose compact values are codes in
// kind when the block fits that kind (fitsDecimal, fitsFloat32 say which).
// The values are short decimals while every value so far is one, else
// float32 while every value is one exactly, else float64: the kind does
// not depend on where the blocks end.
func (fb *featureBuilder) add(x []float64, codes []uint32, kind compactKind, fitsDecimal, fitsFloat32 bool) {
	if fb.compact {
		fb.notDecimal = fb.notDecimal || !fitsDecimal
		fb.notFloat32 = fb.notFloat32 || !fitsFloat32
		switch {
		case fb.notDecimal && fb.notFloat32:
			fb.compact = false
			fb.x = make([]float64, len(fb.xc), max(fb.room, len(fb.xc)+len(x)))
			for i, v := range fb.xc {
				fb.x[i] = fb.kind.decode(v)
			}
			fb.xc = nil
		case fb.notDecimal && fb.kind == compactDecimal:
			for i, v := range fb.xc {
				fb.xc[i], _ = compactFloat32.encode(fb.kind.decode(v))
			}
			fb.kind = compactFloat32
		}
	}
	switch {
	case fb.compact && kind == fb.kind:
		fb.xc = append(fb.xc, codes...)
	case fb.compact:
		fb.xc = encodeIn(fb.xc, x, fb.kind)
	default:
		fb.x = append(fb.x, x...)
	}
}

// finish sets the features of d, which has its other fields, when they
// are compact.
func (fb *featureBuilder) finish(d *Dataset) {
	if !fb.compact {
		return
	}
	d.X, d.XC, d.xcKind = nil, fb.xc, fb.kind
	if d.XC == nil {
		d.XC = []uint32{} // no feature columns
	}
}
