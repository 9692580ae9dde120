package data

import (
	"errors"
	"fmt"
	"math"
	goruntime "runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/treegen/treegen/internal/parallel"
)

// Dataset is a dense, row-major table of float64 features with an optional target.
type Dataset struct {
	Source     string    // file name it was read from ("" if built in memory)
	Format     Format    // format the file was read as; FormatAuto if built in memory
	Features   []string  // column names, len == Cols
	X          []float64 // Rows*Cols, row-major; NaN marks a missing value
	Y          []float64 // len == Rows, or nil when the file has no target column
	Rows, Cols int

	// XC holds the features instead of X, in half the memory, when the
	// data set was read with [Options].Compact and every value of the file
	// is a short decimal (see Options.Compact); X is nil then. Such a data
	// set is compact (see [Dataset.IsCompact]): read its values with
	// [Dataset.At], Row, Column or Block, or turn it into X with
	// [Dataset.Expand]. How a value is encoded in 4 bytes is internal.
	XC     []uint32
	xcKind compactKind // how XC encodes the values

	// Labels holds the class labels of a target column of text, nil when
	// the target holds numbers. When it is set, Y[r] is the index in Labels
	// of row r's label (0, 1, 2, ... as float64). [Read] fills it with the
	// distinct labels of the file sorted in byte order (as by sort.Strings),
	// so the index of a label does not depend on the order of the rows;
	// [Dataset.Relabel] may set another list. See [Dataset.LabelName].
	Labels []string

	// NoHeader is set when a TSV or CSV file was read without a header
	// line (see [Options].Header): its columns are named by position, c1,
	// c2, ... (the target column's name included).
	NoHeader bool

	// Skipped lists, in file order, the columns of the file that were not
	// read because [Options].Select does not name them (the target column
	// is never listed); nil when none was.
	Skipped []string
}

// Columns describes the columns of d as they were read.
func (d *Dataset) Columns() Columns {
	return Columns{Source: d.Source, Format: d.Format, Features: d.Features, Skipped: d.Skipped, NoHeader: d.NoHeader, Target: d.Y != nil}
}

// Row returns the features of row i as a slice of X, without copying.
// Its capacity is limited to Cols, so appending to it never overwrites the
// next row. Of a compact data set it returns a copy. Row panics if i is out
// of range.
func (d *Dataset) Row(i int) []float64 {
	lo, hi := i*d.Cols, (i+1)*d.Cols
	if d.IsCompact() {
		row := make([]float64, d.Cols)
		for j, v := range d.XC[lo:hi] {
			row[j] = d.xcKind.decode(v)
		}
		return row
	}
	return d.X[lo:hi:hi]
}

// Block returns the features of rows lo to hi-1, row-major: a slice of X,
// or, for a compact data set, dst (grown if it is too short) holding them
// as float64.
func (d *Dataset) Block(lo, hi int, dst []float64) []float64 {
	if !d.IsCompact() {
		return d.X[lo*d.Cols : hi*d.Cols : hi*d.Cols]
	}
	dst = slices.Grow(dst[:0], (hi-lo)*d.Cols)
	for _, v := range d.XC[lo*d.Cols : hi*d.Cols] {
		dst = append(dst, d.xcKind.decode(v))
	}
	return dst
}

// IsCompact reports whether d holds its features in XC rather than X.
func (d *Dataset) IsCompact() bool { return d.X == nil && d.XC != nil }

// At returns feature f of row r, from X or XC.
func (d *Dataset) At(r, f int) float64 {
	if d.X == nil && d.XC != nil {
		return d.xcKind.decode(d.XC[r*d.Cols+f])
	}
	return d.X[r*d.Cols+f]
}

// Column copies feature f of every row into dst, grown if it is too short,
// and returns dst[:Rows].
func (d *Dataset) Column(f int, dst []float64) []float64 {
	dst = slices.Grow(dst[:0], d.Rows)[:d.Rows]
	if d.IsCompact() {
		for r := range dst {
			dst[r] = d.xcKind.decode(d.XC[r*d.Cols+f])
		}
		return dst
	}
	for r := range dst {
		dst[r] = d.X[r*d.Cols+f]
	}
	return dst
}

// Expand turns a compact data set into one with its features in X, as
// float64 (the same values), and drops XC. It does nothing to a data set
// that is not compact.
func (d *Dataset) Expand() {
	if !d.IsCompact() {
		return
	}
	d.X = make([]float64, len(d.XC))
	for i, v := range d.XC {
		d.X[i] = d.xcKind.decode(v)
	}
	d.XC = nil
}

