package parquet

import (
	"bytes"
	"compress/gzip"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	pq "github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/thrift"
	"github.com/parquet-go/parquet-go/format"
	"github.com/treegen/treegen/data"
)

// readParquetBytes reads a Parquet file held in memory.
func readParquetBytes(b []byte, name string, opts data.Options) (*data.Dataset, error) {
	return readParquet(bytes.NewReader(b), int64(len(b)), name, opts)
}

// readParquet reads a Parquet file of size bytes from r with data.Read, as
// a program that imports this package does.
func readParquet(r io.ReaderAt, size int64, name string, opts data.Options) (*data.Dataset, error) {
	opts.Format = data.FormatParquet
	return data.Read(io.NewSectionReader(r, 0, size), name, opts)
}

// sameData reports how a and b differ, "" if they do not (NaN equals NaN).
func sameData(a, b *data.Dataset) string {
	switch {
	case a.Rows != b.Rows || a.Cols != b.Cols:
		return fmt.Sprintf("shape %dx%d, want %dx%d", a.Rows, a.Cols, b.Rows, b.Cols)
	case !reflect.DeepEqual(a.Features, b.Features):
		return fmt.Sprintf("features %q, want %q", a.Features, b.Features)
	case !reflect.DeepEqual(a.Labels, b.Labels):
		return fmt.Sprintf("labels %q, want %q", a.Labels, b.Labels)
	case a.NoHeader != b.NoHeader || a.Format != b.Format || (a.Y == nil) != (b.Y == nil):
		return "NoHeader, Format or target differ"
	}
	for _, p := range [][2][]float64{{a.X, b.X}, {a.Y, b.Y}} {
		for i := range p[0] {
			if !sameFloat(p[0][i], p[1][i]) {
				return fmt.Sprintf("value %d is %v, want %v", i, p[0][i], p[1][i])
			}
		}
	}
	return ""
}

