package tel

import (
	"path/filepath"
	"testing"

	"github.com/treegen/treegen/data"
)

// readTestdata reads testdata/NAME.tsv.gz, a PMLB data set copied from the
// shared collection.
func readTestdata(tb testing.TB, name string) *data.Dataset {
	tb.Helper()
	d, err := data.ReadFile(filepath.Join("testdata", name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		tb.Fatal(err)
	}
	return d
}
