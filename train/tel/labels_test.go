package tel

import (
	"slices"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/train/internal/labelled"
)

func TestTextLabels(t *testing.T) {
	yesNo := labelled.Read(t, "yesno.csv", labelled.CSV(40, labelled.YesNo(20)))
	iris := labelled.Read(t, "iris.csv", labelled.CSV(60, labelled.Species))
	tests := []struct {
		name  string
		d     *data.Dataset
		loss  Loss
		names []string
		err   string
	}{
		{"logistic", yesNo, Logistic, []string{"no", "yes"}, ""},
		{"softmax", iris, Softmax, []string{"setosa", "versicolor", "virginica"}, ""},
		{"squared error", yesNo, SquaredError, nil,
			`tel: the target column of the training set holds text labels ("no", "yes") and a regression needs numbers`},
		{"single class", iris.Subset([]int{0, 1}), Softmax, nil,
			"tel: the target has a single class (setosa) in all 2 rows: nothing to classify"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.d, nil, quick(tt.loss))
			if !labelled.Check(t, m, err, tt.err, tt.names) {
				return
			}
		})
	}
}

// TestTextLabelsValidation checks that a validation file read on its own,
// holding one of the three classes, is mapped onto the training classes
// by name.
func TestTextLabelsValidation(t *testing.T) {
	train := labelled.Read(t, "iris.csv", labelled.CSV(60, labelled.Species))
	valid := labelled.Read(t, "valid.csv", "x,target\n55,virginica\n45,virginica\n59,virginica\n")
	losses := func(valid *data.Dataset) []float64 {
		t.Helper()
		var loss []float64
		opts := quick(Softmax)
		opts.OnEpoch = func(ei EpochInfo) { loss = append(loss, ei.ValidLoss) }
		if _, err := Train(train, valid, opts); err != nil {
			t.Fatal(err)
		}
		return loss
	}
	got := losses(valid)
	relabelled := valid.Subset([]int{0, 1, 2})
	if err := relabelled.Relabel(train.Labels); err != nil {
		t.Fatal(err)
	}
	if want := losses(relabelled); !slices.Equal(got, want) {
		t.Errorf("validation losses %v, want those of the relabelled file %v", got, want)
	}
	wrong := valid.Subset([]int{0, 1, 2})
	wrong.Labels = train.Labels // Y is 0: setosa
	if bad := losses(wrong); slices.Equal(got, bad) {
		t.Errorf("validation losses %v are those of class setosa", got)
	}

	other := labelled.Read(t, "other.csv", "x,target\n1,setosa\n2,rose\n")
	_, err := Train(train, other, quick(Softmax))
	if want := "tel: validation row 1 (0-based) has class rose, which the training set lacks"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
	num := train.Subset([]int{0, 1, 2, 3})
	num.Labels = nil
	_, err = Train(num, valid, quick(SquaredError))
	if want := `tel: the target column of the validation set holds text labels ("virginica") and a regression needs numbers`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
