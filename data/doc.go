// Package data loads the tabular data sets that treegen trains on and
// evaluates with, and splits them into training and test rows.
//
// A data set is held as a [Dataset]: a dense, row-major matrix of float64
// features plus an optional target column. [ReadFile] and [Read] fill one
// from a file in one of three formats; [Classes], [StratifiedSplit] and
// [Split] prepare it for training.
//
// # Formats
//
// TSV and CSV files start with a header line naming the columns. Names are
// trimmed of surrounding white space; they must be non-empty and distinct.
// The column called [Options].Target ("target" unless set) becomes
// [Dataset].Y, every other column is a feature, in file order. TSV lines are
// split on tab characters only (no quoting); CSV is read with encoding/csv,
// so fields may be double-quoted, with "" standing for a quote inside a
// quoted field. Every row must have as many fields as the header. Lines may
// end in "\n" or "\r\n". The header must be on the first line. Empty (or
// all-blank) lines at the end of a TSV file are ignored; an empty line
// followed by more data is an error. (encoding/csv skips empty
// lines anywhere in a CSV file.) A UTF-8 byte order mark at the start of a
// file is skipped.
//
// LibSVM files hold one row per line: a label followed by INDEX:VALUE pairs,
//
//	1 3:0.5 7:1.25 # comments run to the end of the line
//
// Indices are 1-based, as in libsvm itself, and must be strictly increasing
// within a line. A "qid:N" pair (SVMlight ranking files) is skipped. The
// features are named f1..fP, where P is the highest index seen or
// [Options].NumFeatures if that is larger. An absent pair means 0, which is
// what it means to libsvm; it does not mean "missing". The label is always
// present and becomes Y. Lines that are empty or hold only a comment are
// skipped. A LibSVM file is expanded into a dense matrix, so it may have at
// most 1<<20 features and 1<<28 cells in all.
//
// With [FormatAuto] the format comes from the file name: after stripping a
// ".gz" suffix, ".tsv" means TSV, ".csv" CSV, and ".libsvm" or ".svm" LibSVM.
// Any other name (".txt", none, ...) is sniffed from the first line: a tab
// means TSV, else a comma means CSV, else a line that looks like a LibSVM row
// (a number followed by INDEX:VALUE tokens) means LibSVM, and anything else
// is taken as a TSV file with a single column.
//
// Gzip compression is detected from the magic bytes 0x1f 0x8b at the start
// of the input, whatever the name, and removed transparently.
//
// # Values and missing values
//
// Cells are trimmed of surrounding white space and parsed with
// strconv.ParseFloat, so "1e-3", "inf", "+Inf", "-Infinity" and the like are
// accepted; a value too large for a float64 is an error. A missing value is
// stored as NaN. In TSV and CSV files a feature cell is missing when it is
// empty or one of
//
//	NA  na  ?  nan  NaN  NAN
//
// (ParseFloat also reads any other spelling of "nan" as NaN). In LibSVM files
// the same words are accepted as an explicit missing VALUE. A missing or NaN
// target value (or LibSVM label) is an error.
//
// # Errors
//
// Every error from [Read], and every error from [ReadFile] other than the
// one from opening the file (an *os.PathError, which names the path), is an
// [*Error] locating the problem:
//
//	FILE:LINE:COL: MSG
//	FILE:LINE: MSG      when the column is not known (Col == 0)
//	FILE: MSG           when the line is not known either (Line == 0)
//
// Lines and columns are 1-based. For TSV and CSV, COL is the number of the
// field within the line; for LibSVM, it is the byte column where the
// offending token starts. For example:
//
//	people.tsv:7: row has 13 fields, header has 14
//	people.tsv:9:3: cell "abc" in column "age" is not a number
//	people.tsv:1: no column "label"; columns are: age, income, target
//	people.tsv.gz: corrupt or truncated gzip data: unexpected EOF
//	iris.libsvm:4:9: index 2 follows index 3: indices must be strictly increasing
//
// Errors caused by the underlying reader (including damaged gzip data) can
// be inspected with errors.Is and errors.As through [Error.Unwrap].
package data
