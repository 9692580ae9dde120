package main

import (
	"encoding/json"
	"maps"
	"math"
	"net/http"
	"slices"
	"strings"

	"github.com/treegen/treegen/examples/service/heart"
)

// routes returns the service: POST /predict.
func routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /predict", predict)
	return mux
}

// predict reads a patient as a JSON object of feature values by name,
// {"age": 63, "sex": 1, ...}; a feature left out, or null, is a missing
// value and follows the branch the trainer chose for it. It answers with
// the predicted class and the probability of class "1" (heart disease).
func predict(w http.ResponseWriter, r *http.Request) {
	var in map[string]*float64
	if err := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20)).Decode(&in); err != nil {
		http.Error(w, "request body: "+err.Error(), http.StatusBadRequest)
		return
	}
	var x [heart.NumFeatures]float64
	for i, name := range heart.FeatureNames {
		x[i] = math.NaN()
		if v := in[name]; v != nil {
			x[i] = *v
		}
		delete(in, name)
	}
	if len(in) > 0 {
		unknown := slices.Sorted(maps.Keys(in))
		http.Error(w, "unknown features: "+strings.Join(unknown, ", "), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(struct {
		Class       string  `json:"class"`
		Probability float64 `json:"probability"`
	}{heart.ClassNames[heart.PredictClass(&x)], heart.Predict(&x)[0]})
}
