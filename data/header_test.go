package data_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
)

// writeTemp writes content to a file called name in a new temporary
// directory and returns its path.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestHeaderLine: a first line whose every cell is a number is data, not a
// header, with HeaderAuto; other modes decide as they say.
func TestHeaderLine(t *testing.T) {
	auto := data.Options{Header: data.HeaderAuto}
	tests := []struct {
		desc, name, in string
		opts           data.Options
		want           *data.Dataset // Source is filled in
		noHeader       bool
		labels         []string
	}{
		// The first row used to be taken for the header and lost.
		{"headerless csv", "x.csv", "1,2\n3,4\n5,6\n", auto,
			&data.Dataset{Features: []string{"c1", "c2"}, X: []float64{1, 2, 3, 4, 5, 6}, Rows: 3, Cols: 2}, true, nil},
		{"headerless tsv, missing values", "x.tsv", "1\tNA\t\n-2e3\t?\tinf\n", auto,
			&data.Dataset{Features: []string{"c1", "c2", "c3"}, X: []float64{1, nan, nan, -2000, nan, math.Inf(1)}, Rows: 2, Cols: 3}, true, nil},
		{"headerless gzip, sniffed", "x.txt.gz", gzipped("1.5,2\n3,4\n"), auto,
			&data.Dataset{Features: []string{"c1", "c2"}, X: []float64{1.5, 2, 3, 4}, Rows: 2, Cols: 2}, true, nil},
		{"headerless, target by position", "x.csv", "1,M,2\n3,B,4\n", data.Options{Header: data.HeaderAuto, TargetColumn: 2, RequireTarget: true},
			&data.Dataset{Features: []string{"c1", "c3"}, X: []float64{1, 2, 3, 4}, Y: []float64{1, 0}, Rows: 2, Cols: 2}, true, []string{"B", "M"}},
		{"headerless, target dropped", "x.csv", "1,M,2\n3,B,4\n", data.Options{Header: data.HeaderAuto, TargetColumn: 2, DropTarget: true},
			&data.Dataset{Features: []string{"c1", "c3"}, X: []float64{1, 2, 3, 4}, Rows: 2, Cols: 2}, true, nil},
		{"header of names", "x.csv", "a,b\n1,2\n", auto,
			&data.Dataset{Features: []string{"a", "b"}, X: []float64{1, 2}, Rows: 1, Cols: 2}, false, nil},
		{"one name is enough", "x.csv", "1,b\n1,2\n", auto,
			&data.Dataset{Features: []string{"1", "b"}, X: []float64{1, 2}, Rows: 1, Cols: 2}, false, nil},
		{"hexadecimal is a name", "x.csv", "0x10,2\n1,2\n", auto,
			&data.Dataset{Features: []string{"0x10", "2"}, X: []float64{1, 2}, Rows: 1, Cols: 2}, false, nil},
		{"numbers that are the expected names", "x.csv", "3,2\n1,2\n", data.Options{Header: data.HeaderAuto, Names: []string{"2", "3"}},
			&data.Dataset{Features: []string{"3", "2"}, X: []float64{1, 2}, Rows: 1, Cols: 2}, false, nil},
		{"numbers that are not all expected names", "x.csv", "3,4\n1,2\n", data.Options{Header: data.HeaderAuto, Names: []string{"2", "3"}},
			&data.Dataset{Features: []string{"c1", "c2"}, X: []float64{3, 4, 1, 2}, Rows: 2, Cols: 2}, true, nil},
		{"numbers naming the target", "x.csv", "1,5\n1,2\n", data.Options{Target: "5", RequireTarget: true},
			&data.Dataset{Features: []string{"1"}, X: []float64{1}, Y: []float64{2}, Rows: 1, Cols: 1}, false, nil},
		// Column numbers, as pandas writes them for a NumPy array.
		{"numbered columns", "x.csv", "0,1,2\n1,2,3\n", auto,
			&data.Dataset{Features: []string{"0", "1", "2"}, X: []float64{1, 2, 3}, Rows: 1, Cols: 3}, false, nil},
		{"numbered from 2", "x.tsv", "2\t3\t4\t5\n1\t2\t3\t4\n", auto,
			&data.Dataset{Features: []string{"2", "3", "4", "5"}, X: []float64{1, 2, 3, 4}, Rows: 1, Cols: 4}, false, nil},
		{"two consecutive numbers are data", "x.csv", "0,1\n1,2\n", auto,
			&data.Dataset{Features: []string{"c1", "c2"}, X: []float64{0, 1, 1, 2}, Rows: 2, Cols: 2}, true, nil},
		{"a gap is data", "x.csv", "0,1,3\n1,2,3\n", auto,
			&data.Dataset{Features: []string{"c1", "c2", "c3"}, X: []float64{0, 1, 3, 1, 2, 3}, Rows: 2, Cols: 3}, true, nil},
		{"written otherwise is data", "x.csv", "0,1.0,2\n00,01,02\n", auto,
			&data.Dataset{Features: []string{"c1", "c2", "c3"}, X: []float64{0, 1, 2, 0, 1, 2}, Rows: 2, Cols: 3}, true, nil},
		{"header present", "x.csv", "1,2\n3,4\n", data.Options{Header: data.HeaderPresent},
			&data.Dataset{Features: []string{"1", "2"}, X: []float64{3, 4}, Rows: 1, Cols: 2}, false, nil},
		{"header absent", "x.tsv", "1\t2\n3\t4\n", data.Options{Header: data.HeaderAbsent},
			&data.Dataset{Features: []string{"c1", "c2"}, X: []float64{1, 2, 3, 4}, Rows: 2, Cols: 2}, true, nil},
		{"header absent, target by position", "x.tsv", "0\t2\n1\t4\n", data.Options{Header: data.HeaderAbsent, TargetColumn: 1},
			&data.Dataset{Features: []string{"c2"}, X: []float64{2, 4}, Y: []float64{0, 1}, Rows: 2, Cols: 1}, true, nil},
		{"header, target by position", "x.csv", "a,y\n1,2\n", data.Options{TargetColumn: 2},
			&data.Dataset{Features: []string{"a"}, X: []float64{1}, Y: []float64{2}, Rows: 1, Cols: 1}, false, nil},
		{"libsvm ignores Header", "x.libsvm", "1 1:2\n", data.Options{Header: data.HeaderAbsent},
			&data.Dataset{Features: []string{"f1"}, X: []float64{2}, Y: []float64{1}, Rows: 1, Cols: 1}, false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			path := writeTemp(t, tt.name, tt.in)
			got, err := data.ReadFile(path, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			tt.want.Source = path
			checkDataset(t, got, tt.want)
			if got.NoHeader != tt.noHeader {
				t.Errorf("NoHeader = %v, want %v", got.NoHeader, tt.noHeader)
			}
			if strings.Join(got.Labels, "|") != strings.Join(tt.labels, "|") {
				t.Errorf("Labels = %q, want %q", got.Labels, tt.labels)
			}
			if s := got.Subset([]int{0}); s.NoHeader != got.NoHeader {
				t.Errorf("Subset loses NoHeader")
			}
		})
	}
}

