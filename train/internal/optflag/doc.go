// Package optflag defines a trainer's options as flags of a standard
// library flag.FlagSet, recording which flags a command line gives, and
// checks flag values with errors that name the flag as the command line
// knows it ("--max-depth must be at least 1, got 0").
//
// A trainer's Options.RegisterFlags binds its fields through a [Set]; its
// Options.Validate asks [Set.Given] where a flag's presence matters (a
// value that is also the default, given for an option that does not
// apply), and builds its errors with [AtLeast], [Between], [Positive],
// [NonNegative], [Fraction] and [OneOf], the first of which [First]
// returns. The record works whichever parser sets the values: the flag
// package's own, or a command-line library that takes in the flag set.
package optflag
