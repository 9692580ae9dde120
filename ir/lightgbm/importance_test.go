package lightgbm

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir/importance"
)

// TestImportanceLightGBM checks the split statistics of the import: every
// LightGBM split has them once, on one IR node, although Zero-missing
// splits take up to three nodes and copy subtrees. Package importance's
// weight equals the split count of the file's split_feature arrays and its
// feature_importances section (LightGBM's feature_importance("split")),
// total_gain the sum of split_gain (feature_importance("gain")),
// total_cover the sum of internal_weight.
func TestImportanceLightGBM(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txt")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := Decode(data, file)
		if err != nil {
			t.Fatal(err)
		}
		if !m.HasStats() || m.FormatVersion != "1.3" {
			t.Errorf("%s: no split statistics (format %s)", file, m.FormatVersion)
		}
		// The reference, read from the file's text.
		weight := map[int]int{}
		gain, cover := map[int]float64{}, map[int]float64{}
		var features []int
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			k, v, _ := strings.Cut(line, "=")
			switch {
			case k == "split_feature":
				features = features[:0]
				for _, s := range strings.Fields(v) {
					f, _ := strconv.Atoi(s)
					features = append(features, f)
					weight[f]++
				}
			case k == "split_gain" || k == "internal_weight":
				for i, s := range strings.Fields(v) {
					x, _ := strconv.ParseFloat(s, 64)
					if k == "split_gain" {
						gain[features[i]] += x
					} else {
						cover[features[i]] += x
					}
				}
			}
		}
		r := importance.Compute(m)
		if !r.Stats || r.WithoutStats == 0 && strings.Contains(file, "zero") {
			t.Errorf("%s: Stats %v, %d splits without statistics (the copies)", file, r.Stats, r.WithoutStats)
		}
		if len(r.Features) != len(weight) {
			t.Errorf("%s: %d features, want %d", file, len(r.Features), len(weight))
		}
		for _, f := range r.Features {
			if f.Weight != weight[f.Index] || math.Abs(f.TotalGain-gain[f.Index]) > 1e-12*gain[f.Index] ||
				math.Abs(f.TotalCover-cover[f.Index]) > 1e-12*cover[f.Index] {
				t.Errorf("%s: feature %d: weight %d, total gain %v, total cover %v; want %d, %v, %v",
					file, f.Index, f.Weight, f.TotalGain, f.TotalCover, weight[f.Index], gain[f.Index], cover[f.Index])
			}
		}
	}
}
