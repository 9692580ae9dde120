package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/atomicfile"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/sniff"
)

// stdinName is what errors call the standard input, which --data - reads.
const stdinName = "stdin"

// stdin is the standard input; tests replace it.
var stdin io.Reader = os.Stdin

// readDataWith reads a data file with the given options; "-" reads the
// standard input.
func readDataWith(path string, o data.Options) (*data.Dataset, error) {
	switch path {
	case "":
		return nil, fmt.Errorf("--data is required")
	case "-":
		return data.Read(stdin, stdinName, o)
	}
	return data.ReadFile(path, o)
}

// openStream opens a data file for reading block by block; "-" reads the
// standard input.
func openStream(path string, o data.Options) (*data.Stream, error) {
	switch path {
	case "":
		return nil, fmt.Errorf("--data is required")
	case "-":
		return data.OpenStream(stdin, stdinName, o)
	}
	return data.OpenFileStream(path, o)
}

// fileColumns is what matching the columns of a data file to a model needs
// to know of the file.
type fileColumns = data.Columns

func datasetColumns(d *data.Dataset) fileColumns { return d.Columns() }

func streamColumns(s *data.Stream) fileColumns { return s.Columns() }

// dataFlags are the flags of a command that reads a data file: its name,
// its target column and how to read LibSVM; for rows given to a model, also
// whether a TSV or CSV file has a header line and how to match columns to
// the model's features.
type dataFlags struct {
	cmd          *cobra.Command
	path         string
	target       string
	absent       data.Absent
	base         data.IndexBase
	byPosition   bool
	forModel     bool // the flags below are registered
	header       bool
	noHeader     bool
	targetColumn int
}

// The help of the LibSVM flags.
const (
	absentUsage = "LibSVM: what an index absent from a line means: zero (LibSVM's sparse zero) or missing (as XGBoost reads it)"
	baseUsage   = "LibSVM: the first feature index: 1, 0, or auto (0 if some line has index 0, else 1)"
)

// register adds the flags to cmd; usage describes --data. forModel adds
// --by-position, --header, --no-header and --target-column.
func (f *dataFlags) register(cmd *cobra.Command, usage string, forModel bool) {
	f.cmd = cmd
	f.forModel = forModel
	fl := cmd.Flags()
	fl.StringVar(&f.path, "data", "", usage)
	fl.StringVar(&f.target, "target", "target", "name of the target column")
	fl.Var(&f.absent, "libsvm-absent", absentUsage)
	fl.Var(&f.base, "libsvm-base", baseUsage)
	if forModel {
		fl.BoolVar(&f.byPosition, "by-position", false, "match the data's feature columns to the model's by position instead of by name")
		fl.BoolVar(&f.header, "header", false, "TSV/CSV: the first line is a header, even if every cell of it is a number (default: it is data if every cell is a number, unless the cells are the model's feature names)")
		fl.BoolVar(&f.noHeader, "no-header", false, "TSV/CSV: the file has no header line: the first line is data, and columns are matched to the model's features by position")
		fl.IntVar(&f.targetColumn, "target-column", 0, "TSV/CSV: the target is column N (1-based), as a file without a header line needs; excludes --target (0: the column named by --target)")
	}
}

// options returns the data options the flags ask for. Without a header
// flag, rows for a model are read with or without a header line, as the
// first line looks; other data needs one.
func (f *dataFlags) options() (data.Options, error) {
	o := data.Options{Target: f.target, Absent: f.absent, IndexBase: f.base}
	if !f.forModel {
		return o, nil
	}
	switch {
	case f.header && f.noHeader:
		return o, fmt.Errorf("--header and --no-header exclude each other")
	case f.targetColumn < 0:
		return o, fmt.Errorf("--target-column must be at least 1 (0: the column named by --target), got %d", f.targetColumn)
	case f.targetColumn > 0 && f.cmd.Flags().Changed("target"):
		return o, fmt.Errorf("--target and --target-column exclude each other")
	case f.header:
		o.Header = data.HeaderPresent
	case f.noHeader:
		o.Header = data.HeaderAbsent
	default:
		o.Header = data.HeaderAuto
	}
	if f.targetColumn > 0 {
		o.Target, o.TargetColumn = "", f.targetColumn
	}
	return o, nil
}

