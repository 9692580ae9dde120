package parquet

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
	"github.com/parquet-go/parquet-go/format"
	"github.com/treegen/treegen/data"
)

// A Parquet file is read column chunk by column chunk and page by page: each
// column of the result keeps the values of its current page, converted to
// float64 (or to strings for a target of text), and rows are copied from
// them into the row-major blocks that parquetSource.next delivers.

// parquetMagic starts and ends a Parquet file.
const parquetMagic = "PAR1"

// parquetBlockRows is how many rows a block of parquetSource.Next holds.
const parquetBlockRows = 8192

// parquetTileBytes is about how many bytes of rows parquetSource.next fills
// column by column before it moves on to the next rows.
const parquetTileBytes = 128 << 10

// parquetReadBuffer is the size of the buffer through which the pages of a
// column chunk are read.
const parquetReadBuffer = 64 << 10

// parquetConv says how the values of a column become float64s or strings.
type parquetConv uint8

const (
	convBool   parquetConv = iota + 1 // BOOLEAN: 0 or 1
	convInt32                         // INT32, signed
	convUint32                        // INT32 holding an unsigned integer
	convInt64                         // INT64, signed
	convUint64                        // INT64 holding an unsigned integer
	convFloat                         // FLOAT
	convDouble                        // DOUBLE
	convString                        // BYTE_ARRAY holding text (a target of class labels)
)

// parquetColumn is a top-level column of a Parquet file being read, with
// the values of its current page.
type parquetColumn struct {
	name   string
	leaf   int  // index of its column chunk in a row group
	target bool // the target column, whose values may not be missing
	conv   parquetConv
	scale  float64 // divisor of a DECIMAL column, 1 for others
	maxDef byte    // 1 for an optional column, 0 for a required one

	pages pq.Pages  // pages of the current row group, nil before the first
	vals  []float64 // values of the current page; NaN where null
	text  []string  // values of the current page of a convString column
	pos   int       // index in vals or text of the next row to deliver
	first int64     // 0-based row number in the file of vals[0] or text[0]

	dict   pq.Dictionary // dictionary that dictF or dictS hold, converted
	dictF  []float64
	dictS  []string
	intern map[string]string // one copy of each text value
}

// maxInterned is how many distinct text values a column keeps one copy of.
const maxInterned = 1 << 16

// parquetSource reads the rows of a Parquet file as Blocks: the feature
// columns, row-major, and the target column.
type parquetSource struct {
	name    string
	file    *pq.File
	groups  []pq.RowGroup
	cols    []*parquetColumn // feature columns, in schema order
	target  *parquetColumn   // target column, nil if none is read
	rows    int64            // rows in the file, by its row groups
	dataEnd int64            // offset of the footer: column chunks end before it
	scratch []byte           // bytes of a page header
	group   int              // index of the next row group to start
	left    int64            // rows of the current row group not yet delivered
	row     int64            // rows delivered so far
	err     error            // error that ended reading, returned ever after
	skipped []string         // columns not read, as Options.Select does not name them
	size    int64            // bytes of the file
	block   data.Block       // the block Next fills when it is given none
}

