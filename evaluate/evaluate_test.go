package evaluate

import (
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

func model(task ir.Task, outputs int, classes []string) *ir.Model {
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: task, NumFeatures: 1, NumOutputs: outputs,
		ClassNames: classes, Aggregation: ir.Sum, Link: ir.Identity,
	}
	for k := range outputs {
		m.Trees = append(m.Trees, ir.Tree{Output: k, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 0, Threshold: float64(k) + 0.5, Left: 1, Right: 2},
			{Kind: ir.Leaf, Value: []float64{0}},
			{Kind: ir.Leaf, Value: []float64{1}},
		}})
	}
	switch task {
	case ir.Binary:
		m.Link = ir.Sigmoid
	case ir.Multiclass:
		m.Link = ir.Softmax
	}
	return m
}

func TestClassMapper(t *testing.T) {
	tests := []struct {
		name    string
		m       *ir.Model
		label   string
		y       float64
		text    bool
		want    int
		wantErr string
	}{
		{"by name", model(ir.Multiclass, 3, []string{"a", "b", "c"}), "c", 0, true, 2, ""},
		{"number by name", model(ir.Binary, 1, []string{"0", "1"}), "1", 1, false, 1, ""},
		{"unknown name", model(ir.Multiclass, 3, []string{"a", "b", "c"}), "d", 0, true, 0, "target d is not a class of the model (classes: [a b c])"},
		{"index", model(ir.Multiclass, 3, nil), "2", 2, false, 2, ""},
		{"binary index", model(ir.Binary, 1, nil), "1", 1, false, 1, ""},
		{"index too large", model(ir.Binary, 1, nil), "2", 2, false, 0, "target 2 is not a class index 0..1"},
		{"negative", model(ir.Multiclass, 3, nil), "-1", -1, false, 0, "target -1 is not a class index 0..2"},
		{"fraction", model(ir.Multiclass, 3, nil), "0.5", 0.5, false, 0, "target 0.5 is not a class index 0..2"},
		{"text without names", model(ir.Multiclass, 3, nil), "x", 0, true, 0, "target x is not a class index 0..2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ClassMapper(tc.m)(tc.label, tc.y, tc.text)
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %d, %v; want %d", got, err, tc.want)
			}
		})
	}
}

// TestDatasetAndStream: both score the same rows alike, and refuse what
// they cannot score, naming the file.
func TestDatasetAndStream(t *testing.T) {
	tests := []struct {
		name    string
		m       *ir.Model
		rows    string
		want    string // Scores.String(), or the error
		wantErr bool
	}{
		{"regression", model(ir.Regression, 1, nil), "x\ttarget\n0\t0\n1\t2\n2\t1\n", "rows      3\nmse       0.333333\n", false},
		{"binary", model(ir.Binary, 1, nil), "x\ttarget\n0\t0\n1\t1\n2\t0\n", "rows      3\naccuracy  0.666667\nauc       0.75\nlog_loss  0.773224\n", false},
		{"multiclass by name", model(ir.Multiclass, 2, []string{"lo", "hi"}), "x\ttarget\n0\tlo\n1\thi\n2\thi\n", "rows      3\naccuracy  0.333333\nauc       0.25\nlog_loss  0.899852\n", false},
		{"multi-output regression", model(ir.MultiOutput, 2, nil), "x\ttarget\n0\t0\n", "rows      1\n", false},
		{"unknown class", model(ir.Multiclass, 2, []string{"lo", "hi"}), "x\ttarget\n0\tlo\n1\tmid\n", "t.tsv: row 2: target mid is not a class of the model (classes: [lo hi])", true},
		{"columns", model(ir.Regression, 1, nil), "x\ty\ttarget\n0\t0\t1\n", "t.tsv has 2 feature columns, the model expects 1", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := data.Options{Target: "target", RequireTarget: true}
			d, err := data.Read(strings.NewReader(tc.rows), "t.tsv", o)
			if err != nil {
				t.Fatal(err)
			}
			s, err := data.OpenStream(strings.NewReader(tc.rows), "t.tsv", o)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			fromData, err1 := Dataset(tc.m, d, ir.Float64)
			fromStream, err2 := Stream(tc.m, s, ir.Float64)
			for i, got := range []struct {
				s   *Scores
				err error
			}{{fromData, err1}, {fromStream, err2}} {
				how := []string{"Dataset", "Stream"}[i]
				if tc.wantErr {
					if got.err == nil || got.err.Error() != tc.want {
						t.Errorf("%s: error %v, want %q", how, got.err, tc.want)
					}
					continue
				}
				if got.err != nil {
					t.Fatalf("%s: %v", how, got.err)
				}
				if got.s.String() != tc.want {
					t.Errorf("%s:\n%s\nwant\n%s", how, got.s, tc.want)
				}
			}
		})
	}
}

func TestNoTarget(t *testing.T) {
	d, err := data.Read(strings.NewReader("x\n1\n"), "t.tsv", data.Options{Target: "target"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Dataset(model(ir.Regression, 1, nil), d, ""); err == nil || err.Error() != "t.tsv has no target column to evaluate against" {
		t.Errorf("error %v", err)
	}
}