// readFor reads rows for the model m, leaving the target column out
// unparsed unless withTarget (then it must exist), and checks that their
// columns fit m (see checkColumns).
func (f *dataFlags) readFor(m *ir.Model, withTarget bool, w io.Writer) (*data.Dataset, error) {
	o, err := f.optionsFor(m, withTarget)
	if err != nil {
		return nil, err
	}
	d, err := readDataWith(f.path, o)
	if err != nil {
		return nil, f.readError(err, withTarget)
	}
	if err := f.checkColumns(m, datasetColumns(d), w); err != nil {
		return nil, err
	}
	return d, nil
}

// streamFor opens rows for the model m block by block, as readFor reads
// them whole.
func (f *dataFlags) streamFor(m *ir.Model, withTarget bool, w io.Writer) (*data.Stream, error) {
	o, err := f.optionsFor(m, withTarget)
	if err != nil {
		return nil, err
	}
	s, err := openStream(f.path, o)
	if err != nil {
		return nil, f.readError(err, withTarget)
	}
	if err := f.checkColumns(m, streamColumns(s), w); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// optionsFor returns the options of reading rows for m. Unless
// --by-position, the feature columns of a file with column names are
// those of the model's feature names, in the model's order, wherever the
// file has them; the file's other columns are skipped.
func (f *dataFlags) optionsFor(m *ir.Model, withTarget bool) (data.Options, error) {
	o, err := f.options()
	if err != nil {
		return o, err
	}
	o.RequireTarget = withTarget
	o.DropTarget = !withTarget
	o.NumFeatures = m.NumFeatures
	o.Names = m.FeatureNames
	if !f.byPosition {
		o.Select = m.FeatureNames
	}
	return o, nil
}

// readError adds a hint to an error of reading a file without a header
// line whose target is needed.
func (f *dataFlags) readError(err error, withTarget bool) error {
	if errors.Is(err, data.ErrNoHeader) && withTarget {
		return fmt.Errorf("%w: give its position with --target-column N", err)
	}
	var missing *data.MissingColumnsError
	switch {
	case errors.As(err, &missing) && missing.Target != "":
		return fmt.Errorf("%w: name the target column with --target, or match columns by position with --by-position", err)
	case missing != nil:
		return fmt.Errorf("%w (--by-position matches columns by position)", err)
	}
	return err
}

// checkColumns checks that the columns of a data file fit m. A TSV or CSV
// file without a header line (every cell of its first line a number, or
// --no-header) has its columns matched by position; a model with feature
// names needs a header line then, unless --no-header or --by-position says
// to match by position. It notes on w the columns of the file that were
// skipped, as the model has no features of their names, and warns when a
// model imported from XGBoost reads LibSVM with absent entries as zeros,
// which XGBoost reads as missing.
func (f *dataFlags) checkColumns(m *ir.Model, c fileColumns, w io.Writer) error {
	if c.Format == data.FormatLibSVM && f.targetColumn > 0 {
		return fmt.Errorf("%s is LibSVM, whose target is the label of each line: --target-column is for TSV and CSV files", c.Source)
	}
	if c.NoHeader && m.FeatureNames != nil && !f.noHeader && !f.byPosition {
		return fmt.Errorf("%s has no header line (every cell of line 1 is a number), but the model's features have names (%s): add a header line naming the columns, or match them by position with --no-header",
			c.Source, listNames(m.FeatureNames))
	}
	if c.Format == data.FormatLibSVM && f.absent == data.AbsentZero && !f.cmd.Flags().Changed("libsvm-absent") &&
		m.Provenance != nil && m.Provenance.Producer == "xgboost" {
		fmt.Fprintf(w, "warning: %s is LibSVM, whose absent entries are read as 0; XGBoost, which made the model, reads them as missing: add --libsvm-absent missing to predict what XGBoost predicts (--libsvm-absent zero to keep zeros and silence this)\n", c.Source)
	}
	if len(c.Skipped) > 0 {
		fmt.Fprintf(w, "note: %s: ignored columns, which are not features of the model: %s\n", c.Source, strings.Join(c.Skipped, ", "))
	}
	return matchColumns(m, c, f.byPosition)
}

// loadModelAndRows loads a model and the rows of the data file (without
// its target column) whose features fit it.
func loadModelAndRows(model string, rounds int, f *dataFlags, w io.Writer) (*ir.Model, *data.Dataset, error) {
	m, err := loadModelRounds(model, rounds)
	if err != nil {
		return nil, nil, err
	}
	d, err := f.readFor(m, false, w)
	if err != nil {
		return nil, nil, err
	}
	return m, d, nil
}

// matchFeatures checks that a data set fits the model's input; see
// matchColumns.
func matchFeatures(m *ir.Model, d *data.Dataset, byPosition bool) error {
	return matchColumns(m, datasetColumns(d), byPosition)
}

// matchColumns checks that the columns of a data file fit the model's
// input (see data.Columns.Fit), and adds to the error the flags that may
// help.
func matchColumns(m *ir.Model, c fileColumns, byPosition bool) error {
	err := c.Fit(m.NumFeatures, m.FeatureNames, byPosition)
	switch cols := len(c.Features); {
	case err == nil:
		return nil
	case cols == m.NumFeatures:
		return fmt.Errorf("%w (--by-position matches columns by position)", err)
	case c.NoHeader && !c.Target && cols == m.NumFeatures+1:
		return fmt.Errorf("%w (it has no header line, so no column is known as the target: --target-column N leaves column N out)", err)
	}
	return err
}

// listNames lists the first names of a model's features for a message.
func listNames(names []string) string {
	const listed = 3
	quoted := make([]string, 0, listed+1)
	for i, n := range names {
		if i == listed {
			quoted = append(quoted, "...")
			break
		}
		quoted = append(quoted, strconv.Quote(n))
	}
	return strings.Join(quoted, ", ")
}

// writeOut writes through fill to path atomically, or to w when path is ""
// or "-".
func writeOut(path string, w io.Writer, fill func(io.Writer) error) error {
	if path == "" || path == "-" {
		return fill(w)
	}
	return atomicfile.Write(path, 0o644, fill)
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// addIterations adds --iterations to cmd, a command that predicts.
func addIterations(cmd *cobra.Command, rounds *int) {
	cmd.Flags().IntVar(rounds, "iterations", 0, "predict with the first N boosting rounds only, as XGBoost's iteration_range and LightGBM's num_iteration do (0: all)")
}

// loadModelRounds loads an IR model file and, unless rounds is 0, keeps the
// trees of its first rounds boosting rounds (--iterations).
func loadModelRounds(path string, rounds int) (*ir.Model, error) {
	if rounds < 0 {
		return nil, fmt.Errorf("--iterations must be at least 1 (0: all rounds), got %d", rounds)
	}
	m, err := loadModel(path)
	if err != nil || rounds == 0 {
		return m, err
	}
	first, err := m.FirstRounds(rounds)
	if err != nil {
		return nil, fmt.Errorf("--iterations %d: %s: %v", rounds, path, err)
	}
	return first, nil
}

// loadModel loads an IR model file. A file that is not one but a model of a
// library treegen imports gets an error that says how to import it.
func loadModel(path string) (*ir.Model, error) {
	m, err := ir.Load(path)
	if err == nil {
		return m, nil
	}
	if k, serr := sniff.File(path); serr == nil && k.Importer() != "" {
		return nil, fmt.Errorf("%s is %s, not a treegen IR model: convert it first with treegen import %s %s -o model.json", path, k, k.Importer(), path)
	}
	return nil, err
}
