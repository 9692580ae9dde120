package data_test

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
)

func checkLabels(t *testing.T, got, want []string) {
	t.Helper()
	if (got == nil) != (want == nil) || !slices.Equal(got, want) {
		t.Errorf("Labels = %q, want %q", got, want)
	}
}

func TestReadLabels(t *testing.T) {
	tests := []struct {
		desc, name, in string
		opts           data.Options
		features       []string
		x              []float64
		labels         []string
		y              []float64
	}{
		{"M/B", "wdbc.csv", "radius,target\n17.9,M\n13.5,B\n20.5,M\n12.1,B\n", data.Options{},
			[]string{"radius"}, []float64{17.9, 13.5, 20.5, 12.1},
			[]string{"B", "M"}, []float64{1, 0, 1, 0}},
		{"species, 3 classes, not sorted", "iris.tsv",
			"petal\tspecies\n1.4\tsetosa\n4.7\tversicolor\n6.0\tvirginica\n1.3\tsetosa\n5.1\tvirginica\n",
			data.Options{Target: "species"},
			[]string{"petal"}, []float64{1.4, 4.7, 6.0, 1.3, 5.1},
			[]string{"setosa", "versicolor", "virginica"}, []float64{0, 1, 2, 0, 2}},
		{"species, first row last in order", "iris.csv",
			"species,petal\nvirginica,6.0\nsetosa,1.4\nversicolor,4.7\n",
			data.Options{Target: "species", RequireTarget: true},
			[]string{"petal"}, []float64{6.0, 1.4, 4.7},
			[]string{"setosa", "versicolor", "virginica"}, []float64{2, 0, 1}},
		{"byte order, trimmed", "x.tsv", "a\ttarget\n1\t yes \n2\tNo\n3\tno\n4\tyes\n", data.Options{},
			[]string{"a"}, []float64{1, 2, 3, 4},
			[]string{"No", "no", "yes"}, []float64{2, 0, 1, 2}},
		// Numbers in a column of text are labels, as written.
		{"mixed", "x.csv", "a,target\n1,2\n2,10\n3,other\n4,2.0\n5,2\n", data.Options{},
			[]string{"a"}, []float64{1, 2, 3, 4, 5},
			[]string{"10", "2", "2.0", "other"}, []float64{1, 0, 3, 2, 1}},
		{"out of range is a label", "x.csv", "a,target\n1,1e999\n2,big\n", data.Options{},
			[]string{"a"}, []float64{1, 2},
			[]string{"1e999", "big"}, []float64{0, 1}},
		{"quoted", "x.csv", "a,target\n1,\"a, b\"\n2,\"\"\"q\"\"\"\n", data.Options{},
			[]string{"a"}, []float64{1, 2},
			[]string{`"q"`, "a, b"}, []float64{1, 0}},
		{"gzip", "x.csv.gz", gzipped("a,target\n1,yes\n2,no\n"), data.Options{},
			[]string{"a"}, []float64{1, 2},
			[]string{"no", "yes"}, []float64{1, 0}},
		// Numeric targets are what they were: no Labels, the numbers in Y.
		{"numeric", "x.csv", "a,target\n1,2\n2,10\n3, -0 \n4,2.0\n", data.Options{},
			[]string{"a"}, []float64{1, 2, 3, 4},
			nil, []float64{2, 10, math.Copysign(0, -1), 2}},
		// Numbers are decimal: another notation is a label.
		{"hexadecimal is a label", "x.csv", "a,target\n1,0x1p-2\n2,1_000\n3,0.25\n", data.Options{},
			[]string{"a"}, []float64{1, 2, 3},
			[]string{"0.25", "0x1p-2", "1_000"}, []float64{1, 2, 0}},
		// A column of text that is not the target is still an error.
		{"text column not the target", "x.csv", "a,target\n1,yes\n", data.Options{Target: "a"},
			nil, nil, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			d, err := data.Read(strings.NewReader(tt.in), tt.name, tt.opts)
			if tt.features == nil {
				var e *data.Error
				if !errors.As(err, &e) || e.Msg != `cell "yes" in column "target" is not a number` || e.Line != 2 || e.Col != 2 {
					t.Fatalf("err = %v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, d, &data.Dataset{
				Source: tt.name, Features: tt.features, X: tt.x, Y: tt.y,
				Rows: len(tt.y), Cols: len(tt.features),
			})
			checkLabels(t, d.Labels, tt.labels)
			for r, v := range d.Y {
				if v == 0 && math.Signbit(v) != math.Signbit(tt.y[r]) {
					t.Errorf("Y[%d] = %v, want %v", r, v, tt.y[r])
				}
			}
		})
	}
}

