// Package verify compares predictions: those of an approximate model with
// those of the model it approximates, and those of a generated package with
// a file of expected predictions.
//
// [Measure] runs the interpreter on rows with two models, such as a model
// and the pruned model that approximate generated code computes exactly,
// and returns their [Deviation], whose [Deviation.Sentence] is the line
// that "treegen gen" writes in the header of approximate code.
//
// [ReadExpected] reads a CSV file of expected predictions, as "treegen
// predict" writes them (a header line, one column per output, then the
// class) or as a library writes them (numbers only, such as XGBoost's
// predict() output, which for multi:softmax is one class id per row), and
// [Expected.Compare] compares a package's predictions with it, bit for bit
// in the package's precision. When they differ only because the file was
// written in the other precision, the error says so and names the flag
// that fixes it.
package verify
