package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/atomicfile"
)

// The Letter split files: UCI's test rows are its last uciTest rows.
const (
	uciSplitFile = "letter-uci-test.txt"
	uciRows      = 20000
	uciTest      = 4000
)

// letterSplit returns the training and test rows of PMLB's letter (rows
// rows) for s.split: UCI's split read from the split file of s.dir, or
// PMLB's first 16,000 and last 4,000 rows.
func letterSplit(s *settings, rows int) (train, test []int, err error) {
	if rows != uciRows {
		return nil, nil, fmt.Errorf("letter has %d rows, want %d", rows, uciRows)
	}
	if s.split == "pmlb" {
		for i := range rows {
			if i < rows-uciTest {
				train = append(train, i)
			} else {
				test = append(test, i)
			}
		}
		return train, test, nil
	}
	path := filepath.Join(s.dir, uciSplitFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	isTest := make([]bool, rows)
	for i, line := range strings.Split(string(b), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		r, err := strconv.Atoi(line)
		if err != nil || r < 0 || r >= rows || isTest[r] {
			return nil, nil, fmt.Errorf("%s:%d: %q is not a new row index below %d", path, i+1, line, rows)
		}
		isTest[r] = true
		test = append(test, r)
	}
	if len(test) != uciTest {
		return nil, nil, fmt.Errorf("%s: %d rows, want %d", path, len(test), uciTest)
	}
	for i, t := range isTest {
		if !t {
			train = append(train, i)
		}
	}
	return train, test, nil
}

// writeUCISplit writes the split file of dir from UCI's
// letter-recognition.data at uci: the PMLB row of each of UCI's last 4,000
// rows, in UCI's order. A row is matched by its letter and its 16 values;
// rows that are equal in both are matched in the order of the two files.
func writeUCISplit(dir, uci string) error {
	d, err := data.ReadFile(filepath.Join(dir, "letter.tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		return err
	}
	key := func(label int, values []float64) string {
		var b strings.Builder
		b.WriteByte(byte('A' + label - 1)) // PMLB's target: 1 is A, 26 is Z
		for _, v := range values {
			fmt.Fprintf(&b, ",%g", v)
		}
		return b.String()
	}
	free := map[string][]int{}
	for i := range d.Rows {
		k := key(int(d.Y[i]), d.Row(i))
		free[k] = append(free[k], i)
	}
	raw, err := os.ReadFile(uci)
	if err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\n"), "\n")
	if len(lines) < uciTest {
		return fmt.Errorf("%s: %d lines, want at least the last %d of UCI's file", uci, len(lines), uciTest)
	}
	first := len(lines) - uciTest
	var w bytes.Buffer
	fmt.Fprintf(&w, "# The rows of testdata/pmlb/letter.tsv.gz (0-based data rows) that are the last %d rows\n", uciTest)
	fmt.Fprintf(&w, "# of UCI's letter-recognition.data, in UCI's order: the test set of the paper's split.\n")
	fmt.Fprintf(&w, "# Written by: go run ./docs/tao-vs-paper -make-uci-split letter-recognition.data\n")
	for i, line := range lines[first:] {
		f := strings.Split(strings.TrimSpace(line), ",")
		if len(f) != 17 || len(f[0]) != 1 || f[0][0] < 'A' || f[0][0] > 'Z' {
			return fmt.Errorf("%s:%d: want a capital letter and 16 values, got %q", uci, first+i+1, line)
		}
		values := make([]float64, 16)
		for j, t := range f[1:] {
			if values[j], err = strconv.ParseFloat(t, 64); err != nil {
				return fmt.Errorf("%s:%d: %v", uci, first+i+1, err)
			}
		}
		k := key(int(f[0][0]-'A')+1, values)
		rows := free[k]
		if len(rows) == 0 {
			return fmt.Errorf("%s:%d: %q is not a row of letter.tsv.gz (or one more copy of it than there is)", uci, first+i+1, line)
		}
		fmt.Fprintln(&w, rows[0])
		free[k] = rows[1:]
	}
	return atomicfile.WriteFile(filepath.Join(dir, uciSplitFile), w.Bytes(), 0o644)
}
