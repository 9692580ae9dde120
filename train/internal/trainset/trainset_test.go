package trainset

import (
	"math"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

func TestCheck(t *testing.T) {
	good := func() *data.Dataset {
		return &data.Dataset{Features: []string{"a", "b"}, X: []float64{1, 2, 3, 4}, Y: []float64{0, 1}, Rows: 2, Cols: 2}
	}
	mod := func(f func(d *data.Dataset)) *data.Dataset { d := good(); f(d); return d }
	tests := []struct {
		name string
		d    *data.Dataset
		want string
	}{
		{"good", good(), ""},
		{"nil", nil, "no training set"},
		{"no rows", mod(func(d *data.Dataset) { d.Rows, d.X, d.Y = 0, nil, nil }), "the training set has no rows"},
		{"no target", mod(func(d *data.Dataset) { d.Y = nil }), "the training set has no target column"},
		{"ragged", mod(func(d *data.Dataset) { d.X = d.X[:3] }), "malformed training set: 3 values for 2 rows of 2 features"},
		{"NaN target", mod(func(d *data.Dataset) { d.Y[1] = math.NaN() }), "the target of training row 1 (0-based) is missing (NaN)"},
		{"Inf target", mod(func(d *data.Dataset) { d.Y[0] = math.Inf(-1) }), "the target of training row 0 (0-based) is infinite (-Inf)"},
		{"labels", mod(func(d *data.Dataset) { d.Labels = []string{"no", "yes"} }), ""},
		{"label index too large", mod(func(d *data.Dataset) { d.Labels = []string{"no"} }),
			"malformed training set: the target of row 1 (0-based) is 1, not the index of one of its 1 labels"},
		{"label index fractional", mod(func(d *data.Dataset) { d.Labels = []string{"a", "b"}; d.Y[0] = 0.5 }),
			"malformed training set: the target of row 0 (0-based) is 0.5, not the index of one of its 2 labels"},
		{"label twice", mod(func(d *data.Dataset) { d.Labels = []string{"a", "a"} }),
			`malformed training set: label "a" is listed twice`},
	}
	for _, tc := range tests {
		err := Check(tc.d, "training")
		if (err == nil) != (tc.want == "") || (err != nil && err.Error() != tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	compact := mod(func(d *data.Dataset) { d.X, d.XC = nil, []uint32{1, 2, 3, 4} })
	if err := Check(compact, "training"); err == nil || err.Error() != "the training set is compact (data.Options.Compact), which this trainer does not read: expand it with Dataset.Expand" {
		t.Errorf("Check of a compact set: %v", err)
	}
	if err := CheckCompact(compact, "training"); err != nil {
		t.Errorf("CheckCompact of a compact set: %v", err)
	}
	both := mod(func(d *data.Dataset) { d.XC = []uint32{1, 2, 3, 4} })
	if err := CheckCompact(both, "training"); err == nil || err.Error() != "malformed training set: 4 values for 2 rows of 2 features" {
		t.Errorf("CheckCompact of a set with X and XC: %v", err)
	}
	other := good()
	other.Features = []string{"a", "c"}
	if err := CheckValid(good(), other); err == nil || err.Error() != `feature 1 is "c" in the validation set, "b" in the training set` {
		t.Errorf("CheckValid: %v", err)
	}
}

func TestCheckRegression(t *testing.T) {
	tests := []struct {
		labels []string
		want   string
	}{
		{nil, ""},
		{[]string{"B", "M"}, `the target column of the training set holds text labels ("B", "M") and a regression needs numbers`},
		{[]string{"a", "b", "c"}, `the target column of the training set holds text labels ("a", "b", "c") and a regression needs numbers`},
		{[]string{"a", "b", "c", "d"}, `the target column of the training set holds text labels ("a", "b", "c", ...) and a regression needs numbers`},
	}
	for _, tc := range tests {
		err := CheckRegression(&data.Dataset{Labels: tc.labels}, "training")
		if (err == nil) != (tc.want == "") || (err != nil && err.Error() != tc.want) {
			t.Errorf("%q: error %v, want %q", tc.labels, err, tc.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		task   ir.Task
		k      int
		d      *data.Dataset
		labels []float64
		link   ir.Link
		names  []string
	}{
		{ir.Regression, 1, &data.Dataset{}, nil, ir.Identity, nil},
		{ir.Binary, 1, &data.Dataset{}, []float64{-1, 1}, ir.Sigmoid, []string{"-1", "1"}},
		{ir.Binary, 1, &data.Dataset{Labels: []string{"no", "yes"}}, []float64{0, 1}, ir.Sigmoid, []string{"no", "yes"}},
		{ir.Multiclass, 3, &data.Dataset{}, []float64{0, 0.5, 1e21}, ir.Softmax, []string{"0", "0.5", "1e+21"}},
		{ir.Multiclass, 2, &data.Dataset{Labels: []string{"a", "b", "c"}}, []float64{0, 2}, ir.Softmax, []string{"a", "c"}},
	}
	for _, tc := range tests {
		var m ir.Model
		var names []string
		if tc.labels != nil {
			names = ClassNames(tc.d, tc.labels)
		}
		Describe(&m, tc.k, names)
		if m.Task != tc.task || m.Link != tc.link || m.NumOutputs != tc.k || len(m.ClassNames) != len(tc.names) {
			t.Fatalf("%s: %+v", tc.task, m)
		}
		for i := range tc.names {
			if m.ClassNames[i] != tc.names[i] {
				t.Errorf("%s: class %d named %q, want %q", tc.task, i, m.ClassNames[i], tc.names[i])
			}
		}
	}
}
