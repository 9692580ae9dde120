package verify

import (
	"math"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

func TestDeviationSentence(t *testing.T) {
	tests := []struct {
		dev        Deviation
		n          int
		classifier bool
		want       string
	}{
		{Deviation{}, 1, false, "On the 1 row of d.tsv, predictions equal the interpreter's."},
		{Deviation{MaxDiff: 0.0021}, 303, true, "On the 303 rows of d.tsv, predictions are at most 0.0021 from the interpreter's; no predicted class differs."},
		{Deviation{MaxDiff: 0.00213, Classes: 2}, 303, true, "On the 303 rows of d.tsv, predictions are at most 0.0022 from the interpreter's; 2 predicted classes differ."},
		{Deviation{MaxDiff: 0.5, NaNRows: 1, Classes: 1}, 9, true, "On the 9 rows of d.tsv, predictions are at most 0.5 from the interpreter's, except on 1 row where one of them is NaN and the other is not; 1 predicted class differs."},
		{Deviation{MaxDiff: 99.01}, 9, false, "On the 9 rows of d.tsv, predictions are at most 100 from the interpreter's."},
		{Deviation{MaxDiff: 1.234e-12}, 9, false, "On the 9 rows of d.tsv, predictions are at most 1.3e-12 from the interpreter's."},
	}
	for _, tc := range tests {
		if got := tc.dev.Sentence(tc.n, "d.tsv", tc.classifier); got != tc.want {
			t.Errorf("%+v:\n got  %q\n want %q", tc.dev, got, tc.want)
		}
	}
}

func TestUpperBound(t *testing.T) {
	tests := []struct {
		v    float64
		want string
	}{
		{0, "0"}, {0.0021, "0.0021"}, {0.00213, "0.0022"}, {99.01, "100"}, {1.234e-12, "1.3e-12"},
		{0.5, "0.5"}, {math.Inf(1), "+Inf"}, {123456, "130000"},
	}
	for _, tc := range tests {
		got := UpperBound(tc.v)
		if got != tc.want {
			t.Errorf("UpperBound(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// stump returns a model whose first output is 1 when x[0] >= 0.5 (and
// leaf values a and b), of the given task and outputs.
func stump(task ir.Task, outputs int, a, b float64) *ir.Model {
	m := &ir.Model{FormatVersion: ir.FormatVersion, Task: task, NumFeatures: 1, NumOutputs: outputs, Aggregation: ir.Sum, Link: ir.Identity}
	if task == ir.Multiclass {
		m.Link = ir.Softmax
	}
	for k := range outputs {
		m.Trees = append(m.Trees, ir.Tree{Output: k, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 0, Threshold: 0.5, Left: 1, Right: 2},
			{Kind: ir.Leaf, Value: []float64{a * float64(k+1)}},
			{Kind: ir.Leaf, Value: []float64{b / float64(k+1)}},
		}})
	}
	return m
}

func TestMeasure(t *testing.T) {
	rows := [][]float64{{0}, {1}, {math.NaN()}}
	tests := []struct {
		name      string
		want, got *ir.Model
		prec      ir.Precision
		dev       Deviation
		err       string
	}{
		{"equal", stump(ir.Regression, 1, 0, 1), stump(ir.Regression, 1, 0, 1), ir.Float64, Deviation{}, ""},
		{"leaf moved", stump(ir.Regression, 1, 0, 1), stump(ir.Regression, 1, 0.25, 1), ir.Float32, Deviation{MaxDiff: 0.25}, ""},
		{"classes", stump(ir.Multiclass, 2, 0, 1), stump(ir.Multiclass, 2, 0, -1), ir.Float64, Deviation{MaxDiff: 0.24491866240370913, Classes: 2}, ""},
		{"shapes", stump(ir.Regression, 1, 0, 1), stump(ir.MultiOutput, 2, 0, 1), ir.Float64, Deviation{}, "the models differ in shape: 1 features and 1 outputs, and 1 and 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dev, err := Measure(tc.want, tc.got, rows, tc.prec)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || dev != tc.dev {
				t.Fatalf("got %+v, %v; want %+v", dev, err, tc.dev)
			}
		})
	}
}

func TestParseExpected(t *testing.T) {
	binary, multi := stump(ir.Binary, 1, 0, 1), stump(ir.Multiclass, 3, 0, 1)
	tests := []struct {
		name    string
		m       *ir.Model
		file    string
		header  bool
		classes bool
		rows    [][]float64
		err     string
	}{
		{"treegen predict", binary, "p_1,class\n0.25,0\n0.75,1\n", true, false, [][]float64{{0.25}, {0.75}}, ""},
		{"no header", binary, "0.25\n0.75\n", false, false, [][]float64{{0.25}, {0.75}}, ""},
		{"NaN first", binary, "NaN\n0.75\n", false, false, [][]float64{{math.NaN()}, {0.75}}, ""},
		{"class ids", multi, "0\n2\n", false, true, [][]float64{{0}, {2}}, ""},
		{"probabilities", multi, "0.2,0.3,0.5\n", false, false, [][]float64{{0.2, 0.3, 0.5}}, ""},
		{"class id too large", multi, "0\n3\n", false, false, nil, `e.csv:2:1: "3" is not a class id 0..2 (a file of one column holds the class of each row)`},
		{"short row", multi, "p_0,p_1,p_2\n0.2,0.3,0.5\n0.2,0.8\n", false, false, nil, "e.csv:3: 2 columns, want at least 3"},
		{"not a number", binary, "p_1\n0.5\nx\n", false, false, nil, `e.csv:3:1: "x" is not a number`},
		{"empty", binary, "", false, false, nil, "e.csv: empty file"},
		{"bad quote", binary, "p_1\n\"0.5\n", false, false, nil, "e.csv:2:6: extraneous or missing \" in quoted-field"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ParseExpected(strings.NewReader(tc.file), "e.csv", tc.m)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if e.Header != tc.header || e.Classes != tc.classes || len(e.Rows) != len(tc.rows) {
				t.Fatalf("header %v, classes %v, %d rows", e.Header, e.Classes, len(e.Rows))
			}
			for i, row := range tc.rows {
				for j, v := range row {
					if got := e.Rows[i][j]; got != v && !(math.IsNaN(got) && math.IsNaN(v)) {
						t.Errorf("row %d column %d: %v, want %v", i, j, got, v)
					}
				}
			}
		})
	}
}

