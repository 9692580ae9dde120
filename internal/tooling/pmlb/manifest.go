// Package pmlb reads MANIFEST.tsv, the list of the PMLB data sets that
// treegen's tests, comparisons and benchmarks use (testdata/pmlb at the
// root of the repository).
package pmlb

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Dataset is one line of the manifest.
type Dataset struct {
	Name                    string
	Rows, Features, Classes int    // Classes is 0 for regression
	Task                    string // "classification" or "regression"
}

// ReadManifest reads the manifest at path: a tab-separated header naming
// at least the columns name, rows, features, classes and task, then one line
// per data set.
func ReadManifest(path string) ([]Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var sets []Dataset
	var col map[string]int
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), "\t")
		if col == nil {
			col = map[string]int{}
			for i, h := range fields {
				col[h] = i
			}
			for _, h := range []string{"name", "rows", "features", "classes", "task"} {
				if _, ok := col[h]; !ok {
					return nil, fmt.Errorf("%s:1: no column %q", path, h)
				}
			}
			continue
		}
		if len(fields) != len(col) {
			return nil, fmt.Errorf("%s:%d: %d fields, the header has %d", path, line, len(fields), len(col))
		}
		d := Dataset{Name: fields[col["name"]], Task: fields[col["task"]]}
		for _, c := range []struct {
			name string
			v    *int
		}{{"rows", &d.Rows}, {"features", &d.Features}, {"classes", &d.Classes}} {
			if *c.v, err = strconv.Atoi(fields[col[c.name]]); err != nil {
				return nil, fmt.Errorf("%s:%d: %s: %v", path, line, c.name, err)
			}
		}
		sets = append(sets, d)
	}
	return sets, sc.Err()
}

// ClassificationSets returns the names of the classification data sets of
// the manifest at path, in its order.
func ClassificationSets(path string) ([]string, error) {
	sets, err := ReadManifest(path)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, d := range sets {
		if d.Task == "classification" {
			names = append(names, d.Name)
		}
	}
	return names, nil
}
