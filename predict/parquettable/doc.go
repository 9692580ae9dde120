// Package parquettable writes a table of predictions (predict.Table) as a
// Parquet file, as treegen predict does for an output named *.parquet. It
// is apart from package predict so that programs that write CSV only do
// not link the Parquet writer.
package parquettable