// openParquet opens a Parquet file of size bytes read from r and finds its
// columns: the target column as opts says (by the name opts.target(), or by
// position with opts.TargetColumn), every other top-level column a feature.
// name is used in errors. All errors are of type [*Error].
func openParquet(r io.ReaderAt, size int64, name string, opts data.Options) (p *parquetSource, err error) {
	switch {
	case opts.RequireTarget && opts.DropTarget:
		return nil, errorf(name, 0, 0, "RequireTarget and DropTarget are both set")
	case opts.TargetColumn < 0:
		return nil, errorf(name, 0, 0, "TargetColumn is negative (%d)", opts.TargetColumn)
	case opts.TargetColumn > 0 && opts.Target != "":
		return nil, errorf(name, 0, 0, "Target and TargetColumn are both set")
	}
	footer, err := checkParquetEnds(r, size, name)
	if err != nil {
		return nil, err
	}
	if err := checkParquetFooter(r, size, footer, name); err != nil {
		return nil, err
	}
	defer func() {
		// The Parquet library panics on some damaged footers.
		if v := recover(); v != nil {
			p, err = nil, parquetDamaged(name, fmt.Errorf("%v", v))
		}
	}()
	f, err := pq.OpenFile(r, size,
		pq.SkipPageIndex(true),
		pq.SkipBloomFilters(true),
		pq.ReadBufferSize(parquetReadBuffer),
		pq.FileReadMode(pq.ReadModeSync))
	if err != nil {
		return nil, parquetDamaged(name, err)
	}
	p = &parquetSource{name: name, file: f, groups: f.RowGroups(), dataEnd: size - 8 - footer, size: size}
	top := f.Root().Columns()
	names := make([]string, len(top))
	for i, c := range top {
		names[i] = c.Name()
	}
	l, err := data.MatchColumns(name, 0, names, opts)
	if err != nil {
		return nil, err
	}
	p.skipped = l.Skipped
	// The columns are checked in file order, so that the error names the
	// first that cannot be read.
	read := slices.Clone(l.Index)
	if l.Target >= 0 && !opts.DropTarget {
		read = append(read, l.Target)
	}
	slices.Sort(read)
	byFile := make(map[int]*parquetColumn, len(read))
	for _, i := range read {
		col, err := newParquetColumn(name, top[i], i == l.Target)
		if err != nil {
			return nil, err
		}
		byFile[i] = col
	}
	for _, i := range l.Index {
		p.cols = append(p.cols, byFile[i])
	}
	if l.Target >= 0 && !opts.DropTarget {
		p.target = byFile[l.Target]
	}
	for i, g := range p.groups {
		n := g.NumRows()
		if n < 0 || n > math.MaxInt64-p.rows {
			return nil, parquetDamaged(name, fmt.Errorf("row group %d has %d rows", i+1, n))
		}
		p.rows += n
	}
	return p, nil
}

// checkParquetEnds checks the magic bytes at both ends of a Parquet file and
// the length of its footer, which it returns, so that a file of another
// kind, or a truncated one, is refused clearly.
func checkParquetEnds(r io.ReaderAt, size int64, name string) (int64, error) {
	const minSize = 2*len(parquetMagic) + 4 // magic, footer length, magic
	if size < int64(minSize) {
		head := make([]byte, max(size, 0))
		n, _ := r.ReadAt(head, 0)
		switch {
		case size <= 0:
			return 0, errorf(name, 0, 0, "empty file")
		case n > 0 && strings.HasPrefix(parquetMagic, string(head[:min(n, len(parquetMagic))])):
			return 0, errorf(name, 0, 0, "truncated Parquet file: %d bytes", size)
		}
		return 0, errorf(name, 0, 0, "not a Parquet file: it does not start with %q", parquetMagic)
	}
	var head, tail [4]byte
	if n, err := r.ReadAt(head[:], 0); n < len(head) {
		return 0, &data.Error{File: name, Msg: "read error: " + err.Error(), Err: err}
	}
	var end [8]byte
	if n, err := r.ReadAt(end[:], size-8); n < len(end) {
		return 0, &data.Error{File: name, Msg: "read error: " + err.Error(), Err: err}
	}
	copy(tail[:], end[4:])
	switch {
	case string(head[:4]) == "PARE":
		return 0, errorf(name, 0, 0, "encrypted Parquet files cannot be read")
	case string(head[:4]) != parquetMagic:
		return 0, errorf(name, 0, 0, "not a Parquet file: it does not start with %q", parquetMagic)
	case string(tail[:]) != parquetMagic:
		return 0, errorf(name, 0, 0, "truncated or damaged Parquet file: it does not end with %q", parquetMagic)
	}
	n := int64(binary.LittleEndian.Uint32(end[:4]))
	if n > size-int64(minSize) {
		return 0, errorf(name, 0, 0, "truncated or damaged Parquet file: its footer of %d bytes is longer than the file", n)
	}
	return n, nil
}

