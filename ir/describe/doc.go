// Package describe writes a model for people to read: a summary of its
// shape and provenance ([Summary], or [SummaryJSON] for programs), the
// importance of its features ([Importance], from package
// ir/importance), and its trees as a Graphviz graph ([Dot]). "treegen
// inspect" prints these.
//
// Every string that comes from a model file is written so that it cannot
// forge output: quoted with Go's escapes in the summary when it does not
// print, escaped in the dot graph.
package describe