// compact stores the features in XC when every one has a compact value:
// as short decimals, or else as float32.
// The values are encoded in parts of compactPart on every core.
func (d *Dataset) compact() {
	if d.X == nil {
		return
	}
	parts := (len(d.X) + compactPart - 1) / compactPart
	xc := make([]uint32, len(d.X))
	kinds := make([]compactKind, parts)
	decimal := make([]bool, parts)
	f32 := make([]bool, parts)
	parallel.For(parts, goruntime.GOMAXPROCS(0), func(i int) {
		lo, hi := i*compactPart, min(len(d.X), (i+1)*compactPart)
		// Encoded in place, into xc[lo:hi], which is exactly long enough.
		_, kinds[i], decimal[i], f32[i] = encodeAll(xc[lo:lo:hi], d.X[lo:hi])
	})
	kind := compactDecimal
	if slices.Contains(decimal, false) {
		if slices.Contains(f32, false) {
			return
		}
		kind = compactFloat32
	}
	parallel.For(parts, goruntime.GOMAXPROCS(0), func(i int) {
		if kinds[i] != kind {
			lo, hi := i*compactPart, min(len(d.X), (i+1)*compactPart)
			encodeIn(xc[lo:lo:hi], d.X[lo:hi], kind)
		}
	})
	d.X, d.XC, d.xcKind = nil, xc, kind
}

// compactPart is how many values a goroutine of Dataset.compact encodes at
// a time.
const compactPart = 1 << 16

// Subset returns a new Dataset holding copies of the given rows, in the
// given order (a row may appear more than once), with the same columns,
// Source, Format, NoHeader, Skipped and Labels (copies of them), compact
// if d is. Y is nil in the result when it is nil in d. Subset panics if a row index is out of range.
func (d *Dataset) Subset(rows []int) *Dataset {
	s := &Dataset{
		Source:   d.Source,
		Format:   d.Format,
		Features: slices.Clone(d.Features),
		Rows:     len(rows),
		Cols:     d.Cols,
		Labels:   slices.Clone(d.Labels),
		NoHeader: d.NoHeader,
		Skipped:  slices.Clone(d.Skipped),
	}
	if d.IsCompact() {
		s.XC, s.xcKind = make([]uint32, len(rows)*d.Cols), d.xcKind
	} else {
		s.X = make([]float64, len(rows)*d.Cols)
	}
	if d.Y != nil {
		s.Y = make([]float64, len(rows))
	}
	c := d.Cols
	for k, r := range rows {
		if s.XC != nil {
			copy(s.XC[k*c:(k+1)*c], d.XC[r*c:(r+1)*c])
		} else {
			copy(s.X[k*c:(k+1)*c], d.X[r*c:(r+1)*c])
		}
		if d.Y != nil {
			s.Y[k] = d.Y[r]
		}
	}
	return s
}

// HasTarget reports whether the data set has a target column (Y != nil).
func (d *Dataset) HasTarget() bool { return d.Y != nil }

// LabelName returns the name of the target value y, from which models'
// class names are built: Labels[y] when Labels is set, otherwise the
// number written as by strconv.FormatFloat(y, 'g', -1, 64), with -0
// written "0". When Labels is set but y is not the index of one of them
// (not a whole number in [0, len(Labels))), the number is written as well.
func (d *Dataset) LabelName(y float64) string {
	if d.Labels != nil && y >= 0 && y < float64(len(d.Labels)) && y == math.Trunc(y) {
		return d.Labels[int(y)]
	}
	return strconv.FormatFloat(y+0, 'g', -1, 64) // y+0 turns -0 into +0
}

// maxLabelsListed is how many labels an error of Relabel lists.
const maxLabelsListed = 10

