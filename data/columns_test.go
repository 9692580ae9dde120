package data

import (
	"bytes"
	"errors"
	"io"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestSelect reads TSV and CSV files with Options.Select: the features
// come in Select's order from wherever the file has them, other columns
// are skipped and listed, and missing names are errors. Every case is read
// with Read (plain and compact) and with Streams of small chunks, which
// must agree.
func TestSelect(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		opts     Options
		features []string
		x        []float64
		y        []float64
		labels   []string
		skipped  []string
		noHeader bool
		err      string
	}{
		{
			name: "ordered.csv", in: "a,b,target\n1,2,0\n3,4,1\n",
			opts: Options{Select: []string{"a", "b"}}, features: []string{"a", "b"},
			x: []float64{1, 2, 3, 4}, y: []float64{0, 1},
		},
		{
			name: "reordered.csv", in: "b,target,a\n2,0,1\n4,1,3\n",
			opts: Options{Select: []string{"a", "b"}}, features: []string{"a", "b"},
			x: []float64{1, 2, 3, 4}, y: []float64{0, 1},
		},
		{
			name: "extra.tsv", in: "zip\ta\tnote\tb\n9\t1\tx y\t2\n8\t3\t?\t4\n",
			opts: Options{Select: []string{"b", "a"}}, features: []string{"b", "a"},
			x: []float64{2, 1, 4, 3}, skipped: []string{"zip", "note"},
		},
		{
			name: "target in the middle.tsv", in: "c\ttarget\ta\tb\n3\tyes\t1\t2\n6\tno\t4\t5\n",
			opts: Options{Select: []string{"a", "b", "c"}}, features: []string{"a", "b", "c"},
			x: []float64{1, 2, 3, 4, 5, 6}, y: []float64{1, 0}, labels: []string{"no", "yes"},
		},
		{
			name: "dropped target.csv", in: "target,b,a\nanything,2,1\n,4,3\n",
			opts: Options{Select: []string{"a", "b"}, DropTarget: true}, features: []string{"a", "b"},
			x: []float64{1, 2, 3, 4},
		},
		{
			name: "quoted.csv", in: "\"b\",a,x\n\"2\",1,\"a,b\"\n4,3,\"c\nd\"\n",
			opts: Options{Select: []string{"a", "b"}}, features: []string{"a", "b"},
			x: []float64{1, 2, 3, 4}, skipped: []string{"x"},
		},
		{
			name: "duplicate skipped.csv", in: "x,a,x,b\nq,1,r,2\n",
			opts: Options{Select: []string{"a", "b"}}, features: []string{"a", "b"},
			x: []float64{1, 2}, skipped: []string{"x", "x"},
		},
		{
			name: "no header.csv", in: "1,2,3\n4,5,6\n",
			opts: Options{Select: []string{"z", "y"}, Header: HeaderAbsent}, features: []string{"c1", "c2", "c3"},
			x: []float64{1, 2, 3, 4, 5, 6}, noHeader: true,
		},
		{
			name: "names that are numbers.csv", in: "3,2,target\n1,2,0\n",
			opts: Options{Select: []string{"2", "3"}, Header: HeaderAuto}, features: []string{"2", "3"},
			x: []float64{2, 1}, y: []float64{0},
		},
		{
			name: "missing.csv", in: "a,target\n1,0\n",
			opts: Options{Select: []string{"a", "b"}},
			err:  `missing.csv:1: no column "b"; columns are: a, target`,
		},
		{
			name: "two missing.csv", in: "a,target\n1,0\n",
			opts: Options{Select: []string{"c", "a", "b"}},
			err:  `two missing.csv:1: no columns "c", "b"; columns are: a, target`,
		},
		{
			name: "target selected.csv", in: "a,target\n1,0\n",
			opts: Options{Select: []string{"a", "target"}},
			err:  `target selected.csv:1: no column "target"; columns are: a, target; "target" is the target column, which is never a feature`,
		},
		{
			name: "duplicate selected.csv", in: "a,b,a\n1,2,3\n",
			opts: Options{Select: []string{"a", "b"}},
			err:  `duplicate selected.csv:1:3: duplicate column name "a" (columns 1 and 3)`,
		},
		{
			name: "duplicate without Select.csv", in: "x,a,x\n1,2,3\n",
			err: `duplicate without Select.csv:1:3: duplicate column name "x" (columns 1 and 3)`,
		},
		{
			name: "Select twice.csv", in: "a,b\n1,2\n",
			opts: Options{Select: []string{"a", "b", "a"}},
			err:  `Select twice.csv: Select names column "a" twice (names 1 and 3)`,
		},
		{
			name: "bad cell.tsv", in: "b\tx\ta\n1\tq\t2\n3\tr\tz\n",
			opts: Options{Select: []string{"a", "b"}}, features: []string{"a", "b"}, skipped: []string{"x"},
			err: `bad cell.tsv:3:3: cell "z" in column "a" is not a number`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, compact := range []bool{false, true} {
				opts := tt.opts
				opts.Compact = compact
				d, err := Read(strings.NewReader(tt.in), tt.name, opts)
				if tt.err != "" {
					if err == nil || err.Error() != tt.err {
						t.Fatalf("compact %v: error %v, want %s", compact, err, tt.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("compact %v: %v", compact, err)
				}
				if compact != d.IsCompact() {
					t.Errorf("compact %v: IsCompact %v", compact, d.IsCompact())
				}
				d.Expand()
				want := &Dataset{Features: tt.features, X: tt.x, Y: tt.y, Labels: tt.labels, Rows: len(tt.x) / len(tt.features), Cols: len(tt.features), NoHeader: tt.noHeader, Format: d.Format}
				if diff := sameData(d, want); diff != "" {
					t.Errorf("compact %v: %s", compact, diff)
				}
				if !slices.Equal(d.Skipped, tt.skipped) || !slices.Equal(d.Columns().Skipped, tt.skipped) {
					t.Errorf("compact %v: Skipped %q, want %q", compact, d.Skipped, tt.skipped)
				}
			}
			for _, size := range []int{1, 5, 1 << 20} {
				opts := tt.opts
				opts.ChunkBytes = size
				x, err := streamAll(tt.in, tt.name, opts, tt.features, tt.skipped)
				if tt.err != "" {
					if err == nil || err.Error() != tt.err {
						t.Fatalf("stream, chunks of %d: error %v, want %s", size, err, tt.err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("stream, chunks of %d: %v", size, err)
				}
				if !slices.Equal(x, tt.x) {
					t.Errorf("stream, chunks of %d: X %v, want %v", size, x, tt.x)
				}
			}
		})
	}
}

// streamAll reads every block of a Stream and returns their features, after
// checking the columns the Stream reports.
func streamAll(in, name string, opts Options, features, skipped []string) ([]float64, error) {
	s, err := OpenStream(strings.NewReader(in), name, opts)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if !slices.Equal(s.Features(), features) || !slices.Equal(s.Skipped(), skipped) {
		return nil, errors.New("stream columns: features " + strings.Join(s.Features(), " ") + ", skipped " + strings.Join(s.Skipped(), " "))
	}
	var x []float64
	for {
		b, err := s.Next()
		if err == io.EOF {
			return x, nil
		}
		if err != nil {
			return nil, err
		}
		x = append(x, b.X...)
	}
}

// TestSelectMissingColumnsError checks the error that a missing selected
// column wraps.
func TestSelectMissingColumnsError(t *testing.T) {
	_, err := Read(bytes.NewReader([]byte("a,label\n1,2\n")), "m.csv", Options{Target: "label", Select: []string{"b", "label", "a"}})
	var missing *MissingColumnsError
	if !errors.As(err, &missing) || !slices.Equal(missing.Missing, []string{"b", "label"}) || missing.Target != "label" {
		t.Fatalf("error %v (%#v), want a *MissingColumnsError of b and label, target label", err, missing)
	}
}

// TestSelectLarge reads a file of many rows with selected columns in chunks
// of every size class, compact and not, and checks that it equals the
// file's columns read whole and taken apart.
func TestSelectLarge(t *testing.T) {
	var b strings.Builder
	b.WriteString("u,a,target,v,b\n")
	for i := range 5000 {
		b.WriteString(strings.Join([]string{strconv.Itoa(i % 7), strconv.Itoa(i), strconv.Itoa(i % 2), "t" + strconv.Itoa(i), strconv.Itoa(-i)}, ",") + "\n")
	}
	in := b.String()
	full, err := Read(strings.NewReader(in), "all.csv", Options{Select: []string{"u", "a", "b"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{Select: []string{"b", "a"}}, {Select: []string{"b", "a"}, Compact: true}, {Select: []string{"b", "a"}, ChunkBytes: 333}} {
		d, err := Read(strings.NewReader(in), "sel.csv", opts)
		if err != nil {
			t.Fatal(err)
		}
		if d.Rows != 5000 || !slices.Equal(d.Skipped, []string{"u", "v"}) {
			t.Fatalf("%+v: %d rows, skipped %q", opts, d.Rows, d.Skipped)
		}
		for r := range d.Rows {
			if d.At(r, 0) != full.At(r, 2) || d.At(r, 1) != full.At(r, 1) || d.Y[r] != full.Y[r] {
				t.Fatalf("%+v: row %d: %v %v %v, want %v %v %v", opts, r+1, d.At(r, 0), d.At(r, 1), d.Y[r], full.At(r, 2), full.At(r, 1), full.Y[r])
			}
		}
	}
}
