package gbdt

import (
	"math"
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
		opts  Options
		names []string
		err   string
	}{
		{"logistic", yesNo, Options{Objective: Logistic, Rounds: 3}, []string{"no", "yes"}, ""},
		{"softmax, two classes", yesNo, Options{Objective: Softmax, Rounds: 3}, []string{"no", "yes"}, ""},
		{"softmax", iris, Options{Objective: Softmax, Rounds: 3}, []string{"setosa", "versicolor", "virginica"}, ""},
		{"squared error", yesNo, Options{Objective: SquaredError, Rounds: 3}, nil,
			`gbdt: the target column of the training set holds text labels ("no", "yes") and a regression needs numbers`},
		{"squared error, three labels", iris, Options{Objective: SquaredError, Rounds: 3}, nil,
			`gbdt: the target column of the training set holds text labels ("setosa", "versicolor", "virginica") and a regression needs numbers`},
		{"single class", iris.Subset([]int{0, 1}), Options{Objective: Softmax}, nil,
			"gbdt: the target has a single class (setosa) in all 2 rows: nothing to classify"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := Train(tt.d, nil, tt.opts)
			if !labelled.Check(t, m, err, tt.err, tt.names) {
				return
			}
		})
	}
}

// TestTextLabelsValidation checks that a validation file read on its own,
// holding one of the three classes (so that its own Labels are
// ["virginica"] and its Y all 0), is mapped onto the training classes by
// name.
func TestTextLabelsValidation(t *testing.T) {
	train := labelled.Read(t, "iris.csv", labelled.CSV(60, labelled.Species))
	valid := labelled.Read(t, "valid.csv", "x,target\n55,virginica\n45,virginica\n59,virginica\n")
	if !slices.Equal(valid.Labels, []string{"virginica"}) {
		t.Fatalf("valid.Labels = %q", valid.Labels)
	}
	losses := func(valid *data.Dataset) []float64 {
		t.Helper()
		var loss []float64
		opts := Options{Objective: Softmax, Rounds: 5, OnRound: func(ri RoundInfo) { loss = append(loss, ri.ValidLoss) }}
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
	if !slices.Equal(relabelled.Y, []float64{2, 2, 2}) {
		t.Fatalf("relabelled Y = %v", relabelled.Y)
	}
	if want := losses(relabelled); !slices.Equal(got, want) {
		t.Errorf("validation losses %v, want those of the relabelled file %v", got, want)
	}
	// Class 2 is learnt, so the loss falls below that of the base score.
	if last := got[len(got)-1]; !(last < math.Log(3)) {
		t.Errorf("validation loss %v, want it below log 3: the rows map to the wrong class", last)
	}

	other := labelled.Read(t, "other.csv", "x,target\n1,setosa\n2,rose\n")
	_, err := Train(train, other, Options{Objective: Softmax, Rounds: 1})
	if want := "gbdt: validation row 1 (0-based) has class rose, which the training set lacks"; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}

	// A regression refuses a validation set of text labels too.
	num := train.Subset([]int{0, 1, 2, 3})
	num.Labels = nil
	_, err = Train(num, valid, Options{Objective: SquaredError, Rounds: 1})
	if want := `gbdt: the target column of the validation set holds text labels ("virginica") and a regression needs numbers`; err == nil || err.Error() != want {
		t.Errorf("err = %v, want %s", err, want)
	}
}
