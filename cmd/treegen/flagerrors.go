package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/treegen/treegen/internal/flagerr"
)

// The errors of parsing a command's flags are one line that names the
// flag, in the command's own words (internal/flagerr): an unknown flag gets
// the flags it may have meant, a value that is not one of the flag's type
// says which type it wants, and no message shows the strconv errors
// underneath.

// flagError is the root's FlagErrorFunc, which cobra calls, for every
// command, with the error of parsing its flags.
func flagError(cmd *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	var invalid *pflag.InvalidValueError
	var missing *pflag.ValueRequiredError
	switch {
	case errors.As(err, &unknown):
		return unknownFlag(cmd, unknown)
	case errors.As(err, &invalid):
		f := invalid.GetFlag()
		return flagerr.Invalid("--"+f.Name, f.Value.Type(), invalid.GetValue(), errors.Unwrap(invalid))
	case errors.As(err, &missing):
		return fmt.Errorf("--%s needs a value", missing.GetFlag().Name)
	}
	return err
}

// unknownFlag says that cmd has no flag e names, suggests the flags of cmd
// that it may have meant (neither hidden nor deprecated, its own and
// inherited), and says where they are listed.
func unknownFlag(cmd *cobra.Command, e *pflag.NotExistError) error {
	typed := "--" + e.GetSpecifiedName()
	name := e.GetSpecifiedName()
	if short := e.GetSpecifiedShortnames(); short != "" {
		// -model: a single dash before a long name reads as shorthands.
		typed, name = "-"+short, short
	}
	var known []string
	visit := func(f *pflag.Flag) {
		if !f.Hidden && f.Deprecated == "" {
			known = append(known, f.Name)
		}
	}
	cmd.Flags().VisitAll(visit)
	cmd.InheritedFlags().VisitAll(visit)
	msg := "unknown flag " + typed
	if s := flagerr.Suggest(name, known, cmd.SuggestionsMinimumDistance); len(s) > 0 {
		for i := range s {
			s[i] = "--" + s[i]
		}
		msg += " (did you mean " + orList(s) + "?)"
	}
	return fmt.Errorf("%s; %s --help lists the flags", msg, cmd.CommandPath())
}
