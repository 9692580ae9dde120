package gbdt

import (
	"path/filepath"
	"testing"

	"github.com/treegen/treegen/data"
)

// datasetDir holds the shared PMLB data sets (see its README.md).
const datasetDir = "../../../shared/datasets"

func readDataset(tb testing.TB, name string) *data.Dataset {
	tb.Helper()
	d, err := data.ReadFile(filepath.Join(datasetDir, name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
