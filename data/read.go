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

// Read reads a data set in TSV, CSV or LibSVM format from r, decompressing
// it first if it starts with the gzip magic bytes. name is used in errors,
// as the Source of the result and, with [FormatAuto], to choose the format
// from its extension. All errors are of type [*Error].
func Read(r io.Reader, name string, opts Options) (*Dataset, error) {
	in, format, err := open(r, name, opts)
	if err != nil {
		return nil, err
	}
	var d *Dataset
	switch format {
	case FormatTSV, FormatCSV:
		d, err = readText(in, format, opts, fileSize(r, in))
	case FormatParquet:
		ra, size, rerr := parquetInput(r, in)
		if rerr != nil {
			return nil, rerr
		}
		d, err = readParquet(ra, size, name, opts)
	default:
		d, err = readLibSVM(in, opts)
	}
	if err != nil {
		// A read error reaches the reader in file order, as a chunk's: it
		// explains any error in the records it cut short.
		return nil, err
	}
	d.Source = name
	d.Format = format
	if opts.Compact && format == FormatLibSVM {
		d.compact() // text and Parquet files are made compact as they are read
	}
	return d, nil
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

// fileSize returns the size of r when it is a regular file read without
// decompression, else 0.
func fileSize(r io.Reader, in *input) int64 {
	f, ok := r.(*os.File)
	if !ok || in.gz {
		return 0
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0
	}
	return st.Size()
}

// parquetInput returns random access to a Parquet file: r itself when it
// is a regular file read without decompression, else the whole input read
// into memory.
func parquetInput(r io.Reader, in *input) (io.ReaderAt, int64, error) {
	if f, ok := r.(*os.File); ok && in.bom == 0 {
		if size := fileSize(r, in); size > 0 {
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
	return &Error{File: in.name, Msg: msg + err.Error(), err: err}
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
	case bytes.HasPrefix(buf, []byte(parquetMagic)):
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
