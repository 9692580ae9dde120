package parquet

import (
	"fmt"
	"io"

	"github.com/treegen/treegen/data"
)

func init() {
	data.RegisterFormat(data.FormatParquet, open)
}

// open opens a Parquet file as a data.Source.
func open(r io.ReaderAt, size int64, name string, opts data.Options) (data.Source, error) {
	p, err := openParquet(r, size, name, opts)
	if err != nil {
		return nil, err
	}
	return p, nil
}

// errorf returns a *data.Error locating a problem in a file.
func errorf(file string, line, col int, format string, args ...any) *data.Error {
	return &data.Error{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}