// Relabel rewrites Y so that it indexes labels, and sets Labels to a copy
// of labels: the target of every row becomes the index in labels of its
// [Dataset.LabelName]. It works whether d holds text labels or numbers
// (labels then name the numbers, as in "0", "1"). Its use is to map a
// validation or test set onto the classes of a training set:
//
//	err := test.Relabel(train.Labels)
//
// Relabel fails, leaving d as it was, when d has no target, when labels
// holds a name twice, or when the label of a row is not in labels; the
// error names d.Source and the row (1-based, counting data rows only) and
// lists the labels.
func (d *Dataset) Relabel(labels []string) error {
	if d.Y == nil {
		return errorf(d.Source, 0, 0, "cannot relabel: no target column")
	}
	index := make(map[string]int, len(labels))
	for i, l := range labels {
		if j, ok := index[l]; ok {
			return errorf(d.Source, 0, 0, "cannot relabel: label %q is given twice (%d and %d)", l, j+1, i+1)
		}
		index[l] = i
	}
	y := make([]float64, len(d.Y))
	var prev float64 // the previous row's value and class: most rows repeat
	prevClass := -1
	for r, v := range d.Y {
		if prevClass >= 0 && v == prev {
			y[r] = float64(prevClass)
			continue
		}
		name := d.LabelName(v)
		c, ok := index[name]
		if !ok {
			return errorf(d.Source, 0, 0, "row %d has label %q, which is not one of the %d known labels: %s", r+1, name, len(labels), listLabels(labels))
		}
		y[r], prev, prevClass = float64(c), v, c
	}
	d.Y = y
	d.Labels = slices.Clone(labels)
	if d.Labels == nil {
		d.Labels = []string{}
	}
	return nil
}

// listLabels lists labels, quoted, for an error message, shortened if there
// are many.
func listLabels(labels []string) string {
	if len(labels) == 0 {
		return "(none)"
	}
	return shortList(labels, maxLabelsListed, "labels", quoteCell[string])
}

// shortList joins the first most items, each quoted by quote, with ", ",
// and ends a longer list with how many there are: ", ... (12 labels)".
func shortList(items []string, most int, noun string, quote func(string) string) string {
	var b strings.Builder
	for i, item := range items {
		if i == most {
			fmt.Fprintf(&b, ", ... (%d %s)", len(items), noun)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(item))
	}
	return b.String()
}

// Format of a data file.
type Format int

// The formats [Read] understands. See the package documentation for each.
const (
	FormatAuto    Format = iota // decide from the file name, else from the content
	FormatTSV                   // tab-separated values with a header line
	FormatCSV                   // comma-separated values with a header line
	FormatLibSVM                // "label index:value ..." lines
	FormatParquet               // Apache Parquet, columns matched by name
)

