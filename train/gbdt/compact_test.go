package gbdt

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// TestCompactData trains on data sets read with and without
// data.Options.Compact and checks that the models are byte for byte the
// same, with a compact validation set too.
func TestCompactData(t *testing.T) {
	for _, tt := range []struct {
		name string
		opts Options
	}{
		{"car_evaluation", Options{Objective: Softmax, Rounds: 5, MaxDepth: 4, EarlyStopping: 2}},
		{"car_evaluation", Options{Objective: Softmax, Rounds: 5, Categorical: []int{0, 1}, MaxCatToOnehot: 2}},
		{"glass", Options{Objective: Softmax, Rounds: 5, EarlyStopping: 2}},
		{"537_houses", Options{Objective: SquaredError, Rounds: 5, ColSampleByNode: 0.5}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var models [2][]byte
			compact := false
			for i := range models {
				d, err := data.ReadFile(filepath.Join(datasetDir, tt.name+".tsv.gz"), data.Options{RequireTarget: true, Compact: i == 1})
				if err != nil {
					t.Fatal(err)
				}
				if i == 1 {
					compact = d.IsCompact()
				}
				train, valid := d.Subset(evens(d.Rows, 0)), d.Subset(evens(d.Rows, 1))
				opts := tt.opts
				if opts.EarlyStopping == 0 {
					valid = nil
				}
				m, err := Train(train, valid, opts)
				if err != nil {
					t.Fatal(err)
				}
				if models[i], err = ir.Marshal(m); err != nil {
					t.Fatal(err)
				}
			}
			if !bytes.Equal(models[0], models[1]) {
				t.Errorf("compact (IsCompact %v) and float64 data give different models", compact)
			}
			t.Logf("compact: %v", compact)
		})
	}
}

// evens returns the rows of n whose index has the parity odd.
func evens(n, odd int) []int {
	var rows []int
	for r := odd; r < n; r += 2 {
		rows = append(rows, r)
	}
	return rows
}
