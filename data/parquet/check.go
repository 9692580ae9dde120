package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/treegen/treegen/data"
)

// The Parquet library sets memory aside for the lengths and counts that a
// file claims (of its footer's lists, of a page's bytes) before it reads
// what they count, so that a few damaged bytes could make it ask for
// gigabytes. The footer, and the page headers of every column chunk read,
// are checked first: every length must fit in the bytes that hold it.

// errThriftShort says that a Thrift structure runs past the bytes given.
var errThriftShort = errors.New("thrift structure runs past its bytes")

// maxThriftDepth bounds the nesting of Thrift structures.
const maxThriftDepth = 64

// thriftLength checks the Thrift compact-protocol structure at the start
// of b and returns its length in bytes. Every length and count it holds
// must fit in b (each element of a list takes at least a byte): else the
// error is errThriftShort.
func thriftLength(b []byte) (int, error) {
	w := thriftWalker{b: b}
	err := w.structure(0)
	return w.i, err
}

// thriftWalker walks a Thrift compact-protocol structure.
type thriftWalker struct {
	b []byte
	i int
}

func (w *thriftWalker) next() (byte, error) {
	if w.i >= len(w.b) {
		return 0, errThriftShort
	}
	w.i++
	return w.b[w.i-1], nil
}

func (w *thriftWalker) uvarint() (uint64, error) {
	v, n := binary.Uvarint(w.b[w.i:])
	switch {
	case n == 0:
		return 0, errThriftShort
	case n < 0:
		return 0, errors.New("thrift varint overflows 64 bits")
	}
	w.i += n
	return v, nil
}

// skip skips n bytes.
func (w *thriftWalker) skip(n uint64) error {
	if n > uint64(len(w.b)-w.i) {
		return errThriftShort
	}
	w.i += int(n)
	return nil
}

// structure skips the fields of a structure, up to its stop byte.
func (w *thriftWalker) structure(depth int) error {
	if depth > maxThriftDepth {
		return fmt.Errorf("thrift structures nested more than %d deep", maxThriftDepth)
	}
	for {
		h, err := w.next()
		if err != nil {
			return err
		}
		if h == 0 {
			return nil
		}
		if h>>4 == 0 { // the field id follows, as a varint
			if _, err := w.uvarint(); err != nil {
				return err
			}
		}
		if err := w.value(h&0x0f, depth, false); err != nil {
			return err
		}
	}
}

// value skips a value of type typ; a boolean takes a byte only as an
// element of a list, set or map.
func (w *thriftWalker) value(typ byte, depth int, element bool) error {
	switch typ {
	case 1, 2: // boolean true, false
		if element {
			return w.skip(1)
		}
		return nil
	case 3: // byte
		return w.skip(1)
	case 4, 5, 6: // i16, i32, i64
		_, err := w.uvarint()
		return err
	case 7: // double
		return w.skip(8)
	case 8: // binary
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		return w.skip(n)
	case 9, 10: // list, set
		h, err := w.next()
		if err != nil {
			return err
		}
		n := uint64(h >> 4)
		if n == 15 {
			if n, err = w.uvarint(); err != nil {
				return err
			}
		}
		return w.elements(n, depth, h&0x0f)
	case 11: // map
		n, err := w.uvarint()
		if err != nil || n == 0 {
			return err
		}
		kv, err := w.next()
		if err != nil {
			return err
		}
		if n > uint64(len(w.b)-w.i)/2 {
			return errThriftShort
		}
		for range n {
			if err := w.value(kv>>4, depth+1, true); err != nil {
				return err
			}
			if err := w.value(kv&0x0f, depth+1, true); err != nil {
				return err
			}
		}
		return nil
	case 12: // struct
		return w.structure(depth + 1)
	}
	return fmt.Errorf("unknown thrift type %d", typ)
}

// elements skips n elements of type typ.
func (w *thriftWalker) elements(n uint64, depth int, typ byte) error {
	if n > uint64(len(w.b)-w.i) {
		return errThriftShort
	}
	for range n {
		if err := w.value(typ, depth+1, true); err != nil {
			return err
		}
	}
	return nil
}

// checkParquetFooter checks the footer of a file of size bytes, whose
// length footer it gives.
func checkParquetFooter(r io.ReaderAt, size, footer int64, name string) error {
	b := make([]byte, footer)
	if _, err := r.ReadAt(b, size-8-footer); err != nil {
		return &data.Error{File: name, Msg: "read error: " + err.Error(), Err: err}
	}
	n, err := thriftLength(b)
	if err == nil && n != len(b) {
		err = fmt.Errorf("%d bytes past its end", len(b)-n)
	}
	if err != nil {
		return parquetDamaged(name, fmt.Errorf("footer: %w", err))
	}
	return nil
}