// String returns the lower-case name of the format: "auto", "tsv", "csv",
// "libsvm" or "parquet".
func (f Format) String() string {
	switch f {
	case FormatAuto:
		return "auto"
	case FormatTSV:
		return "tsv"
	case FormatCSV:
		return "csv"
	case FormatLibSVM:
		return "libsvm"
	case FormatParquet:
		return "parquet"
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// Options control how [Read] and [ReadFile] interpret a file. The zero
// value reads any supported format, takes the column "target" as the target
// if there is one, and accepts files without it.
type Options struct {
	// Target is the name of the target column in TSV and CSV files; ""
	// means "target". LibSVM files always have a target (the label),
	// unless DropTarget is set.
	Target string
	// Format of the file; FormatAuto decides from the file name's extension
	// (a ".gz" suffix stripped first) and otherwise from the first line.
	Format Format
	// RequireTarget makes a TSV or CSV file without the target column an
	// error.
	RequireTarget bool
	// DropTarget leaves the target column out of the features, if the file
	// has one, without parsing its cells (they may hold anything, empty
	// cells included); Y stays nil. For LibSVM it skips the label of every
	// line (a first token without a colon) unparsed. It is what predicting
	// wants. DropTarget with RequireTarget is an error.
	DropTarget bool
	// NumFeatures is, for LibSVM only, the minimum number of feature
	// columns; 0 means as many as the highest index seen.
	NumFeatures int
	// Absent is, for LibSVM only, what an index absent from a line means:
	// 0 (AbsentZero, the default) or a missing value (AbsentMissing).
	Absent Absent
	// IndexBase is, for LibSVM only, the index of the first feature:
	// IndexAuto (the default) detects it, IndexOne and IndexZero force it.
	IndexBase IndexBase
	// Header says, for TSV and CSV only, whether the first line names the
	// columns. HeaderRequired (the default) requires it to, HeaderAuto
	// guesses, HeaderPresent and HeaderAbsent decide without looking; see
	// the package documentation for the guess.
	Header Header
	// Names are, for TSV and CSV only, the column names the caller expects
	// (a model's feature names, say). A first line whose every cell is one
	// of them is a header even though its cells are numbers, as the names
	// of some data sets are (PMLB names columns "2", "3", ...).
	Names []string
	// Select, when set, names the feature columns to read, in the order
	// wanted (a model's feature names, say). A TSV or CSV file with a
	// header line, or a Parquet file, may hold them in any order and hold
	// other columns too: the rows' values are those of the named columns,
	// in Select's order, taken from their places as each row is parsed,
	// and the other columns but the target are skipped unread and listed
	// in [Dataset].Skipped (and [Stream.Columns]). A name that no column
	// has is an error naming it, which wraps a [*MissingColumnsError], and
	// so is the name of the target column, never a feature; names must be
	// non-empty and distinct. Two columns of the file may share a name
	// only when neither is read. Files without column names, LibSVM and
	// TSV or CSV without a header line, are read by position: Select does
	// not apply to them. A first line whose every cell is one of Select's
	// names is a header line, as for Names, when Names is empty.
	Select []string
	// TargetColumn is, for TSV and CSV only, the 1-based position of the
	// target column, for files without a header line; 0 means none (the
	// target is then found by name, Target). Target must be "" when it is
	// set.
	TargetColumn int
	// Compact stores the features in [Dataset].XC, 4 bytes a value rather
	// than 8, when every value of the file has a compact value: when each
	// is a short decimal, a whole number below 2^26 (67,108,864) divided by
	// a power of ten up to 10^22 or multiplied by one up to 10^8, as
	// numbers written with up to 7 significant digits (and most with 8)
	// and integers are; or else when each is a float32 exactly, as numbers
	// printed from float32 data at float64's precision are
	// (8.325200080871582). Missing values and infinities are both. The
	// values are the same either way, bit for bit.
	Compact bool
	// ChunkBytes is how many bytes of a text file are read and parsed at a
	// time, at least (a chunk ends at the last record boundary in it, and
	// grows when a record is longer): a block of a [Stream]. 0 means
	// 1 MiB. Smaller chunks take less memory and spread a small file over
	// more cores; each costs a hand-over between goroutines.
	ChunkBytes int
	// MaxExpansion bounds how much gzip-compressed input may expand:
	// reading fails once the decompressed bytes exceed both 1 MiB and
	// MaxExpansion times the compressed bytes read so far. 0 means
	// DefaultMaxExpansion; a negative value removes the bound.
	MaxExpansion int
}

// DefaultMaxExpansion is the bound on the expansion of gzip-compressed
// input when [Options].MaxExpansion is 0. Data sets compress 3 to 20
// times; gzip's own limit is about 1000.
const DefaultMaxExpansion = 100

// Header says whether the first line of a TSV or CSV file is a header.
type Header int

// The ways of reading the first line of a TSV or CSV file.
const (
	// HeaderRequired, the zero value, reads the first line as the header
	// and refuses one that looks like data (every cell a number), as
	// training wants: its columns need names, and a target.
	HeaderRequired Header = iota
	// HeaderAuto reads a first line that looks like data as the first row
	// of a file without a header, and any other as the header.
	HeaderAuto
	// HeaderPresent reads the first line as the header, whatever it holds.
	HeaderPresent
	// HeaderAbsent reads the first line as data: the file has no header.
	HeaderAbsent
)

// String returns the name of h: "required", "auto", "present" or "absent".
func (h Header) String() string {
	switch h {
	case HeaderRequired:
		return "required"
	case HeaderAuto:
		return "auto"
	case HeaderPresent:
		return "present"
	case HeaderAbsent:
		return "absent"
	}
	return "Header(" + strconv.Itoa(int(h)) + ")"
}

// Absent is what a LibSVM index absent from a line means. It implements
// flag.Value and pflag.Value, so that a command line can take it as a flag.
type Absent int

// The meanings of an absent LibSVM index.
const (
	// AbsentZero reads an absent index as 0, the sparse meaning it has to
	// libsvm. It is the zero value.
	AbsentZero Absent = iota
	// AbsentMissing reads an absent index as missing (NaN), as XGBoost
	// does when it reads a LibSVM file.
	AbsentMissing
)

// ParseAbsent returns the Absent named s: "zero" or "missing".
func ParseAbsent(s string) (Absent, error) {
	switch s {
	case "zero":
		return AbsentZero, nil
	case "missing":
		return AbsentMissing, nil
	}
	return 0, fmt.Errorf("unknown absent value meaning %q (want zero or missing)", s)
}

// String returns the name of a: "zero" or "missing".
func (a Absent) String() string {
	switch a {
	case AbsentZero:
		return "zero"
	case AbsentMissing:
		return "missing"
	}
	return "Absent(" + strconv.Itoa(int(a)) + ")"
}

// Set sets a from a flag's value; it implements flag.Value.
func (a *Absent) Set(s string) error {
	v, err := ParseAbsent(s)
	if err != nil {
		return err
	}
	*a = v
	return nil
}

// Type names the flag's type in the help of a command line (pflag.Value).
func (a *Absent) Type() string { return "absent" }

// IndexBase is the index of the first feature of a LibSVM file. It
// implements flag.Value and pflag.Value, so that a command line can take
// it as a flag.
type IndexBase int

// The index bases of a LibSVM file.
const (
	// IndexAuto, the zero value, reads a file as 1-based unless some line
	// of it has an index 0; then the whole file is 0-based (as XGBoost's
	// files often are).
	IndexAuto IndexBase = iota
	// IndexOne reads a file as 1-based, as libsvm does: index 0 is an error.
	IndexOne
	// IndexZero reads a file as 0-based.
	IndexZero
)

// ParseIndexBase returns the IndexBase named s: "auto", "1" or "0".
func ParseIndexBase(s string) (IndexBase, error) {
	switch s {
	case "auto":
		return IndexAuto, nil
	case "1":
		return IndexOne, nil
	case "0":
		return IndexZero, nil
	}
	return 0, fmt.Errorf("unknown index base %q (want auto, 1 or 0)", s)
}

// String returns the name of b: "auto", "1" or "0".
func (b IndexBase) String() string {
	switch b {
	case IndexAuto:
		return "auto"
	case IndexOne:
		return "1"
	case IndexZero:
		return "0"
	}
	return "IndexBase(" + strconv.Itoa(int(b)) + ")"
}

// Set sets b from a flag's value; it implements flag.Value.
func (b *IndexBase) Set(s string) error {
	v, err := ParseIndexBase(s)
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// Type names the flag's type in the help of a command line (pflag.Value).
func (b *IndexBase) Type() string { return "base" }

// chunkBytes returns the size of a chunk of a text file.
func (o Options) chunkBytes() int {
	if o.ChunkBytes > 0 {
		return o.ChunkBytes
	}
	return chunkSize
}

// maxExpansion returns the bound on the expansion of gzip data, negative
// for none.
func (o Options) maxExpansion() int {
	if o.MaxExpansion == 0 {
		return DefaultMaxExpansion
	}
	return o.MaxExpansion
}

// TargetName returns the name of the target column: Target, or "target"
// when Target is "".
func (o Options) TargetName() string { return o.target() }

func (o Options) target() string {
	if o.Target == "" {
		return "target"
	}
	return o.Target
}

// ErrNoHeader is wrapped by the [*Error] of a TSV or CSV file that lacks a
// header line it needs: with [HeaderRequired], a first line whose cells are
// all numbers; without a header, a target column named by [Options].Target.
// errors.Is(err, ErrNoHeader) tells these errors apart.
var ErrNoHeader = errors.New("no header line")

// Error is the error type of [Read] and [ReadFile]. It locates a problem in
// a data file.
type Error struct {
	File string // file name as given to Read or ReadFile
	Line int    // 1-based line number, 0 if not known
	Col  int    // 1-based field number (TSV, CSV) or byte column (LibSVM), 0 if not known
	Msg  string // what is wrong
	Err  error  // the underlying error, if any: see Unwrap
}

// Error formats the error as "FILE:LINE:COL: MSG". The column is left out
// when Col is 0, the line and column when Line is 0, and the file name when
// File is empty.
func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		b.WriteByte(':')
	}
	if e.Line > 0 {
		b.WriteString(strconv.Itoa(e.Line))
		b.WriteByte(':')
		if e.Col > 0 {
			b.WriteString(strconv.Itoa(e.Col))
			b.WriteByte(':')
		}
	}
	if b.Len() > 0 {
		b.WriteByte(' ')
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error (for example io.ErrUnexpectedEOF from
// truncated gzip data, or a *csv.ParseError), or nil.
func (e *Error) Unwrap() error { return e.Err }

func errorf(file string, line, col int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
