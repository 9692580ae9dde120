package data

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
)

// Limits on the dense matrix built from a LibSVM file, whose size is not
// bounded by the size of the file: at most maxFeatures columns, and at most
// max(minCellBudget, cellsPerPair × the INDEX:VALUE pairs of the file)
// cells, so that it takes memory in proportion to the file's content.
const (
	maxFeatures   = 1 << 20
	minCellBudget = 1 << 24 // 128 MiB of float64
	cellsPerPair  = 64
)

// svmChunk holds the rows of a chunk of a LibSVM file, sparse, and where
// in it the indices that decide the file's index base and width first are.
type svmChunk struct {
	y      []float64
	rowEnd []int     // rowEnd[r] is the end of row r's entries in idx and val
	idx    []int32   // feature index of each entry, as written
	val    []float64 // value of each entry
	top    int       // highest index, -1 if none

	// Where the first index 0, the first index maxFeatures and the first
	// highest index are (line 0 if nowhere).
	zeroLine        int
	maxLine, maxCol int
	topLine, topCol int
}

func (sc *svmChunk) reset() {
	sc.y, sc.rowEnd, sc.idx, sc.val = sc.y[:0], sc.rowEnd[:0], sc.idx[:0], sc.val[:0]
	sc.top, sc.zeroLine, sc.maxLine, sc.maxCol, sc.topLine, sc.topCol = -1, 0, 0, 0, 0, 0
}

// svmParser parses the lines of a LibSVM file.
type svmParser struct {
	file     string
	opts     Options
	maxIndex int // the highest index allowed
	bom      int // length of the byte order mark before line 1
	width    int // the number of features when a stream gives it, else 0
	// wholeBase is the index base of a file read whole, which its
	// lines decide.
	wholeBase int
}

func newSVMParser(in *input, opts Options) *svmParser {
	p := &svmParser{file: in.name, opts: opts, maxIndex: maxFeatures, bom: in.bom}
	if opts.IndexBase == IndexZero {
		p.maxIndex--
	}
	return p
}

// base returns the index of the first feature when the options give it.
func (p *svmParser) base() int {
	if p.opts.IndexBase == IndexZero {
		return 0
	}
	return 1
}

// svmFeatures names the features of a LibSVM file: f<index>.
func svmFeatures(ncols, base int) []string {
	features := make([]string, ncols)
	for i := range features {
		features[i] = "f" + strconv.Itoa(i+base)
	}
	return features
}

// parseBlock parses a chunk of a file whose index base and width, ncols,
// are known, into the dense rows of c.block. An index past the width is an
// error at its line and column.
func (p *svmParser) parseBlock(c *chunk, ncols int) {
	p.parseChunk(c)
	if c.err != nil {
		return
	}
	sc := &c.svm
	base := p.base()
	b := &c.block
	b.Rows, b.Line = len(sc.rowEnd), c.line
	b.X = slices.Grow(b.X[:0], b.Rows*ncols)[:b.Rows*ncols]
	if p.opts.Absent == AbsentZero {
		clear(b.X)
	}
	sc.densify(b.X, ncols, base, p.opts.Absent)
	if !p.opts.DropTarget {
		b.Y = append(b.Y[:0], sc.y...)
	}
}

// parseChunk parses the lines of a chunk into c.svm, stopping at the first
// error, which it sets in c.err.
func (p *svmParser) parseChunk(c *chunk) {
	sc := &c.svm
	sc.reset()
	buf, n := c.buf, c.line-1
	for len(buf) > 0 {
		n++
		var line []byte
		line, buf = cutLine(buf)
		if err := p.parseLine(sc, line, n); err != nil {
			c.err = err
			return
		}
	}
}

