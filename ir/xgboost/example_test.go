package xgboost_test

import (
	"fmt"
	"log"
	"math"

	"github.com/treegen/treegen/ir/xgboost"
	"github.com/treegen/treegen/runtime"
)

// Import a model saved by XGBoost's save_model("tiny.json") and predict with
// it in float32, XGBoost's precision: the margins are XGBoost's, bit for bit.
func Example() {
	m, err := xgboost.Load("testdata/tiny.json")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Task, m.Link, m.FeatureNames, len(m.Trees), "trees")
	p, err := runtime.New[float32](m)
	if err != nil {
		log.Fatal(err)
	}
	nan := float32(math.NaN())
	margin := make([]float32, 1)
	for _, row := range [][]float32{{25, 40000}, {40, 60000}, {60, nan}, {nan, 1000}} {
		if err := p.PredictMargin(row, margin); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%v: margin %.9g\n", row, margin[0])
	}
	// Output:
	// binary sigmoid [age income] 2 trees
	// [25 40000]: margin -0.300000012
	// [40 60000]: margin 0.5
	// [60 NaN]: margin 0.200000018
	// [NaN 1000]: margin -0.300000012
}

// A model trained with early stopping keeps, by default, the rounds up to
// its best iteration, as XGBoost's scikit-learn interface predicts;
// AllRounds keeps them all, as Booster.predict does.
func ExampleLoadWith() {
	const file = "testdata/models/connect4_parallel2_early_stop/model.json"
	best, err := xgboost.Load(file)
	if err != nil {
		log.Fatal(err)
	}
	all, err := xgboost.LoadWith(file, xgboost.Options{AllRounds: true})
	if err != nil {
		log.Fatal(err)
	}
	p := best.Provenance.Params
	fmt.Println("best_iteration", p["best_iteration"], "rounds_saved", p["rounds_saved"], "rounds_kept", p["rounds_kept"])
	fmt.Println(best.Rounds(), "rounds of", best.RoundSize(), "trees;", all.Rounds(), "rounds with AllRounds")
	// Output:
	// best_iteration 9 rounds_saved 14 rounds_kept 10
	// 10 rounds of 6 trees; 14 rounds with AllRounds
}