// parquetDamaged reports an error of the Parquet library on a damaged file.
func parquetDamaged(name string, err error) *data.Error {
	return &data.Error{File: name, Msg: "damaged Parquet file: " + err.Error(), Err: err}
}

// newParquetColumn checks that the top-level column c can be read as a
// feature (or as the target, which may hold text too).
func newParquetColumn(file string, c *pq.Column, target bool) (*parquetColumn, error) {
	col := &parquetColumn{name: c.Name(), leaf: c.Index(), target: target, scale: 1}
	ok := c.Leaf() && !c.Repeated() && c.Index() >= 0 && c.MaxDefinitionLevel() <= 1
	if ok {
		col.maxDef = byte(c.MaxDefinitionLevel())
		col.conv, col.scale, ok = parquetConvOf(c.Type())
		ok = ok && (col.conv != convString || target)
	}
	if !ok {
		what := "feature"
		if target {
			what = "target"
		}
		return nil, errorf(file, 0, 0, "column %q has type %s, which cannot be a %s: a column must hold BOOLEAN, INT32, INT64, FLOAT or DOUBLE values (or text, in a target column)", col.name, parquetTypeName(c), what)
	}
	return col, nil
}

// parquetConvOf returns how values of type t are converted, and the
// divisor of a DECIMAL; ok is false when they cannot be.
func parquetConvOf(t pq.Type) (conv parquetConv, scale float64, ok bool) {
	kind := t.Kind()
	scale = 1
	if lt := t.LogicalType(); lt != nil && lt.Value != nil {
		switch v := lt.Value.(type) {
		case *format.IntType:
			switch {
			case kind == pq.Int32 && v.IsSigned:
				return convInt32, 1, true
			case kind == pq.Int32:
				return convUint32, 1, true
			case kind == pq.Int64 && v.IsSigned:
				return convInt64, 1, true
			case kind == pq.Int64:
				return convUint64, 1, true
			}
		case *format.DecimalType:
			if v.Scale < 0 || v.Scale > 38 {
				return 0, 0, false
			}
			scale = math.Pow10(int(v.Scale))
			switch kind {
			case pq.Int32:
				return convInt32, scale, true
			case pq.Int64:
				return convInt64, scale, true
			}
		case *format.StringType, *format.EnumType:
			if kind == pq.ByteArray {
				return convString, 1, true
			}
		}
		return 0, 0, false
	}
	switch kind {
	case pq.Boolean:
		return convBool, 1, true
	case pq.Int32:
		return convInt32, 1, true
	case pq.Int64:
		return convInt64, 1, true
	case pq.Float:
		return convFloat, 1, true
	case pq.Double:
		return convDouble, 1, true
	case pq.ByteArray:
		return convString, 1, true
	}
	return 0, 0, false
}

// parquetTypeName describes the type of column c for an error message.
func parquetTypeName(c *pq.Column) string {
	var s string
	switch {
	case !c.Leaf():
		s = c.Type().String()
		if s != "group" {
			s += " group"
		}
	default:
		t := c.Type()
		s = t.Kind().String()
		if lt := t.LogicalType(); lt != nil && lt.Value != nil {
			s += " (" + lt.String() + ")"
		}
	}
	switch {
	case c.Repeated():
		s = "repeated " + s
	case c.Leaf() && c.MaxDefinitionLevel() > 1:
		s = "nested " + s
	}
	return s
}

// Columns describes the columns of the blocks.
func (p *parquetSource) Columns() data.Columns {
	return data.Columns{Features: p.features(), Skipped: p.skipped, Target: p.hasTarget()}
}

// Next returns the next block of at most parquetBlockRows rows, filled into
// dst (or into a block of its own when dst is nil); see next.
func (p *parquetSource) Next(dst *data.Block) (*data.Block, error) {
	if dst == nil {
		dst = &p.block
	}
	if err := p.next(dst, parquetBlockRows); err != nil {
		return nil, err
	}
	return dst, nil
}

