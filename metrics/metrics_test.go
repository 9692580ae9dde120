package metrics

import (
	"fmt"
	"math"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestAUC(t *testing.T) {
	tests := []struct {
		name   string
		pos    []bool
		scores []float64
		want   float64
	}{
		{"perfect", []bool{false, false, true, true}, []float64{0.1, 0.2, 0.8, 0.9}, 1},
		{"inverted", []bool{true, true, false, false}, []float64{0.1, 0.2, 0.8, 0.9}, 0},
		{"all tied", []bool{true, false, true, false}, []float64{0.5, 0.5, 0.5, 0.5}, 0.5},
		// sklearn.metrics.roc_auc_score([0,0,1,1],[0.1,0.4,0.35,0.8]) = 0.75
		{"sklearn example", []bool{false, false, true, true}, []float64{0.1, 0.4, 0.35, 0.8}, 0.75},
		{"one tie across classes", []bool{false, true, true}, []float64{0.3, 0.3, 0.9}, 0.75},
		{"one class", []bool{true, true}, []float64{0.1, 0.2}, math.NaN()},
	}
	for _, tc := range tests {
		got := AUC(tc.pos, tc.scores)
		if !(near(got, tc.want) || math.IsNaN(got) && math.IsNaN(tc.want)) {
			t.Errorf("%s: AUC = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestMacroAUCAndLogLoss(t *testing.T) {
	truth := []int{0, 1, 2, 2}
	probs := []float64{
		0.8, 0.1, 0.1,
		0.2, 0.7, 0.1,
		0.1, 0.2, 0.7,
		0.3, 0.3, 0.4,
	}
	if got := MacroAUC(truth, probs, 3); !near(got, 1) {
		t.Errorf("MacroAUC = %v, want 1", got)
	}
	want := -(math.Log(0.8) + math.Log(0.7) + math.Log(0.7) + math.Log(0.4)) / 4
	if got := LogLoss(truth, probs, 3); !near(got, want) {
		t.Errorf("LogLoss = %v, want %v", got, want)
	}
	if got := LogLoss([]int{0}, []float64{0, 1}, 2); !near(got, -math.Log(1e-15)) {
		t.Errorf("LogLoss of a certain mistake = %v, want clipped", got)
	}
}

func TestAccuracyMSE(t *testing.T) {
	if got := Accuracy([]int{1, 0, 1, 1}, []int{1, 1, 1, 0}); got != 0.5 {
		t.Errorf("Accuracy = %v", got)
	}
	if got := MSE([]float64{1, 2}, []float64{2, 4}); got != 2.5 {
		t.Errorf("MSE = %v", got)
	}
}

func ExampleAUC() {
	fmt.Println(AUC([]bool{false, false, true, true}, []float64{0.1, 0.4, 0.35, 0.8}))
	// Output: 0.75
}

func TestSoftmax(t *testing.T) {
	e := math.E
	tests := []struct {
		name string
		m    []float64
		want []float64
	}{
		{"two", []float64{0, 1}, []float64{1 / (1 + e), e / (1 + e)}},
		{"uniform", []float64{3, 3, 3, 3}, []float64{0.25, 0.25, 0.25, 0.25}},
		{"large margins do not overflow", []float64{1000, 1001}, []float64{1 / (1 + e), e / (1 + e)}},
		{"one", []float64{-7}, []float64{1}},
	}
	for _, tc := range tests {
		p := make([]float64, len(tc.m))
		Softmax(p, tc.m)
		inPlace := append([]float64(nil), tc.m...)
		Softmax(inPlace, inPlace)
		for c := range tc.want {
			if !near(p[c], tc.want[c]) || p[c] != inPlace[c] {
				t.Errorf("%s: Softmax = %v (in place %v), want %v", tc.name, p, inPlace, tc.want)
				break
			}
		}
	}
}

func ExampleSoftmax() {
	p := make([]float64, 3)
	Softmax(p, []float64{1, 2, 3})
	fmt.Printf("%.4f\n", p)
	// Output: [0.0900 0.2447 0.6652]
}
