package parquettable

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/predict"
)

func TestIsName(t *testing.T) {
	for name, want := range map[string]bool{
		"p.parquet": true, "dir/P.PARQUET": true, "p.csv": false, "parquet": false, "p.parquet.gz": false, "": false,
	} {
		if got := IsName(name); got != want {
			t.Errorf("IsName(%q) = %v, want %v", name, got, want)
		}
	}
}

// TestWrite writes predictions, margins and leaves of a golden model as
// Parquet and as CSV, reads both back and checks that they are the same:
// the columns, their numbers bit for bit (in the table's precision) and
// the classes.
func TestWrite(t *testing.T) {
	m, err := ir.Load("../../golden/cart_multiclass/model.json")
	if err != nil {
		t.Fatal(err)
	}
	const inputs = "../../golden/cart_multiclass/inputs.csv"
	for _, tc := range []struct {
		name  string
		table func() (*predict.Table, error)
	}{
		{"outputs", func() (*predict.Table, error) { return predict.Outputs(m, false, ir.Float64) }},
		{"outputs float32", func() (*predict.Table, error) { return predict.Outputs(m, false, ir.Float32) }},
		{"margins", func() (*predict.Table, error) { return predict.Outputs(m, true, ir.Float64) }},
		{"leaves", func() (*predict.Table, error) { return predict.Leaves(m, ir.Float64) }},
	} {
		dir := t.TempDir()
		var got [2]*data.Dataset
		bits := 64
		for i, name := range []string{"p.csv", "p.parquet"} {
			tab, err := tc.table()
			if err != nil {
				t.Fatal(err)
			}
			bits = tab.Bits
			s, err := data.OpenFileStream(inputs, data.Options{NumFeatures: m.NumFeatures, Select: m.FeatureNames, Names: m.FeatureNames})
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if IsName(name) {
				err = Write(&b, tab, s)
			} else {
				err = tab.WriteCSV(&b, s)
			}
			s.Close()
			if err != nil {
				t.Fatalf("%s: %s: %v", tc.name, name, err)
			}
			path := filepath.Join(dir, name)
			if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			o := data.Options{}
			if tab.Classes != nil {
				o = data.Options{Target: "class", RequireTarget: true}
			}
			if got[i], err = data.ReadFile(path, o); err != nil {
				t.Fatalf("%s: reading %s back: %v", tc.name, name, err)
			}
		}
		c, p := got[0], got[1]
		if !slices.Equal(c.Features, p.Features) || c.Rows != p.Rows || c.Rows == 0 {
			t.Fatalf("%s: CSV has %d rows of %q, Parquet %d of %q", tc.name, c.Rows, c.Features, p.Rows, p.Features)
		}
		for r := 0; r < c.Rows; r++ {
			for f := range c.Features {
				a, b := c.At(r, f), p.At(r, f)
				same := math.Float64bits(a) == math.Float64bits(b)
				if bits == 32 {
					// The CSV holds the shortest decimal of each float32,
					// the Parquet file the float32 itself.
					same = math.Float32bits(float32(a)) == math.Float32bits(float32(b)) && float64(float32(b)) == b
				}
				if !same {
					t.Fatalf("%s: row %d column %s: %v from CSV, %v from Parquet", tc.name, r+1, c.Features[f], a, b)
				}
			}
			if c.HasTarget() && c.LabelName(c.Y[r]) != p.LabelName(p.Y[r]) {
				t.Fatalf("%s: row %d: class %s from CSV, %s from Parquet", tc.name, r+1, c.LabelName(c.Y[r]), p.LabelName(p.Y[r]))
			}
		}
	}
}
