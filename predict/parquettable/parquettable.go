package parquettable

import (
	"io"
	"path/filepath"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/data/parquet"
	"github.com/treegen/treegen/predict"
)

// IsName reports whether a file is named as Parquet: its extension is
// .parquet, in any letter case.
func IsName(path string) bool {
	return strings.EqualFold(filepath.Ext(path), ".parquet")
}

// Write writes the columns of t for every row of s to w as a Parquet file:
// DOUBLE columns (FLOAT in precision float32, INT64 for integers such as
// leaf indices) and, for a table with classes, a STRING column, class. It
// sets s.Prepare to t.Fill, so that the rows are scored as s reads them.
func Write(w io.Writer, t *predict.Table, s *data.Stream) error {
	kind := parquet.Double
	switch {
	case t.Ints:
		kind = parquet.Int64
	case t.Bits == 32:
		kind = parquet.Float
	}
	var spec []parquet.Column
	for _, name := range t.Names {
		spec = append(spec, parquet.Column{Name: name, Kind: kind})
	}
	if t.Classes != nil {
		spec = append(spec, parquet.Column{Name: "class", Kind: parquet.String})
	}
	pw, err := parquet.NewWriter(w, spec)
	if err != nil {
		return err
	}
	s.Prepare = t.Fill
	k := len(t.Names)
	var texts []string
	err = s.Each(func(b *data.Block) error {
		texts = texts[:0]
		if t.Classes != nil {
			for _, v := range b.Scores[b.Rows*k:] {
				texts = append(texts, t.Classes[int(v)])
			}
		}
		return pw.WriteRows(b.Rows, b.Scores[:b.Rows*k], texts)
	})
	if err != nil {
		return err
	}
	return pw.Close()
}
