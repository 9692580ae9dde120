// Package golden holds treegen's golden models, each in its own folder with
// the inputs it is checked on and the outputs the interpreter gives for them:
//
//	golden/NAME/model.json          the model (IR JSON)
//	golden/NAME/inputs.csv          input rows (header = feature names; NaN, +Inf, -Inf spelled out)
//	golden/NAME/expected.csv        float64 margins, predictions and class of every row
//	golden/NAME/expected32.csv      the same in float32 precision
//	golden/NAME/train.tsv.gz        training data, for models treegen trains
//
// The generated packages in ../generated test themselves against these
// files, and so does the interpreter (this package's tests). Refresh them
// with `go test ./golden -update` after a deliberate change of a trainer or
// of the semantics; without -update the tests retrain every model and fail
// if a single byte differs.
package golden

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/treegen/treegen/ir"
)

// Case is one golden model with its inputs and expected outputs.
type Case struct {
	Name    string
	Model   *ir.Model
	Inputs  [][]float64
	Margins [][]float64 // per row, NumOutputs values
	Preds   [][]float64 // per row, NumOutputs values
	Classes []int       // per row; nil unless the model is a classifier
}

// Names returns the golden cases, in the order tests visit them: a fresh
// slice, which the caller may change.
func Names() []string {
	return []string{"cart_binary", "cart_multiclass", "cart_regression", "handwritten", "axis100", "oblique100", "soft"}
}

// Dir returns the directory of case name.
func Dir(name string) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), name)
}

// Load reads case name with the expected outputs of the given precision
// (float32 selects expected32.csv).
func Load(name string, float32 bool) (*Case, error) {
	dir := Dir(name)
	m, err := ir.Load(filepath.Join(dir, "model.json"))
	if err != nil {
		return nil, err
	}
	c := &Case{Name: name, Model: m}
	c.Inputs, _, err = readCSV(filepath.Join(dir, "inputs.csv"))
	if err != nil {
		return nil, err
	}
	file := "expected.csv"
	if float32 {
		file = "expected32.csv"
	}
	rows, header, err := readCSV(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	if len(rows) != len(c.Inputs) {
		return nil, fmt.Errorf("%s: %d rows for %d inputs", file, len(rows), len(c.Inputs))
	}
	k := m.NumOutputs
	classifier := len(header) == 2*k+1
	for _, r := range rows {
		c.Margins = append(c.Margins, r[:k])
		c.Preds = append(c.Preds, r[k:2*k])
		if classifier {
			c.Classes = append(c.Classes, int(r[2*k]))
		}
	}
	return c, nil
}

// readCSV reads a comma-separated file of numbers with a header line.
func readCSV(path string) (rows [][]float64, header []string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	line := 0
	for sc.Scan() {
		line++
		fields := strings.Split(sc.Text(), ",")
		if line == 1 {
			header = fields
			continue
		}
		if len(fields) != len(header) {
			return nil, nil, fmt.Errorf("%s:%d: %d fields, header has %d", path, line, len(fields), len(header))
		}
		row := make([]float64, len(fields))
		for j, s := range fields {
			if row[j], err = strconv.ParseFloat(s, 64); err != nil {
				return nil, nil, fmt.Errorf("%s:%d:%d: %v", path, line, j+1, err)
			}
		}
		rows = append(rows, row)
	}
	return rows, header, sc.Err()
}

// FormatFloat prints v so that it parses back to the same value of the
// given bit size, spelling out NaN, +Inf and -Inf.
func FormatFloat(v float64, bitSize int) string {
	return strconv.FormatFloat(v, 'g', -1, bitSize)
}
