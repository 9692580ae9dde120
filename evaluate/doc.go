// Package evaluate scores a model on labelled rows with the interpreter:
// accuracy, AUC (one-vs-rest macro average for multiclass) and log-loss for
// classifiers, mean squared error for a regression of one output.
//
// A target is matched to the model's classes through the model's class
// names when it has them (a target "yes" is the class named "yes"), else it
// must be an integer class index 0..K-1. [Dataset] scores rows read whole,
// on every core; [Stream] scores a [data.Stream] block by block, keeping
// only the predictions and targets of its rows. Both give a [Scores], whose
// String and JSON forms are those of "treegen eval".
//
// The measures themselves are those of package metrics; this package
// predicts, maps targets to classes and picks the measures a model's task
// has.
package evaluate
