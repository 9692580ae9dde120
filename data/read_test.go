package data_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"io/fs"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
)

var nan = math.NaN()

// sameFloats compares float slices, with NaN equal to NaN and nil distinct
// from empty.
func sameFloats(a, b []float64) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
			return false
		}
	}
	return true
}

func checkDataset(t *testing.T, got, want *data.Dataset) {
	t.Helper()
	if got.Source != want.Source {
		t.Errorf("Source = %q, want %q", got.Source, want.Source)
	}
	if got.Rows != want.Rows || got.Cols != want.Cols {
		t.Errorf("Rows, Cols = %d, %d, want %d, %d", got.Rows, got.Cols, want.Rows, want.Cols)
	}
	if strings.Join(got.Features, "|") != strings.Join(want.Features, "|") || len(got.Features) != len(want.Features) {
		t.Errorf("Features = %q, want %q", got.Features, want.Features)
	}
	if !sameFloats(got.X, want.X) {
		t.Errorf("X = %v, want %v", got.X, want.X)
	}
	if !sameFloats(got.Y, want.Y) {
		t.Errorf("Y = %v, want %v", got.Y, want.Y)
	}
	if len(got.X) != got.Rows*got.Cols || len(got.Features) != got.Cols {
		t.Errorf("inconsistent shape: len(X)=%d len(Features)=%d Rows=%d Cols=%d", len(got.X), len(got.Features), got.Rows, got.Cols)
	}
}

func TestReadFile(t *testing.T) {
	inf := math.Inf(1)
	smallTSV := func(src string) *data.Dataset {
		return &data.Dataset{
			Source:   src,
			Features: []string{"age", "income", "score"},
			X: []float64{
				31, 52000, 0.5,
				nan, 48000, nan,
				nan, 61000.5, nan,
				27, nan, -inf,
			},
			Y:    []float64{1, 0, 1, 0},
			Rows: 4, Cols: 3,
		}
	}
	tests := []struct {
		path string
		opts data.Options
		want *data.Dataset
	}{
		{"testdata/small.tsv", data.Options{}, smallTSV("testdata/small.tsv")},
		{"testdata/small.tsv.gz", data.Options{RequireTarget: true}, smallTSV("testdata/small.tsv.gz")},
		{"testdata/small.tsv", data.Options{Target: "none"}, &data.Dataset{
			Source:   "testdata/small.tsv",
			Features: []string{"age", "income", "target", "score"},
			X: []float64{
				31, 52000, 1, 0.5,
				nan, 48000, 0, nan,
				nan, 61000.5, 1, nan,
				27, nan, 0, -inf,
			},
			Rows: 4, Cols: 4,
		}},
		{"testdata/small.csv", data.Options{}, &data.Dataset{
			Source:   "testdata/small.csv",
			Features: []string{"name, with comma", `say "hi"`},
			X:        []float64{1.5, 2, 3, nan, 4, nan},
			Y:        []float64{0, 1, 2},
			Rows:     3, Cols: 2,
		}},
		{"testdata/crlf.tsv", data.Options{}, &data.Dataset{
			Source:   "testdata/crlf.tsv",
			Features: []string{"a", "b"},
			X:        []float64{1, 2, 3, 4},
			Y:        []float64{0, 1},
			Rows:     2, Cols: 2,
		}},
		{"testdata/small.libsvm", data.Options{}, &data.Dataset{
			Source:   "testdata/small.libsvm",
			Features: []string{"f1", "f2", "f3", "f4"},
			X: []float64{
				0.5, 0, 2, 0,
				0, -1, 0, 0,
				0, 0, 0, 0,
				1, 0, 0, nan,
			},
			Y:    []float64{1, 0, -1, 2.5},
			Rows: 4, Cols: 4,
		}},
		{"testdata/small.libsvm", data.Options{NumFeatures: 6}, &data.Dataset{
			Source:   "testdata/small.libsvm",
			Features: []string{"f1", "f2", "f3", "f4", "f5", "f6"},
			X: []float64{
				0.5, 0, 2, 0, 0, 0,
				0, -1, 0, 0, 0, 0,
				0, 0, 0, 0, 0, 0,
				1, 0, 0, nan, 0, 0,
			},
			Y:    []float64{1, 0, -1, 2.5},
			Rows: 4, Cols: 6,
		}},
		// NumFeatures is a minimum, not a maximum.
		{"testdata/small.libsvm", data.Options{NumFeatures: 2}, &data.Dataset{
			Source:   "testdata/small.libsvm",
			Features: []string{"f1", "f2", "f3", "f4"},
			X: []float64{
				0.5, 0, 2, 0,
				0, -1, 0, 0,
				0, 0, 0, 0,
				1, 0, 0, nan,
			},
			Y:    []float64{1, 0, -1, 2.5},
			Rows: 4, Cols: 4,
		}},
		// Sniffed from the content.
		{"testdata/libsvm.txt", data.Options{}, &data.Dataset{
			Source:   "testdata/libsvm.txt",
			Features: []string{"f1", "f2", "f3"},
			X:        []float64{0.5, 0, 2, 0, -1, 0},
			Y:        []float64{1, 0},
			Rows:     2, Cols: 3,
		}},
		{"testdata/csv.txt", data.Options{}, &data.Dataset{
			Source:   "testdata/csv.txt",
			Features: []string{"x", "y"},
			X:        []float64{1, 2},
			Y:        []float64{3},
			Rows:     1, Cols: 2,
		}},
		{"testdata/single", data.Options{}, &data.Dataset{
			Source:   "testdata/single",
			Features: []string{},
			X:        []float64{},
			Y:        []float64{1, 2},
			Rows:     2, Cols: 0,
		}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path)+"/"+tt.opts.Target, func(t *testing.T) {
			got, err := data.ReadFile(tt.path, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, got, tt.want)
			if got.HasTarget() != (tt.want.Y != nil) {
				t.Errorf("HasTarget() = %v", got.HasTarget())
			}
		})
	}
}