// parseLine parses line n into sc.
func (p *svmParser) parseLine(sc *svmChunk, line []byte, n int) error {
	off := 1 // converts 0-based offsets in line to 1-based columns
	if n == 1 {
		off += p.bom
	}
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	pos := 0
	tok, start := nextToken(line, &pos)
	if tok == nil {
		return nil
	}
	file, opts := p.file, p.opts
	if opts.DropTarget {
		if bytes.IndexByte(tok, ':') >= 0 {
			pos = start // no label: the token is the first pair
		}
	} else {
		label, st := parseNumber(tok)
		switch {
		case st == cellBad:
			return errorf(file, n, start+off, "label %s %s", quoteCell(tok), notANumber(tok))
		case st == cellRange:
			return errorf(file, n, start+off, "label %s is out of range", quoteCell(tok))
		case math.IsNaN(label):
			return errorf(file, n, start+off, "missing label %s", quoteCell(tok))
		}
		sc.y = append(sc.y, label)
	}
	prev := -1
	for {
		tok, start := nextToken(line, &pos)
		if tok == nil {
			break
		}
		c := bytes.IndexByte(tok, ':')
		if c <= 0 || c == len(tok)-1 {
			return errorf(file, n, start+off, "expected INDEX:VALUE, got %s", quoteCell(tok))
		}
		is, vs := tok[:c], tok[c+1:]
		if string(is) == "qid" {
			continue
		}
		k, err := strconv.Atoi(string(is))
		switch {
		case err != nil && err.(*strconv.NumError).Err == strconv.ErrRange && k > 0:
			return errorf(file, n, start+off, "index %s exceeds the limit of %d features", is, maxFeatures)
		case err != nil:
			return errorf(file, n, start+off, "bad index %s in %s", quoteCell(is), quoteCell(tok))
		case k == 0 && opts.IndexBase == IndexOne:
			return errorf(file, n, start+off, "index 0 in a 1-based file: indices start at 1")
		case k < 0:
			return errorf(file, n, start+off, "index %d is out of range: indices start at %s", k, indexStart(opts.IndexBase))
		case k > p.maxIndex:
			return errorf(file, n, start+off, "index %d exceeds the limit of %d features", k, maxFeatures)
		case k <= prev:
			return errorf(file, n, start+off, "index %d follows index %d: indices must be strictly increasing", k, prev)
		case p.width > 0 && k-p.base() >= p.width:
			return errorf(file, n, start+off, "index %d is past the %d features read (NumFeatures %d, indices from %d)", k, p.width, p.width, p.base())
		}
		switch {
		case k == 0 && sc.zeroLine == 0:
			sc.zeroLine = n
		case k == maxFeatures && sc.maxLine == 0:
			sc.maxLine, sc.maxCol = n, start+off
		}
		if k > sc.top {
			sc.top, sc.topLine, sc.topCol = k, n, start+off
		}
		prev = k
		v, st := parseCell(vs)
		switch st {
		case cellBad:
			return errorf(file, n, start+c+1+off, "value %s of index %d %s", quoteCell(vs), k, notANumber(vs))
		case cellRange:
			return errorf(file, n, start+c+1+off, "value %s of index %d is out of range", quoteCell(vs), k)
		}
		sc.idx = append(sc.idx, int32(k))
		sc.val = append(sc.val, v)
	}
	sc.rowEnd = append(sc.rowEnd, len(sc.idx))
	return nil
}

// merge appends the rows of the next chunk, o, to sc, which holds the rows
// of the chunks before it.
func (sc *svmChunk) merge(o *svmChunk) {
	base := len(sc.idx)
	sc.y = append(sc.y, o.y...)
	for _, e := range o.rowEnd {
		sc.rowEnd = append(sc.rowEnd, base+e)
	}
	sc.idx = append(sc.idx, o.idx...)
	sc.val = append(sc.val, o.val...)
	if sc.zeroLine == 0 {
		sc.zeroLine = o.zeroLine
	}
	if sc.maxLine == 0 {
		sc.maxLine, sc.maxCol = o.maxLine, o.maxCol
	}
	if o.top > sc.top {
		sc.top, sc.topLine, sc.topCol = o.top, o.topLine, o.topCol
	}
}

// svmSource is the Source of a LibSVM file. It streams, chunk by chunk,
// when the index base and the width of the file are known; otherwise it
// reads the whole file, sparse, when it is opened, and makes its rows
// dense block by block.
type svmSource struct {
	p        *svmParser
	features []string
	target   bool
	prepare  func(*Block)

	// Streamed.
	sp   *splitter
	pipe *pipeline
	cur  *chunk

	// Read whole.
	all     *svmChunk
	ncols   int
	pos     int // the next row
	rowsPer int // rows of a block
}

// openSVMSource opens a LibSVM file; see openStream for whole.
func openSVMSource(in *input, opts Options, whole bool) (*svmSource, error) {
	if opts.NumFeatures < 0 {
		return nil, errorf(in.name, 0, 0, "NumFeatures is negative (%d)", opts.NumFeatures)
	}
	if opts.NumFeatures > maxFeatures {
		return nil, errorf(in.name, 0, 0, "NumFeatures %d exceeds the limit of %d features", opts.NumFeatures, maxFeatures)
	}
	s := &svmSource{p: newSVMParser(in, opts), target: !opts.DropTarget}
	sp := &splitter{src: in.br, in: in, line: 1, size: opts.chunkBytes()}
	if !whole && opts.IndexBase != IndexAuto && opts.NumFeatures > 0 {
		// The base and the width are known: the file streams.
		s.p.width = opts.NumFeatures
		s.sp = sp
		s.features = svmFeatures(opts.NumFeatures, s.p.base())
		return s, nil
	}
	pipe := startPipeline(sp, nil, s.p.parseChunk)
	defer pipe.stop()
	all := &svmChunk{top: -1}
	sawLine := false
	for {
		c := pipe.next()
		if c == nil {
			break
		}
		if c.err != nil {
			return nil, c.err
		}
		sawLine = sawLine || len(c.buf) > 0
		all.merge(&c.svm)
		pipe.release(c)
	}
	if !sawLine {
		return nil, errorf(in.name, 0, 0, "empty file")
	}
	rows := len(all.rowEnd)
	if rows == 0 {
		return nil, errorf(in.name, 0, 0, "no data rows")
	}
	base := 1
	if opts.IndexBase == IndexZero || (opts.IndexBase == IndexAuto && all.zeroLine > 0) {
		base = 0
	}
	if base == 0 && all.maxLine > 0 {
		msg := "index %d exceeds the limit of %d features in a 0-based file"
		if opts.IndexBase == IndexAuto {
			msg += fmt.Sprintf(" (0-based since line %d has index 0)", all.zeroLine)
		}
		return nil, errorf(in.name, all.maxLine, all.maxCol, msg, maxFeatures, maxFeatures)
	}
	top := all.top
	ncols := max(opts.NumFeatures, top+1-base)
	if budget := max(minCellBudget, cellsPerPair*len(all.idx)); ncols > 0 && rows > budget/ncols {
		msg := fmt.Sprintf("a dense matrix of %d rows × %d columns = %d cells, more than the limit of max(%d, %d × %d INDEX:VALUE pairs) = %d cells: the file is too sparse to be read densely",
			rows, ncols, int64(rows)*int64(ncols), minCellBudget, cellsPerPair, len(all.idx), budget)
		if ncols > top+1-base {
			return nil, errorf(in.name, 0, 0, "NumFeatures %d makes %s", opts.NumFeatures, msg)
		}
		return nil, errorf(in.name, all.topLine, all.topCol, "index %d makes %s", top, msg)
	}
	s.all, s.ncols = all, ncols
	s.p.width = 0
	s.features = svmFeatures(ncols, base)
	s.p.wholeBase = base
	s.rowsPer = blockRows
	if whole && !opts.Compact {
		s.rowsPer = rows // Read takes every row at once, in place
	}
	return s, nil
}

