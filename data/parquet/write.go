package parquet

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// Kind is the type of the values of a column that a [Writer]
// writes.
type Kind int

// The kinds of column a [Writer] writes. The zero value is
// Double.
const (
	// Double is a column of float64 values (Parquet's DOUBLE).
	Double Kind = iota
	// Float is a column of float32 values (Parquet's FLOAT).
	Float
	// Int64 is a column of 64-bit integers (Parquet's INT64).
	Int64
	// String is a column of UTF-8 text (Parquet's BYTE_ARRAY
	// annotated as STRING), such as class labels, dictionary-encoded.
	String
)

// String returns the name of the Parquet type that k writes: "DOUBLE",
// "FLOAT", "INT64" or "STRING".
func (k Kind) String() string {
	switch k {
	case Double:
		return "DOUBLE"
	case Float:
		return "FLOAT"
	case Int64:
		return "INT64"
	case String:
		return "STRING"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Column describes a column of a file that [Writer] writes.
type Column struct {
	Name string // name of the column; names must be non-empty and distinct
	Kind Kind   // type of its values
}

// parquetGroupRows is the most rows a Writer writes in one row
// group; it holds the rows of at most one row group in memory, encoded.
const parquetGroupRows = 1 << 16

// parquetWriteChunk is how many values of a column Writer hands to
// the Parquet library at a time.
const parquetWriteChunk = 4096

// Writer writes rows to a Parquet file, column by column as a
// Parquet file holds them: every column is required (no value is missing;
// a NaN is written as NaN), numbers are written plain and text
// dictionary-encoded, pages are compressed with Snappy, and every 65536
// rows make a row group, so that memory holds no more than one row group,
// encoded, whatever the number of rows. The same rows give the same
// bytes: the file holds no time stamp, and its created_by field reads
// "treegen". Its files are plain Parquet files, which other Parquet
// implementations read.
type Writer struct {
	out       *pq.GenericWriter[any]
	columns   []Column
	slot      []int // index of each column's values among the numeric or the text columns
	nums      int   // number of numeric columns
	texts     int   // number of text columns
	vals      []pq.Value
	groupRows int   // rows of a row group
	inGroup   int   // rows written to the current row group
	err       error // error that stopped writing
	closed    bool
}

// NewWriter returns a Writer that writes a Parquet file with
// the given columns, in order, to w. It fails when a column has no name, a
// name is given twice, or a Kind is unknown.
func NewWriter(w io.Writer, columns []Column) (*Writer, error) {
	if len(columns) == 0 {
		return nil, errors.New("parquet writer: no columns")
	}
	pw := &Writer{columns: append([]Column(nil), columns...), slot: make([]int, len(columns))}
	fields := make(parquetGroup, len(columns))
	seen := make(map[string]int, len(columns))
	for i, c := range columns {
		if c.Name == "" {
			return nil, fmt.Errorf("parquet writer: column %d has an empty name", i+1)
		}
		if j, ok := seen[c.Name]; ok {
			return nil, fmt.Errorf("parquet writer: duplicate column name %q (columns %d and %d)", c.Name, j+1, i+1)
		}
		seen[c.Name] = i
		var node pq.Node
		switch c.Kind {
		case Double:
			node = pq.Leaf(pq.DoubleType)
		case Float:
			node = pq.Leaf(pq.FloatType)
		case Int64:
			node = pq.Leaf(pq.Int64Type)
		case String:
			node = pq.Encoded(pq.String(), &pq.RLEDictionary)
		default:
			return nil, fmt.Errorf("parquet writer: column %q has unknown kind %d", c.Name, int(c.Kind))
		}
		fields[i] = parquetField{Node: pq.Required(node), name: c.Name}
		if c.Kind == String {
			pw.slot[i] = pw.texts
			pw.texts++
		} else {
			pw.slot[i] = pw.nums
			pw.nums++
		}
	}
	pw.out = pq.NewGenericWriter[any](w,
		pq.NewSchema("schema", fields),
		pq.Compression(&pq.Snappy),
		&pq.WriterConfig{CreatedBy: "treegen"},
	)
	pw.vals = make([]pq.Value, 0, parquetWriteChunk)
	pw.groupRows = parquetGroupRows
	return pw, nil
}

// WriteRows appends rows: nums holds, row-major, the values of the numeric
// columns (Double, Float, Int64 in column order; float32 columns take
// float32(v) exactly, so pass values that are float32 already), texts the
// values of the String columns row-major (nil if there are none).
//
// len(nums) must be rows times the number of numeric columns, len(texts)
// rows times the number of String columns, and a value of an Int64 column
// a whole number in the range of int64; otherwise WriteRows writes nothing
// and returns an error. An error from the underlying writer stops the
// Writer: every later call returns it.
func (pw *Writer) WriteRows(rows int, nums []float64, texts []string) error {
	switch {
	case pw.err != nil:
		return pw.err
	case pw.closed:
		return errors.New("parquet writer: WriteRows after Close")
	case rows < 0:
		return fmt.Errorf("parquet writer: %d rows", rows)
	case len(nums) != rows*pw.nums:
		return fmt.Errorf("parquet writer: %d numbers for %d rows of %d numeric columns", len(nums), rows, pw.nums)
	case len(texts) != rows*pw.texts:
		return fmt.Errorf("parquet writer: %d texts for %d rows of %d String columns", len(texts), rows, pw.texts)
	}
	for i, c := range pw.columns {
		if c.Kind != Int64 {
			continue
		}
		for r := range rows {
			v := nums[r*pw.nums+pw.slot[i]]
			if v != math.Trunc(v) || v < -(1<<63) || v >= 1<<63 {
				return fmt.Errorf("parquet writer: row %d: value %v of INT64 column %q is not a 64-bit integer", r+1, v, c.Name)
			}
		}
	}
	for done := 0; done < rows; {
		k := min(rows-done, pw.groupRows-pw.inGroup)
		if err := pw.write(done, k, nums, texts); err != nil {
			pw.err = err
			return err
		}
		done += k
		pw.inGroup += k
		if pw.inGroup == pw.groupRows {
			if err := pw.out.Flush(); err != nil {
				pw.err = err
				return err
			}
			pw.inGroup = 0
		}
	}
	return nil
}

// write writes rows [from, from+n) of nums and texts to the columns.
func (pw *Writer) write(from, n int, nums []float64, texts []string) error {
	writers := pw.out.ColumnWriters()
	for i, c := range pw.columns {
		for lo := from; lo < from+n; lo += parquetWriteChunk {
			hi := min(lo+parquetWriteChunk, from+n)
			vals := pw.vals[:0]
			for r := lo; r < hi; r++ {
				var v pq.Value
				switch c.Kind {
				case Double:
					v = pq.DoubleValue(nums[r*pw.nums+pw.slot[i]])
				case Float:
					v = pq.FloatValue(float32(nums[r*pw.nums+pw.slot[i]]))
				case Int64:
					v = pq.Int64Value(int64(nums[r*pw.nums+pw.slot[i]]))
				case String:
					v = pq.ByteArrayValue([]byte(texts[r*pw.texts+pw.slot[i]]))
				}
				vals = append(vals, v.Level(0, 0, i))
			}
			if _, err := writers[i].WriteRowValues(vals); err != nil {
				return err
			}
		}
	}
	return nil
}

// Close writes the rows not yet written and the footer of the file. It
// does not close the io.Writer. A Writer cannot be used after Close.
func (pw *Writer) Close() error {
	if pw.closed {
		return pw.err
	}
	pw.closed = true
	if pw.err != nil {
		return pw.err
	}
	if err := pw.out.Close(); err != nil {
		pw.err = err
	}
	return pw.err
}

// parquetGroup is the root of the schema of a file that Writer
// writes: a group whose fields keep the order given, where pq.Group
// sorts them by name.
type parquetGroup []pq.Field

func (g parquetGroup) ID() int                     { return 0 }
func (g parquetGroup) Type() pq.Type               { return pq.Group{}.Type() }
func (g parquetGroup) Optional() bool              { return false }
func (g parquetGroup) Repeated() bool              { return false }
func (g parquetGroup) Required() bool              { return true }
func (g parquetGroup) Leaf() bool                  { return false }
func (g parquetGroup) Fields() []pq.Field          { return g }
func (g parquetGroup) Encoding() encoding.Encoding { return nil }
func (g parquetGroup) Compression() compress.Codec { return nil }
func (g parquetGroup) GoType() reflect.Type        { return reflect.TypeFor[map[string]any]() }

func (g parquetGroup) String() string {
	var b strings.Builder
	b.WriteString("{")
	for i, f := range g {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s", f.Type(), f.Name())
	}
	b.WriteString("}")
	return b.String()
}

// parquetField is a named field of a parquetGroup.
type parquetField struct {
	pq.Node
	name string
}

func (f parquetField) Name() string { return f.name }

func (f parquetField) Value(base reflect.Value) reflect.Value {
	return base.MapIndex(reflect.ValueOf(f.name))
}