func TestReadNumericTargetLimit(t *testing.T) {
	// Past 65536 distinct numbers the target is read as numbers.
	const n = 1<<16 + 1
	var b strings.Builder
	b.WriteString("target\n")
	for i := range n {
		fmt.Fprintf(&b, "%d.5\n", i)
	}
	d, err := data.Read(strings.NewReader(b.String()), "x.tsv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Labels != nil || len(d.Y) != n || d.Y[0] != 0.5 || d.Y[n-1] != float64(n-1)+0.5 {
		t.Errorf("Labels = %d labels, Y = %d values", len(d.Labels), len(d.Y))
	}
	b.WriteString("1e999\nM\n")
	_, err = data.Read(strings.NewReader(b.String()), "x.tsv", data.Options{})
	if want := fmt.Sprintf(`x.tsv:%d:1: cell "1e999" in column "target" is out of range`, n+2); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	in := strings.Replace(b.String(), "1e999\n", "", 1)
	_, err = data.Read(strings.NewReader(in), "x.tsv", data.Options{})
	if want := fmt.Sprintf(`x.tsv:%d:1: cell "M" in column "target" is not a number (its first 65536 distinct values are numbers, so it is read as numbers)`, n+2); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	// Text before the limit is reached makes labels of every cell.
	in = "target\nM\n" + strings.TrimPrefix(b.String(), "target\n")
	in = strings.Replace(in, "1e999\n", "", 1)
	d, err = data.Read(strings.NewReader(in), "x.tsv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Labels) != n+1 || d.Labels[0] != "0.5" || d.LabelName(d.Y[0]) != "M" {
		t.Errorf("%d labels, first %q, row 0 %q", len(d.Labels), d.Labels[0], d.LabelName(d.Y[0]))
	}
}