func (s *svmSource) Columns() Columns {
	return Columns{Features: s.features, Target: s.target}
}

func (s *svmSource) setPrepare(f func(*Block)) { s.prepare = f }

// RowsHint returns the rows of a file read whole, 0 for one that streams.
func (s *svmSource) RowsHint() int {
	if s.all == nil {
		return 0
	}
	return len(s.all.rowEnd)
}

func (s *svmSource) Next(dst *Block) (*Block, error) {
	if s.all != nil {
		return s.nextWhole(dst)
	}
	if s.pipe == nil {
		s.pipe = startPipeline(s.sp, nil, s.parse)
	}
	for {
		c := s.pipe.advance(&s.cur)
		if c == nil {
			return nil, io.EOF
		}
		if c.err != nil {
			return nil, c.err
		}
		if c.block.Rows > 0 {
			return &c.block, nil
		}
	}
}

// parse parses a chunk of a file that streams, on a goroutine of the
// pipeline.
func (s *svmSource) parse(c *chunk) {
	s.p.parseBlock(c, len(s.features))
	if c.err == nil && s.prepare != nil && c.block.Rows > 0 {
		s.prepare(&c.block)
	}
}

// nextWhole makes the next rows of a file read whole dense, in dst.
func (s *svmSource) nextWhole(dst *Block) (*Block, error) {
	all := s.all
	if s.pos == len(all.rowEnd) {
		return nil, io.EOF
	}
	lo, hi := s.pos, min(len(all.rowEnd), s.pos+s.rowsPer)
	s.pos = hi
	b := dst
	n := (hi - lo) * s.ncols
	b.X = slices.Grow(b.X[:0], n)[:n]
	if s.p.opts.Absent == AbsentZero {
		clear(b.X)
	}
	all.densifyRows(b.X, s.ncols, s.p.wholeBase, s.p.opts.Absent, lo, hi)
	b.Rows, b.Line = hi-lo, 0
	b.Y, b.YText = b.Y[:0], nil
	if s.target {
		b.Y = append(b.Y, all.y[lo:hi]...)
	} else {
		b.Y = nil
	}
	if s.prepare != nil {
		s.prepare(b)
	}
	return b, nil
}

func (s *svmSource) Close() {
	if s.pipe != nil {
		s.pipe.stop()
	}
}

// densify writes the rows of sc into x, ncols to a row, index base at
// column 0; absent entries are 0 or NaN as absent says.
func (sc *svmChunk) densify(x []float64, ncols, base int, absent Absent) {
	sc.densifyRows(x, ncols, base, absent, 0, len(sc.rowEnd))
}

// densifyRows writes rows lo to hi-1 of sc into x, as densify does.
func (sc *svmChunk) densifyRows(x []float64, ncols, base int, absent Absent, lo, hi int) {
	if absent == AbsentMissing {
		nan := math.NaN()
		for i := range x {
			x[i] = nan
		}
	}
	begin := 0
	if lo > 0 {
		begin = sc.rowEnd[lo-1]
	}
	for r, end := range sc.rowEnd[lo:hi] {
		row := x[r*ncols : (r+1)*ncols]
		for e := begin; e < end; e++ {
			row[int(sc.idx[e])-base] = sc.val[e]
		}
		begin = end
	}
}

// indexStart says where the indices of a LibSVM file start.
func indexStart(b IndexBase) string {
	switch b {
	case IndexOne:
		return "1"
	case IndexZero:
		return "0"
	}
	return "0 or 1"
}
