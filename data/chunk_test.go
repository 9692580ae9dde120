package data

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// withChunks runs f with chunks of the given size and at most threads
// parsing goroutines.
func withChunks(size, threads int, f func()) {
	oldSize, oldThreads := chunkSize, maxThreads
	chunkSize, maxThreads = size, threads
	defer func() { chunkSize, maxThreads = oldSize, oldThreads }()
	f()
}

// sameData reports how a and b differ, "" if they do not (NaN equals NaN).
func sameData(a, b *Dataset) string {
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
			if math.Float64bits(p[0][i]) != math.Float64bits(p[1][i]) && !(p[0][i] != p[0][i] && p[1][i] != p[1][i]) {
				return fmt.Sprintf("value %d is %v, want %v", i, p[0][i], p[1][i])
			}
		}
	}
	return ""
}

// errorDiff says how err differs from want: "" when both are nil or both
// say the same.
func errorDiff(err, want error) string {
	switch {
	case (err == nil) != (want == nil):
		return fmt.Sprintf("error %v, want %v", err, want)
	case err != nil && err.Error() != want.Error():
		return fmt.Sprintf("error\n%v\nwant\n%v", err, want)
	}
	return ""
}

// compareChunked reads in with every chunk size from 1 to the length of the
// input (then doubling) and checks that the result equals the sequential
// reader's: the same data set, or the same error.
func compareChunked(t *testing.T, name, in string, opts Options) {
	t.Helper()
	want, wantErr := refRead(strings.NewReader(in), name, opts)
	for size := 1; size <= 2*len(in)+2; size = next(size, len(in)) {
		for _, threads := range []int{1, 3} {
			var got *Dataset
			var err error
			withChunks(size, threads, func() { got, err = Read(strings.NewReader(in), name, opts) })
			if diff := errorDiff(err, wantErr); diff != "" {
				t.Fatalf("chunks of %d: %s", size, diff)
			}
			if err == nil {
				if diff := sameData(got, want); diff != "" {
					t.Fatalf("chunks of %d: %s", size, diff)
				}
			}
		}
	}
}

// next steps chunk sizes one by one up to n, then doubling.
func next(size, n int) int {
	if size < n {
		return size + 1
	}
	return 2 * size
}

// TestChunkEdges reads files whose tricky parts (a quoted field with a
// line break, CRLF line ends, a column name in UTF-8 of several bytes) lie
// across a chunk edge for some chunk size, and compares with the
// sequential reader.
func TestChunkEdges(t *testing.T) {
	for _, tt := range chunkEdgeCases {
		t.Run(tt.name, func(t *testing.T) { compareChunked(t, tt.name, tt.in, tt.opts) })
	}
}

// chunkEdgeCases are files whose parts that are hard to cut lie across a
// chunk edge for some chunk size.
var chunkEdgeCases = []struct {
	name, in string
	opts     Options
}{
	{"quoted.csv", "a,\"b\nc\",target\n1,\"2,5\",x\n\"3\r\n\",4,y\n5,\"6\"\"\",z\n", Options{}},
	{"quoted-ok.csv", "a,\"b\nc\",target\n1,\"2.5\",x\n\"3\",\"4\n\",y\n5,6,\"z\nw\"\n", Options{}},
	{"crlf.csv", "a,b,target\r\n1,2,3\r\n\r\n4,5,6\r\n7,8,9\r", Options{}},
	{"crlf.tsv", "a\tb\ttarget\r\n1\t2\t3\r\n4\t5\t6\r\n\r\n", Options{}},
	{"utf8.tsv", "größe\t温度\ttarget\n1.5\t-2\tjá\n3\t4e-3\tnão\n", Options{}},
	{"utf8.csv", "größe,温度,target\n1.5,-2,já\n3,4e-3,não\n", Options{}},
	{"blank.tsv", "a\ttarget\n1\t2\n\n \n3\t4\n", Options{}},
	{"trailing-blank.tsv", "a\ttarget\n1\t2\n\n \n\n", Options{}},
	{"leading-blank.tsv", "\n\n\na\ttarget\n1\t2\n", Options{}},
	{"ragged.csv", "a,b,target\n1,2,3\n1,\"2,3\"\n", Options{}},
	{"bare-quote.csv", "a,target\n1,2\n3,4\"x\n5,6\n", Options{}},
	{"unclosed.csv", "a,target\n1,2\n3,\"4\n5,6\n", Options{}},
	{"noheader.csv", "1,2,3\n4,5,6\n", Options{Header: HeaderAuto, TargetColumn: 2}},
	{"noheader.tsv", "1\t2\n4\t5\n", Options{Header: HeaderAbsent}},
	{"bad.tsv", "a\ttarget\n1\t2\n1\tx\n0x1\t3\n", Options{}},
	{"missing-target.csv", "a,target\n1,2\n3,NA\n", Options{}},
	{"drop.csv", "a,target,b\n1,,2\n3,x,4\n", Options{DropTarget: true}},
	{"labels.csv", "target,a\nM,1\nB,2\n7,3\n", Options{}},
	{"gz.tsv", gzipString("a\ttarget\n1\t2\n3\t4\n"), Options{}},
}

