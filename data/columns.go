package data

import (
	"fmt"
	"strconv"
	"strings"
)

// Layout maps the columns of a file to what a reader reads from them, as
// [MatchColumns] decides.
type Layout struct {
	// Features are the names of the feature columns, in the order of a
	// row's values.
	Features []string
	// Index[j] is the 0-based column of the file that holds feature j.
	Index []int
	// Target is the 0-based column of the target, -1 when there is none.
	Target int
	// Skipped lists, in file order, the columns left out because
	// [Options].Select does not name them; nil when none is.
	Skipped []string
}

// MissingColumnsError is wrapped by the [*Error] of a file that lacks
// feature columns that [Options].Select names; errors.As finds it.
type MissingColumnsError struct {
	// Missing are the names that no feature column of the file has, in
	// the order of Select.
	Missing []string
	// Target is the name of the target column when Select names it (a
	// model with a feature of that name, say): the target column is never
	// a feature, so another column must be the target. It is "" otherwise.
	Target string
}

func (e *MissingColumnsError) Error() string {
	return "missing columns: " + quoteList(e.Missing)
}

// MatchColumns maps the columns of a file, whose names are names in file
// order, to its target and feature columns as opts ask: the target is the
// column named opts.Target ("target" unless set), or the one at the
// 1-based position opts.TargetColumn; the features are the columns that
// opts.Select names, in its order, or every column but the target when
// Select is empty. Columns that Select does not name are skipped and
// listed in Skipped. file names the file in errors, which are [*Error]s at
// the given line (where the names are: 1 for a header line, 0 when they
// come from elsewhere, as a Parquet file's schema) and, when it is not 0,
// the column. Names must be non-empty and distinct, as far as they are
// read: with Select, two skipped columns may share a name.
//
// A name of Select that no column has, or that is the target's, is an
// error that lists the missing names and wraps a [*MissingColumnsError].
// With RequireTarget, a file without the target column is an error.
// MatchColumns is what TSV, CSV and Parquet files are read with; files
// without names (LibSVM, TSV and CSV without a header line) are read by
// position.
func MatchColumns(file string, line int, names []string, opts Options) (*Layout, error) {
	return matchColumns(file, line, names, opts, true)
}

// matchColumns is MatchColumns; byName is false when the names are not a
// file's own (c1, c2, ... of a file without a header line), so that no
// column is the target by its name.
func matchColumns(file string, line int, names []string, opts Options, byName bool) (*Layout, error) {
	col := func(i int) int {
		if line == 0 {
			return 0
		}
		return i + 1
	}
	sel := make(map[string]int, len(opts.Select))
	for j, n := range opts.Select {
		if n == "" {
			return nil, errorf(file, 0, 0, "Select names an empty column (name %d)", j+1)
		}
		if k, ok := sel[n]; ok {
			return nil, errorf(file, 0, 0, "Select names column %q twice (names %d and %d)", n, k+1, j+1)
		}
		sel[n] = j
	}
	// The index of every name read; a name that only skipped columns
	// have may repeat.
	seen := make(map[string]int, len(names))
	for i, n := range names {
		if n == "" {
			return nil, errorf(file, line, col(i), "column %d has an empty name", i+1)
		}
		j, dup := seen[n]
		_, selected := sel[n]
		if dup && (len(sel) == 0 || selected || n == opts.target()) {
			return nil, errorf(file, line, col(i), "duplicate column name %q (columns %d and %d)", n, j+1, i+1)
		}
		if !dup {
			seen[n] = i
		}
	}
	l := &Layout{Target: -1}
	switch {
	case opts.TargetColumn > len(names):
		where := "the file"
		if line > 0 {
			where = "line " + strconv.Itoa(line)
		}
		return nil, errorf(file, line, 0, "target column %d is past the last column: %s has %d", opts.TargetColumn, where, len(names))
	case opts.TargetColumn > 0:
		l.Target = opts.TargetColumn - 1
	case !byName:
	default:
		if i, ok := seen[opts.target()]; ok {
			l.Target = i
		} else if opts.RequireTarget {
			return nil, errorf(file, line, 0, "no column %q; columns are: %s", opts.target(), listColumns(names))
		}
	}
	if len(sel) == 0 {
		for i, n := range names {
			if i != l.Target {
				l.Features = append(l.Features, n)
				l.Index = append(l.Index, i)
			}
		}
		return l, nil
	}
	var missing []string
	target := ""
	for _, n := range opts.Select {
		i, ok := seen[n]
		if ok && i != l.Target {
			l.Features = append(l.Features, n)
			l.Index = append(l.Index, i)
			continue
		}
		missing = append(missing, n)
		if ok {
			target = n
		}
	}
	if missing != nil {
		what := "column"
		if len(missing) > 1 {
			what = "columns"
		}
		msg := fmt.Sprintf("no %s %s; columns are: %s", what, quoteList(missing), listColumns(names))
		if target != "" {
			msg += fmt.Sprintf("; %q is the target column, which is never a feature", target)
		}
		return nil, &Error{File: file, Line: line, Msg: msg, Err: &MissingColumnsError{Missing: missing, Target: target}}
	}
	for i, n := range names {
		if _, ok := sel[n]; !ok && i != l.Target {
			l.Skipped = append(l.Skipped, n)
		}
	}
	return l, nil
}

// maxListed is how many column names an error lists.
const maxListed = 10

// listColumns lists the names of a file's columns for an error message,
// shortened if there are many.
func listColumns(names []string) string {
	if len(names) > maxListed {
		return strings.Join(names[:maxListed], ", ") + fmt.Sprintf(", ... (%d columns)", len(names))
	}
	return strings.Join(names, ", ")
}

// quoteList quotes names for a message, shortened if there are many.
func quoteList(names []string) string {
	return shortList(names, maxListed, "names", strconv.Quote)
}

// Fit checks that the feature columns c fit the input of a model of n
// features named names (nil when they have no names): there must be n of
// them and, unless byPosition is set or the file has no column names
// (LibSVM, or TSV and CSV without a header line), they must have the names
// of names, in its order. Reading a file with [Options].Select set to
// names makes them so whenever the file has those columns. The error
// names the file and, for a name that differs, the column.
func (c Columns) Fit(n int, names []string, byPosition bool) error {
	if cols := len(c.Features); cols != n {
		if c.Format == FormatLibSVM {
			highest := "no index"
			if cols > 0 {
				highest = c.Features[cols-1]
			}
			return fmt.Errorf("%s has feature indices up to %s, the model has %d features", c.Source, highest, n)
		}
		return fmt.Errorf("%s has %d feature columns, the model expects %d", c.Source, cols, n)
	}
	if names == nil || byPosition || c.Format == FormatLibSVM || c.NoHeader {
		return nil
	}
	for j, name := range names {
		if c.Features[j] != name {
			return fmt.Errorf("%s: column %d is %q, the model expects %q", c.Source, j+1, c.Features[j], name)
		}
	}
	return nil
}
