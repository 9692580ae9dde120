// Package heart is generated from ../model.json, gradient-boosted trees that
// treegen trained on the Cleveland heart disease data (the command is in
// ../main.go's documentation): retrain or replace the model and run
// go generate.
package heart

//go:generate go run github.com/treegen/treegen/cmd/treegen gen --model ../model.json --package heart --out . --omit-version
