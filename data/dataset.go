package data

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Dataset is a dense, row-major table of float64 features with an optional target.
type Dataset struct {
	Source     string    // file name it was read from ("" if built in memory)
	Features   []string  // column names, len == Cols
	X          []float64 // Rows*Cols, row-major; NaN marks a missing value
	Y          []float64 // len == Rows, or nil when the file has no target column
	Rows, Cols int
}

// Row returns the features of row i as a slice of X, without copying.
// Its capacity is limited to Cols, so appending to it never overwrites the
// next row. Row panics if i is out of range.
func (d *Dataset) Row(i int) []float64 {
	lo, hi := i*d.Cols, (i+1)*d.Cols
	return d.X[lo:hi:hi]
}

// Subset returns a new Dataset holding copies of the given rows, in the
// given order (a row may appear more than once), with the same columns and
// Source. Y is nil in the result when it is nil in d. Subset panics if a
// row index is out of range.
func (d *Dataset) Subset(rows []int) *Dataset {
	s := &Dataset{
		Source:   d.Source,
		Features: slices.Clone(d.Features),
		X:        make([]float64, len(rows)*d.Cols),
		Rows:     len(rows),
		Cols:     d.Cols,
	}
	if d.Y != nil {
		s.Y = make([]float64, len(rows))
	}
	for k, r := range rows {
		copy(s.X[k*d.Cols:(k+1)*d.Cols], d.Row(r))
		if d.Y != nil {
			s.Y[k] = d.Y[r]
		}
	}
	return s
}

// HasTarget reports whether the data set has a target column (Y != nil).
func (d *Dataset) HasTarget() bool { return d.Y != nil }

// Format of a data file.
type Format int

// The formats [Read] understands. See the package documentation for each.
const (
	FormatAuto   Format = iota // decide from the file name, else from the content
	FormatTSV                  // tab-separated values with a header line
	FormatCSV                  // comma-separated values with a header line
	FormatLibSVM               // "label index:value ..." lines
)

// String returns the lower-case name of the format: "auto", "tsv", "csv" or
// "libsvm".
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
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// Options control how [Read] and [ReadFile] interpret a file. The zero
// value reads any supported format, takes the column "target" as the target
// if there is one, and accepts files without it.
type Options struct {
	// Target is the name of the target column in TSV and CSV files; ""
	// means "target". LibSVM files always have a target (the label).
	Target string
	// Format of the file; FormatAuto decides from the file name's extension
	// (a ".gz" suffix stripped first) and otherwise from the first line.
	Format Format
	// RequireTarget makes a TSV or CSV file without the target column an
	// error.
	RequireTarget bool
	// NumFeatures is, for LibSVM only, the minimum number of feature
	// columns; 0 means as many as the highest index seen.
	NumFeatures int
}

func (o Options) target() string {
	if o.Target == "" {
		return "target"
	}
	return o.Target
}

// Error is the error type of [Read] and [ReadFile]. It locates a problem in
// a data file.
type Error struct {
	File string // file name as given to Read or ReadFile
	Line int    // 1-based line number, 0 if not known
	Col  int    // 1-based field number (TSV, CSV) or byte column (LibSVM), 0 if not known
	Msg  string // what is wrong

	err error // underlying error, if any
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
func (e *Error) Unwrap() error { return e.err }

func errorf(file string, line, col int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
