package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// baseName is a file's name without directory and data extensions.
func baseName(path string) string {
	name := filepath.Base(path)
	for _, ext := range []string{".gz", ".tsv", ".csv", ".libsvm", ".svm", ".txt", ".json"} {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// reportScores prints one line of scores of m on d to stderr.
func (a *app) reportScores(m *ir.Model, path, target, label string, d *data.Dataset) error {
	s, err := evaluate(m, d, false)
	if err != nil {
		return err
	}
	line := fmt.Sprintf("%s (%s, %d rows):", label, filepath.Base(path), s.Rows)
	for _, f := range []struct {
		name string
		v    *float64
	}{{"accuracy", s.Accuracy}, {"auc", s.AUC}, {"log_loss", s.LogLoss}, {"mse", s.MSE}} {
		if f.v != nil {
			line += fmt.Sprintf(" %s %.4f", f.name, *f.v)
		}
	}
	fmt.Fprintln(a.stderr, line)
	return nil
}
