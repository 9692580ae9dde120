package cart

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/train/internal/labelled"
)

// yesNo is a CSV file whose target is "yes" when x >= 10, else "no"; the
// first row is a "yes", so that the order of the rows is not the order of
// the labels.
func yesNo() string {
	var b strings.Builder
	b.WriteString("x,z,target\n")
	for i := range 20 {
		x := (i + 10) % 20
		label := "no"
		if x >= 10 {
			label = "yes"
		}
		fmt.Fprintf(&b, "%d,%d,%s\n", x, i%3, label)
	}
	return b.String()
}

func TestTextLabels(t *testing.T) {
	d := labelled.Read(t, "yesno.csv", yesNo())
	tests := []struct {
		name  string
		opts  Options
		names []string
		err   string
	}{
		{"gini", Options{}, []string{"no", "yes"}, ""},
		{"entropy", Options{Criterion: Entropy}, []string{"no", "yes"}, ""},
		{"mse", Options{Criterion: MSE}, nil,
			`cart: the target column of the training set holds text labels ("no", "yes") and a regression needs numbers`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(d, tt.opts)
			if !labelled.Check(t, m, err, tt.err, tt.names) {
				return
			}
			for r := range d.Rows {
				if got := predictClass(m, d.Row(r)); float64(got) != d.Y[r] {
					t.Errorf("row %d: class %d, want %v (%s)", r, got, d.Y[r], d.LabelName(d.Y[r]))
				}
			}
		})
	}
}

func TestTextLabelsMulticlass(t *testing.T) {
	d := labelled.Read(t, "iris.csv", "petal,target\n6,virginica\n1,setosa\n4,versicolor\n1.5,setosa\n5.8,virginica\n4.2,versicolor\n")
	m, err := Train(d, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"setosa", "versicolor", "virginica"}; !slices.Equal(m.ClassNames, want) {
		t.Errorf("ClassNames = %q, want %q", m.ClassNames, want)
	}
	one := d.Subset([]int{0, 4})
	_, err = Train(one, Options{})
	if want := "cart: the target has a single class (virginica) in all 2 rows: nothing to classify"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	bad := d.Subset([]int{0, 1})
	bad.Labels = bad.Labels[:2]
	_, err = Train(bad, Options{})
	if want := "cart: malformed training set: the target of row 0 (0-based) is 2, not the index of one of its 2 labels"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