func TestReadInMemory(t *testing.T) {
	tests := []struct {
		name, in string
		opts     data.Options
		want     *data.Dataset
	}{
		{"bom.csv", "\xef\xbb\xbfa,target\n1,2\n", data.Options{}, &data.Dataset{
			Features: []string{"a"}, X: []float64{1}, Y: []float64{2}, Rows: 1, Cols: 1,
		}},
		{"inf.tsv", "a\tb\tc\td\ttarget\ninf\t+Inf\t-Infinity\t1e-400\t.25\n", data.Options{}, &data.Dataset{
			Features: []string{"a", "b", "c", "d"},
			X:        []float64{math.Inf(1), math.Inf(1), math.Inf(-1), 0},
			Y:        []float64{0.25},
			Rows:     1, Cols: 4,
		}},
		{"missing.tsv", "a\tb\tc\td\te\tf\tg\th\n NA \tna\t?\tnan\tNaN\tNAN\t\t \n", data.Options{}, &data.Dataset{
			Features: []string{"a", "b", "c", "d", "e", "f", "g", "h"},
			X:        []float64{nan, nan, nan, nan, nan, nan, nan, nan},
			Rows:     1, Cols: 8,
		}},
		{"forced-csv.dat", "label,x\n1,2\n", data.Options{Format: data.FormatCSV, Target: "label"}, &data.Dataset{
			Features: []string{"x"}, X: []float64{2}, Y: []float64{1}, Rows: 1, Cols: 1,
		}},
		{"forced.tsv", "1 2:3\n", data.Options{Format: data.FormatLibSVM}, &data.Dataset{
			Features: []string{"f1", "f2"}, X: []float64{0, 3}, Y: []float64{1}, Rows: 1, Cols: 2,
		}},
		{"tabs.svm", "1\t2:3\t\r\n", data.Options{}, &data.Dataset{
			Features: []string{"f1", "f2"}, X: []float64{0, 3}, Y: []float64{1}, Rows: 1, Cols: 2,
		}},
		{"multiline.csv", "a,target\n\"1\n\",2\n\n3,4\n", data.Options{}, &data.Dataset{
			Features: []string{"a"}, X: []float64{1, 3}, Y: []float64{2, 4}, Rows: 2, Cols: 1,
		}},
		{"", "a\ttarget\n1\t2\n", data.Options{}, &data.Dataset{
			Features: []string{"a"}, X: []float64{1}, Y: []float64{2}, Rows: 1, Cols: 1,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := data.Read(strings.NewReader(tt.in), tt.name, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Source = tt.name
			checkDataset(t, got, tt.want)
		})
	}
}

func gzipped(s string) string {
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

func TestReadErrors(t *testing.T) {
	header14 := "c1\tc2\tc3\tc4\tc5\tc6\tc7\tc8\tc9\tc10\tc11\tc12\tc13\ttarget\n"
	row14 := "1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t13\t0\n"
	gz := gzipped("a\ttarget\n1\t2\n3\t4\n")
	tests := []struct {
		desc, name, in string
		opts           data.Options
		want           string
		line, col      int
	}{
		{"ragged", "x.tsv", header14 + row14 + "1\t2\t3\t4\t5\t6\t7\t8\t9\t10\t11\t12\t0\n", data.Options{},
			"x.tsv:3: row has 13 fields, header has 14", 3, 0},
		{"too many fields", "x.tsv", "a\ttarget\n1\t2\t3\n", data.Options{},
			"x.tsv:2: row has 3 fields, header has 2", 2, 0},
		{"not a number", "x.tsv", "id\tage\ttarget\n1\t20\t0\n2\tabc\t1\n", data.Options{},
			`x.tsv:3:2: cell "abc" in column "age" is not a number`, 3, 2},
		{"not a number trimmed", "x.tsv", "age\ttarget\n  12 years \t1\n", data.Options{},
			`x.tsv:2:1: cell "12 years" in column "age" is not a number`, 2, 1},
		{"long cell", "x.tsv", "age\n" + strings.Repeat("x", 100) + "\n", data.Options{},
			`x.tsv:2:1: cell "` + strings.Repeat("x", 64) + `"... in column "age" is not a number`, 2, 1},
		{"out of range", "x.tsv", "a\n1e999\n", data.Options{},
			`x.tsv:2:1: cell "1e999" in column "a" is out of range`, 2, 1},
		{"missing text target", "x.csv", "a,target\n1,M\n2, \n", data.Options{},
			`x.csv:3:2: missing target value "" in column "target"`, 3, 2},
		{"missing text target NA", "x.tsv", "a\ttarget\n1\tM\n2\tB\n3\tNA\n4\tM\n", data.Options{},
			`x.tsv:4:2: missing target value "NA" in column "target"`, 4, 2},
		{"missing target before text", "x.tsv", "target\ta\n?\t1\nM\t2\n", data.Options{},
			`x.tsv:2:1: missing target value "?" in column "target"`, 2, 1},
		{"target out of range", "x.csv", "a,target\n1,2\n1,-1e999\n1,3\n", data.Options{},
			`x.csv:3:2: cell "-1e999" in column "target" is out of range`, 3, 2},
		{"require and drop target", "x.csv", "a,target\n1,2\n", data.Options{RequireTarget: true, DropTarget: true},
			`x.csv: RequireTarget and DropTarget are both set`, 0, 0},
		{"missing target", "x.tsv", "a\ttarget\n1\t2\n1\tNA\n", data.Options{},
			`x.tsv:3:2: missing target value "NA" in column "target"`, 3, 2},
		{"empty target", "x.tsv", "a\ttarget\n1\t \n", data.Options{},
			`x.tsv:2:2: missing target value "" in column "target"`, 2, 2},
		{"nan target", "x.csv", "target,a\nnan,1\n", data.Options{},
			`x.csv:2:1: missing target value "nan" in column "target"`, 2, 1},
		{"no target", "x.tsv", "a\tb\n1\t2\n", data.Options{Target: "foo", RequireTarget: true},
			`x.tsv:1: no column "foo"; columns are: a, b`, 1, 0},
		{"no default target", "x.csv", "a,b\n1,2\n", data.Options{RequireTarget: true},
			`x.csv:1: no column "target"; columns are: a, b`, 1, 0},
		{"no target, many columns", "x.tsv", header14 + row14, data.Options{Target: "y", RequireTarget: true},
			`x.tsv:1: no column "y"; columns are: c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, ... (14 columns)`, 1, 0},
		{"duplicate column", "x.tsv", "a\tb\t a \n1\t2\t3\n", data.Options{},
			`x.tsv:1:3: duplicate column name "a" (columns 1 and 3)`, 1, 3},
		{"duplicate column csv", "x.csv", "a,\"b\",b\n", data.Options{},
			`x.csv:1:3: duplicate column name "b" (columns 2 and 3)`, 1, 3},
		{"empty column name", "x.tsv", "a\t\tb\n1\t2\t3\n", data.Options{},
			`x.tsv:1:2: column 2 has an empty name`, 1, 2},
		{"empty file", "x.tsv", "", data.Options{}, "x.tsv: empty file", 0, 0},
		{"blank file", "x.tsv", "\n \r\n", data.Options{}, "x.tsv: empty file", 0, 0},
		{"empty csv", "x.csv", "", data.Options{}, "x.csv: empty file", 0, 0},
		{"empty libsvm", "x.libsvm", "", data.Options{}, "x.libsvm: empty file", 0, 0},
		{"empty unnamed", "", "", data.Options{}, "empty file", 0, 0},
		{"empty gzip", "x.tsv.gz", gzipped(""), data.Options{}, "x.tsv.gz: empty file", 0, 0},
		{"header only", "x.tsv", "a\ttarget\n", data.Options{}, "x.tsv: no data rows", 0, 0},
		{"header only, blank lines", "x.tsv", "a\ttarget\r\n\r\n\n", data.Options{}, "x.tsv: no data rows", 0, 0},
		{"header only csv", "x.csv", "a,target\n", data.Options{}, "x.csv: no data rows", 0, 0},
		{"comments only libsvm", "x.libsvm", "# nothing\n\n", data.Options{}, "x.libsvm: no data rows", 0, 0},
		{"blank header line", "x.tsv", "\na\ttarget\n1\t2\n", data.Options{}, "x.tsv:1: empty header line", 1, 0},
		{"blank header line csv", "x.csv", "\na,target\n1,2\n", data.Options{}, "x.csv:1: empty header line", 1, 0},
		{"blank line in data", "x.tsv", "a\ttarget\n1\t2\n\n \n3\t4\n", data.Options{}, "x.tsv:3: empty line", 3, 0},
		{"ragged csv", "x.csv", "a,b,target\n1,2,3\n1,\"2,3\"\n", data.Options{},
			"x.csv:3: row has 2 fields, header has 3", 3, 0},
		{"bad quote csv", "x.csv", "a,target\n1,2\n3,4\"x\n", data.Options{},
			`x.csv:3: bare " in non-quoted-field (byte 4)`, 3, 0},
		{"not a number csv", "x.csv", "a,target\n\"1,5\",0\n", data.Options{},
			`x.csv:2:1: cell "1,5" in column "a" is not a number`, 2, 1},
		{"bad gzip header", "x.tsv", "\x1f\x8bnot really gzip", data.Options{},
			"x.tsv: corrupt or truncated gzip data: gzip: invalid header", 0, 0},
		{"truncated gzip", "x.tsv.gz", gz[:len(gz)-12], data.Options{},
			"x.tsv.gz: corrupt or truncated gzip data: unexpected EOF", 0, 0},
		{"gzip checksum", "x.tsv.gz", gz[:len(gz)-8] + "\x00\x00\x00\x00" + gz[len(gz)-4:], data.Options{},
			"x.tsv.gz: corrupt or truncated gzip data: gzip: invalid checksum", 0, 0},
		{"unknown format", "x.tsv", "a\n1\n", data.Options{Format: 9}, "x.tsv: unknown format 9", 0, 0},

		{"libsvm no colon", "x.libsvm", "1 1:2\n1 3\n", data.Options{},
			`x.libsvm:2:3: expected INDEX:VALUE, got "3"`, 2, 3},
		{"libsvm no value", "x.libsvm", "1  2:\n", data.Options{},
			`x.libsvm:1:4: expected INDEX:VALUE, got "2:"`, 1, 4},
		{"libsvm no index", "x.libsvm", "1 :2\n", data.Options{},
			`x.libsvm:1:3: expected INDEX:VALUE, got ":2"`, 1, 3},
		{"libsvm bad index", "x.libsvm", "1 a:2\n", data.Options{},
			`x.libsvm:1:3: bad index "a" in "a:2"`, 1, 3},
		{"libsvm fractional index", "x.libsvm", "1 1.5:2\n", data.Options{},
			`x.libsvm:1:3: bad index "1.5" in "1.5:2"`, 1, 3},
		{"libsvm index 0", "x.libsvm", "1 1:3\n1 0:2 1:3\n", data.Options{IndexBase: data.IndexOne},
			`x.libsvm:2:3: index 0 in a 1-based file: indices start at 1`, 2, 3},
		{"libsvm negative index", "x.libsvm", "1 -4:2\n", data.Options{},
			`x.libsvm:1:3: index -4 is out of range: indices start at 0 or 1`, 1, 3},
		{"libsvm negative index, 1-based", "x.libsvm", "1 -4:2\n", data.Options{IndexBase: data.IndexOne},
			`x.libsvm:1:3: index -4 is out of range: indices start at 1`, 1, 3},
		{"libsvm negative index, 0-based", "x.libsvm", "1 -4:2\n", data.Options{IndexBase: data.IndexZero},
			`x.libsvm:1:3: index -4 is out of range: indices start at 0`, 1, 3},
		{"libsvm 0 follows 1", "x.libsvm", "1 1:1 0:1\n", data.Options{},
			`x.libsvm:1:7: index 0 follows index 1: indices must be strictly increasing`, 1, 7},
		{"libsvm huge index, 0-based", "x.libsvm", "1 1048576:1\n", data.Options{IndexBase: data.IndexZero},
			`x.libsvm:1:3: index 1048576 exceeds the limit of 1048576 features`, 1, 3},
		{"libsvm huge index, detected 0-based", "x.libsvm", "1 1048576:1\n1 0:1\n", data.Options{},
			`x.libsvm:1:3: index 1048576 exceeds the limit of 1048576 features in a 0-based file (0-based since line 2 has index 0)`, 1, 3},
		{"libsvm DropTarget, bad pair", "x.libsvm", "yes 1:1\n1:2 x\n", data.Options{DropTarget: true},
			`x.libsvm:2:5: expected INDEX:VALUE, got "x"`, 2, 5},
		{"libsvm unknown Absent", "x.libsvm", "1 1:1\n", data.Options{Absent: 2},
			`x.libsvm: unknown Absent 2`, 0, 0},
		{"libsvm unknown IndexBase", "x.libsvm", "1 1:1\n", data.Options{IndexBase: -1},
			`x.libsvm: unknown IndexBase -1`, 0, 0},
		{"libsvm decreasing", "x.libsvm", "1 3:1 2:1\n", data.Options{},
			`x.libsvm:1:7: index 2 follows index 3: indices must be strictly increasing`, 1, 7},
		{"libsvm repeated", "x.libsvm", "1 3:1 3:1\n", data.Options{},
			`x.libsvm:1:7: index 3 follows index 3: indices must be strictly increasing`, 1, 7},
		{"libsvm huge index", "x.libsvm", "1 2000000:1\n", data.Options{},
			`x.libsvm:1:3: index 2000000 exceeds the limit of 1048576 features`, 1, 3},
		{"libsvm overflowing index", "x.libsvm", "1 99999999999999999999:1\n", data.Options{},
			`x.libsvm:1:3: index 99999999999999999999 exceeds the limit of 1048576 features`, 1, 3},
		{"libsvm bad value", "x.libsvm", "1 2:1 10:abc\n", data.Options{},
			`x.libsvm:1:10: value "abc" of index 10 is not a number`, 1, 10},
		{"libsvm bad label", "x.libsvm", "1 2:1\nyes 2:1\n", data.Options{},
			`x.libsvm:2:1: label "yes" is not a number`, 2, 1},
		{"libsvm multilabel", "x.libsvm", "  1,2 2:1\n", data.Options{},
			`x.libsvm:1:3: label "1,2" is not a number`, 1, 3},
		{"libsvm missing label", "x.libsvm", "NA 2:1\n", data.Options{},
			`x.libsvm:1:1: missing label "NA"`, 1, 1},
		{"libsvm label out of range", "x.libsvm", "1e400 2:1\n", data.Options{},
			`x.libsvm:1:1: label "1e400" is out of range`, 1, 1},
		{"libsvm BOM column", "x.libsvm", "\xef\xbb\xbf1 x\n", data.Options{},
			`x.libsvm:1:6: expected INDEX:VALUE, got "x"`, 1, 6},
		{"libsvm negative NumFeatures", "x.libsvm", "1 1:1\n", data.Options{NumFeatures: -1},
			`x.libsvm: NumFeatures is negative (-1)`, 0, 0},
		{"libsvm too many cells", "x.libsvm", strings.Repeat("1 1048576:1\n", 300), data.Options{},
			`x.libsvm:1:3: index 1048576 makes a dense matrix of 300 rows × 1048576 columns = 314572800 cells, more than the limit of max(16777216, 64 × 300 INDEX:VALUE pairs) = 16777216 cells: the file is too sparse to be read densely`, 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			d, err := data.Read(strings.NewReader(tt.in), tt.name, tt.opts)
			if err == nil {
				t.Fatalf("no error; got %d rows", d.Rows)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
			var e *data.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is a %T, not a *data.Error", err)
			}
			if e.File != tt.name || e.Line != tt.line || e.Col != tt.col {
				t.Errorf("File, Line, Col = %q, %d, %d, want %q, %d, %d", e.File, e.Line, e.Col, tt.name, tt.line, tt.col)
			}
		})
	}
}

func TestReadFileErrors(t *testing.T) {
	_, err := data.ReadFile("testdata/no-such-file.tsv", data.Options{})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "testdata/no-such-file.tsv") {
		t.Errorf("missing file: err = %v", err)
	}

	// The score column has missing values, which a target may not.
	_, err = data.ReadFile("testdata/small.tsv", data.Options{Target: "score"})
	want := `testdata/small.tsv:3:4: missing target value "?" in column "score"`
	if err == nil || err.Error() != want {
		t.Errorf("missing target: err = %v, want %s", err, want)
	}

	_, err = data.ReadFile("testdata/truncated.tsv.gz", data.Options{})
	want = "testdata/truncated.tsv.gz: corrupt or truncated gzip data: unexpected EOF"
	if err == nil || err.Error() != want {
		t.Errorf("truncated gzip: err = %v, want %s", err, want)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated gzip: errors.Is(err, io.ErrUnexpectedEOF) is false")
	}
}