func gzipString(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// sameFloat reports whether a and b are the same float64: equal bits, or
// both NaN.
func sameFloat(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// checkFloats fails t unless got and want hold the same float64s.
func checkFloats(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Fatalf("%s: got nil %v, want nil %v", what, got == nil, want == nil)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: got %d values, want %d", what, len(got), len(want))
	}
	for i := range got {
		if !sameFloat(got[i], want[i]) {
			t.Fatalf("%s[%d] = %v (%#x), want %v (%#x)", what, i, got[i], math.Float64bits(got[i]), want[i], math.Float64bits(want[i]))
		}
	}
}

// checkDataset fails t unless got holds what want does.
func checkDataset(t *testing.T, got, want *data.Dataset) {
	t.Helper()
	if got.Source != want.Source || got.Format != want.Format || got.Rows != want.Rows || got.Cols != want.Cols || got.NoHeader {
		t.Fatalf("got %s %v %d×%d NoHeader %v, want %s %v %d×%d", got.Source, got.Format, got.Rows, got.Cols, got.NoHeader, want.Source, want.Format, want.Rows, want.Cols)
	}
	if !slices.Equal(got.Features, want.Features) {
		t.Fatalf("Features = %q, want %q", got.Features, want.Features)
	}
	if (got.Labels == nil) != (want.Labels == nil) || !slices.Equal(got.Labels, want.Labels) {
		t.Fatalf("Labels = %q (nil %v), want %q", got.Labels, got.Labels == nil, want.Labels)
	}
	checkFloats(t, "X", got.X, want.X)
	checkFloats(t, "Y", got.Y, want.Y)
}

// csvDataset reads the CSV file that make.js writes beside a Parquet file,
// with the values it wrote there, into the data.Dataset that reading the Parquet
// file with opts should give: an empty cell is a null, a target column of
// text holds labels.
func csvDataset(t *testing.T, path, source string, opts data.Options) *data.Dataset {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	names, rows := recs[0], recs[1:]
	target := slices.Index(names, opts.TargetName())
	if opts.TargetColumn > 0 {
		target = opts.TargetColumn - 1
	}
	d := &data.Dataset{Source: source, Format: data.FormatParquet, Rows: len(rows), X: []float64{}}
	var text []string
	for c, n := range names {
		if c != target {
			d.Features = append(d.Features, n)
		}
	}
	d.Cols = len(d.Features)
	for _, rec := range rows {
		for c, cell := range rec {
			v := math.NaN()
			if cell != "" {
				v, err = strconv.ParseFloat(cell, 64)
			}
			switch {
			case c == target && opts.DropTarget:
			case c == target && err != nil:
				text = append(text, cell)
			case c == target:
				d.Y = append(d.Y, v)
			case err != nil:
				t.Fatalf("%s: cell %q: %v", path, cell, err)
			default:
				d.X = append(d.X, v)
			}
		}
	}
	if text != nil {
		d.Labels = slices.Compact(slices.Sorted(slices.Values(text)))
		d.Y = d.Y[:0]
		for _, s := range text {
			d.Y = append(d.Y, float64(slices.Index(d.Labels, s)))
		}
	}
	return d
}

// TestParquetJS reads the files that hyparquet-writer, a JavaScript
// implementation of Parquet, wrote (see testdata/README.md), and
// compares them with the values it wrote to CSV files beside them.
func TestParquetJS(t *testing.T) {
	tests := []struct {
		file string
		opts data.Options
		err  string // the error expected, if any
	}{
		{file: "mixed", opts: data.Options{}},
		{file: "mixed", opts: data.Options{RequireTarget: true}},
		{file: "mixed", opts: data.Options{DropTarget: true}},
		{file: "mixed", opts: data.Options{TargetColumn: 3}},
		{file: "mixed", opts: data.Options{TargetColumn: 1}, err: `testdata/mixed.parquet: column "target" has type BYTE_ARRAY (STRING), which cannot be a feature: a column must hold BOOLEAN, INT32, INT64, FLOAT or DOUBLE values (or text, in a target column)`},
		{file: "regression", opts: data.Options{}},
		{file: "regression", opts: data.Options{DropTarget: true}},
		{file: "regression", opts: data.Options{TargetColumn: 2}},
		{file: "regression", opts: data.Options{Target: "f3"}, err: `testdata/regression.parquet:2: missing target value in column "f3" in row 2`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s/%+v", tt.file, tt.opts), func(t *testing.T) {
			path := filepath.ToSlash(filepath.Join("testdata", tt.file))
			f, err := os.Open(path + ".parquet")
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			got, err := readParquet(f, fi.Size(), path+".parquet", tt.opts)
			if tt.err != "" {
				line := 0
				if strings.Contains(tt.err, "row 2") {
					line = 2
				}
				checkError(t, err, line, tt.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, got, csvDataset(t, path+".csv", path+".parquet", tt.opts))
		})
	}
}

// writeParquetFile writes rows with a Writer, in row groups of
// groupRows rows (0: the default), and returns the file.
func writeParquetFile(t testing.TB, cols []Column, groupRows, rows int, nums []float64, texts []string) []byte {
	t.Helper()
	var buf bytes.Buffer
	pw, err := NewWriter(&buf, cols)
	if err != nil {
		t.Fatal(err)
	}
	if groupRows > 0 {
		pw.groupRows = groupRows
	}
	// Several calls, so that rows of a call may span row groups.
	for lo := 0; lo < rows; lo += 7 {
		hi := min(lo+7, rows)
		nn, nt := len(nums)/max(rows, 1), len(texts)/max(rows, 1)
		if err := pw.WriteRows(hi-lo, nums[lo*nn:hi*nn], texts[lo*nt:hi*nt]); err != nil {
			t.Fatal(err)
		}
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestParquetRoundTrip writes columns of every kind with Writer and
// reads them back.
func TestParquetRoundTrip(t *testing.T) {
	f32 := func(bits uint32) float64 { return float64(math.Float32frombits(bits)) }
	doubles := []float64{0, math.Copysign(0, -1), 1, -2.5, math.MaxFloat64, -math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 1.0 / 3}
	floats := []float64{f32(0x3eaaaaab), f32(0x00000001), f32(0x7f7fffff), f32(0x80000000), float64(float32(math.Inf(-1))), f32(0x7fc00000), 0, f32(0xbf800000), f32(0x3dcccccd), float64(float32(math.Inf(1)))}
	ints := []float64{0, 1, -1, 1 << 53, -(1 << 53), 1 << 62, -(1 << 63), 123456789, 42, -7}
	labels := []string{"b", "a", "", "héllo", "b", "Z", "a\x00b", "b", "a", strings.Repeat("x", 1000)}
	rows := len(doubles)

	tests := []struct {
		name      string
		target    Kind // String, Double or -1 for none
		groupRows int
	}{
		{"labels", String, 0},
		{"labels/groups of 3", String, 3},
		{"numeric target", Double, 4},
		{"no target", -1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cols := []Column{{"double", Double}, {"float", Float}, {"int64", Int64}}
			var nums []float64
			var texts []string
			y := []float64{}
			switch tt.target {
			case String:
				cols = append(cols[:1], append([]Column{{"target", String}}, cols[1:]...)...)
			case Double:
				cols = append(cols, Column{"target", Double})
			}
			for r := range rows {
				nums = append(nums, doubles[r], floats[r], ints[r])
				switch tt.target {
				case String:
					texts = append(texts, labels[r])
				case Double:
					y = append(y, float64(r)/4)
					nums = append(nums, y[r])
				}
			}
			file := writeParquetFile(t, cols, tt.groupRows, rows, nums, texts)
			want := &data.Dataset{Source: "rt.parquet", Format: data.FormatParquet, Features: []string{"double", "float", "int64"}, Rows: rows, Cols: 3}
			for r := range rows {
				want.X = append(want.X, doubles[r], floats[r], ints[r])
			}
			switch tt.target {
			case String:
				want.Labels = []string{"", "Z", "a", "a\x00b", "b", "héllo", strings.Repeat("x", 1000)}
				for _, l := range labels {
					want.Y = append(want.Y, float64(slices.Index(want.Labels, l)))
				}
			case Double:
				want.Y = y
			}
			got, err := readParquetBytes(file, "rt.parquet", data.Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, got, want)
			for i, v := range got.X {
				if v == 0 && math.Signbit(v) != math.Signbit(want.X[i]) {
					t.Errorf("X[%d] = %v, want %v", i, v, want.X[i])
				}
			}
			checkStream(t, file, data.Options{}, got)
		})
	}
}

// TestParquetWriterDeterministic checks that the same rows give the same
// bytes, and that the file's metadata holds nothing that changes.
func TestParquetWriterDeterministic(t *testing.T) {
	cols := []Column{{"x", Double}, {"n", Int64}, {"target", String}}
	nums := []float64{1.5, 2, math.NaN(), 3, -4, 5}
	texts := []string{"a", "b", "a"}
	first := writeParquetFile(t, cols, 0, 3, nums, texts)
	if second := writeParquetFile(t, cols, 0, 3, nums, texts); !bytes.Equal(first, second) {
		t.Fatalf("two files of the same rows differ:\n%q\n%q", first, second)
	}
	f, err := pq.OpenFile(bytes.NewReader(first), int64(len(first)))
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata()
	if md.CreatedBy != "treegen" || len(md.KeyValueMetadata) != 0 {
		t.Errorf("created_by %q, key-value metadata %v", md.CreatedBy, md.KeyValueMetadata)
	}
	var names []string
	for _, c := range f.Root().Columns() {
		names = append(names, c.Name())
	}
	if !slices.Equal(names, []string{"x", "n", "target"}) {
		t.Errorf("columns %q", names)
	}
}

// TestParquetWriterErrors checks the errors of NewWriter and
// WriteRows.
func TestParquetWriterErrors(t *testing.T) {
	for _, tt := range []struct {
		cols []Column
		msg  string
	}{
		{nil, "parquet writer: no columns"},
		{[]Column{{"a", Double}, {"", Double}}, "parquet writer: column 2 has an empty name"},
		{[]Column{{"a", Double}, {"b", Float}, {"a", String}}, `parquet writer: duplicate column name "a" (columns 1 and 3)`},
		{[]Column{{"a", Kind(9)}}, `parquet writer: column "a" has unknown kind 9`},
	} {
		if _, err := NewWriter(io.Discard, tt.cols); err == nil || err.Error() != tt.msg {
			t.Errorf("NewWriter(%v): got error %v, want %s", tt.cols, err, tt.msg)
		}
	}
	pw, err := NewWriter(io.Discard, []Column{{"a", Double}, {"n", Int64}, {"s", String}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		rows  int
		nums  []float64
		texts []string
		msg   string
	}{
		{1, []float64{1}, []string{"x"}, "parquet writer: 1 numbers for 1 rows of 2 numeric columns"},
		{1, []float64{1, 2}, nil, "parquet writer: 0 texts for 1 rows of 1 String columns"},
		{2, []float64{1, 2, 3, 4.5}, []string{"x", "y"}, `parquet writer: row 2: value 4.5 of INT64 column "n" is not a 64-bit integer`},
		{1, []float64{1, math.NaN()}, []string{"x"}, `parquet writer: row 1: value NaN of INT64 column "n" is not a 64-bit integer`},
		{1, []float64{1, 1 << 63}, []string{"x"}, `parquet writer: row 1: value 9.223372036854776e+18 of INT64 column "n" is not a 64-bit integer`},
		{-1, nil, nil, "parquet writer: -1 rows"},
	} {
		if err := pw.WriteRows(tt.rows, tt.nums, tt.texts); err == nil || err.Error() != tt.msg {
			t.Errorf("WriteRows(%d, %v, %q): got error %v, want %s", tt.rows, tt.nums, tt.texts, err, tt.msg)
		}
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := pw.WriteRows(0, nil, nil); err == nil {
		t.Error("WriteRows after Close: no error")
	}
}

// failWriter fails every write.
type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestParquetWriterWriteError(t *testing.T) {
	pw, err := NewWriter(failWriter{}, []Column{{"a", Double}})
	if err != nil {
		t.Fatal(err)
	}
	pw.groupRows = 2
	err = pw.WriteRows(3, []float64{1, 2, 3}, nil)
	if err == nil {
		err = pw.Close()
	}
	if err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Fatalf("got error %v, want disk full", err)
	}
	if err2 := pw.Close(); err2 == nil {
		t.Fatal("Close after an error: no error")
	}
}

// parquetOf writes rows of a Go type with the Parquet library itself, for
// files that Writer does not write (nulls, nested columns, ...).
func parquetOf[T any](t *testing.T, rows []T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := pq.Write(&buf, rows); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func ptr[T any](v T) *T { return &v }

// TestParquetNulls checks that nulls read as NaN in features and are an
// error in a target column, a NaN target too.
func TestParquetNulls(t *testing.T) {
	type row struct {
		A      *float64 `parquet:"a,optional"`
		B      *int32   `parquet:"b,optional"`
		C      *bool    `parquet:"c,optional"`
		Target *string  `parquet:"target,optional"`
	}
	file := parquetOf(t, []row{
		{ptr(1.5), nil, ptr(true), ptr("x")},
		{nil, ptr(int32(-3)), nil, ptr("y")},
		{nil, nil, ptr(false), ptr("x")},
	})
	d, err := readParquetBytes(file, "n.parquet", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	nan := math.NaN()
	checkDataset(t, d, &data.Dataset{
		Source: "n.parquet", Format: data.FormatParquet, Features: []string{"a", "b", "c"}, Rows: 3, Cols: 3,
		X:      []float64{1.5, nan, 1, nan, -3, nan, nan, nan, 0},
		Y:      []float64{0, 1, 0},
		Labels: []string{"x", "y"},
	})

	file = parquetOf(t, []row{{ptr(1.0), nil, nil, ptr("x")}, {ptr(2.0), nil, nil, nil}})
	_, err = readParquetBytes(file, "n.parquet", data.Options{})
	checkError(t, err, 2, `n.parquet:2: missing target value in column "target" in row 2`)
	if _, err := readParquetBytes(file, "n.parquet", data.Options{DropTarget: true}); err != nil {
		t.Errorf("DropTarget: %v", err)
	}

	type numRow struct {
		X      float64  `parquet:"x"`
		Target *float64 `parquet:"target,optional"`
	}
	rows := make([]numRow, 20)
	for i := range rows {
		rows[i] = numRow{float64(i), ptr(float64(i))}
	}
	rows[17].Target = nil
	_, err = readParquetBytes(parquetOf(t, rows), "n.parquet", data.Options{})
	checkError(t, err, 18, `n.parquet:18: missing target value in column "target" in row 18`)
	rows[17].Target = ptr(1.0)
	rows[11].Target = ptr(nan)
	_, err = readParquetBytes(parquetOf(t, rows), "n.parquet", data.Options{})
	checkError(t, err, 12, `n.parquet:12: missing target value (NaN) in column "target" in row 12`)
}

// checkError fails t unless err is an *data.Error with the given line and
// message.
func checkError(t *testing.T, err error, line int, msg string) {
	t.Helper()
	var e *data.Error
	switch {
	case err == nil:
		t.Fatalf("no error, want %s", msg)
	case !errors.As(err, &e):
		t.Fatalf("error %v is a %T, not an *data.Error", err, err)
	case e.Error() != msg || e.Line != line || e.Col != 0:
		t.Fatalf("got error %q (line %d, col %d), want %q (line %d)", e, e.Line, e.Col, msg, line)
	}
}

// TestParquetTarget checks how the target column is found, and the errors
// of options and columns.
func TestParquetTarget(t *testing.T) {
	cols := []Column{{"a", Double}, {"label", String}, {"b", Int64}}
	file := writeParquetFile(t, cols, 0, 2, []float64{1, 2, 3, 4}, []string{"yes", "no"})
	tests := []struct {
		opts     data.Options
		features []string
		y        []float64
		labels   []string
		err      string
	}{
		{opts: data.Options{}, features: []string{"a", "label", "b"}, err: `t.parquet: column "label" has type BYTE_ARRAY (STRING), which cannot be a feature: a column must hold BOOLEAN, INT32, INT64, FLOAT or DOUBLE values (or text, in a target column)`},
		{opts: data.Options{Target: "label"}, features: []string{"a", "b"}, y: []float64{1, 0}, labels: []string{"no", "yes"}},
		{opts: data.Options{TargetColumn: 2}, features: []string{"a", "b"}, y: []float64{1, 0}, labels: []string{"no", "yes"}},
		{opts: data.Options{Target: "label", DropTarget: true}, features: []string{"a", "b"}},
		{opts: data.Options{Target: "b"}, err: `t.parquet: column "label" has type BYTE_ARRAY (STRING), which cannot be a feature: a column must hold BOOLEAN, INT32, INT64, FLOAT or DOUBLE values (or text, in a target column)`},
		{opts: data.Options{TargetColumn: 3, DropTarget: true}, err: `t.parquet: column "label" has type BYTE_ARRAY (STRING), which cannot be a feature: a column must hold BOOLEAN, INT32, INT64, FLOAT or DOUBLE values (or text, in a target column)`},
		{opts: data.Options{RequireTarget: true}, err: `t.parquet: no column "target"; columns are: a, label, b`},
		{opts: data.Options{RequireTarget: true, Target: "y"}, err: `t.parquet: no column "y"; columns are: a, label, b`},
		{opts: data.Options{RequireTarget: true, DropTarget: true}, err: "t.parquet: RequireTarget and DropTarget are both set"},
		{opts: data.Options{TargetColumn: 4}, err: "t.parquet: target column 4 is past the last column: the file has 3"},
		{opts: data.Options{TargetColumn: -1}, err: "t.parquet: TargetColumn is negative (-1)"},
		{opts: data.Options{TargetColumn: 1, Target: "a"}, err: "t.parquet: Target and TargetColumn are both set"},
		// data.Options of text files do not apply.
		{opts: data.Options{Target: "label", Header: data.HeaderAbsent, Names: []string{"q"}, Format: data.FormatLibSVM, NumFeatures: 9}, features: []string{"a", "b"}, y: []float64{1, 0}, labels: []string{"no", "yes"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%+v", tt.opts), func(t *testing.T) {
			d, err := readParquetBytes(file, "t.parquet", tt.opts)
			if tt.err != "" {
				checkError(t, err, 0, tt.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, d, &data.Dataset{Source: "t.parquet", Format: data.FormatParquet, Features: tt.features, Rows: 2, Cols: 2, X: []float64{1, 2, 3, 4}, Y: tt.y, Labels: tt.labels})
		})
	}

	many := make([]Column, 12)
	for i := range many {
		many[i] = Column{Name: "c" + strconv.Itoa(i+1)}
	}
	file = writeParquetFile(t, many, 0, 1, make([]float64, 12), nil)
	_, err := readParquetBytes(file, "t.parquet", data.Options{RequireTarget: true})
	checkError(t, err, 0, `t.parquet: no column "target"; columns are: c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, ... (12 columns)`)
}

// TestParquetTypes checks the columns of other types: logical integer
// types and decimals are numbers, nested columns and others are refused.
func TestParquetTypes(t *testing.T) {
	type ints struct {
		I8     int8    `parquet:"i8"`
		U16    uint16  `parquet:"u16"`
		U32    uint32  `parquet:"u32"`
		U64    uint64  `parquet:"u64"`
		Dec    int64   `parquet:"dec,decimal(2:10)"`
		F      float32 `parquet:"f"`
		Target bool    `parquet:"target"`
	}
	file := parquetOf(t, []ints{{-8, 65535, 4294967295, 1 << 63, 12345, 0.5, true}, {7, 1, 2, 3, -5, -2, false}})
	d, err := readParquetBytes(file, "i.parquet", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, d, &data.Dataset{
		Source: "i.parquet", Format: data.FormatParquet, Features: []string{"i8", "u16", "u32", "u64", "dec", "f"}, Rows: 2, Cols: 6,
		X: []float64{-8, 65535, 4294967295, 1 << 63, 123.45, 0.5, 7, 1, 2, 3, -0.05, -2},
		Y: []float64{1, 0},
	})

	type inner struct {
		C int32 `parquet:"c"`
	}
	type list struct {
		List []int32 `parquet:"list"`
	}
	type group struct {
		G inner `parquet:"g"`
	}
	type timestamp struct {
		T time.Time `parquet:"t,timestamp"`
	}
	type blob struct {
		Blob [4]byte `parquet:"blob"`
	}
	type text struct {
		Text string `parquet:"text"`
	}
	for _, tt := range []struct {
		file []byte
		msg  string
	}{
		{parquetOf(t, []list{{[]int32{1, 2}}}), `column "list" has type repeated INT32 (INT(32,true))`},
		{parquetOf(t, []group{{inner{3}}}), `column "g" has type group`},
		{parquetOf(t, []timestamp{{time.Unix(0, 0)}}), `column "t" has type INT64 (TIMESTAMP(isAdjustedToUTC=true,unit=MILLIS))`},
		{parquetOf(t, []blob{{}}), `column "blob" has type FIXED_LEN_BYTE_ARRAY`},
		{parquetOf(t, []text{{"a"}}), `column "text" has type BYTE_ARRAY (STRING)`},
	} {
		for _, target := range []bool{false, true} {
			opts, what := data.Options{}, "feature"
			if target {
				opts, what = data.Options{TargetColumn: 1}, "target"
			}
			msg := "n.parquet: " + tt.msg + ", which cannot be a " + what + ": a column must hold BOOLEAN, INT32, INT64, FLOAT or DOUBLE values (or text, in a target column)"
			_, err := readParquetBytes(tt.file, "n.parquet", opts)
			if target && strings.Contains(tt.msg, "STRING") {
				if err != nil {
					t.Errorf("a target of text: %v", err)
				}
				continue
			}
			checkError(t, err, 0, msg)
		}
	}
	// Columns that could not be read are left out unread as a dropped target.
	type one struct {
		A    float64 `parquet:"a"`
		List []int32 `parquet:"list"`
	}
	file = parquetOf(t, []one{{1, []int32{1}}, {2, nil}})
	d, err = readParquetBytes(file, "o.parquet", data.Options{Target: "list", DropTarget: true})
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, d, &data.Dataset{Source: "o.parquet", Format: data.FormatParquet, Features: []string{"a"}, Rows: 2, Cols: 1, X: []float64{1, 2}})
}

// TestParquetEmpty checks a file without rows, and one without columns
// other than the target.
func TestParquetEmpty(t *testing.T) {
	file := writeParquetFile(t, []Column{{"a", Double}}, 0, 0, nil, nil)
	_, err := readParquetBytes(file, "e.parquet", data.Options{})
	checkError(t, err, 0, "e.parquet: no data rows")

	file = writeParquetFile(t, []Column{{"target", String}}, 0, 2, nil, []string{"b", "a"})
	d, err := readParquetBytes(file, "e.parquet", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkDataset(t, d, &data.Dataset{Source: "e.parquet", Format: data.FormatParquet, Features: []string{}, Rows: 2, Cols: 0, X: []float64{}, Y: []float64{1, 0}, Labels: []string{"a", "b"}})
}

// TestParquetDamaged checks that files that are not Parquet, truncated or
// damaged give errors naming the file, not panics.
func TestParquetDamaged(t *testing.T) {
	good, err := os.ReadFile(filepath.Join("testdata", "mixed.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		file []byte
		msg  string
	}{
		{"empty", nil, "d.parquet: empty file"},
		{"csv", []byte("a,b,target\n1,2,3\n"), `d.parquet: not a Parquet file: it does not start with "PAR1"`},
		{"short", []byte("PAR1PA"), "d.parquet: truncated Parquet file: 6 bytes"},
		{"half", good[:len(good)/2], `d.parquet: truncated or damaged Parquet file: it does not end with "PAR1"`},
		{"no footer", append([]byte("PAR1\xff\xff\x00\x00"), "PAR1"...), "d.parquet: truncated or damaged Parquet file: its footer of 65535 bytes is longer than the file"},
		{"encrypted", append([]byte("PARE\x00\x00\x00\x00"), "PARE"...), "d.parquet: encrypted Parquet files cannot be read"},
		{"bad footer", append([]byte("PAR1\x01\x02\x03\x04\x04\x00\x00\x00"), "PAR1"...), "d.parquet: damaged Parquet file: "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readParquetBytes(tt.file, "d.parquet", data.Options{})
			var e *data.Error
			if err == nil || !errors.As(err, &e) || !strings.HasPrefix(err.Error(), tt.msg) || e.File != "d.parquet" {
				t.Fatalf("got error %v (%T), want an *data.Error %s", err, err, tt.msg)
			}
		})
	}

	// Every byte of a file changed in turn, and every length cut: an error
	// or a data.Dataset, never a panic.
	file := writeParquetFile(t, []Column{{"x", Double}, {"target", String}, {"f", Float}}, 3, 7,
		[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, []string{"a", "b", "a", "c", "a", "b", "a"})
	step := 1
	if testing.Short() {
		step = 13
	}
	for _, f := range [][]byte{file, good} {
		for i := 0; i < len(f); i += step {
			changes := []byte{f[i] ^ 0xff}
			if len(f) == len(file) {
				changes = append(changes, 0, f[i]^1)
			}
			for _, v := range changes {
				bad := slices.Clone(f)
				bad[i] = v
				checkNoPanic(t, bad)
			}
		}
		for n := 0; n < len(f); n += 3 * step {
			checkNoPanic(t, f[:n])
		}
	}
}

// checkNoPanic reads file and checks that the result is an *data.Error or a
// well-formed data.Dataset.
func checkNoPanic(t testing.TB, file []byte) {
	t.Helper()
	for _, opts := range []data.Options{{}, {DropTarget: true}} {
		d, err := readParquetBytes(file, "fuzz", opts)
		if err != nil {
			var e *data.Error
			if !errors.As(err, &e) || e.File != "fuzz" {
				t.Fatalf("error %v is a %T, not an *data.Error naming the file", err, err)
			}
			continue
		}
		if len(d.X) != d.Rows*d.Cols || len(d.Features) != d.Cols || d.Rows == 0 || d.Y != nil && len(d.Y) != d.Rows {
			t.Fatalf("bad shape: %d features, %d values, %d targets, %d rows, %d cols", len(d.Features), len(d.X), len(d.Y), d.Rows, d.Cols)
		}
		for r, v := range d.Y {
			if math.IsNaN(v) || d.Labels != nil && (v != math.Trunc(v) || v < 0 || int(v) >= len(d.Labels)) {
				t.Fatalf("Y[%d] = %v (%d labels)", r, v, len(d.Labels))
			}
		}
		if opts.DropTarget && d.Y != nil {
			t.Fatalf("DropTarget read %d targets", len(d.Y))
		}
	}
}

// checkStream reads file with parquetSource.next at several block sizes
// and checks that the blocks make up want.
func checkStream(t *testing.T, file []byte, opts data.Options, want *data.Dataset) {
	t.Helper()
	for _, maxRows := range []int{1, 2, 3, 7, 50, 1 << 20} {
		p, err := openParquet(bytes.NewReader(file), int64(len(file)), want.Source, opts)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.features(), want.Features) || p.hasTarget() != (want.Y != nil) {
			t.Fatalf("features %q, hasTarget %v; want %q, %v", p.features(), p.hasTarget(), want.Features, want.Y != nil)
		}
		var x, y []float64
		var text []string
		var b data.Block
		for {
			err := p.next(&b, maxRows)
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if b.Rows < 1 || b.Rows > maxRows || len(b.X) != b.Rows*len(want.Features) || b.Line != len(x)/max(want.Cols, 1)+1 && want.Cols > 0 {
				t.Fatalf("maxRows %d: block of %d rows, %d values, line %d after %d values", maxRows, b.Rows, len(b.X), b.Line, len(x))
			}
			if p.hasTarget() != (b.Y != nil) || b.Y != nil && len(b.Y) != b.Rows || (want.Labels != nil) != (b.YText != nil) || b.YText != nil && len(b.YText) != b.Rows {
				t.Fatalf("maxRows %d: block of %d rows, %d targets, %d texts", maxRows, b.Rows, len(b.Y), len(b.YText))
			}
			x = append(x, b.X...)
			y = append(y, b.Y...)
			text = append(text, b.YText...)
		}
		if b.Rows != 0 || p.next(&b, maxRows) != io.EOF {
			t.Fatalf("maxRows %d: after io.EOF: %d rows, not io.EOF again", maxRows, b.Rows)
		}
		p.close()
		checkFloats(t, "X", x, want.X)
		if want.Labels != nil {
			for i, s := range text {
				if s != want.Labels[int(want.Y[i])] || !math.IsNaN(y[i]) {
					t.Fatalf("maxRows %d: row %d: target %v %q, want %q", maxRows, i+1, y[i], s, want.Labels[int(want.Y[i])])
				}
			}
		} else if want.Y != nil {
			checkFloats(t, "Y", y, want.Y)
		}
	}
}

// TestParquetStream checks parquetSource.next on the files of
// hyparquet-writer (row groups of 50, 50 and 20 rows) and on a file of
// Writer with many row groups.
func TestParquetStream(t *testing.T) {
	for _, name := range []string{"mixed", "regression"} {
		file, err := os.ReadFile(filepath.Join("testdata", name+".parquet"))
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []data.Options{{}, {DropTarget: true}} {
			want, err := readParquetBytes(file, name, opts)
			if err != nil {
				t.Fatal(err)
			}
			checkStream(t, file, opts, want)
		}
	}
	const rows = 1000
	nums := make([]float64, 2*rows)
	texts := make([]string, rows)
	for i := range rows {
		nums[2*i], nums[2*i+1] = float64(i), -float64(i)
		texts[i] = strconv.Itoa(i % 13)
	}
	file := writeParquetFile(t, []Column{{"a", Double}, {"target", String}, {"b", Float}}, 64, rows, nums, texts)
	want, err := readParquetBytes(file, "s.parquet", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkFloats(t, "X", want.X, nums)
	checkStream(t, file, data.Options{}, want)

	// Blocks reuse the memory of the last.
	p, err := openParquet(bytes.NewReader(file), int64(len(file)), "s.parquet", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.close()
	var b data.Block
	if err := p.next(&b, 100); err != nil {
		t.Fatal(err)
	}
	x, y, text := &b.X[0], &b.Y[0], &b.YText[0]
	if err := p.next(&b, 100); err != nil {
		t.Fatal(err)
	}
	if &b.X[0] != x || &b.Y[0] != y || &b.YText[0] != text || b.Line != 101 {
		t.Errorf("second block: new memory, or line %d", b.Line)
	}
	if err := p.next(&b, 0); err == nil {
		t.Error("next(b, 0): no error")
	}
}

// TestParquetBadRowCounts checks files whose columns hold more or fewer
// values than their row groups have rows.
func TestParquetBadRowCounts(t *testing.T) {
	file := writeParquetFile(t, []Column{{"a", Double}, {"b", Double}}, 0, 4, []float64{1, 2, 3, 4, 5, 6, 7, 8}, nil)
	f, err := pq.OpenFile(bytes.NewReader(file), int64(len(file)))
	if err != nil {
		t.Fatal(err)
	}
	md := f.Metadata()
	for _, n := range []int64{3, 5} {
		// Rewrite the footer with another row count.
		md.RowGroups[0].NumRows = n
		md.NumRows = n
		bad := rewriteFooter(t, file, md)
		_, err := readParquetBytes(bad, "c.parquet", data.Options{})
		want := `c.parquet: damaged Parquet file: column "a", row group 1: pages hold more values than the row group has rows (3)`
		if n == 5 {
			want = `c.parquet: damaged Parquet file: column "a", row group 1: pages hold 4 values, the row group has 5 rows`
		}
		checkError(t, err, 0, want)
	}
}

// rewriteFooter returns file with its footer replaced by md.
func rewriteFooter(t *testing.T, file []byte, md *format.FileMetaData) []byte {
	t.Helper()
	footer, err := thrift.Marshal(new(thrift.CompactProtocol), md)
	if err != nil {
		t.Fatal(err)
	}
	n := int(uint32(file[len(file)-8]) | uint32(file[len(file)-7])<<8 | uint32(file[len(file)-6])<<16 | uint32(file[len(file)-5])<<24)
	out := slices.Clone(file[:len(file)-8-n])
	out = append(out, footer...)
	out = append(out, byte(len(footer)), byte(len(footer)>>8), byte(len(footer)>>16), byte(len(footer)>>24))
	return append(out, parquetMagic...)
}

func FuzzParquet(f *testing.F) {
	for _, name := range []string{"mixed", "regression"} {
		file, err := os.ReadFile(filepath.Join("testdata", name+".parquet"))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(file)
	}
	f.Add(writeParquetFile(f, []Column{{"x", Double}, {"target", String}, {"n", Int64}}, 2, 5,
		[]float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, []string{"a", "b", "a", "c", "a"}))
	f.Fuzz(func(t *testing.T, file []byte) {
		checkNoPanic(t, file)
	})
}

// benchParquet is a file of 200,000 rows of 50 features and a target,
// written once.
var benchParquet = sync.OnceValue(func() []byte {
	const rows, cols = 200_000, 50
	specs := make([]Column, cols+1)
	for i := range cols {
		specs[i] = Column{Name: "f" + strconv.Itoa(i+1)}
	}
	specs[cols] = Column{Name: "target"}
	rng := rand.New(rand.NewPCG(1, 2))
	nums := make([]float64, rows*(cols+1))
	for i := range nums {
		nums[i] = math.Round(rng.NormFloat64()*1e4) / 1e3
	}
	var buf bytes.Buffer
	pw, err := NewWriter(&buf, specs)
	if err == nil {
		err = pw.WriteRows(rows, nums, nil)
	}
	if err == nil {
		err = pw.Close()
	}
	if err != nil {
		panic(err)
	}
	return buf.Bytes()
})

func BenchmarkReadParquet(b *testing.B) {
	file := benchParquet()
	b.SetBytes(int64(len(file)))
	b.ReportAllocs()
	var rows int
	for b.Loop() {
		d, err := readParquetBytes(file, "bench.parquet", data.Options{})
		if err != nil {
			b.Fatal(err)
		}
		rows += d.Rows
	}
	b.ReportMetric(float64(rows)/b.Elapsed().Seconds(), "rows/s")
}

// TestParquetEntries reads the Parquet test files through every entry of
// the package, data.ReadFile (by extension, by content, compact), Read (from a
// stream that is not a file, gzipped or not) and a data.Stream, and checks that
// each gives the rows that readParquet gives.
func TestParquetEntries(t *testing.T) {
	for _, name := range []string{"mixed", "regression"} {
		path := filepath.Join("testdata", name+".parquet")
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		want, err := readParquet(bytes.NewReader(raw), int64(len(raw)), path, data.Options{})
		if err != nil {
			t.Fatal(err)
		}
		check := func(how string, got *data.Dataset, err error) {
			t.Helper()
			if err != nil {
				t.Fatalf("%s: %v", how, err)
			}
			got.Expand()
			if diff := sameData(got, want); diff != "" {
				t.Errorf("%s: %s", how, diff)
			}
		}
		d, err := data.ReadFile(path, data.Options{})
		check("data.ReadFile", d, err)
		d, err = data.ReadFile(path, data.Options{Compact: true})
		check("data.ReadFile compact", d, err)
		d, err = data.Read(bytes.NewReader(raw), "no-extension", data.Options{})
		check("Read by content", d, err)
		d, err = data.Read(strings.NewReader(gzipString(string(raw))), "x.pq.gz", data.Options{})
		check("Read gzipped", d, err)
		for _, open := range []func() (*data.Stream, error){
			func() (*data.Stream, error) { return data.OpenFileStream(path, data.Options{}) },
			func() (*data.Stream, error) {
				return data.OpenStream(bytes.NewReader(raw), "x.parquet", data.Options{})
			},
		} {
			s, err := open()
			if err != nil {
				t.Fatal(err)
			}
			var x, y []float64
			for {
				b, err := s.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				x = append(x, b.X...)
				y = append(y, b.Y...)
			}
			s.Close()
			got := &data.Dataset{Source: path, Format: data.FormatParquet, Features: s.Features(), Cols: len(s.Features()), Rows: s.Rows(), X: x}
			w := *want
			w.Y, w.Labels = nil, nil
			if diff := sameData(got, &w); diff != "" {
				t.Errorf("stream: %s", diff)
			}
			if want.Labels == nil && !reflect.DeepEqual(y, want.Y) {
				t.Errorf("stream: targets %v, want %v", y, want.Y)
			}
		}
	}
}

// TestParquetSelect reads the features that Options.Select names, in its
// order, and skips the other columns, with Read and with a Stream.
func TestParquetSelect(t *testing.T) {
	nums := []float64{1, 2, 10, 3, 4, 20, 5, 6, 30}
	file := writeParquetFile(t, []Column{{"a", Double}, {"target", String}, {"b", Float}, {"z", Int64}}, 2, 3, nums, []string{"x", "y", "x"})
	tests := []struct {
		opts    data.Options
		x       []float64
		skipped []string
		err     string
	}{
		{opts: data.Options{Select: []string{"b", "a"}}, x: []float64{2, 1, 4, 3, 6, 5}, skipped: []string{"z"}},
		{opts: data.Options{Select: []string{"z", "b", "a"}, DropTarget: true}, x: []float64{10, 2, 1, 20, 4, 3, 30, 6, 5}},
		{opts: data.Options{Select: []string{"a", "c", "d"}}, err: `s.parquet: no columns "c", "d"; columns are: a, target, b, z`},
		{opts: data.Options{Select: []string{"a", "target"}}, err: `s.parquet: no column "target"; columns are: a, target, b, z; "target" is the target column, which is never a feature`},
	}
	for _, tt := range tests {
		d, err := readParquetBytes(file, "s.parquet", tt.opts)
		if tt.err != "" {
			var missing *data.MissingColumnsError
			if err == nil || err.Error() != tt.err || !errors.As(err, &missing) {
				t.Errorf("%v: error %v, want %s", tt.opts.Select, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		checkFloats(t, "X", d.X, tt.x)
		if !slices.Equal(d.Features, tt.opts.Select) || !slices.Equal(d.Skipped, tt.skipped) {
			t.Errorf("%v: features %q, skipped %q", tt.opts.Select, d.Features, d.Skipped)
		}
		if tt.opts.DropTarget == (d.Labels != nil) {
			t.Errorf("%v: labels %q", tt.opts.Select, d.Labels)
		}
		s, err := data.OpenStream(bytes.NewReader(file), "s.parquet", tt.opts)
		if err != nil {
			t.Fatal(err)
		}
		var x []float64
		err = s.Each(func(b *data.Block) error {
			x = append(x, b.X...)
			return nil
		})
		s.Close()
		if err != nil {
			t.Fatal(err)
		}
		checkFloats(t, "stream X", x, tt.x)
		if !slices.Equal(s.Skipped(), tt.skipped) {
			t.Errorf("%v: stream skipped %q", tt.opts.Select, s.Skipped())
		}
	}
}
