package data

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress"
	"github.com/parquet-go/parquet-go/encoding"
)

// ParquetKind is the type of the values of a column that a [ParquetWriter]
// writes.
type ParquetKind int

// The kinds of column a [ParquetWriter] writes. The zero value is
// ParquetDouble.
const (
	// ParquetDouble is a column of float64 values (Parquet's DOUBLE).
	ParquetDouble ParquetKind = iota
	// ParquetFloat is a column of float32 values (Parquet's FLOAT).
	ParquetFloat
	// ParquetInt64 is a column of 64-bit integers (Parquet's INT64).
	ParquetInt64
	// ParquetString is a column of UTF-8 text (Parquet's BYTE_ARRAY
	// annotated as STRING), such as class labels, dictionary-encoded.
	ParquetString
)

// String returns the name of the Parquet type that k writes: "DOUBLE",
// "FLOAT", "INT64" or "STRING".
func (k ParquetKind) String() string {
	switch k {
	case ParquetDouble:
		return "DOUBLE"
	case ParquetFloat:
		return "FLOAT"
	case ParquetInt64:
		return "INT64"
	case ParquetString:
		return "STRING"
	}
	return "ParquetKind(" + strconv.Itoa(int(k)) + ")"
}

// ParquetColumn describes a column of a file that [ParquetWriter] writes.
type ParquetColumn struct {
	Name string      // name of the column; names must be non-empty and distinct
	Kind ParquetKind // type of its values
}

// parquetGroupRows is the most rows a ParquetWriter writes in one row
// group; it holds the rows of at most one row group in memory, encoded.
const parquetGroupRows = 1 << 16

// parquetWriteChunk is how many values of a column ParquetWriter hands to
// the Parquet library at a time.
const parquetWriteChunk = 4096

// ParquetWriter writes rows to a Parquet file, column by column as a
// Parquet file holds them: every column is required (no value is missing;
// a NaN is written as NaN), numbers are written plain and text
// dictionary-encoded, pages are compressed with Snappy, and every 65536
// rows make a row group, so that memory holds no more than one row group,
// encoded, whatever the number of rows. The same rows give the same
// bytes: the file holds no time stamp, and its created_by field reads
// "treegen". Its files are plain Parquet files, which other Parquet
// implementations read.
type ParquetWriter struct {
	out       *parquet.GenericWriter[any]
	columns   []ParquetColumn
	slot      []int // index of each column's values among the numeric or the text columns
	nums      int   // number of numeric columns
	texts     int   // number of text columns
	vals      []parquet.Value
	groupRows int   // rows of a row group
	inGroup   int   // rows written to the current row group
	err       error // error that stopped writing
	closed    bool
}

// NewParquetWriter returns a ParquetWriter that writes a Parquet file with
// the given columns, in order, to w. It fails when a column has no name, a
// name is given twice, or a Kind is unknown.
func NewParquetWriter(w io.Writer, columns []ParquetColumn) (*ParquetWriter, error) {
	if len(columns) == 0 {
		return nil, errors.New("parquet writer: no columns")
	}
	pw := &ParquetWriter{columns: append([]ParquetColumn(nil), columns...), slot: make([]int, len(columns))}
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
		var node parquet.Node
		switch c.Kind {
		case ParquetDouble:
			node = parquet.Leaf(parquet.DoubleType)
		case ParquetFloat:
			node = parquet.Leaf(parquet.FloatType)
		case ParquetInt64:
			node = parquet.Leaf(parquet.Int64Type)
		case ParquetString:
			node = parquet.Encoded(parquet.String(), &parquet.RLEDictionary)
		default:
			return nil, fmt.Errorf("parquet writer: column %q has unknown kind %d", c.Name, int(c.Kind))
		}
		fields[i] = parquetField{Node: parquet.Required(node), name: c.Name}
		if c.Kind == ParquetString {
			pw.slot[i] = pw.texts
			pw.texts++
		} else {
			pw.slot[i] = pw.nums
			pw.nums++
		}
	}
	pw.out = parquet.NewGenericWriter[any](w,
		parquet.NewSchema("schema", fields),
		parquet.Compression(&parquet.Snappy),
		&parquet.WriterConfig{CreatedBy: "treegen"},
	)
	pw.vals = make([]parquet.Value, 0, parquetWriteChunk)
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
// ParquetWriter: every later call returns it.
func (pw *ParquetWriter) WriteRows(rows int, nums []float64, texts []string) error {
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
		if c.Kind != ParquetInt64 {
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
func (pw *ParquetWriter) write(from, n int, nums []float64, texts []string) error {
	writers := pw.out.ColumnWriters()
	for i, c := range pw.columns {
		for lo := from; lo < from+n; lo += parquetWriteChunk {
			hi := min(lo+parquetWriteChunk, from+n)
			vals := pw.vals[:0]
			for r := lo; r < hi; r++ {
				var v parquet.Value
				switch c.Kind {
				case ParquetDouble:
					v = parquet.DoubleValue(nums[r*pw.nums+pw.slot[i]])
				case ParquetFloat:
					v = parquet.FloatValue(float32(nums[r*pw.nums+pw.slot[i]]))
				case ParquetInt64:
					v = parquet.Int64Value(int64(nums[r*pw.nums+pw.slot[i]]))
				case ParquetString:
					v = parquet.ByteArrayValue([]byte(texts[r*pw.texts+pw.slot[i]]))
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
// does not close the io.Writer. A ParquetWriter cannot be used after Close.
func (pw *ParquetWriter) Close() error {
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

// parquetGroup is the root of the schema of a file that ParquetWriter
// writes: a group whose fields keep the order given, where parquet.Group
// sorts them by name.
type parquetGroup []parquet.Field

func (g parquetGroup) ID() int                     { return 0 }
func (g parquetGroup) Type() parquet.Type          { return parquet.Group{}.Type() }
func (g parquetGroup) Optional() bool              { return false }
func (g parquetGroup) Repeated() bool              { return false }
func (g parquetGroup) Required() bool              { return true }
func (g parquetGroup) Leaf() bool                  { return false }
func (g parquetGroup) Fields() []parquet.Field     { return g }
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
	parquet.Node
	name string
}

func (f parquetField) Name() string { return f.name }

func (f parquetField) Value(base reflect.Value) reflect.Value {
	return base.MapIndex(reflect.ValueOf(f.name))
}
