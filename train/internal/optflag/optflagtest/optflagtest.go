// Package optflagtest holds what the trainers' tests of their flags share:
// parsing a command line with the flags an Options registers, and checking
// the errors of its Validate.
package optflagtest

import (
	"flag"
	"io"
	"testing"
)

// Options are a trainer's options: they register their flags and validate
// the values given.
type Options interface {
	RegisterFlags(fs *flag.FlagSet)
	Validate() error
}

// Parse parses args with the flags that o registers.
func Parse(t *testing.T, o Options, args ...string) {
	t.Helper()
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	o.RegisterFlags(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
}

// Case is a command line and the error Validate gives it ("": none).
type Case struct {
	Args []string
	Want string
}

// CheckValidate parses each case's command line into fresh options
// (made by newOptions) and checks the error of their Validate.
func CheckValidate[O Options](t *testing.T, newOptions func() O, cases []Case) {
	t.Helper()
	for _, c := range cases {
		o := newOptions()
		Parse(t, o, c.Args...)
		got := ""
		if err := o.Validate(); err != nil {
			got = err.Error()
		}
		if got != c.Want {
			t.Errorf("%v:\n got %q\nwant %q", c.Args, got, c.Want)
		}
	}
}
