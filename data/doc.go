// Package data loads the tabular data sets that treegen trains on and
// evaluates with, and splits them into training and test rows.
//
// A data set is held as a [Dataset]: a dense, row-major matrix of float64
// features (or float32, when [Options].Compact finds that they fit) plus an
// optional target column. [ReadFile] and [Read] fill one from a file in
// one of four formats, recording it in [Dataset].Format; [Classes],
// [StratifiedSplit] and [Split] prepare it for training. A [Stream] reads a
// file block by block instead, for files larger than memory.
//
// # Speed
//
// Text files are read in chunks of about 1 MiB that end at a record
// boundary (a line break outside quotes in CSV), parsed on every core
// (GOMAXPROCS goroutines) and put together in file order, so the result,
// and every error, is that of reading the file line by line. Numbers are
// parsed without copying the cells: plain decimals of at most 15 digits,
// most cells of most files, by an exact fast path (the digits as an
// integer, divided by a power of ten, as strconv.ParseFloat's own fast
// path does), and everything else by strconv.ParseFloat.
//
// # Formats
//
// TSV and CSV files start with a header line naming the columns. Names are
// trimmed of surrounding white space; they must be non-empty and distinct.
// The column called [Options].Target ("target" unless set) becomes
// [Dataset].Y, every other column is a feature, in file order (or only
// those that [Options].Select names, in its order: see below);
// [Options].TargetColumn picks the target by its 1-based position instead.
// TSV lines are split on tab characters only (no quoting); CSV is read with
// encoding/csv, so fields may be double-quoted, with "" standing for a quote
// inside a quoted field. Every row must have as many fields as the first
// line. Lines may end in "\n" or "\r\n". The header, if there is one (see
// below), is the first line. Empty (or all-blank) lines at the end of a TSV file are ignored; an
// empty line followed by more data is an error. (encoding/csv skips empty
// lines anywhere in a CSV file.) A UTF-8 byte order mark at the start of a
// file is skipped.
//
// The target column of a TSV or CSV file is read as text first. When every
// cell of it is a number, Y holds the numbers. When some cell is not a
// number, the column holds class labels: [Dataset].Labels lists the
// distinct labels sorted in byte order (as by sort.Strings), so that the
// mapping does not depend on the order of the rows, and Y[r] is the index
// of row r's label in Labels (0, 1, 2, ...). Every cell of such a column is
// a label, numeric-looking ones included, as written but trimmed of white
// space: "yes", "no" and "2" are three labels. [Dataset.LabelName] names a
// target value either way, and [Dataset.Relabel] maps a second file (a
// validation or test set) onto the labels of the first. A target column
// whose first 65536 distinct values are all numbers is read as numbers
// from then on (a regression target), and a later cell that is not a
// number is an error. [Options].DropTarget leaves the target column out
// without reading its cells at all, as predicting wants.
//
// LibSVM files hold one row per line: a label followed by INDEX:VALUE pairs,
//
//	1 3:0.5 7:1.25 # comments run to the end of the line
//
// Indices must be strictly increasing within a line. They are 1-based, as
// in libsvm itself, unless some line of the file has an index 0: then the
// whole file is 0-based, as XGBoost's files often are. [Options].IndexBase
// forces either ([IndexOne] makes an index 0 an error). The features of a
// 1-based file are named f1..fP, those of a 0-based file f0..f(P-1), so
// the names tell how a file was read; P is the number of columns the
// highest index seen implies, or [Options].NumFeatures if that is larger.
// A "qid:N" pair (SVMlight ranking files) is skipped. An absent pair means
// 0, which is what it means to libsvm, unless [Options].Absent is
// [AbsentMissing]: then it means "missing" (NaN), as it does to XGBoost.
// The label is a number; it is always present and becomes Y (with
// [Options].DropTarget the first token of a line is skipped, unread, when
// it has no colon, and Y is nil). Lines that are empty or hold only a
// comment are skipped.
//
// Parquet files (https://parquet.apache.org) are read by package
// github.com/treegen/treegen/data/parquet, which registers the format
// ([RegisterFormat]) when a program imports it, so that programs that
// never read Parquet do not link its library. Their top-level columns are
// matched by name as in CSV. A Parquet file read by a program that does
// not import the package is an error that names it.
//
// A LibSVM file is expanded into a dense matrix, whose size the file's does
// not bound: one short line with index 1048576 makes every row 1048576
// columns wide. So that a small file cannot take much memory, an index may
// be at most 1<<20 (1<<20 - 1 in a 0-based file), and the matrix may have at
// most max(1<<24, 64 × P) cells (rows × columns), where P is the number of
// INDEX:VALUE pairs in the file: 128 MiB of float64, or 512 bytes for each
// pair, which takes at least 4 bytes of the file. A denser file fits
// whatever its size; a sparser one is refused, at the line and column of
// its highest index.
//
// With [FormatAuto] the format comes from the file name: after stripping a
// ".gz" suffix, ".tsv" means TSV, ".csv" CSV, and ".libsvm" or ".svm" LibSVM.
// Any other name (".txt", none, ...) is sniffed from the first line: a tab
// means TSV, else a comma means CSV, else a line that looks like a LibSVM row
// (a number followed by INDEX:VALUE tokens) means LibSVM, and anything else
// is taken as a TSV file with a single column.
//
// Gzip compression is detected from the magic bytes 0x1f 0x8b at the start
// of the input, whatever the name, and removed transparently. The
// decompressed data may be at most max(1 MiB, [Options].MaxExpansion × the
// compressed bytes read so far) long; MaxExpansion is
// [DefaultMaxExpansion], 100, unless set (negative: no limit). Data sets
// compress 3 to 20 times, while gzip can compress 1000 times, so that a
// 500 KB file could otherwise expand to 500 MB and take gigabytes once
// parsed. Past the limit reading fails: a file that is really that
// repetitive can be decompressed first.
//
// # Selecting columns by name
//
// [Options].Select names the feature columns to read, in the order wanted,
// as a model's feature names give them. A TSV, CSV or Parquet file may
// hold them in any order, among other columns: [MatchColumns] maps the
// header to the wanted features once, and every row's values are parsed
// straight into their places, so that the rows hold exactly the selected
// features, in Select's order, with no copy. The other columns (but the
// target) are not read at all, and [Dataset].Skipped (or
// [Stream.Skipped]) lists them. A selected name that the file lacks is an
// error naming every missing column:
//
//	people.csv:1: no column "height"; columns are: bmi, zip, target, age
//
// which wraps a [*MissingColumnsError]; it says so when the missing name
// is the target column's, which is never a feature. Files without column
// names, LibSVM and TSV or CSV without a header line, are read by
// position. [Columns.Fit] checks that the columns read fit a model's input.
//
// # Formats and sources
//
// Each format is read by a [Source], which a [Stream] holds, and [Read]
// drains a Stream: the same code reads a file whole or block by block.
// Parquet's source lives in package github.com/treegen/treegen/data/parquet
// and is registered with [RegisterFormat] when a program imports it.
//
// # Files without a header line
//
// Rows written from a NumPy array often come without a header line. A
// first line looks like data when every cell of it, trimmed, is a value by
// the rule of the next section (a number or a missing value, such as an
// empty cell), the cell of the target column aside when TargetColumn gives
// it; unless
//
//   - one of its cells is the name of the target column (Target), or
//   - it numbers the columns: at least 3 cells, each an integer written
//     with digits only and no leading zero, each one more than the one
//     before, as pandas names the columns of a NumPy array (0, 1, 2, ...)
//     and PMLB the features of some data sets (2, 3, ..., 31), or
//   - every cell of it is one of [Options].Names, the names the caller
//     expects (a model's feature names, which may well be numbers).
//
// [Options].Header says what to do with such a line. [HeaderRequired], the
// default, refuses it with an error at line 1, column 1, saying that a
// header line naming the columns is needed: training needs names, and a
// target. [HeaderAuto] reads it as the first row of a file without a header
// line (and any other first line as the header); [HeaderPresent] takes the
// first line for the header and [HeaderAbsent] for data, without looking.
// The columns of a file without a header line are named c1, c2, ... by
// position, the target's included, and [Dataset].NoHeader is set. Without a
// header no column is named Target: the target column of such a file is
// the one TargetColumn gives, and with RequireTarget and no TargetColumn
// the file is refused. The errors that a missing header line causes wrap
// [ErrNoHeader].
//
// # Values and missing values
//
// Cells are trimmed of surrounding white space. A number is written in
// decimal notation: an optional sign, digits with an optional decimal
// point (a digit on at least one side of it), and an optional exponent, e
// or E followed by an optional sign and digits:
//
//	1  -2.5  +.5  5.  007  1e-3  6.02E+23
//
// or it is "inf" or "infinity" in any case, with an optional sign ("inf",
// "+Inf", "-Infinity"). Other notations that strconv.ParseFloat reads, such
// as hexadecimal ("0x1p4") and digits separated by underscores ("1_000"),
// are not numbers: a feature cell so written is an error at its line and
// column, and a target cell a class label. A number too large for a
// float64 is an error; one too small to be told from 0 reads as 0 (or the
// nearest float64). A missing value is stored as NaN. In TSV and CSV files a
// feature cell is missing when it is empty or one of
//
//	NA  na  ?  nan  NaN  NAN
//
// ("nan" in any other case, unsigned, reads as NaN too). In LibSVM files
// the same words are accepted as an explicit missing VALUE. A missing or NaN
// target value (or LibSVM label) is an error, in a column of text labels
// too.
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
//	people.tsv:9:4: cell "0x10" in column "height" is not a number in decimal notation
//	people.tsv:1: no column "label"; columns are: age, income, target
//	rows.csv:1:1: line 1 is a row of numbers, not column names: a header line naming the columns is needed
//	people.tsv.gz: corrupt or truncated gzip data: unexpected EOF
//	iris.libsvm:4:9: index 2 follows index 3: indices must be strictly increasing
//
// Errors caused by the underlying reader (including damaged gzip data) can
// be inspected with errors.Is and errors.As through [Error.Unwrap].
package data
