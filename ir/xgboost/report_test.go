package xgboost_test

import (
	"fmt"
	"log"
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/xgboost"
)

func TestRoundsLeftOut(t *testing.T) {
	for _, tc := range []struct {
		name string
		prov *ir.Provenance
		want string
	}{
		{"no provenance", nil, ""},
		{"no best iteration", &ir.Provenance{Params: map[string]string{"num_trees": "5"}}, ""},
		{"all kept", &ir.Provenance{Params: map[string]string{"best_iteration": "13", "rounds_saved": "14", "rounds_kept": "14"}}, ""},
		{"some left out", &ir.Provenance{Params: map[string]string{"best_iteration": "9", "rounds_saved": "14", "rounds_kept": "10"}},
			"kept the first 10 of 14 rounds: the file records best_iteration 9, which XGBoost's scikit-learn predict uses (--all-rounds keeps them all)"},
	} {
		if got := xgboost.RoundsLeftOut(&ir.Model{Provenance: tc.prov}); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func ExampleRoundsLeftOut() {
	const file = "testdata/models/connect4_parallel2_early_stop/model.json"
	for _, all := range []bool{false, true} {
		m, err := xgboost.LoadWith(file, xgboost.Options{AllRounds: all})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("AllRounds %v: %q\n", all, xgboost.RoundsLeftOut(m))
	}
	// Output:
	// AllRounds false: "kept the first 10 of 14 rounds: the file records best_iteration 9, which XGBoost's scikit-learn predict uses (--all-rounds keeps them all)"
	// AllRounds true: ""
}