// TestHeaderLineErrors: a file without the header it needs is refused with
// an error that says so, wrapping ErrNoHeader.
func TestHeaderLineErrors(t *testing.T) {
	tests := []struct {
		desc, name, in string
		opts           data.Options
		want           string // after "FILE:"
		noHeader       bool   // errors.Is(err, data.ErrNoHeader)
	}{
		{"required", "x.csv", "1,2\n3,4\n", data.Options{},
			"1:1: line 1 is a row of numbers, not column names: a header line naming the columns is needed", true},
		{"required, with a target", "x.tsv", "1\t2\n3\t4\n", data.Options{RequireTarget: true},
			`1:1: line 1 is a row of numbers, not column names: a header line naming the columns is needed, the target "target" among them`, true},
		{"required, missing values", "x.csv", "NA,,1e3\n", data.Options{DropTarget: true},
			"1:1: line 1 is a row of numbers, not column names: a header line naming the columns is needed", true},
		{"guessed, target needed", "x.csv", "1,2\n3,4\n", data.Options{Header: data.HeaderAuto, RequireTarget: true},
			`1: no header line (every cell of line 1 is a number), so no column is named "target"`, true},
		{"absent, target needed", "x.csv", "a,b\n3,4\n", data.Options{Header: data.HeaderAbsent, RequireTarget: true, Target: "b"},
			`1: no header line, so no column is named "b"`, true},
		{"absent, names are not numbers", "x.csv", "a,b\n3,4\n", data.Options{Header: data.HeaderAbsent},
			`1:1: cell "a" in column "c1" is not a number`, false},
		{"ragged headerless", "x.csv", "1,2\n3\n", data.Options{Header: data.HeaderAuto},
			"2: row has 1 fields, line 1 has 2", false},
		{"target column too far", "x.csv", "1,2\n3,4\n", data.Options{Header: data.HeaderAuto, TargetColumn: 3},
			"1: target column 3 is past the last column: line 1 has 2", false},
		{"target and target column", "x.csv", "a,b\n3,4\n", data.Options{Target: "a", TargetColumn: 1},
			" Target and TargetColumn are both set", false},
		{"negative target column", "x.csv", "a,b\n3,4\n", data.Options{TargetColumn: -1},
			" TargetColumn is negative (-1)", false},
		{"unknown Header", "x.csv", "a,b\n3,4\n", data.Options{Header: 7},
			" unknown Header 7", false},
		{"empty first line, no header", "x.tsv", "\n1\t2\n", data.Options{Header: data.HeaderAbsent},
			"1: empty line", false},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			path := writeTemp(t, tt.name, tt.in)
			d, err := data.ReadFile(path, tt.opts)
			if err == nil {
				t.Fatalf("no error; read %d rows", d.Rows)
			}
			want := path + ":" + tt.want
			if err.Error() != want {
				t.Errorf("error:\n got %s\nwant %s", err, want)
			}
			if errors.Is(err, data.ErrNoHeader) != tt.noHeader {
				t.Errorf("errors.Is(err, ErrNoHeader) = %v", !tt.noHeader)
			}
			var e *data.Error
			if !errors.As(err, &e) {
				t.Fatalf("error is a %T, not a *data.Error", err)
			}
		})
	}
}