func gzipString(s string) string {
	var b bytes.Buffer
	w := newGzipWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.String()
}

// FuzzChunked compares the chunked reader with the sequential one on any
// input, with small chunks.
func FuzzChunked(f *testing.F) {
	f.Add("a,\"b\nc\",target\n1,\"2,5\",x\n", uint8(2), uint8(0), uint8(3))
	f.Add("a\ttarget\r\n1\t2\r\n\r\n3\t4\n", uint8(1), uint8(0), uint8(5))
	f.Add("größe,target\n1,já\n", uint8(2), uint8(1), uint8(7))
	f.Add("1,2\n3,4\n", uint8(2), uint8(1<<4), uint8(2))
	f.Add("1 1:2 # c\n0 0:1\r\n", uint8(3), uint8(0), uint8(2))
	f.Fuzz(func(t *testing.T, in string, format, flags, size uint8) {
		opts := Options{
			Format:     Format(1 + format%3),
			DropTarget: flags&1 != 0,
			Header:     Header(flags >> 4 & 3),
		}
		want, wantErr := refRead(strings.NewReader(in), "fuzz", opts)
		var got *Dataset
		var err error
		withChunks(1+int(size%32), 2, func() { got, err = Read(strings.NewReader(in), "fuzz", opts) })
		if diff := errorDiff(err, wantErr); diff != "" {
			t.Fatal(diff)
		}
		if err == nil {
			if diff := sameData(got, want); diff != "" {
				t.Fatal(diff)
			}
		}
	})
}

// TestParseCell checks the fast path of parseCell against parseNumber,
// which strconv.ParseFloat does the work of.
func TestParseCell(t *testing.T) {
	for _, s := range []string{"0", "-0", "1", "0.1", "-2.5", "123456789012345", "1234567890123456", ".5", "5.", "-.5",
		"0.000000000000001", "9007199254740993", "3.0000000000000004", "1e3", "+1", "--1", "1.2.3", "", ".", "-", " 7 ", "NA", "nan", "inf",
		"0.30000000000000004", "4.35", "0.1234567", "-1.125314", "99999999999999.9"} {
		v, st := parseCell([]byte(s))
		w, wst := parseNumber(s)
		if st != wst || math.Float64bits(v) != math.Float64bits(w) && !(v != v && w != w) {
			t.Errorf("parseCell(%q) = %v, %v; parseNumber: %v, %v", s, v, st, w, wst)
		}
	}
}

// FuzzParseCell checks parseCell against parseNumber on any cell, and
// that the compact value of a cell gives its value back.
func FuzzParseCell(f *testing.F) {
	f.Add("-1.125314")
	f.Add("123456789.012345")
	f.Add("1.50000000")
	f.Fuzz(func(t *testing.T, s string) {
		v, st := parseCell([]byte(s))
		w, wst := parseNumber(s)
		if st != wst || math.Float64bits(v) != math.Float64bits(w) && !(v != v && w != w) {
			t.Errorf("parseCell(%q) = %v, %v; parseNumber: %v, %v", s, v, st, w, wst)
		}
		if st != cellOK && st != cellMissing {
			return
		}
		if c, ok := encodeCompactText([]byte(s), v); ok {
			if got := decodeCompact(c); math.Float64bits(got) != math.Float64bits(v) && !(v != v && got != got) {
				t.Errorf("compact value of %q (%v) comes back as %v", s, v, got)
			}
		} else if _, ok := encodeCompact(v); ok {
			t.Errorf("%q (%v) has a compact value, but not from its text", s, v)
		}
	})
}

