// Package parquet reads and writes Apache Parquet files
// (https://parquet.apache.org) for package
// github.com/treegen/treegen/data, with github.com/parquet-go/parquet-go.
//
// Importing it registers the format with [data.RegisterFormat], so that
// [data.Read], [data.ReadFile] and the [data.Stream]s of the program read
// Parquet files, found by the extension ".parquet" or by their first bytes
// ("PAR1"); a program that does not import it does not link the Parquet
// library, and reading a Parquet file gives an error that names this
// package. A program that only reads imports it for its side effect:
//
//	import _ "github.com/treegen/treegen/data/parquet"
//
// # Reading
//
// The top-level columns of a file are matched by name as in CSV (see
// [data.MatchColumns]): the target by [data.Options].Target or
// TargetColumn, the features by Options.Select, or every other column.
// Columns of BOOLEAN (0 or 1), INT32, INT64 (and their integer and decimal
// logical types), FLOAT and DOUBLE are numbers, a null is a missing value
// (NaN); a target of STRING (UTF-8 BYTE_ARRAY) holds class labels, sorted
// as for CSV, and a null target is an error at its row. Other column types
// are an error naming the column. A Parquet file needs random access:
// data.ReadFile and a Stream of a file read it in place, row group by row
// group; data.Read of another reader reads it into memory first. Errors
// name the file and, as LINE, the 1-based row.
//
// The footer and the page headers of every column chunk read are checked
// before the Parquet library reads them, so that a damaged or hostile file
// cannot make it set aside more memory than the file's size justifies.
//
// # Writing
//
// A [Writer] writes rows to a new Parquet file, column by column, in
// memory bounded by a row group.
package parquet