// maxExpansion is how many times its compressed size a page may expand to
// when decompressed with each codec, about the most that the codec can
// reach; 1 MiB is always allowed.
func maxExpansion(codec format.CompressionCodec) int64 {
	switch codec {
	case format.Uncompressed:
		return 1
	case format.Snappy:
		return 32
	case format.Lz4, format.Lz4Raw:
		return 256
	case format.Gzip:
		return 2048
	}
	return 1 << 16
}

// checkChunk walks the page headers of the column chunk of c in row group
// g, before the Parquet library reads it: each page must lie within the
// chunk, and expand no more than its codec can; the data pages must hold
// as many values as the row group has rows.
func (p *parquetSource) checkChunk(c *parquetColumn, g int) error {
	md := p.file.Metadata()
	if g >= len(md.RowGroups) || c.leaf >= len(md.RowGroups[g].Columns) {
		return parquetDamaged(p.name, fmt.Errorf("row group %d has no chunk for column %q", g+1, c.name))
	}
	cc := &md.RowGroups[g].Columns[c.leaf]
	bad := func(msg string, args ...any) error {
		return c.damaged(p, fmt.Errorf(msg, args...))
	}
	if cc.FilePath != "" {
		return bad("column chunk in another file, %q", cc.FilePath)
	}
	m := &cc.MetaData
	start := m.DataPageOffset
	if m.DictionaryPageOffset != 0 {
		start = m.DictionaryPageOffset
	}
	end := start + m.TotalCompressedSize
	if start < int64(len(parquetMagic)) || m.TotalCompressedSize < 0 || end < start || end > p.dataEnd {
		return bad("column chunk at [%d, %d) outside the data of the file, [%d, %d)", start, end, len(parquetMagic), p.dataEnd)
	}
	rows := md.RowGroups[g].NumRows
	expand := maxExpansion(m.Codec)
	var values int64
	for pos := start; pos < end; {
		h, n, err := p.pageHeader(pos, end)
		if err != nil {
			return bad("page header at byte %d: %w", pos, err)
		}
		pos += n
		size, full := int64(h.CompressedPageSize), int64(h.UncompressedPageSize)
		if size < 0 || size > end-pos {
			return bad("page at byte %d of %d bytes past the end of its column chunk (byte %d)", pos, size, end)
		}
		if full < 0 || full > max(1<<20, expand*size) {
			return bad("page at byte %d of %d bytes expands to %d", pos, size, full)
		}
		data := pos // start of the compressed data
		var count int64
		switch h.Type {
		case format.DataPage:
			count = int64(h.DataPageHeader.V.NumValues)
		case format.DataPageV2:
			v := &h.DataPageHeaderV2.V
			count = int64(v.NumValues)
			levels := int64(v.RepetitionLevelsByteLength) + int64(v.DefinitionLevelsByteLength)
			if v.RepetitionLevelsByteLength < 0 || v.DefinitionLevelsByteLength < 0 || levels > size {
				return bad("page at byte %d of %d bytes has %d bytes of levels", pos, size, levels)
			}
			data += levels
			if v.IsCompressed.Valid && !v.IsCompressed.V {
				data = pos + size
			}
		case format.DictionaryPage:
			if n := int64(h.DictionaryPageHeader.V.NumValues); n < 0 || n > full {
				return bad("dictionary page at byte %d of %d bytes holds %d values", pos, full, n)
			}
		}
		if count < 0 || count > rows-values {
			return bad("pages hold more values than the row group has rows (%d)", rows)
		}
		values += count
		if m.Codec == format.Snappy && data < pos+size {
			// Snappy sets memory aside for the length its data starts with.
			var b [binary.MaxVarintLen64]byte
			k, _ := p.file.ReadAt(b[:min(int64(len(b)), pos+size-data)], data)
			if v, n := binary.Uvarint(b[:k]); n <= 0 || v > uint64(full) {
				return bad("page at byte %d of %d bytes claims to expand to more", pos, full)
			}
		}
		pos += size
	}
	if values != rows {
		return bad("pages hold %d values, the row group has %d rows", values, rows)
	}
	return nil
}

// pageHeader reads the page header at byte pos of the file, which must
// end before byte end, and returns it and its length.
func (p *parquetSource) pageHeader(pos, end int64) (*format.PageHeader, int64, error) {
	for window := int64(256); ; window *= 4 {
		if w := int(min(window, end-pos)); cap(p.scratch) < w {
			p.scratch = make([]byte, w)
		}
		b := p.scratch[:min(window, end-pos)]
		if _, err := p.file.ReadAt(b, pos); err != nil && err != io.EOF {
			return nil, 0, err
		}
		n, err := thriftLength(b)
		if err == errThriftShort && int64(len(b)) < end-pos {
			continue
		}
		if err != nil {
			return nil, 0, err
		}
		h := new(format.PageHeader)
		if err := thrift.Unmarshal(new(thrift.CompactProtocol), b[:n], h); err != nil {
			return nil, 0, err
		}
		return h, int64(n), nil
	}
}