type failingReader struct {
	data []byte
	err  error
}

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadReaderError(t *testing.T) {
	boom := errors.New("boom")
	for name, in := range map[string]string{
		"x.tsv":    "a\ttarget\n1\t2\n3",
		"x":        "a\ttarget\n1\t2\n3",
		"x.csv":    "a,target\n1,2\n\"3",
		"x.libsvm": "1 1:2\n1 x",
	} {
		// The unfinished last line must not be parsed: the read error wins.
		r := &failingReader{data: []byte(in), err: boom}
		_, err := data.Read(r, name, data.Options{})
		if want := name + ": read error: boom"; err == nil || err.Error() != want {
			t.Errorf("%s: err = %v, want %s", name, err, want)
		}
		if !errors.Is(err, boom) {
			t.Errorf("%s: errors.Is(err, boom) is false", name)
		}
	}
}

func TestErrorFormat(t *testing.T) {
	tests := []struct {
		e    data.Error
		want string
	}{
		{data.Error{File: "f.tsv", Line: 3, Col: 2, Msg: "m"}, "f.tsv:3:2: m"},
		{data.Error{File: "f.tsv", Line: 3, Msg: "m"}, "f.tsv:3: m"},
		{data.Error{File: "f.tsv", Msg: "m"}, "f.tsv: m"},
		{data.Error{File: "f.tsv", Col: 2, Msg: "m"}, "f.tsv: m"},
		{data.Error{Line: 3, Col: 2, Msg: "m"}, "3:2: m"},
		{data.Error{Msg: "m"}, "m"},
	}
	for _, tt := range tests {
		if got := tt.e.Error(); got != tt.want {
			t.Errorf("%+v: Error() = %q, want %q", tt.e, got, tt.want)
		}
	}
}

