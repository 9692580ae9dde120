// Command gogenerate shows a model compiled into a program with go generate:
// it prints the predicted probability of heart disease for one patient.
package main

import (
	"fmt"

	"example.com/gogenerate/heart"
)

func main() {
	// age, sex, cp, trestbps, chol, fbs, restecg, thalach, exang, oldpeak, slope, ca, thal
	patient := [heart.NumFeatures]float64{63, 1, 3, 145, 233, 1, 0, 150, 0, 2.3, 0, 0, 1}
	p := heart.Predict(&patient)
	fmt.Printf("P(%s) = %.3f, predicted class %s\n", heart.ClassNames[1], p[0], heart.ClassNames[heart.PredictClass(&patient)])
}
