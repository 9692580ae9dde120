package data

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// ReadFile reads the data file at path; see [Read]. If the file cannot be
// opened, the error is the one from os.Open, which names the path.
func ReadFile(path string, opts Options) (*Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path, opts)
}

// Read reads a data set in TSV, CSV or LibSVM format (or Parquet, in a
// program that imports package github.com/treegen/treegen/data/parquet)
// from r, decompressing it first if it starts with the gzip magic bytes.
// name is used in errors, as the Source of the result and, with
// [FormatAuto], to choose the format from its extension. All errors are
// of type [*Error].
//
// Read drains a [Stream] of r: the blocks are put together as they come,
// then a last pass decides what the target column holds (numbers, or
// class labels) from every cell of it.
func Read(r io.Reader, name string, opts Options) (*Dataset, error) {
	s, err := openStream(r, name, opts, true)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.drain()
}

// drain reads every block of a Stream that Read opened into a Dataset.
func (s *Stream) drain() (*Dataset, error) {
	cols, size := s.cols, s.size
	nf := len(cols.Features)
	fb := &featureBuilder{compact: s.compact}
	if h, ok := s.src.(interface{ RowsHint() int }); ok {
		if rows := h.RowsHint(); rows > 0 {
			fb.reserve(rows * nf)
		}
	}
	whole, _ := s.src.(interface {
		targets() ([]float64, []string, error)
	})
	var tc targetCollector
	var dst Block
	var scratch []float64 // the rows of a block, when they are made compact
	var codes []uint32
	for {
		dst.X = fb.x[len(fb.x):] // read in place, when the source fills dst
		if fb.compact {
			dst.X = scratch[:0]
		}
		dst.Y = tc.y[len(tc.y):]
		b, err := s.next(&dst)
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if fb.room == 0 && b.Rows > 0 && size > 0 && b.inBytes > 0 {
			// Room for the rows the file holds at the density of its first
			// chunk, and 2% more, so that the rows are copied once.
			fb.reserve(int(min(float64(len(b.X))/float64(b.inBytes)*float64(size)*1.02, 1<<34)))
		}
		switch {
		case b.coded:
			fb.add(b.X, b.xc, b.kind, b.fitsDecimal, b.fitsFloat32)
		case fb.compact:
			if b == &dst {
				scratch = b.X
			}
			var kind compactKind
			var decimal, f32 bool
			codes, kind, decimal, f32 = encodeAll(codes, b.X)
			fb.add(b.X, codes, kind, decimal, f32)
		default:
			fb.add(b.X, nil, 0, false, false)
		}
		if whole == nil && cols.Target {
			tc.add(b.Y, b.YText)
		}
	}
	d := &Dataset{
		Source:   cols.Source,
		Format:   cols.Format,
		Features: cols.Features,
		Skipped:  cols.Skipped,
		NoHeader: cols.NoHeader,
		X:        fb.x,
		Rows:     s.rows,
		Cols:     nf,
	}
	var err error
	switch {
	case whole != nil:
		d.Y, d.Labels, err = whole.targets()
	case cols.Target:
		d.Y, d.Labels = tc.result()
	}
	if err != nil {
		return nil, err
	}
	if d.X == nil {
		d.X = []float64{} // no feature columns
	}
	fb.finish(d)
	return d, nil
}

// targetCollector puts the targets of the blocks of a source together:
// numbers, or, once a block holds text, class labels.
type targetCollector struct {
	y     []float64
	text  bool
	index map[string]int32 // id of each distinct label
	cells []string         // distinct labels, by id
	ids   []int32          // every row's label id, once text
}

// add adds the targets of a block: y, and text when some of them are
// text (see Block).
func (tc *targetCollector) add(y []float64, text []string) {
	if text != nil && !tc.text {
		// Text from now on: the numbers before it are labels too.
		tc.text = true
		tc.index = make(map[string]int32)
		for _, v := range tc.y {
			tc.ids = append(tc.ids, tc.id(strconv.FormatFloat(v+0, 'g', -1, 64)))
		}
		tc.y = nil
	}
	if !tc.text {
		tc.y = appendInPlace(tc.y, y)
		return
	}
	for r, v := range y {
		l := ""
		if text != nil {
			l = text[r]
		}
		if l == "" && v == v {
			l = strconv.FormatFloat(v+0, 'g', -1, 64) // v+0 turns -0 into +0
		}
		tc.ids = append(tc.ids, tc.id(l))
	}
}

// id returns the id of label l.
func (tc *targetCollector) id(l string) int32 {
	id, ok := tc.index[l]
	if !ok {
		id = int32(len(tc.cells))
		tc.index[l] = id
		tc.cells = append(tc.cells, l)
	}
	return id
}

// result returns the targets, and the labels, sorted, of targets of text.
func (tc *targetCollector) result() ([]float64, []string) {
	if !tc.text {
		if tc.y == nil {
			return []float64{}, nil
		}
		return tc.y, nil
	}
	text := targetColumn{ids: tc.ids, cells: tc.cells}
	labels, y := text.labels()
	return y, labels
}