// readStream reads all the blocks of in through a Stream into a Dataset,
// with the labels of text targets in Labels (in order of appearance) and
// their index in Y.
func readStream(in, name string, opts Options) (*Dataset, error) {
	s, err := OpenStream(strings.NewReader(in), name, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	d := &Dataset{Features: s.Features(), Cols: len(s.Features()), NoHeader: s.NoHeader(), Format: s.Format(), Source: name}
	index := map[string]int{}
	err = s.Each(func(b *Block) error {
		d.X = append(d.X, b.X...)
		d.Rows += b.Rows
		if !s.HasTarget() {
			return nil
		}
		for r, y := range b.Y {
			if b.YText != nil && b.YText[r] != "" {
				l := b.YText[r]
				if _, ok := index[l]; !ok {
					index[l] = len(d.Labels)
					d.Labels = append(d.Labels, l)
				}
				y = float64(index[l])
			}
			d.Y = append(d.Y, y)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// TestStreamMatchesRead reads the files of TestChunkEdges through a Stream
// with every chunk size and compares with Read: the same rows, targets
// and errors, for files whose target column holds numbers only or text
// only.
func TestStreamMatchesRead(t *testing.T) {
	for _, tt := range chunkEdgeCases {
		t.Run(tt.name, func(t *testing.T) {
			want, wantErr := refRead(strings.NewReader(tt.in), tt.name, tt.opts)
			var wantNames []string
			if want != nil && want.Labels != nil {
				// Read sorts the labels; the stream has them in order of
				// appearance, and numbers as numbers: compare the names.
				for _, y := range want.Y {
					wantNames = append(wantNames, want.LabelName(y))
				}
				want.Labels, want.Y = nil, nil
			}
			for size := 1; size <= 2*len(tt.in)+2; size = next(size, len(tt.in)) {
				var got *Dataset
				var err error
				withChunks(size, 2, func() { got, err = readStream(tt.in, tt.name, tt.opts) })
				if diff := errorDiff(err, wantErr); diff != "" {
					t.Fatalf("chunks of %d: %s", size, diff)
				}
				if err == nil {
					if wantNames != nil {
						for r, y := range got.Y {
							if name := got.LabelName(y); name != wantNames[r] {
								t.Fatalf("chunks of %d: row %d has label %q, want %q", size, r+1, name, wantNames[r])
							}
						}
					}
					if want.Y == nil {
						got.Labels, got.Y = nil, nil
					}
					if diff := sameData(got, want); diff != "" {
						t.Fatalf("chunks of %d: %s", size, diff)
					}
				}
			}
		})
	}
}

// TestStreamLibSVMWidth checks the error of an index past the width that a
// stream of a LibSVM file is given.
func TestStreamLibSVMWidth(t *testing.T) {
	in := "1 1:1\n0 2:1 7:2\n1 9:1\n"
	for _, size := range []int{1, 5, 100} {
		var err error
		withChunks(size, 2, func() { _, err = readStream(in, "x.libsvm", Options{IndexBase: IndexOne, NumFeatures: 5}) })
		want := "x.libsvm:2:7: index 7 is past the 5 features read (NumFeatures 5, indices from 1)"
		if err == nil || err.Error() != want {
			t.Errorf("chunks of %d: error %v, want %s", size, err, want)
		}
	}
}

// benchCSV returns a CSV file of rows rows of 50 features written with 7
// significant digits, as docs/data-speed generates (about 510 bytes a row).
func benchCSV(rows int) []byte {
	var b bytes.Buffer
	for j := range 50 {
		fmt.Fprintf(&b, "x%d,", j+1)
	}
	b.WriteString("target\n")
	var line []byte
	v := 0.123456789
	for i := range rows {
		line = line[:0]
		for range 50 {
			v = math.Mod(v*997.3+0.7, 7) - 3.5
			line = strconv.AppendFloat(line, v, 'g', 7, 64)
			line = append(line, ',')
		}
		line = strconv.AppendInt(line, int64(i%2), 10)
		b.Write(append(line, '\n'))
	}
	return b.Bytes()
}

func BenchmarkReadCSV(b *testing.B) {
	in := benchCSV(50_000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(bytes.NewReader(in), "rows.csv", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStreamCSV(b *testing.B) {
	in := benchCSV(50_000)
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := OpenStream(bytes.NewReader(in), "rows.csv", Options{DropTarget: true})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := s.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
		s.Close()
	}
}
