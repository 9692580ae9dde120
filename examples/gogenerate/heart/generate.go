// The rest of this package is generated from ../model.json, a decision tree
// trained by treegen on the Cleveland heart disease data: retrain or edit
// the model and run go generate.

package heart

//go:generate go tool treegen gen --model ../model.json --package heart --out . --omit-version