// TestNumberSyntax: numbers are decimal; strconv.ParseFloat's
// underscores and hexadecimal are refused, with the file, line and column.
func TestNumberSyntax(t *testing.T) {
	inf := math.Inf(1)
	good := []struct {
		cell string
		want float64
	}{
		{"1", 1}, {"-1.5", -1.5}, {"+.5", 0.5}, {"5.", 5}, {"007", 7}, {"1e3", 1000}, {"1E-3", 0.001},
		{"-2.5e+2", -250}, {"inf", inf}, {"+Inf", inf}, {"-Infinity", -inf}, {"INFINITY", inf},
		{"nan", nan}, {"NA", nan}, {"nAn", nan}, {"", nan}, {" 3 ", 3}, {"1e-400", 0},
	}
	for _, g := range good {
		path := writeTemp(t, "x.csv", "a,b\n0,"+g.cell+"\n")
		d, err := data.ReadFile(path, data.Options{})
		if err != nil {
			t.Errorf("%q: %v", g.cell, err)
			continue
		}
		if !sameFloats(d.X, []float64{0, g.want}) {
			t.Errorf("%q read as %v, want %v", g.cell, d.X[1], g.want)
		}
	}
	bad := []struct{ cell, why string }{
		{"1_000", "is not a number in decimal notation"},
		{"0x10", "is not a number in decimal notation"},
		{"0x1p4", "is not a number in decimal notation"},
		{"-0X1P-2", "is not a number in decimal notation"},
		{"0x_1p4", "is not a number in decimal notation"},
		{"1e", "is not a number"},
		{".", "is not a number"},
		{"e5", "is not a number"},
		{"1.2.3", "is not a number"},
		{"+-1", "is not a number"},
		{"-nan", "is not a number"},
		{"1e+_3", "is not a number"},
		{"infinit", "is not a number"},
		{"0b101", "is not a number"},
		{"1 2", "is not a number"},
	}
	for _, b := range bad {
		for _, f := range []struct{ name, in, want string }{
			{"x.csv", "a,b\n0,\"" + b.cell + "\"\n", `:2:2: cell "` + b.cell + `" in column "b" ` + b.why},
			{"x.tsv", "a\tb\n0\t" + b.cell + "\n", `:2:2: cell "` + b.cell + `" in column "b" ` + b.why},
			{"x.libsvm", "1 1:" + strings.ReplaceAll(b.cell, " ", "") + "\n", `:1:5: value "` + strings.ReplaceAll(b.cell, " ", "") + `" of index 1 ` + b.why},
		} {
			if f.name == "x.libsvm" && b.cell == "1 2" {
				continue
			}
			path := writeTemp(t, f.name, f.in)
			_, err := data.ReadFile(path, data.Options{})
			if err == nil || err.Error() != path+f.want {
				t.Errorf("%s with %q: err = %v, want %s", f.name, b.cell, err, path+f.want)
			}
		}
	}
}