func TestFormatString(t *testing.T) {
	for f, want := range map[data.Format]string{
		data.FormatAuto: "auto", data.FormatTSV: "tsv", data.FormatCSV: "csv",
		data.FormatLibSVM: "libsvm", data.Format(7): "Format(7)",
	} {
		if got := f.String(); got != want {
			t.Errorf("Format(%d).String() = %q, want %q", int(f), got, want)
		}
	}
}

func TestFormatFromName(t *testing.T) {
	// The same content, read as whatever the name says.
	const in = "1,2\t3:4\n5,6\t7:8\n"
	tests := []struct{ name, want string }{
		{"x.tsv", `x.tsv:2:1: cell "5,6" in column "1,2" is not a number`},
		{"x.TSV.GZ", `x.TSV.GZ:2:1: cell "5,6" in column "1,2" is not a number`},
		{"x.csv", `x.csv:2:2: cell "6\t7:8" in column "2\t3:4" is not a number`},
		{"x.libsvm", `x.libsvm:1:1: label "1,2" is not a number`},
		{"x.svm", `x.svm:1:1: label "1,2" is not a number`},
		{"dir.csv/x.txt", `dir.csv/x.txt:2:1: cell "5,6" in column "1,2" is not a number`}, // sniffed: a tab
	}
	for _, tt := range tests {
		_, err := data.Read(strings.NewReader(in), tt.name, data.Options{})
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s: err = %v, want %s", tt.name, err, tt.want)
		}
	}
}

