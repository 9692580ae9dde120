package gbdt

import (
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
)

func TestParseMonotone(t *testing.T) {
	features := []string{"a", "b", "c"}
	tests := []struct {
		spec     string
		features []string
		want     []int
		err      string
	}{
		{"", features, nil, ""},
		{"a:+1,c:-1", features, []int{1, 0, -1}, ""},
		{" b : 1 ", features, []int{0, 1, 0}, ""},
		{"(1,0,-1)", features, []int{1, 0, -1}, ""},
		{"(1, +1)", nil, []int{1, 1}, ""},
		{"a:1,z:1", nil, []int{}, ""},
		{"a:2", features, nil, `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got "a:2"`},
		{"(1,up)", features, nil, `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got "(1,up)"`},
		{"(1,0", features, nil, `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got "(1,0"`},
		{"a", features, nil, `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got "a"`},
		{":1", features, nil, `--monotone must be "name:+1,name:-1,..." or "(1,0,-1,...)", got ":1"`},
		{"z:+1", features, nil, `--monotone names the feature "z", which the data lacks (its features: a, b, c)`},
	}
	for _, tc := range tests {
		got, err := ParseMonotone("--monotone", tc.spec, tc.features)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.spec, got, err, tc.want)
		}
	}
}

func TestFeatureIndices(t *testing.T) {
	features := []string{"a", "b", "c"}
	tests := []struct {
		spec string
		want []int
		err  string
	}{
		{"", nil, ""},
		{" ", nil, ""},
		{"c,a", []int{2, 0}, ""},
		{"b, c", []int{1, 2}, ""},
		{"a,z", nil, `--categorical names the feature "z", which the data lacks (its features: a, b, c)`},
	}
	for _, tc := range tests {
		got, err := FeatureIndices("--categorical", tc.spec, features)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%q: error %v, want %q", tc.spec, err, tc.err)
			}
			continue
		}
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.spec, got, err, tc.want)
		}
	}
}

func TestTakeWeights(t *testing.T) {
	read := func(text string) *data.Dataset {
		d, err := data.Read(strings.NewReader(text), "w.tsv", data.Options{Target: "target"})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	tests := []struct {
		name    string
		text    string
		weights []float64
		x       []float64
		err     string
	}{
		{"middle column", "a\tw\tb\ttarget\n1\t2\t3\t0\n4\t0.5\t6\t1\n", []float64{2, 0.5}, []float64{1, 3, 4, 6}, ""},
		{"no column", "a\tb\ttarget\n1\t2\t0\n", nil, nil, `w.tsv has no column "w" of weights`},
		{"negative", "a\tw\ttarget\n1\t1\t0\n2\t-1\t1\n", nil, nil, `w.tsv: row 2: the weight (column "w") is -1; weights must be finite numbers >= 0`},
		{"missing", "a\tw\ttarget\n1\tNA\t0\n", nil, nil, `w.tsv: row 1: the weight (column "w") is NaN; weights must be finite numbers >= 0`},
		{"all zero", "a\tw\ttarget\n1\t0\t0\n2\t0\t1\n", nil, nil, `w.tsv: the weights (column "w") are all 0`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := read(tc.text)
			d.Expand()
			w, rest, err := TakeWeights(d, "w")
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(w, tc.weights) || !slices.Equal(rest.X, tc.x) || rest.Cols != 2 || !slices.Equal(rest.Features, []string{"a", "b"}) || !slices.Equal(d.Features, []string{"a", "w", "b"}) {
				t.Errorf("weights %v, rows %v (%d cols, %v)", w, rest.X, rest.Cols, rest.Features)
			}
		})
	}
	if got := dropColumn([]float64(nil), 3, 1); got != nil {
		t.Errorf("dropColumn(nil) = %v", got)
	}
	if got := dropColumn([]float32{1, 2, 3, 4, 5, 6}, 3, 2); !slices.Equal(got, []float32{1, 2, 4, 5}) {
		t.Errorf("dropColumn = %v", got)
	}
}