func TestReadDropTarget(t *testing.T) {
	tests := []struct {
		desc, name, in string
		opts           data.Options
		features       []string
		x              []float64
	}{
		{"text and empty cells", "x.tsv", "a\ttarget\tb\n1\tyes\t2\n3\t\t4\n5\tNA\t6\n7\t1e999\t8\n", data.Options{DropTarget: true},
			[]string{"a", "b"}, []float64{1, 2, 3, 4, 5, 6, 7, 8}},
		{"csv", "x.csv", "target,a\n\"x,y\",1\n,2\n", data.Options{DropTarget: true},
			[]string{"a"}, []float64{1, 2}},
		{"named target", "x.csv", "label,a\nM,1\n,2\n", data.Options{Target: "label", DropTarget: true},
			[]string{"a"}, []float64{1, 2}},
		{"no target column", "x.csv", "a,b\n1,2\n", data.Options{DropTarget: true},
			[]string{"a", "b"}, []float64{1, 2}},
		{"libsvm", "x.libsvm", "yes 1:1 3:2\n  2:5\n? 2:4\n", data.Options{DropTarget: true},
			[]string{"f1", "f2", "f3"}, []float64{1, 0, 2, 0, 5, 0, 0, 4, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			d, err := data.Read(strings.NewReader(tt.in), tt.name, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkDataset(t, d, &data.Dataset{
				Source: tt.name, Features: tt.features, X: tt.x,
				Rows: len(tt.x) / len(tt.features), Cols: len(tt.features),
			})
			if d.HasTarget() || d.Labels != nil {
				t.Errorf("Y = %v, Labels = %q", d.Y, d.Labels)
			}
		})
	}
}

func TestLabelName(t *testing.T) {
	text := &data.Dataset{Labels: []string{"no", "yes"}}
	num := &data.Dataset{}
	tests := []struct {
		d    *data.Dataset
		y    float64
		want string
	}{
		{text, 0, "no"},
		{text, 1, "yes"},
		{text, 2, "2"},     // not an index of Labels
		{text, 0.5, "0.5"}, // nor this
		{text, -1, "-1"},
		{num, 0, "0"},
		{num, math.Copysign(0, -1), "0"},
		{num, 1, "1"},
		{num, -2.5, "-2.5"},
		{num, 1e21, "1e+21"},
		{num, 0.1, "0.1"},
		{num, math.NaN(), "NaN"},
	}
	for _, tt := range tests {
		if got := tt.d.LabelName(tt.y); got != tt.want {
			t.Errorf("LabelName(%v) with Labels %q = %q, want %q", tt.y, tt.d.Labels, got, tt.want)
		}
	}
}

func TestRelabel(t *testing.T) {
	many := make([]string, 12)
	for i := range many {
		many[i] = fmt.Sprintf("c%02d", i)
	}
	tests := []struct {
		desc   string
		d      *data.Dataset
		labels []string
		want   []float64
		err    string
	}{
		{"text onto a superset", &data.Dataset{Source: "test.csv", Y: []float64{0, 1, 1}, Labels: []string{"B", "M"}},
			[]string{"A", "B", "M"}, []float64{1, 2, 2}, ""},
		{"text onto another order", &data.Dataset{Y: []float64{0, 1, 0}, Labels: []string{"no", "yes"}},
			[]string{"yes", "no"}, []float64{1, 0, 1}, ""},
		{"numbers", &data.Dataset{Y: []float64{1, 0, math.Copysign(0, -1), 2.5}},
			[]string{"0", "1", "2.5"}, []float64{1, 0, 0, 2}, ""},
		{"empty", &data.Dataset{Y: []float64{}}, nil, []float64{}, ""},
		{"unknown text", &data.Dataset{Source: "test.csv", Y: []float64{0, 1, 2}, Labels: []string{"a", "b", "c"}},
			[]string{"a", "b"}, nil, `test.csv: row 3 has label "c", which is not one of the 2 known labels: "a", "b"`},
		{"unknown number", &data.Dataset{Y: []float64{0, 3}},
			[]string{"0", "1"}, nil, `row 2 has label "3", which is not one of the 2 known labels: "0", "1"`},
		{"many labels", &data.Dataset{Source: "t.tsv", Y: []float64{0}, Labels: []string{"zz"}},
			many, nil, `t.tsv: row 1 has label "zz", which is not one of the 12 known labels: "c00", "c01", "c02", "c03", "c04", "c05", "c06", "c07", "c08", "c09", ... (12 labels)`},
		{"no labels", &data.Dataset{Y: []float64{0}},
			nil, nil, `row 1 has label "0", which is not one of the 0 known labels: (none)`},
		{"duplicate", &data.Dataset{Source: "t.tsv", Y: []float64{0}},
			[]string{"0", "1", "0"}, nil, `t.tsv: cannot relabel: label "0" is given twice (1 and 3)`},
		{"no target", &data.Dataset{Source: "t.tsv"},
			[]string{"0"}, nil, `t.tsv: cannot relabel: no target column`},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			y0, l0 := slices.Clone(tt.d.Y), slices.Clone(tt.d.Labels)
			err := tt.d.Relabel(tt.labels)
			if tt.err != "" {
				var e *data.Error
				if err == nil || err.Error() != tt.err || !errors.As(err, &e) {
					t.Fatalf("err = %v, want %s", err, tt.err)
				}
				if !sameFloats(tt.d.Y, y0) || !slices.Equal(tt.d.Labels, l0) {
					t.Errorf("a failed Relabel changed the data set")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !sameFloats(tt.d.Y, tt.want) {
				t.Errorf("Y = %v, want %v", tt.d.Y, tt.want)
			}
			if !slices.Equal(tt.d.Labels, tt.labels) || tt.d.Labels == nil {
				t.Errorf("Labels = %q, want %q", tt.d.Labels, tt.labels)
			}
		})
	}
}

func TestRelabelFiles(t *testing.T) {
	// A test file with classes in another order and one class missing maps
	// onto the training file's classes by name.
	train, err := data.Read(strings.NewReader("a,target\n1,setosa\n2,versicolor\n3,virginica\n"), "train.csv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	test, err := data.Read(strings.NewReader("a,target\n1,virginica\n2,setosa\n3,virginica\n"), "test.csv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkLabels(t, test.Labels, []string{"setosa", "virginica"})
	if err := test.Relabel(train.Labels); err != nil {
		t.Fatal(err)
	}
	checkLabels(t, test.Labels, train.Labels)
	if !sameFloats(test.Y, []float64{2, 0, 2}) {
		t.Errorf("Y = %v", test.Y)
	}
	other, err := data.Read(strings.NewReader("a,target\n1,setosa\n2,rose\n"), "other.csv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `other.csv: row 2 has label "rose", which is not one of the 3 known labels: "setosa", "versicolor", "virginica"`
	if err := other.Relabel(train.Labels); err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}

func TestReadLibSVMOptions(t *testing.T) {
	const in = "1 1:0.5 3:2\n0 2:-1\n1\n"
	const zero = "1 0:0.5 2:2\n0 1:-1 # the 0 makes the file 0-based\n1\n"
	tests := []struct {
		desc, in string
		opts     data.Options
		features []string
		x        []float64
	}{
		{"absent zero", in, data.Options{},
			[]string{"f1", "f2", "f3"}, []float64{0.5, 0, 2, 0, -1, 0, 0, 0, 0}},
		{"absent missing", in, data.Options{Absent: data.AbsentMissing},
			[]string{"f1", "f2", "f3"}, []float64{0.5, nan, 2, nan, -1, nan, nan, nan, nan}},
		{"absent missing, explicit zero and missing", "1 1:0 2:NA\n", data.Options{Absent: data.AbsentMissing, NumFeatures: 3},
			[]string{"f1", "f2", "f3"}, []float64{0, nan, nan}},
		{"auto, 1-based", in, data.Options{IndexBase: data.IndexAuto},
			[]string{"f1", "f2", "f3"}, []float64{0.5, 0, 2, 0, -1, 0, 0, 0, 0}},
		{"auto, index 0", zero, data.Options{},
			[]string{"f0", "f1", "f2"}, []float64{0.5, 0, 2, 0, -1, 0, 0, 0, 0}},
		{"auto, index 0 on a later line", "1 1:1 2:2\n0 0:3\n", data.Options{},
			[]string{"f0", "f1", "f2"}, []float64{0, 1, 2, 3, 0, 0}},
		{"forced zero", in, data.Options{IndexBase: data.IndexZero},
			[]string{"f0", "f1", "f2", "f3"}, []float64{0, 0.5, 0, 2, 0, 0, -1, 0, 0, 0, 0, 0}},
		{"forced one", in, data.Options{IndexBase: data.IndexOne},
			[]string{"f1", "f2", "f3"}, []float64{0.5, 0, 2, 0, -1, 0, 0, 0, 0}},
		{"zero, NumFeatures", zero, data.Options{NumFeatures: 4},
			[]string{"f0", "f1", "f2", "f3"}, []float64{0.5, 0, 2, 0, 0, -1, 0, 0, 0, 0, 0, 0}},
		{"zero, absent missing", zero, data.Options{Absent: data.AbsentMissing},
			[]string{"f0", "f1", "f2"}, []float64{0.5, nan, 2, nan, -1, nan, nan, nan, nan}},
		{"forced zero, no features", "1\n2\n", data.Options{IndexBase: data.IndexZero},
			[]string{}, []float64{}},
		{"top index, 1-based", "1 1048576:1\n", data.Options{},
			nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			d, err := data.Read(strings.NewReader(tt.in), "x.libsvm", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if tt.features == nil { // only the shape
				if d.Cols != 1<<20 || d.Features[d.Cols-1] != "f1048576" || d.X[d.Cols-1] != 1 {
					t.Errorf("Cols = %d", d.Cols)
				}
				return
			}
			rows := len(d.Y)
			checkDataset(t, d, &data.Dataset{
				Source: "x.libsvm", Features: tt.features, X: tt.x, Y: d.Y,
				Rows: rows, Cols: len(tt.features),
			})
			if d.Format != data.FormatLibSVM || d.Labels != nil {
				t.Errorf("Format = %v, Labels = %q", d.Format, d.Labels)
			}
		})
	}
}

func TestAbsentIndexBaseValues(t *testing.T) {
	absents := []struct {
		name string
		a    data.Absent
	}{{"zero", data.AbsentZero}, {"missing", data.AbsentMissing}}
	for _, tt := range absents {
		a, err := data.ParseAbsent(tt.name)
		if err != nil || a != tt.a || a.String() != tt.name {
			t.Errorf("ParseAbsent(%q) = %v, %v", tt.name, a, err)
		}
		var f data.Absent = 7
		if err := f.Set(tt.name); err != nil || f != tt.a {
			t.Errorf("Set(%q): %v, %v", tt.name, f, err)
		}
	}
	bases := []struct {
		name string
		b    data.IndexBase
	}{{"auto", data.IndexAuto}, {"1", data.IndexOne}, {"0", data.IndexZero}}
	for _, tt := range bases {
		b, err := data.ParseIndexBase(tt.name)
		if err != nil || b != tt.b || b.String() != tt.name {
			t.Errorf("ParseIndexBase(%q) = %v, %v", tt.name, b, err)
		}
		var f data.IndexBase = 7
		if err := f.Set(tt.name); err != nil || f != tt.b {
			t.Errorf("Set(%q): %v, %v", tt.name, f, err)
		}
	}
	var a data.Absent
	var b data.IndexBase
	errs := []struct {
		err  error
		want string
	}{
		{func() error { _, err := data.ParseAbsent("Zero"); return err }(), `unknown absent value meaning "Zero" (want zero or missing)`},
		{a.Set("nan"), `unknown absent value meaning "nan" (want zero or missing)`},
		{func() error { _, err := data.ParseIndexBase("one"); return err }(), `unknown index base "one" (want auto, 1 or 0)`},
		{b.Set("2"), `unknown index base "2" (want auto, 1 or 0)`},
	}
	for _, tt := range errs {
		if tt.err == nil || tt.err.Error() != tt.want {
			t.Errorf("err = %v, want %s", tt.err, tt.want)
		}
	}
	if a != data.AbsentZero || b != data.IndexAuto {
		t.Errorf("a failed Set changed the value: %v, %v", a, b)
	}
	for v, want := range map[fmt.Stringer]string{
		data.Absent(5): "Absent(5)", data.IndexBase(5): "IndexBase(5)",
	} {
		if v.String() != want {
			t.Errorf("String() = %q, want %q", v.String(), want)
		}
	}
	if a.Type() != "absent" || b.Type() != "base" {
		t.Errorf("Type() = %q, %q", a.Type(), b.Type())
	}
}

func TestReadFormatRecorded(t *testing.T) {
	tests := []struct {
		name, in string
		opts     data.Options
		want     data.Format
	}{
		{"x.tsv", "a\ttarget\n1\tyes\n", data.Options{}, data.FormatTSV},
		{"x.csv", "a,target\n1,yes\n", data.Options{}, data.FormatCSV},
		{"x.libsvm", "1 1:2\n", data.Options{}, data.FormatLibSVM},
		{"x.txt", "1 1:2\n", data.Options{}, data.FormatLibSVM},
		{"x.txt", "a,target\n1,2\n", data.Options{}, data.FormatCSV},
		{"x", "a\n1\n", data.Options{}, data.FormatTSV},
		{"x.tsv", "a,target\n1,2\n", data.Options{Format: data.FormatCSV}, data.FormatCSV},
		{"x.csv.gz", gzipped("a,target\n1,yes\n"), data.Options{}, data.FormatCSV},
		{"x.gz", gzipped("1 0:2\n"), data.Options{}, data.FormatLibSVM},
	}
	for _, tt := range tests {
		d, err := data.Read(strings.NewReader(tt.in), tt.name, tt.opts)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if d.Format != tt.want {
			t.Errorf("%s: Format = %v, want %v", tt.name, d.Format, tt.want)
		}
	}
	if d, err := data.ReadFile("testdata/small.tsv.gz", data.Options{}); err != nil || d.Format != data.FormatTSV {
		t.Errorf("small.tsv.gz: %v", err)
	}
}

func TestSubsetLabels(t *testing.T) {
	d, err := data.Read(strings.NewReader("a,target\n1,yes\n2,no\n3,yes\n"), "x.csv", data.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := d.Subset([]int{2, 1})
	checkLabels(t, s.Labels, []string{"no", "yes"})
	if s.Format != data.FormatCSV || !sameFloats(s.Y, []float64{1, 0}) {
		t.Errorf("Format = %v, Y = %v", s.Format, s.Y)
	}
	s.Labels[0] = "changed"
	if d.Labels[0] != "no" {
		t.Errorf("Subset shares Labels with its source")
	}
}

func TestFingerprintLabels(t *testing.T) {
	read := func(in string) *data.Dataset {
		t.Helper()
		d, err := data.Read(strings.NewReader(in), "x.csv", data.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// A numeric target hashes X then Y, as it always has.
	num := read("a,target\n1,0\n2,1\n")
	h := sha256.New()
	for _, v := range []float64{1, 2, 0, 1} {
		h.Write(binary.LittleEndian.AppendUint64(nil, math.Float64bits(v)))
	}
	if got, want := num.Fingerprint()["sha256"], hex.EncodeToString(h.Sum(nil)); got != want {
		t.Errorf("numeric fingerprint %s, want %s", got, want)
	}
	// Text labels enter the hash: the same X and Y under other names differ.
	yes := read("a,target\n1,no\n2,yes\n")
	neg := read("a,target\n1,neg\n2,pos\n")
	fps := map[string]bool{}
	for _, d := range []*data.Dataset{num, yes, neg} {
		fps[d.Fingerprint()["sha256"]] = true
	}
	if len(fps) != 3 {
		t.Errorf("%d distinct fingerprints of 3 data sets", len(fps))
	}
	if yes.Fingerprint()["sha256"] != read("a,target\n1,no\n2,yes\n").Fingerprint()["sha256"] {
		t.Errorf("the fingerprint of text labels is not deterministic")
	}
}