// RowsHint returns the rows of the file, as far as its size makes them
// plausible: values can take far less room in the file than in memory, so
// that a file's claims are trusted for the memory they ask for only up to
// 8 bytes a value for each byte of the file.
func (p *parquetSource) RowsHint() int {
	limit := max(int64(1)<<20, 8*p.size)
	rows := min(p.rows, limit)
	if cols := len(p.cols); cols > 0 {
		rows = min(rows, limit/int64(cols))
	}
	return int(rows)
}

// Close releases the pages being read.
func (p *parquetSource) Close() { p.close() }

// features returns the names of the feature columns, the target's left
// out.
func (p *parquetSource) features() []string {
	names := make([]string, len(p.cols))
	for i, c := range p.cols {
		names[i] = c.name
	}
	return names
}

// hasTarget reports whether a target column is read: the file has one and
// it is not dropped.
func (p *parquetSource) hasTarget() bool { return p.target != nil }

// textTarget reports whether the target column holds text.
func (p *parquetSource) textTarget() bool { return p.target != nil && p.target.conv == convString }

// close releases the pages being read.
func (p *parquetSource) close() {
	for _, c := range p.all() {
		if c.pages != nil {
			c.pages.Close()
			c.pages = nil
		}
	}
}

// all returns the columns read: the features and the target.
func (p *parquetSource) all() []*parquetColumn {
	if p.target == nil {
		return p.cols
	}
	return append(p.cols[:len(p.cols):len(p.cols)], p.target)
}

// next fills b with the next rows of the file, at most maxRows of them,
// reusing the capacity of b's slices: b.X holds their features, row-major,
// and b.Y their targets when hasTarget (NaN for a target of text, which
// b.YText holds; b.YText is nil when the target holds numbers). b.Line is
// the 1-based number of the first row. After the last row next returns
// io.EOF, with b.Rows == 0; after an error, it returns that error again.
func (p *parquetSource) next(b *data.Block, maxRows int) (err error) {
	b.Rows, b.Line = 0, int(p.row)+1
	b.X = b.X[:0]
	y, text := b.Y[:0], b.YText[:0]
	b.Y, b.YText = nil, nil
	if p.err != nil {
		return p.err
	}
	if maxRows < 1 {
		return errorf(p.name, 0, 0, "cannot read %d rows at a time", maxRows)
	}
	defer func() {
		// The Parquet library panics on some damaged pages.
		if v := recover(); v != nil {
			err = parquetDamaged(p.name, fmt.Errorf("%v", v))
		}
		if err != nil && err != io.EOF {
			p.close()
			p.err = err
			b.Rows = 0
		}
	}()
	rows := int(min(int64(maxRows), p.rows-p.row))
	if rows <= 0 {
		// The row groups left have no rows: their columns must hold no
		// values either.
		for p.group < len(p.groups) {
			if err := p.advance(); err != nil {
				return err
			}
		}
		if err := p.finishGroup(); err != nil {
			return err
		}
		return io.EOF
	}
	cols := len(p.cols)
	b.X = slices.Grow(b.X, rows*cols)[:rows*cols]
	if p.target != nil {
		b.Y = slices.Grow(y, rows)[:rows]
		if p.target.conv == convString {
			b.YText = slices.Grow(text, rows)[:rows]
		}
	}
	for done := 0; done < rows; {
		if p.left == 0 {
			if err := p.advance(); err != nil {
				return err
			}
			continue
		}
		// A tile of rows at a time, so that the rows being written stay in
		// the cache while every column writes its values to them.
		k := int(min(int64(rows-done), p.left, int64(max(parquetTileBytes/(8*cols+8), 16))))
		for j, c := range p.cols {
			if err := c.fill(p, b.X, done*cols+j, cols, k); err != nil {
				return err
			}
		}
		if t := p.target; t != nil {
			if t.conv == convString {
				if err := t.fillText(p, b.Y[done:done+k], b.YText[done:done+k]); err != nil {
					return err
				}
			} else if err := t.fill(p, b.Y, done, 1, k); err != nil {
				return err
			}
		}
		done += k
		p.left -= int64(k)
		p.row += int64(k)
	}
	b.Rows = rows
	return nil
}

