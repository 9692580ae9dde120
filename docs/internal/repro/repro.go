// Package repro holds what the programs of docs/ that check treegen's
// trainers against their papers share: reading a data set of
// testdata/pmlb with its classes, the interpreter's accuracy of a model on
// labelled rows, the mean with its standard error, and the machine's CPU;
// and what the programs that measure speed share: running treegen,
// writing the tables, and ns with thousands separators.
package repro

import (
	"bytes"
	"errors"
	"log"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/evaluate"
	"github.com/treegen/treegen/ir"
)

// Read reads the data set name (name.tsv.gz) of the folder dir, which must
// have a target, and returns it with the class index of every row (as
// data.Classes numbers them) and the number of classes.
func Read(dir, name string) (d *data.Dataset, class []int, k int, err error) {
	d, err = data.ReadFile(filepath.Join(dir, name+".tsv.gz"), data.Options{RequireTarget: true})
	if err != nil {
		return nil, nil, 0, err
	}
	labels, class, err := data.Classes(d.Y)
	if err != nil {
		return nil, nil, 0, err
	}
	return d, class, len(labels), nil
}

// Accuracy returns the share of the rows of d whose class the interpreter
// predicts for the classifier m, as evaluate.Dataset scores it (a row's
// class matched to the model's by name), in the precision the model
// records.
func Accuracy(m *ir.Model, d *data.Dataset) (float64, error) {
	s, err := evaluate.Dataset(m, d, m.RecordedPrecision())
	if err != nil {
		return 0, err
	}
	if s.Accuracy == nil {
		return 0, errors.New("the model is not a classifier")
	}
	return *s.Accuracy, nil
}

// MeanSE returns the mean of v and the standard error of the mean (sample
// standard deviation over √n; NaN for fewer than two values).
func MeanSE(v []float64) (mean, se float64) {
	mean, sd := stat.MeanStdDev(v, nil)
	if len(v) < 2 {
		return mean, math.NaN()
	}
	return mean, stat.StdErr(sd, float64(len(v)))
}

// CPUModel returns the model name of the first CPU in /proc/cpuinfo, or
// the architecture when there is none.
func CPUModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(k) == "model name" {
				return strings.Join(strings.Fields(v), " ")
			}
		}
	}
	return goruntime.GOARCH
}

// Run runs a command and returns its standard output; it stops the
// program, with the command line and the command's standard error, if the
// command fails.
func Run(name string, args ...string) []byte {
	cmd := exec.Command(name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		log.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// Write writes a file or stops the program.
func Write(path string, data []byte) {
	if err := os.WriteFile(path, data, 0o644); err != nil {
		log.Fatal(err)
	}
}

// Thousands formats ns rounded to a whole number with thousands
// separators (1,239), or "—" for 0, which stands for no figure.
func Thousands(ns float64) string {
	if ns == 0 {
		return "—"
	}
	s := strconv.FormatFloat(ns, 'f', 0, 64)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
