package data

import (
	"io"
	"os"
)

// Stream reads the rows of a data file block by block, so that a file of
// any size can be scored in memory that does not grow with it. It holds a
// [Source] for the file's format. Text files are cut into chunks of whole
// records, which are parsed on every core (GOMAXPROCS goroutines) and
// handed back in file order; a Parquet file is read row group by row
// group. A LibSVM file streams when [Options] give its IndexBase (IndexOne
// or IndexZero) and NumFeatures, its width: an index past NumFeatures is
// then an error. Otherwise its index base and width depend on all its
// lines, and it is read whole, sparse, and handed out in blocks.
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
	cols  Columns
	src   Source
	whole bool // read for Read: see openStream

	// For Read: whether to make the features compact, and the size of
	// the file when it is a regular file read without decompression,
	// else 0.
	compact bool
	size    int64
	pf      *os.File
	block   Block
	began   bool // Next has been called
	self    bool // the source calls Prepare itself
	rows    int
	err     error

	// Prepare, if set before the first call of Next, is called on every
	// block after it is parsed and before Next returns it, on the
	// goroutines that parse, in no particular order. It may read and
	// change the block (its Out and Scores fields are for results), not
	// the Stream.
	Prepare func(*Block)
}

// preparer is a Source that calls a Stream's Prepare function itself, on
// the goroutines that parse its blocks.
type preparer interface {
	setPrepare(func(*Block))
}

// OpenStream starts reading a data file from r, as [Read] would read it,
// and reads its header. name is used in errors and to choose the format,
// as by Read. The Stream must be closed.
func OpenStream(r io.Reader, name string, opts Options) (*Stream, error) {
	return openStream(r, name, opts, false)
}

// openStream opens a Stream. whole says that Read drains it: a text file
// keeps the text of its target cells for Read to decide the kind of the
// whole column (its blocks have no Y), and codes its values compactly
// when opts.Compact; a LibSVM file is read whole, and handed out in one
// block unless opts.Compact.
func openStream(r io.Reader, name string, opts Options, whole bool) (*Stream, error) {
	in, format, err := open(r, name, opts)
	if err != nil {
		return nil, err
	}
	var src Source
	switch format {
	case FormatTSV, FormatCSV:
		src, err = openTextSource(in, format, opts, whole)
	case FormatLibSVM:
		src, err = openSVMSource(in, opts, whole)
	default:
		var open OpenFunc
		if open, err = registered(format, name); err != nil {
			return nil, err
		}
		ra, size, rerr := randomAccess(r, in)
		if rerr != nil {
			return nil, rerr
		}
		src, err = open(ra, size, name, opts)
	}
	if err != nil {
		return nil, err
	}
	s := &Stream{src: src, cols: src.Columns(), whole: whole, compact: opts.Compact}
	if !in.gz {
		s.size = fileSize(r)
	}
	s.cols.Source, s.cols.Format = name, format
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

// Columns describes the columns of the blocks.
func (s *Stream) Columns() Columns { return s.cols }

// Features returns the names of the feature columns, in the order of a
// row's values: file order, or that of [Options].Select.
func (s *Stream) Features() []string { return s.cols.Features }

// Skipped returns the columns of the file that are not read because
// [Options].Select does not name them, in file order.
func (s *Stream) Skipped() []string { return s.cols.Skipped }

// Format returns the format of the file.
func (s *Stream) Format() Format { return s.cols.Format }

// NoHeader reports whether a TSV or CSV file has no header line, as
// [Dataset].NoHeader does.
func (s *Stream) NoHeader() bool { return s.cols.NoHeader }

// HasTarget reports whether the blocks carry targets (Y).
func (s *Stream) HasTarget() bool { return s.cols.Target }

// Source returns the name the file was opened with.
func (s *Stream) Source() string { return s.cols.Source }

// Rows returns how many rows the blocks returned so far hold.
func (s *Stream) Rows() int { return s.rows }

// blockRows is how many rows a block of a file read whole holds.
const blockRows = 8192

// Next returns the next block of rows, valid until the following call of
// Next or Close. At the end of the file it returns io.EOF, or an error if
// the file has no data rows at all. An error is returned again by every
// later call.
func (s *Stream) Next() (*Block, error) {
	b, err := s.next(&s.block)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// next returns the next block, which the source may fill into dst.
func (s *Stream) next(dst *Block) (*Block, error) {
	if s.err != nil {
		return nil, s.err
	}
	if !s.began {
		s.began = true
		if p, ok := s.src.(preparer); ok && s.Prepare != nil {
			p.setPrepare(s.Prepare)
			s.self = true
		}
	}
	b, err := s.src.Next(dst)
	if err == io.EOF && s.rows == 0 {
		err = errorf(s.cols.Source, 0, 0, "no data rows")
	}
	if err != nil {
		s.err = err
		s.src.Close()
		return nil, err
	}
	if !s.self && s.Prepare != nil {
		s.Prepare(b)
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

// Close stops reading and closes the file that OpenFileStream opened.
func (s *Stream) Close() error {
	s.src.Close()
	if s.err == nil {
		s.err = errorf(s.cols.Source, 0, 0, "stream is closed")
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