// appendInPlace appends src to dst, where src may already lie in dst's
// backing array just past its end (as when it was read into dst[len(dst):]).
func appendInPlace(dst, src []float64) []float64 {
	n := len(dst)
	if len(src) > 0 && cap(dst)-n >= len(src) && &dst[:n+1][n] == &src[0] {
		return dst[:n+len(src)]
	}
	return append(dst, src...)
}

// open checks the options, opens r (decompressing it if it is gzip) and
// decides its format.
func open(r io.Reader, name string, opts Options) (*input, Format, error) {
	if err := opts.check(name); err != nil {
		return nil, 0, err
	}
	in, err := openInput(r, name, opts.maxExpansion())
	if err != nil {
		return nil, 0, err
	}
	format, err := in.format(opts)
	if err != nil {
		return nil, 0, err
	}
	return in, format, nil
}

// fileSize returns the size of r when it is a regular file, else 0.
func fileSize(r io.Reader) int64 {
	f, ok := r.(*os.File)
	if !ok {
		return 0
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return st.Size()
}

// randomAccess returns random access to a file of a format that needs it:
// r itself when it is a regular file read without decompression, else
// the whole input read into memory.
func randomAccess(r io.Reader, in *input) (io.ReaderAt, int64, error) {
	if f, ok := r.(*os.File); ok && !in.gz && in.bom == 0 {
		if size := fileSize(r); size > 0 {
			return f, size, nil
		}
	}
	b, err := io.ReadAll(in.br)
	if err != nil {
		return nil, 0, in.readErr(err)
	}
	return bytes.NewReader(b), int64(len(b)), nil
}

// formatFromName returns the format implied by the extension of name, or
// FormatAuto if there is none.
func formatFromName(name string) Format {
	base := strings.ToLower(filepath.Base(name))
	base = strings.TrimSuffix(base, ".gz")
	switch filepath.Ext(base) {
	case ".tsv":
		return FormatTSV
	case ".csv":
		return FormatCSV
	case ".libsvm", ".svm":
		return FormatLibSVM
	case ".parquet":
		return FormatParquet
	}
	return FormatAuto
}

// input is a data stream with gzip compression and a byte order mark
// removed.
type input struct {
	name string
	gz   bool
	rec  *errRecorder
	br   *bufio.Reader
	bom  int // length of the byte order mark skipped at the start
}

const bufSize = 1 << 20

// minExpansionLimit is how many bytes gzip-compressed input may always
// expand to, whatever its ratio.
const minExpansionLimit = 1 << 20

// openInput opens r, decompressing it if it is gzip-compressed; then it may
// expand to at most maxExpansion times the compressed bytes read
// (minExpansionLimit at least), or without bound if maxExpansion < 0.
func openInput(r io.Reader, name string, maxExpansion int) (*input, error) {
	in := &input{name: name}
	compressed := &countingReader{r: r}
	raw := bufio.NewReaderSize(compressed, 64<<10)
	magic, err := raw.Peek(2)
	if err != nil && err != io.EOF && len(magic) < 2 {
		return nil, in.readErr(err)
	}
	var src io.Reader = raw
	if len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		in.gz = true
		zr, err := gzip.NewReader(raw)
		if err != nil {
			return nil, in.readErr(err)
		}
		src = zr
		if maxExpansion >= 0 {
			src = &expansionLimit{r: zr, compressed: compressed, ratio: int64(maxExpansion)}
		}
	}
	in.rec = &errRecorder{r: src}
	in.br = bufio.NewReaderSize(in.rec, bufSize)
	bom, err := in.br.Peek(3)
	if err != nil && in.rec.err != nil {
		return nil, in.readErr(in.rec.err)
	}
	if bytes.HasPrefix(bom, []byte("\xef\xbb\xbf")) {
		in.bom = 3
		in.br.Discard(3)
	}
	return in, nil
}

// readErr wraps an error from the underlying reader.
func (in *input) readErr(err error) *Error {
	msg := "read error: "
	var tooBig *expansionError
	switch {
	case errors.As(err, &tooBig):
		msg = ""
	case in.gz:
		msg = "corrupt or truncated gzip data: "
	}
	return &Error{File: in.name, Msg: msg + err.Error(), Err: err}
}

// countingReader counts the bytes read from r.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// expansionLimit fails once more than max(minExpansionLimit, ratio times
// the bytes read from compressed) have been read from r.
type expansionLimit struct {
	r          io.Reader
	compressed *countingReader
	ratio      int64
	n          int64
}

func (e *expansionLimit) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	e.n += int64(n)
	if e.n > minExpansionLimit && e.n > e.ratio*e.compressed.n {
		return n, &expansionError{out: e.n, in: e.compressed.n, ratio: e.ratio}
	}
	return n, err
}

// expansionError reports gzip data that expands more than it may.
type expansionError struct {
	out, in, ratio int64
}