// advance finishes the current row group and starts the next one.
func (p *parquetSource) advance() error {
	if err := p.finishGroup(); err != nil {
		return err
	}
	if p.group == len(p.groups) {
		return parquetDamaged(p.name, fmt.Errorf("no row group after row %d", p.row))
	}
	g := p.groups[p.group]
	p.group++ // 1-based number of the row group now
	chunks := g.ColumnChunks()
	for _, c := range p.all() {
		if c.leaf >= len(chunks) {
			return parquetDamaged(p.name, fmt.Errorf("row group %d has %d column chunks", p.group, len(chunks)))
		}
		if err := p.checkChunk(c, p.group-1); err != nil {
			return err
		}
		c.pages = chunks[c.leaf].Pages()
		c.vals, c.text, c.pos = c.vals[:0], c.text[:0], 0
		c.first = p.row
	}
	p.left = g.NumRows()
	return nil
}

// finishGroup checks that the columns of the current row group hold no
// values past its rows, and releases their pages.
func (p *parquetSource) finishGroup() error {
	for _, c := range p.all() {
		if c.pages == nil {
			continue
		}
		extra := c.pos < len(c.vals) || c.pos < len(c.text)
		for !extra {
			page, err := c.pages.ReadPage()
			if err == io.EOF {
				break
			}
			if err != nil {
				return c.damaged(p, err)
			}
			extra = page.NumValues() > 0
			pq.Release(page)
		}
		if extra {
			g := p.groups[p.group-1]
			return parquetDamaged(p.name, fmt.Errorf("column %q holds more values than row group %d has rows (%d)", c.name, p.group, g.NumRows()))
		}
		c.pages.Close()
		c.pages = nil
	}
	return nil
}

// damaged reports an error reading the pages of column c.
func (c *parquetColumn) damaged(p *parquetSource, err error) *data.Error {
	return parquetDamaged(p.name, fmt.Errorf("column %q, row group %d: %w", c.name, p.group, err))
}

// fill writes the values of the next n rows of column c to dst[at],
// dst[at+stride], ...
func (c *parquetColumn) fill(p *parquetSource, dst []float64, at, stride, n int) error {
	for n > 0 {
		if c.pos == len(c.vals) {
			if err := c.load(p); err != nil {
				return err
			}
		}
		k := min(n, len(c.vals)-c.pos)
		src := c.vals[c.pos : c.pos+k]
		if stride == 1 {
			copy(dst[at:at+k], src)
		} else {
			_ = dst[at+(k-1)*stride]
			for i, v := range src {
				dst[at+i*stride] = v
			}
		}
		c.pos += k
		at += k * stride
		n -= k
	}
	return nil
}

// fillText writes the values of the next len(y) rows of text column c to
// text, and NaN to y.
func (c *parquetColumn) fillText(p *parquetSource, y []float64, text []string) error {
	for i := range y {
		y[i] = math.NaN()
	}
	for len(text) > 0 {
		if c.pos == len(c.text) {
			if err := c.load(p); err != nil {
				return err
			}
		}
		k := copy(text, c.text[c.pos:])
		c.pos += k
		text = text[k:]
	}
	return nil
}

// load reads the next page of column c that holds values.
func (c *parquetColumn) load(p *parquetSource) error {
	c.first += int64(max(len(c.vals), len(c.text)))
	c.vals, c.text, c.pos = c.vals[:0], c.text[:0], 0
	for {
		page, err := c.pages.ReadPage()
		if err == io.EOF {
			g := p.groups[p.group-1]
			return parquetDamaged(p.name, fmt.Errorf("column %q holds fewer values than row group %d has rows (%d)", c.name, p.group, g.NumRows()))
		}
		if err != nil {
			return c.damaged(p, err)
		}
		err = c.decode(p, page)
		pq.Release(page)
		if err != nil {
			return err
		}
		if len(c.vals) > 0 || len(c.text) > 0 {
			return nil
		}
	}
}

