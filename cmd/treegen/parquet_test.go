package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/data/parquet"
)

// TestParquetRoundTrip trains a model on a Parquet file and another on
// the same rows in CSV, predicts with each on its own format (to Parquet
// and to CSV), reads the predictions back, and checks that they are the
// same, bit for bit, in both precisions.
func TestParquetRoundTrip(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(3, 4))
	const rows = 3000
	var csv strings.Builder
	csv.WriteString("a,b,c,target\n")
	nums := make([]float64, 0, 3*rows)
	texts := make([]string, 0, rows)
	for range rows {
		a, b, c := r.NormFloat64(), math.Round(r.Float64()*1000)/10, float64(r.IntN(5))
		label := []string{"low", "mid", "high"}[r.IntN(3)]
		if a+b/50 > 1 {
			label = "high"
		}
		b2 := strconvG(b)
		if r.IntN(20) == 0 {
			b, b2 = math.NaN(), "" // a missing value: null is not written, NaN is
		}
		fmt.Fprintf(&csv, "%s,%s,%s,%s\n", strconvG(a), b2, strconvG(c), label)
		nums = append(nums, a, b, c)
		texts = append(texts, label)
	}
	csvPath := filepath.Join(dir, "rows.csv")
	if err := os.WriteFile(csvPath, []byte(csv.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pqPath := filepath.Join(dir, "rows.parquet")
	f, err := os.Create(pqPath)
	if err != nil {
		t.Fatal(err)
	}
	pw, err := parquet.NewWriter(f, []parquet.Column{{Name: "a"}, {Name: "b"}, {Name: "c"}, {Name: "target", Kind: parquet.String}})
	if err == nil {
		err = pw.WriteRows(rows, nums, texts)
	}
	if err == nil {
		err = pw.Close()
	}
	if err != nil || f.Close() != nil {
		t.Fatal(err)
	}
	for _, prec := range []string{"float64", "float32"} {
		var preds [2]*data.Dataset
		for i, in := range []string{csvPath, pqPath} {
			model := filepath.Join(dir, fmt.Sprintf("m%d.json", i))
			if code, _, stderr := treegen(t, "train", "gbdt", "--objective", "softmax", "--trees", "8", "--data", in, "-o", model); code != 0 {
				t.Fatal(stderr)
			}
			out := filepath.Join(dir, fmt.Sprintf("p%d.csv", i))
			if i == 1 {
				out = filepath.Join(dir, "p.parquet")
			}
			if code, _, stderr := treegen(t, "predict", "--model", model, "--data", in, "--precision", prec, "-o", out); code != 0 {
				t.Fatal(stderr)
			}
			d, err := data.ReadFile(out, data.Options{Target: "class", RequireTarget: true})
			if err != nil {
				t.Fatal(err)
			}
			preds[i] = d
		}
		c, p := preds[0], preds[1]
		if strings.Join(c.Features, ",") != "p_high,p_low,p_mid" || strings.Join(p.Features, ",") != strings.Join(c.Features, ",") {
			t.Fatalf("%s: columns %q and %q", prec, c.Features, p.Features)
		}
		if c.Rows != rows || p.Rows != rows {
			t.Fatalf("%s: %d and %d rows, want %d", prec, c.Rows, p.Rows, rows)
		}
		for i := range c.X {
			same := math.Float64bits(c.X[i]) == math.Float64bits(p.X[i])
			if prec == "float32" {
				// The CSV holds the shortest decimal of each float32, the
				// Parquet file the float32 itself.
				same = math.Float32bits(float32(c.X[i])) == math.Float32bits(float32(p.X[i])) && float64(float32(p.X[i])) == p.X[i]
			}
			if !same {
				t.Fatalf("%s: value %d is %v from CSV, %v from Parquet", prec, i, c.X[i], p.X[i])
			}
		}
		for r := range rows {
			if c.LabelName(c.Y[r]) != p.LabelName(p.Y[r]) {
				t.Fatalf("%s: row %d: class %s from CSV, %s from Parquet", prec, r+1, c.LabelName(c.Y[r]), p.LabelName(p.Y[r]))
			}
		}
	}
}

func strconvG(v float64) string { return fmt.Sprint(v) }