func (e *expansionError) Error() string {
	return fmt.Sprintf("gzip data expands more than %d-fold (%d bytes from the first %d), far more than data sets do: decompress the file first to read it anyway", e.ratio, e.out, e.in)
}

// sniff guesses the format from the first line, or the magic bytes of
// Parquet.
func (in *input) sniff() (Format, error) {
	buf, err := in.br.Peek(bufSize)
	if err != nil && in.rec.err != nil {
		return 0, in.readErr(in.rec.err)
	}
	if i := bytes.IndexByte(buf, '\n'); i >= 0 {
		buf = buf[:i]
	}
	switch {
	case bytes.HasPrefix(buf, []byte("PAR1")):
		return FormatParquet, nil
	case bytes.IndexByte(buf, '\t') >= 0:
		return FormatTSV, nil
	case bytes.IndexByte(buf, ',') >= 0:
		return FormatCSV, nil
	case looksLibSVM(buf):
		return FormatLibSVM, nil
	}
	return FormatTSV, nil
}

// looksLibSVM reports whether line is a number followed by at least one
// token holding a colon.
func looksLibSVM(line []byte) bool {
	if i := bytes.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	pos := 0
	tok, _ := nextToken(line, &pos)
	if _, st := parseNumber(tok); st != cellOK {
		return false
	}
	tok, _ = nextToken(line, &pos)
	return bytes.IndexByte(tok, ':') > 0
}

// errRecorder remembers the first error other than io.EOF returned by r.
type errRecorder struct {
	r   io.Reader
	err error
}

func (e *errRecorder) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

// nextToken returns the next run of non-space bytes of line at or after
// *pos, and its offset, advancing *pos past it. It returns nil at the end.
func nextToken(line []byte, pos *int) ([]byte, int) {
	i := *pos
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	start := i
	for i < len(line) && !isSpace(line[i]) {
		i++
	}
	*pos = i
	if start == i {
		return nil, start
	}
	return line[start:i], start
}

type cellStatus int

const (
	cellOK cellStatus = iota
	cellMissing
	cellBad
	cellRange
)

// parseNumber parses a cell, trimmed of surrounding ASCII white space.
func parseNumber[T string | []byte](s T) (float64, cellStatus) {
	s = trimSpace(s)
	switch string(s) {
	case "", "NA", "na", "?", "nan", "NaN", "NAN":
		return math.NaN(), cellMissing
	}
	if !isDecimal(s) {
		return 0, cellBad
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			if math.IsInf(v, 0) {
				return v, cellRange
			}
			return v, cellOK // underflow: v is the nearest representable value
		}
		return 0, cellBad
	}
	return v, cellOK
}

// isDecimal reports whether s is a number as data files write them: an
// optional sign, digits with an optional decimal point (at least one digit
// on either side of it), and an optional exponent (e or E, an optional
// sign, digits); or "inf" or "infinity" in any case, with an optional
// sign; or "nan" in any case. It is the part of strconv.ParseFloat's syntax
// without underscores and hexadecimal.
func isDecimal[T string | []byte](s T) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	if rest := s[i:]; equalFold(rest, "inf") || equalFold(rest, "infinity") || (i == 0 && equalFold(rest, "nan")) {
		return true
	}
	digits := 0
	for ; i < len(s) && isDigit(s[i]); i++ {
		digits++
	}
	if i < len(s) && s[i] == '.' {
		for i++; i < len(s) && isDigit(s[i]); i++ {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		exp := i
		for ; i < len(s) && isDigit(s[i]); i++ {
		}
		if i == exp {
			return false
		}
	}
	return i == len(s)
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// equalFold reports whether s equals the lower-case ASCII word w, ignoring
// the case of ASCII letters.
func equalFold[T string | []byte](s T, w string) bool {
	if len(s) != len(w) {
		return false
	}
	for i := range len(w) {
		if c := s[i]; c != w[i] && c|0x20 != w[i] {
			return false
		}
	}
	return true
}

// notANumber says that a cell that is not a number is not one, and why
// when strconv.ParseFloat would take it for one (hexadecimal, digits
// separated by underscores).
func notANumber[T string | []byte](s T) string {
	c := string(trimSpace(s))
	_, err := strconv.ParseFloat(c, 64)
	if err == nil || strings.HasPrefix(strings.TrimLeft(c, "+-"), "0x") || strings.HasPrefix(strings.TrimLeft(c, "+-"), "0X") {
		return "is not a number in decimal notation"
	}
	return "is not a number"
}

func trimSpace[T string | []byte](s T) T {
	i, j := 0, len(s)
	for i < j && isSpace(s[i]) {
		i++
	}
	for j > i && isSpace(s[j-1]) {
		j--
	}
	return s[i:j]
}

// quoteCell quotes a trimmed cell for an error message, shortening it if
// it is long.
func quoteCell[T string | []byte](s T) string {
	const max = 64
	c := string(trimSpace(s))
	if len(c) > max {
		return strconv.Quote(c[:max]) + "..."
	}
	return strconv.Quote(c)
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
		fb.x = appendInPlace(fb.x, x)
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
