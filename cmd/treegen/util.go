package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/evaluate"
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
	if !d.HasTarget() {
		return fmt.Errorf("%s has no target column to evaluate against", d.Source)
	}
	if err := matchFeatures(m, d, false); err != nil {
		return err
	}
	s, err := evaluate.Dataset(m, d, m.RecordedPrecision())
	if err != nil {
		return err
	}
	fmt.Fprintf(a.stderr, "%s (%s, %d rows):%s\n", label, filepath.Base(path), s.Rows, s.Line())
	return nil
}

// firstRows returns the first limit rows of d (all of them for limit 0 or
// more than d has).
func firstRows(d *data.Dataset, limit int) [][]float64 {
	n := d.Rows
	if limit > 0 && limit < n {
		n = limit
	}
	x := make([][]float64, n)
	for i := range x {
		x[i] = d.Row(i)
	}
	return x
}
