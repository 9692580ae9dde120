package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withoutNames writes a copy of the model at path without feature names,
// as a model imported from XGBoost trained on a NumPy array is, and returns
// the copy's path.
func withoutNames(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["feature_names"]; !ok {
		t.Fatalf("%s has no feature names", path)
	}
	delete(m, "feature_names")
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "nonames.json")
	if err := os.WriteFile(out, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestHeaderlessRows: a TSV or CSV file whose first line is all numbers has
// no header line: every row is read, columns are matched by position, and
// what needs names says so.
func TestHeaderlessRows(t *testing.T) {
	named := trained(t) // features a and b
	nameless := withoutNames(t, named)
	dir := t.TempDir()
	rows := writeFile(t, dir, "rows.csv", "1,2\n3,4\n5,6\n")
	rowsTSV := writeFile(t, dir, "rows.tsv", "1\t2\n3\t4\n8\t1\n")
	withTarget := writeFile(t, dir, "labelled.csv", "1,2,0\n3,4,1\n5,6,0\n")
	targetFirst := writeFile(t, dir, "first.tsv", "0\t1\t5\n1\t3\t4\n0\t5\t6\n")
	header := writeFile(t, dir, "header.csv", "a,b\n1,2\n3,4\n5,6\n")
	libsvm := writeFile(t, dir, "rows.libsvm", "0 1:1 2:2\n1 1:3 2:4\n")
	// Features named by numbers, as PMLB names some: a header of them is
	// a header.
	numbered := filepath.Join(dir, "numbered.json")
	succeeds(t, "train", "cart", "--data", writeFile(t, dir, "numbered.tsv", "5\t3\ttarget\n1\t2\t0\n3\t4\t1\n"), "-o", numbered)
	numberedRows := writeFile(t, dir, "numbered.csv", "5,3\n1,2\n3,4\n")
	tests := []struct {
		desc  string
		args  []string
		lines int // lines of stdout, with the CSV header
	}{
		// The first row used to be taken for the header and lost.
		{"predict csv", []string{"predict", "--model", nameless, "--data", rows}, 4},
		{"predict tsv", []string{"predict", "--model", nameless, "--data", rowsTSV}, 4},
		{"predict --no-header", []string{"predict", "--model", nameless, "--data", rows, "--no-header"}, 4},
		{"predict --header", []string{"predict", "--model", nameless, "--data", rows, "--header"}, 3},
		{"named model, --no-header", []string{"predict", "--model", named, "--data", rows, "--no-header"}, 4},
		{"named model, --by-position", []string{"predict", "--model", named, "--data", rows, "--by-position"}, 4},
		{"named model, a header", []string{"predict", "--model", named, "--data", header}, 4},
		{"numbers that are the model's names", []string{"predict", "--model", numbered, "--data", numberedRows}, 3},
		{"target left out by position", []string{"predict", "--model", nameless, "--data", withTarget, "--target-column", "3"}, 4},
		{"target column with a header", []string{"predict", "--model", named, "--data", header, "--target-column", "1", "--by-position"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			code, out, stderr := treegen(t, tt.args...)
			if tt.lines == 0 {
				// --target-column 1 leaves one feature column: an error.
				if code == 0 || !strings.Contains(stderr, "has 1 feature columns, the model expects 2") {
					t.Fatalf("exit %d, stderr %q", code, stderr)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			if n := strings.Count(out, "\n"); n != tt.lines || stderr != "" {
				t.Errorf("%d lines, want %d; stderr %q\n%s", n, tt.lines, stderr, out)
			}
		})
	}

	// eval needs the target's position in a file without a header line.
	out, _ := succeeds(t, "eval", "--model", nameless, "--data", withTarget, "--target-column", "3", "--json")
	if !strings.Contains(out, `"rows": 3`) {
		t.Errorf("eval --target-column 3:\n%s", out)
	}
	out, _ = succeeds(t, "eval", "--model", named, "--data", targetFirst, "--target-column", "1", "--no-header", "--json")
	if !strings.Contains(out, `"rows": 3`) {
		t.Errorf("eval --target-column 1 --no-header:\n%s", out)
	}

	// bench reads every row too.
	out, _ = succeeds(t, "bench", "--model", nameless, "--data", rows, "--backends", "interp", "--time", "3ms", "--count", "1", "--json")
	if !strings.Contains(out, `"rows": 3`) {
		t.Errorf("bench:\n%s", out)
	}

	errs := []struct {
		desc, want string
		args       []string
	}{
		{"named model", rows + ` has no header line (every cell of line 1 is a number), but the model's features have names ("a", "b"): add a header line naming the columns, or match them by position with --no-header`,
			[]string{"predict", "--model", named, "--data", rows}},
		{"named model, bench", rows + " has no header line",
			[]string{"bench", "--model", named, "--data", rows, "--backends", "interp"}},
		{"eval without a target", withTarget + `:1: no header line (every cell of line 1 is a number), so no column is named "target": give its position with --target-column N`,
			[]string{"eval", "--model", nameless, "--data", withTarget}},
		{"a target column too many", withTarget + " has 3 feature columns, the model expects 2 (it has no header line, so no column is known as the target: --target-column N leaves column N out)",
			[]string{"predict", "--model", nameless, "--data", withTarget}},
		{"target column past the end", withTarget + ":1: target column 4 is past the last column: line 1 has 3",
			[]string{"predict", "--model", nameless, "--data", withTarget, "--target-column", "4"}},
		{"both header flags", "--header and --no-header exclude each other",
			[]string{"predict", "--model", nameless, "--data", rows, "--header", "--no-header"}},
		{"target and target column", "--target and --target-column exclude each other",
			[]string{"eval", "--model", nameless, "--data", withTarget, "--target", "y", "--target-column", "3"}},
		{"negative target column", "--target-column must be at least 1 (0: the column named by --target), got -2",
			[]string{"eval", "--model", nameless, "--data", withTarget, "--target-column", "-2"}},
		{"target column of LibSVM", libsvm + " is LibSVM, whose target is the label of each line: --target-column is for TSV and CSV files",
			[]string{"predict", "--model", nameless, "--data", libsvm, "--target-column", "1"}},
		// Training needs a header line: the target is named in it.
		{"train", withTarget + `:1:1: line 1 is a row of numbers, not column names: a header line naming the columns is needed, the target "target" among them`,
			[]string{"train", "cart", "--data", withTarget, "-o", filepath.Join(dir, "m.json")}},
		{"train tsv", targetFirst + `:1:1: line 1 is a row of numbers, not column names: a header line naming the columns is needed, the target "target" among them`,
			[]string{"train", "gbdt", "--objective", "logistic", "--data", targetFirst, "-o", filepath.Join(dir, "m.json")}},
	}
	for _, tt := range errs {
		t.Run(tt.desc, func(t *testing.T) {
			fails(t, tt.want, tt.args...)
		})
	}
}

// TestHeaderlessCheck: check runs every row of a file without a header
// line through the generated package.
func TestHeaderlessCheck(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a package")
	}
	nameless := withoutNames(t, trained(t))
	dir := t.TempDir()
	rows := writeFile(t, dir, "rows.csv", "1,2\n3,4\n5,6\n")
	pkg := filepath.Join(dir, "pkg")
	succeeds(t, "gen", "--model", nameless, "--out", pkg)
	out, _ := succeeds(t, "check", "--model", nameless, "--dir", pkg, "--data", rows)
	if !strings.Contains(out, "bit for bit on 3 rows") {
		t.Errorf("check:\n%s", out)
	}
}

// TestMarginColumns: --margin names its columns margin_*, as what they
// are, in the places predictions have p_* and output_*.
func TestMarginColumns(t *testing.T) {
	dir := t.TempDir()
	binary := trained(t) // classes "0" and "1"
	three := filepath.Join(dir, "three.json")
	succeeds(t, "train", "cart", "--data", writeFile(t, dir, "three.tsv", "a\ttarget\n1\tx\n2\ty\n3\tz\n"), "-o", three)
	regression := filepath.Join(dir, "reg.json")
	succeeds(t, "train", "cart", "--criterion", "mse", "--data", writeFile(t, dir, "reg.tsv", "a\ttarget\n1\t0.5\n2\t1.5\n3\t2.5\n"), "-o", regression)
	rows := writeFile(t, dir, "rows.tsv", "a\tb\n1\t2\n")
	one := writeFile(t, dir, "one.tsv", "a\n1\n")
	tests := []struct {
		model, data string
		margin      bool
		want        string
	}{
		{binary, rows, false, "p_1,class"},
		{binary, rows, true, "margin_1,class"},
		{three, one, false, "p_x,p_y,p_z,class"},
		{three, one, true, "margin_x,margin_y,margin_z,class"},
		{regression, one, false, "output_0"},
		{regression, one, true, "margin_0"},
	}
	for _, tt := range tests {
		args := []string{"predict", "--model", tt.model, "--data", tt.data}
		if tt.margin {
			args = append(args, "--margin")
		}
		out, _ := succeeds(t, args...)
		if first, _, _ := strings.Cut(out, "\n"); first != tt.want {
			t.Errorf("%s: header %q, want %q", strings.Join(args[1:], " "), first, tt.want)
		}
	}
}

// TestDataFileLimits: numbers are decimal, and a small file may not take
// much memory (a sparse LibSVM file, a gzip bomb): each is refused with the
// file and, where there is one, the line.
func TestDataFileLimits(t *testing.T) {
	named := trained(t)
	dir := t.TempDir()
	// 20 rows of 1<<20 columns: 20 Mi cells (160 MiB) from 240 bytes.
	wide := writeFile(t, dir, "wide.libsvm", strings.Repeat("0 1:1\n1 1048576:1\n", 10))
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	zw.Write([]byte("a\tb\ttarget\n" + strings.Repeat("0\t0\t0\n", 1<<20)))
	zw.Close()
	bombPath := filepath.Join(dir, "bomb.tsv.gz")
	if err := os.WriteFile(bombPath, bomb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		desc, want string
		args       []string
	}{
		{"hexadecimal", `hex.tsv:3:2: cell "0x10" in column "b" is not a number in decimal notation`,
			[]string{"predict", "--model", named, "--data", writeFile(t, dir, "hex.tsv", "a\tb\n1\t2\n1\t0x10\n")}},
		{"hexadecimal float", `hexf.csv:2:1: cell "0x1p4" in column "a" is not a number in decimal notation`,
			[]string{"eval", "--model", named, "--data", writeFile(t, dir, "hexf.csv", "a,b,target\n0x1p4,2,1\n")}},
		{"underscores", `us.tsv:2:1: cell "1_000" in column "a" is not a number in decimal notation`,
			[]string{"train", "cart", "--data", writeFile(t, dir, "us.tsv", "a\ttarget\n1_000\t1\n"), "-o", filepath.Join(dir, "m.json")}},
		{"libsvm value", `hex.libsvm:1:5: value "0x10" of index 1 is not a number in decimal notation`,
			[]string{"predict", "--model", named, "--data", writeFile(t, dir, "hex.libsvm", "1 1:0x10\n")}},
		{"sparse libsvm", wide + ":2:3: index 1048576 makes a dense matrix of 20 rows × 1048576 columns = 20971520 cells, more than the limit of max(16777216, 64 × 20 INDEX:VALUE pairs) = 16777216 cells",
			[]string{"train", "cart", "--data", wide, "-o", filepath.Join(dir, "m.json")}},
		{"gzip bomb", bombPath + ": gzip data expands more than 100-fold",
			[]string{"predict", "--model", named, "--data", bombPath}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			fails(t, tt.want, tt.args...)
		})
	}
}