// decode converts the values of page into c.vals or c.text.
func (c *parquetColumn) decode(p *parquetSource, page pq.Page) error {
	n := page.NumValues()
	if n < 0 || n > math.MaxInt32 {
		return c.damaged(p, fmt.Errorf("page of %d values", n))
	}
	if len(page.RepetitionLevels()) > 0 {
		return c.damaged(p, errors.New("repetition levels in a column that does not repeat"))
	}
	rows := int(n)
	present := rows // values that are not null
	defs := page.DefinitionLevels()
	if c.maxDef > 0 {
		if len(defs) != rows {
			return c.damaged(p, fmt.Errorf("page of %d values has %d definition levels", rows, len(defs)))
		}
		present = 0
		for _, d := range defs {
			if d == c.maxDef {
				present++
			}
		}
	} else {
		defs = nil
	}
	data := page.Data()
	dict := page.Dictionary()
	if dict != nil && dict != c.dict {
		if err := c.convertDict(p, dict); err != nil {
			return err
		}
	}
	if c.conv == convString {
		return c.decodeText(p, data, dict != nil, defs, rows, present)
	}
	c.vals = slices.Grow(c.vals[:0], rows)[:rows]
	vals := c.vals[:present]
	if dict != nil {
		raw, _ := data.Data()
		if data.Kind() != encoding.Int32 || len(raw) < 4*present {
			return c.damaged(p, fmt.Errorf("page of %d dictionary indexes holds %d bytes", present, len(raw)))
		}
		for i := range vals {
			j := binary.LittleEndian.Uint32(raw[4*i:])
			if uint64(j) >= uint64(len(c.dictF)) {
				return c.damaged(p, fmt.Errorf("dictionary index %d out of range [0, %d)", int32(j), len(c.dictF)))
			}
			vals[i] = c.dictF[j]
		}
	} else if err := c.convert(vals, data); err != nil {
		return c.damaged(p, err)
	}
	if defs != nil {
		// Spread the values over the rows, from the end, NaN at the nulls.
		j := present - 1
		for i := rows - 1; i >= 0; i-- {
			if defs[i] == c.maxDef {
				c.vals[i] = c.vals[j]
				j--
			} else {
				c.vals[i] = math.NaN()
			}
		}
	}
	if c.target {
		for i, v := range c.vals {
			if math.IsNaN(v) {
				return c.missingTarget(p, i, defs == nil || defs[i] == c.maxDef)
			}
		}
	}
	return nil
}

// missingTarget reports the missing target in row i of the current page.
func (c *parquetColumn) missingTarget(p *parquetSource, i int, nan bool) error {
	row := c.first + int64(i) + 1
	what := "missing target value"
	if nan {
		what = "missing target value (NaN)"
	}
	return errorf(p.name, int(row), 0, "%s in column %q in row %d", what, c.name, row)
}

// convert converts the n = len(dst) values of data, which holds no nulls,
// into dst.
func (c *parquetColumn) convert(dst []float64, data encoding.Values) error {
	raw, _ := data.Data()
	n := len(dst)
	size, kind := 0, encoding.Kind(0)
	switch c.conv {
	case convBool:
		size, kind = 0, encoding.Boolean
	case convInt32, convUint32:
		size, kind = 4, encoding.Int32
	case convInt64, convUint64:
		size, kind = 8, encoding.Int64
	case convFloat:
		size, kind = 4, encoding.Float
	case convDouble:
		size, kind = 8, encoding.Double
	}
	if data.Kind() != kind {
		return fmt.Errorf("page of %s values in a column of %s", data.Kind(), kind)
	}
	if size == 0 && len(raw) < (n+7)/8 || size > 0 && len(raw) < size*n {
		return fmt.Errorf("page of %d values holds %d bytes", n, len(raw))
	}
	switch c.conv {
	case convBool:
		for i := range dst {
			dst[i] = float64(raw[i>>3] >> (i & 7) & 1)
		}
	case convInt32:
		for i := range dst {
			dst[i] = float64(int32(binary.LittleEndian.Uint32(raw[4*i:])))
		}
	case convUint32:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint32(raw[4*i:]))
		}
	case convInt64:
		for i := range dst {
			dst[i] = float64(int64(binary.LittleEndian.Uint64(raw[8*i:])))
		}
	case convUint64:
		for i := range dst {
			dst[i] = float64(binary.LittleEndian.Uint64(raw[8*i:]))
		}
	case convFloat:
		for i := range dst {
			dst[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:])))
		}
	case convDouble:
		for i := range dst {
			dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
	}
	if c.scale != 1 {
		for i, v := range dst {
			dst[i] = v / c.scale
		}
	}
	return nil
}

