// Package predict writes the prediction table of a model over the rows of
// a data stream, as "treegen predict" writes it: one column per output
// (the probabilities of a classifier's classes, p_<class>, or margins,
// margin_<class>, or output_<k>), then a classifier's predicted class; or
// the leaf each tree sends a row to (tree_<t>).
//
// A [Table] is computed by the interpreter in a chosen precision, on the
// goroutines that parse the stream's blocks; [Table.WriteCSV] writes it in
// file order, in memory that does not grow with the file, with numbers that
// parse back to the same value in that precision.
package predict
