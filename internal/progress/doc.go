// Package progress reports the steps of a long task, such as the rounds of
// a training, on a writer: a bar redrawn in place on one line when the
// writer is a terminal, else one line every so many steps, and either way
// the last step's line at the end. Nothing is drawn on a writer that is
// not a terminal: a log gets plain lines.
package progress