// convertDict converts the values of a dictionary into c.dictF or c.dictS.
func (c *parquetColumn) convertDict(p *parquetSource, dict pq.Dictionary) error {
	page := dict.Page()
	n := page.NumValues()
	if n < 0 || n > math.MaxInt32 || page.NumNulls() != 0 || int64(dict.Len()) != n {
		return c.damaged(p, fmt.Errorf("dictionary of %d values", n))
	}
	c.dict = nil
	if c.conv == convString {
		c.dictS = slices.Grow(c.dictS[:0], int(n))[:n]
		if err := c.texts(c.dictS, page.Data()); err != nil {
			return c.damaged(p, err)
		}
	} else {
		c.dictF = slices.Grow(c.dictF[:0], int(n))[:n]
		if err := c.convert(c.dictF, page.Data()); err != nil {
			return c.damaged(p, err)
		}
	}
	c.dict = dict
	return nil
}

// decodeText converts the values of a page of text into c.text.
func (c *parquetColumn) decodeText(p *parquetSource, data encoding.Values, indexed bool, defs []byte, rows, present int) error {
	if present != rows {
		for i, d := range defs {
			if d != c.maxDef {
				return c.missingTarget(p, i, false)
			}
		}
	}
	c.text = slices.Grow(c.text[:0], rows)[:rows]
	if !indexed {
		if err := c.texts(c.text, data); err != nil {
			return c.damaged(p, err)
		}
		return nil
	}
	raw, _ := data.Data()
	if data.Kind() != encoding.Int32 || len(raw) < 4*rows {
		return c.damaged(p, fmt.Errorf("page of %d dictionary indexes holds %d bytes", rows, len(raw)))
	}
	for i := range c.text {
		j := binary.LittleEndian.Uint32(raw[4*i:])
		if uint64(j) >= uint64(len(c.dictS)) {
			return c.damaged(p, fmt.Errorf("dictionary index %d out of range [0, %d)", int32(j), len(c.dictS)))
		}
		c.text[i] = c.dictS[j]
	}
	return nil
}

// texts converts the len(dst) byte arrays of data into dst.
func (c *parquetColumn) texts(dst []string, data encoding.Values) error {
	if data.Kind() != encoding.ByteArray {
		return fmt.Errorf("page of %s values in a column of %s", data.Kind(), encoding.ByteArray)
	}
	raw, offsets := data.Data()
	if len(offsets) < len(dst)+1 {
		return fmt.Errorf("page of %d byte arrays has %d offsets", len(dst), len(offsets))
	}
	if c.intern == nil {
		c.intern = make(map[string]string)
	}
	for i := range dst {
		lo, hi := offsets[i], offsets[i+1]
		if lo > hi || hi > uint32(len(raw)) {
			return fmt.Errorf("byte array %d at [%d:%d] past the %d bytes of its page", i, lo, hi, len(raw))
		}
		b := raw[lo:hi]
		s, ok := c.intern[string(b)]
		if !ok {
			s = string(b)
			if len(c.intern) < maxInterned {
				c.intern[s] = s
			}
		}
		dst[i] = s
	}
	return nil
}