func TestRowSubset(t *testing.T) {
	d, err := data.ReadFile("testdata/crlf.tsv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r := d.Row(1); !sameFloats(r, []float64{3, 4}) || cap(r) != 2 {
		t.Errorf("Row(1) = %v (cap %d)", r, cap(r))
	}
	d.Row(0)[1] = 20 // Row does not copy
	if d.X[1] != 20 {
		t.Errorf("Row(0) is a copy")
	}
	s := d.Subset([]int{1, 0, 1})
	checkDataset(t, s, &data.Dataset{
		Source:   "testdata/crlf.tsv",
		Features: []string{"a", "b"},
		X:        []float64{3, 4, 1, 20, 3, 4},
		Y:        []float64{1, 0, 1},
		Rows:     3, Cols: 2,
	})
	s.X[0] = 99 // Subset copies
	s.Features[0] = "z"
	if d.X[2] != 3 || d.Features[0] != "a" {
		t.Errorf("Subset shares memory with its source")
	}
	d.Y = nil
	if s := d.Subset([]int{}); s.Rows != 0 || s.Y != nil || len(s.X) != 0 || s.HasTarget() {
		t.Errorf("empty Subset without target = %+v", s)
	}
}

func TestReadDoesNotPanic(t *testing.T) {
	// Odd inputs the fuzzer found interesting or that are easy to get wrong.
	for _, in := range []string{
		"\x1f", "\x1f\x8b", "\xef\xbb", "\xef\xbb\xbf", "\t", ",", "\"", "#", ":", "1 :", "1 1:", "\r", "\r\n\r\n",
		"a\tb\n\t\n", "a,b\n,\n", "1 qid:1\n", strings.Repeat("a", 3<<20),
	} {
		for f := data.FormatAuto; f <= data.FormatLibSVM; f++ {
			d, err := data.Read(strings.NewReader(in), "x", data.Options{Format: f})
			if err == nil && len(d.X) != d.Rows*d.Cols {
				t.Errorf("%q as %v: len(X) = %d, Rows*Cols = %d", in, f, len(d.X), d.Rows*d.Cols)
			}
		}
	}
}
