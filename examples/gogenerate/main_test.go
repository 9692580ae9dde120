package main

import (
	"math"
	"testing"

	"example.com/gogenerate/heart"
)

func TestPredict(t *testing.T) {
	patient := [heart.NumFeatures]float64{63, 1, 3, 145, 233, 1, 0, 150, 0, 2.3, 0, 0, 1}
	p := heart.Predict(&patient)[0]
	if !(p >= 0 && p <= 1) {
		t.Fatalf("probability %v out of [0, 1]", p)
	}
	if got, err := heart.PredictSlice(patient[:]); err != nil || got[0] != p {
		t.Fatalf("PredictSlice = %v, %v; want %v", got, err, p)
	}
	// A missing value follows the default direction instead of failing.
	patient[0] = math.NaN()
	if q := heart.Predict(&patient)[0]; math.IsNaN(q) {
		t.Fatal("NaN input gave a NaN prediction")
	}
	if n := testing.AllocsPerRun(100, func() { heart.Predict(&patient) }); n != 0 {
		t.Fatalf("Predict allocates %v times", n)
	}
}
