package data

import (
	"fmt"
	"io"
	"sync"
)

// Source reads the rows of one data file block by block: a [Stream] holds
// one for the file's format, and [Read] drains a Stream. The formats of
// this package have sources of their own; a format whose reader lives in
// another package, as Parquet's does in package
// github.com/treegen/treegen/data/parquet, gives its sources through the
// [OpenFunc] it registers with [RegisterFormat].
//
// A Source that knows how many rows it holds may also have a method
//
//	RowsHint() int
//
// which returns them (or fewer, when the file's claims are not to be
// trusted that far): [Read] sets aside memory for that many rows at once.
type Source interface {
	// Columns describes the columns of the blocks: their features, in
	// order, the columns of the file left out, and whether the blocks
	// carry targets. Its Source and Format are filled in by the Stream.
	Columns() Columns
	// Next returns the next block of rows, or io.EOF after the last. It
	// may fill dst, reusing the memory of its slices, and return it, or
	// return a block of its own; either is valid until the next call of
	// Next or Close. A source whose targets are text (class labels) sets
	// YText for every row of every block. Errors are [*Error]s naming the
	// file and, as Line, the line or 1-based row; an error ends the
	// source.
	Next(dst *Block) (*Block, error)
	// Close releases what the source holds. It does not close the file.
	Close()
}

// OpenFunc opens a [Source] on a file of size bytes that r reads at any
// offset, with the options opts. name is used in errors. The options
// have been checked as for every format (see [Options]); opts.Select is
// for the source to apply: [MatchColumns] maps the columns of a file to
// the features it selects, as this package's formats do.
type OpenFunc func(r io.ReaderAt, size int64, name string, opts Options) (Source, error)

// formats holds the OpenFuncs registered by other packages.
var formats sync.Map // Format -> OpenFunc

// registrable lists the formats that this package recognizes (by the
// extension of a file's name, or by its first bytes) but reads through a
// registered OpenFunc, with the package that registers it.
var registrable = map[Format]string{
	FormatParquet: "github.com/treegen/treegen/data/parquet",
}

// RegisterFormat makes [Read], [ReadFile] and [OpenStream] read files of
// format f with open. A package that reads a format registers it in its
// init function, as image formats and database/sql drivers do, so that
// only programs that import the package link it and its dependencies:
//
//	import _ "github.com/treegen/treegen/data/parquet" // reads Parquet files
//
// Only [FormatParquet] is registered this way; the other formats are this
// package's own. RegisterFormat panics when f is not such a format, open
// is nil, or f is registered twice.
func RegisterFormat(f Format, open OpenFunc) {
	if _, ok := registrable[f]; !ok {
		panic(fmt.Sprintf("data: RegisterFormat of format %v, which is not read through a registered OpenFunc", f))
	}
	if open == nil {
		panic("data: RegisterFormat of a nil OpenFunc")
	}
	if _, dup := formats.LoadOrStore(f, open); dup {
		panic(fmt.Sprintf("data: RegisterFormat called twice for format %v", f))
	}
}

// registered returns the OpenFunc of format f, or an error saying which
// package a program must import to read it.
func registered(f Format, name string) (OpenFunc, error) {
	if open, ok := formats.Load(f); ok {
		return open.(OpenFunc), nil
	}
	pkg := registrable[f]
	return nil, errorf(name, 0, 0, "the file is %s, which this program cannot read: a Go program reads %s files once it imports %s (import _ %q)",
		formatTitle(f), formatTitle(f), pkg, pkg)
}

// formatTitle names a format in a sentence.
func formatTitle(f Format) string {
	if f == FormatParquet {
		return "Parquet"
	}
	return f.String()
}

// Columns describes the columns of a data file as a reader reads them:
// what [Dataset.Columns] and [Stream.Columns] return.
type Columns struct {
	Source   string   // the name the file was read as
	Format   Format   // its format
	Features []string // the feature columns read, in the order of the rows' values
	// Skipped lists, in file order, the columns of the file that were
	// left out because [Options].Select does not name them (the target
	// column is never listed); nil when none was.
	Skipped  []string
	NoHeader bool // a TSV or CSV file without a header line: its columns are named by position
	Target   bool // the rows carry targets
}
