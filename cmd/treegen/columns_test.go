package main

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// TestColumnsByName: the feature columns of a CSV file are matched to the
// model's by name, wherever they are: swapped columns predict exactly as
// the ordered ones, an extra column is ignored with a note on stderr, a
// missing column is named, and --by-position keeps matching by position.
func TestColumnsByName(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(7, 8))
	type row struct{ age, sex, bmi, zip, target float64 }
	rows := make([]row, 300)
	for i := range rows {
		age, sex, bmi := float64(20+r.IntN(60)), float64(r.IntN(2)), 18+r.Float64()*20
		rows[i] = row{age, sex, bmi, float64(10000 + r.IntN(90000)), age/10 + 3*sex + (bmi-25)*(bmi-25)/10 + r.NormFloat64()}
	}
	// write writes the rows with the columns named, in their order, as
	// CSV or, for a name ending in .tsv, TSV.
	write := func(name string, cols ...string) string {
		sep := ","
		if strings.HasSuffix(name, ".tsv") {
			sep = "\t"
		}
		var b strings.Builder
		b.WriteString(strings.Join(cols, sep) + "\n")
		for _, x := range rows {
			for j, c := range cols {
				if j > 0 {
					b.WriteString(sep)
				}
				v := map[string]float64{"age": x.age, "sex": x.sex, "bmi": x.bmi, "zip": x.zip, "target": x.target}[c]
				fmt.Fprintf(&b, "%.4g", v)
			}
			b.WriteByte('\n')
		}
		return writeFile(t, dir, name, b.String())
	}
	ordered := write("ordered.csv", "age", "sex", "bmi", "target")
	model := filepath.Join(dir, "m.json")
	succeeds(t, "train", "gbdt", "--objective", "squarederror", "--trees", "20", "--data", ordered, "-o", model)
	want, stderr := succeeds(t, "predict", "--model", model, "--data", ordered)
	if stderr != "" {
		t.Errorf("ordered columns: stderr %q", stderr)
	}

	tests := []struct {
		name   string
		cols   []string
		args   []string
		note   string // the note expected on stderr, "" for none
		err    string // the error expected, "" for none
		differ bool   // the output differs from the ordered file's
	}{
		{name: "swapped.csv", cols: []string{"bmi", "target", "sex", "age"}},
		{name: "no-target.csv", cols: []string{"sex", "bmi", "age"}},
		{name: "extra.csv", cols: []string{"age", "zip", "sex", "bmi", "target"}, note: "ignored columns, which are not features of the model: zip"},
		{name: "extra-swapped.tsv", cols: []string{"zip", "bmi", "sex", "age"}, note: "ignored columns, which are not features of the model: zip"},
		{name: "missing.csv", cols: []string{"age", "bmi", "target"}, err: `no column "sex"; columns are: age, bmi, target (--by-position matches columns by position)`},
		{name: "target.csv", cols: []string{"age", "sex", "bmi"}, args: []string{"--target", "sex"}, err: `no column "sex"; columns are: age, sex, bmi; "sex" is the target column, which is never a feature: name the target column with --target, or match columns by position with --by-position`},
		{name: "by-position.csv", cols: []string{"sex", "age", "bmi"}, args: []string{"--by-position"}, differ: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write(tt.name, tt.cols...)
			args := append([]string{"predict", "--model", model, "--data", path}, tt.args...)
			if tt.err != "" {
				fails(t, tt.err, args...)
				return
			}
			got, stderr := succeeds(t, args...)
			wantNote := ""
			if tt.note != "" {
				wantNote = "note: " + path + ": " + tt.note + "\n"
			}
			if stderr != wantNote {
				t.Errorf("stderr %q, want %q", stderr, wantNote)
			}
			if (got != want) != tt.differ {
				t.Errorf("output differs from the ordered file's: %v, want %v\n%.200s\nwant\n%.200s", got != want, tt.differ, got, want)
			}
		})
	}
}