// TestLibSVMCellBudget: the dense matrix of a LibSVM file may not be much
// larger than its content: max(1<<24, 64 × pairs) cells.
func TestLibSVMCellBudget(t *testing.T) {
	tests := []struct {
		desc, in string
		opts     data.Options
		want     string // after "FILE", "" for success
	}{
		// 16 rows of 1<<20 columns are 1<<24 cells: the limit.
		{"at the floor", strings.Repeat("1 1:1\n", 15) + "0 1048576:1\n", data.Options{}, ""},
		{"past the floor", strings.Repeat("1 1:1\n", 16) + "0 1048576:1\n", data.Options{},
			":17:3: index 1048576 makes a dense matrix of 17 rows × 1048576 columns = 17825792 cells, more than the limit of max(16777216, 64 × 17 INDEX:VALUE pairs) = 16777216 cells: the file is too sparse to be read densely"},
		{"the highest index is named", "1 3:1\n1 2:1 1048575:1 1048576:1\n1 1:1\n" + strings.Repeat("1 5:1\n", 20), data.Options{},
			":2:17: index 1048576 makes a dense matrix of 23 rows × 1048576 columns = 24117248 cells, more than the limit of max(16777216, 64 × 25 INDEX:VALUE pairs) = 16777216 cells: the file is too sparse to be read densely"},
		{"0-based", strings.Repeat("1 0:1\n", 16) + "1 1048575:1\n", data.Options{},
			":17:3: index 1048575 makes a dense matrix of 17 rows × 1048576 columns = 17825792 cells, more than the limit of max(16777216, 64 × 17 INDEX:VALUE pairs) = 16777216 cells: the file is too sparse to be read densely"},
		{"NumFeatures", strings.Repeat("1 1:1\n", 17), data.Options{NumFeatures: 1 << 20},
			": NumFeatures 1048576 makes a dense matrix of 17 rows × 1048576 columns = 17825792 cells, more than the limit of max(16777216, 64 × 17 INDEX:VALUE pairs) = 16777216 cells: the file is too sparse to be read densely"},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			path := writeTemp(t, "x.libsvm", tt.in)
			d, err := data.ReadFile(path, tt.opts)
			switch {
			case tt.want == "" && err != nil:
				t.Fatal(err)
			case tt.want == "":
				if d.Rows*d.Cols != 1<<24 {
					t.Errorf("%d rows × %d columns", d.Rows, d.Cols)
				}
			case err == nil:
				t.Fatalf("no error; read %d rows × %d columns", d.Rows, d.Cols)
			case err.Error() != path+tt.want:
				t.Errorf("error:\n got %s\nwant %s", err, path+tt.want)
			}
		})
	}
}

// gzipLevel compresses s at the given level.
func gzipLevel(t *testing.T, s string, level int) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, level)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// TestGzipExpansion: gzip data may expand to max(1 MiB, MaxExpansion ×
// compressed) bytes, so that a small file cannot take much memory.
func TestGzipExpansion(t *testing.T) {
	zeros := "a\tb\ttarget\n" + strings.Repeat("0\t0\t0\n", 1<<19) // 3 MiB, compresses about 300-fold
	var varied strings.Builder                                     // 2 MiB, compresses about 2-fold
	varied.WriteString("a\tb\ttarget\n")
	rng := rand.New(rand.NewPCG(1, 2))
	for varied.Len() < 2<<20 {
		fmt.Fprintf(&varied, "%d\t%d\t1\n", rng.IntN(1e6), rng.IntN(1e3))
	}
	small := "a\ttarget\n" + strings.Repeat("0\t0\n", 1000) // 4 KB, compresses about 100-fold
	tests := []struct {
		desc, in string
		max      int
		rows     int    // when it reads
		want     string // the start of the error after "FILE: ", when it does not
	}{
		{"zeros, default", zeros, 0, 0, "gzip data expands more than 100-fold"},
		{"zeros, no limit", zeros, -1, 1 << 19, ""},
		{"zeros, high limit", zeros, 2000, 1 << 19, ""},
		{"varied, default", varied.String(), 0, strings.Count(varied.String(), "\n") - 1, ""},
		{"varied, low limit", varied.String(), 2, 0, "gzip data expands more than 2-fold"},
		{"small, under 1 MiB", small, 1, 1000, ""},
	}
	compressed := map[string][]byte{}
	for _, tt := range tests {
		if compressed[tt.in] == nil {
			compressed[tt.in] = gzipLevel(t, tt.in, gzip.DefaultCompression)
		}
		t.Run(tt.desc, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.tsv.gz")
			if err := os.WriteFile(path, compressed[tt.in], 0o644); err != nil {
				t.Fatal(err)
			}
			d, err := data.ReadFile(path, data.Options{MaxExpansion: tt.max})
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				if d.Rows != tt.rows {
					t.Errorf("%d rows, want %d", d.Rows, tt.rows)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), path+": "+tt.want) || !strings.HasSuffix(err.Error(), "decompress the file first to read it anyway") {
				t.Fatalf("err = %v, want %s: %s...", err, path, tt.want)
			}
			var e *data.Error
			if !errors.As(err, &e) || e.Line != 0 {
				t.Errorf("error %#v is not a *data.Error for the whole file", err)
			}
		})
	}
}