func TestCompare(t *testing.T) {
	binary, multi := stump(ir.Binary, 1, 0, 1), stump(ir.Multiclass, 3, 0, 1)
	third := 1.0 / 3
	tests := []struct {
		name    string
		m       *ir.Model
		file    string
		preds   [][]float64
		classes []int
		prec    ir.Precision
		err     string // "" when equal
	}{
		{"equal", binary, "p_1,class\n0.25,0\n0.75,1\n", [][]float64{{0.25}, {0.75}}, []int{0, 1}, ir.Float64, ""},
		{"fewer rows checked", binary, "0.25\n0.75\n", [][]float64{{0.25}}, []int{0}, ir.Float64, ""},
		{"float32 package, float64 file", binary, "0.3333333333333333\n", [][]float64{{float64(float32(third))}}, []int{0}, ir.Float32, ""},
		{"differs", binary, "0.25\n0.75\n", [][]float64{{0.25}, {0.5}}, []int{0, 1}, ir.Float64,
			"pkg differs from e.csv: row 1: prediction[0] = 0.5 (generated), 0.75 (e.csv)"},
		{"float32 file", binary, "0.333333343\n", [][]float64{{third}}, []int{0}, ir.Float64,
			"pkg differs from e.csv: row 0: prediction[0] = 0.3333333333333333 (generated), 0.333333343 (e.csv); the package is float64 and the expected values look float32: regenerate it with --precision float32"},
		{"float64 file", binary, "0.33333334333333333\n", [][]float64{{float64(math.Nextafter32(float32(third), 1))}}, []int{0}, ir.Float32,
			"pkg differs from e.csv: row 0: prediction[0] = 0.3333333730697632 (generated), 0.3333333432674408 (e.csv); the package is float32 and the expected values look float64: regenerate it with --precision float64"},
		{"far apart: no hint", binary, "0.333333343\n", [][]float64{{0.5}}, []int{0}, ir.Float64,
			"pkg differs from e.csv: row 0: prediction[0] = 0.5 (generated), 0.333333343 (e.csv)"},
		{"classes", multi, "0\n2\n1\n", make([][]float64, 3), []int{0, 1, 1}, ir.Float64,
			"pkg differs from e.csv: row 1: class = 1 (generated), 2 (e.csv)"},
		{"too few rows", binary, "0.25\n", [][]float64{{0.25}, {0.5}}, []int{0, 1}, ir.Float64, "e.csv has 1 rows, the data 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := ParseExpected(strings.NewReader(tc.file), "e.csv", tc.m)
			if err != nil {
				t.Fatal(err)
			}
			err = e.Compare("pkg", tc.preds, tc.classes, tc.prec)
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err != "" && (err == nil || err.Error() != tc.err):
				t.Fatalf("error %v\nwant  %s", err, tc.err)
			}
		})
	}
}

func TestULPs32(t *testing.T) {
	one := float64(math.Nextafter32(1, 2))
	tests := []struct {
		a, b float64
		want uint32
	}{
		{1, 1, 0}, {1, one, 1}, {one, 1, 1}, {0, math.Copysign(0, -1), 0},
		{float64(math.SmallestNonzeroFloat32), -float64(math.SmallestNonzeroFloat32), 2},
		{math.NaN(), math.NaN(), 0}, {math.NaN(), 1, math.MaxUint32},
		{1, 1 + 1e-12, 0},
	}
	for _, tc := range tests {
		if got := ulps32(tc.a, tc.b); got != tc.want {
			t.Errorf("ulps32(%v, %v) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestMismatch(t *testing.T) {
	var diffs []Diff
	for i := range 5 {
		diffs = append(diffs, Diff{Row: i, What: "class", Got: 1, Want: 0})
	}
	tests := []struct {
		n    int
		want string
	}{
		{1, "x: row 0: class = 1 (generated), 0 (interpreter)"},
		{3, "x: row 0: class = 1 (generated), 0 (interpreter); row 1: class = 1 (generated), 0 (interpreter); row 2: class = 1 (generated), 0 (interpreter)"},
		{5, "x: row 0: class = 1 (generated), 0 (interpreter); row 1: class = 1 (generated), 0 (interpreter); row 2: class = 1 (generated), 0 (interpreter); and 2 more"},
	}
	for _, tc := range tests {
		if got := Mismatch("x", diffs[:tc.n]).Error(); got != tc.want {
			t.Errorf("%d diffs: %q\nwant %q", tc.n, got, tc.want)
		}
	}
}
