package main

import (
	"encoding/json"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/treegen/treegen/examples/service/heart"
)

// TestPredict starts the service and checks its answers against the
// generated package called directly: the first patient of heart_c.tsv.gz,
// the same patient with features left out or null (missing values), and
// requests the service must refuse.
func TestPredict(t *testing.T) {
	srv := httptest.NewServer(routes())
	defer srv.Close()
	nan := math.NaN()
	patient := [heart.NumFeatures]float64{63, 1, 3, 145, 233, 1, 0, 150, 0, 2.3, 0, 0, 1}
	partial := [heart.NumFeatures]float64{63, 1, 3, nan, nan, nan, nan, nan, nan, nan, nan, nan, 1}
	tests := []struct {
		name, method, body string
		want               *[heart.NumFeatures]float64 // the row the answer must be the prediction of
		status             int
		error              string // part of the refusal's message
	}{
		{"all features", "POST", `{"age": 63, "sex": 1, "cp": 3, "trestbps": 145, "chol": 233, "fbs": 1, "restecg": 0,
			"thalach": 150, "exang": 0, "oldpeak": 2.3, "slope": 0, "ca": 0, "thal": 1}`, &patient, 200, ""},
		{"missing features", "POST", `{"age": 63, "sex": 1, "cp": 3, "thal": 1}`, &partial, 200, ""},
		{"null is missing", "POST", `{"age": 63, "sex": 1, "cp": 3, "thal": 1, "chol": null}`, &partial, 200, ""},
		{"unknown features", "POST", `{"age": 63, "weight": 80, "height": 1.8}`, nil, 400, "unknown features: height, weight"},
		{"not a number", "POST", `{"age": "old"}`, nil, 400, "request body: "},
		{"not JSON", "POST", `age=63`, nil, 400, "request body: "},
		{"too large", "POST", `{"age": 6` + strings.Repeat("0", 1<<20) + `}`, nil, 400, "request body: "},
		{"GET", "GET", ``, nil, 405, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, err := http.NewRequest(tc.method, srv.URL+"/predict", strings.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d (%s), want %d", resp.StatusCode, body, tc.status)
			}
			if !strings.Contains(string(body), tc.error) {
				t.Errorf("answer %q does not say %q", body, tc.error)
			}
			if tc.want == nil {
				return
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q, want application/json", ct)
			}
			var got struct {
				Class       string  `json:"class"`
				Probability float64 `json:"probability"`
			}
			if err := json.Unmarshal(body, &got); err != nil {
				t.Fatalf("answer %q: %v", body, err)
			}
			p := heart.Predict(tc.want)[0]
			class := heart.ClassNames[heart.PredictClass(tc.want)]
			if got.Probability != p || got.Class != class {
				t.Errorf("answer class %q, probability %v; the package predicts %q, %v", got.Class, got.Probability, class, p)
			}
			if !(p > 0 && p < 1) {
				t.Errorf("probability %v out of (0, 1)", p)
			}
		})
	}
}
