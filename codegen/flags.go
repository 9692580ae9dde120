package codegen

import (
	"flag"
	"fmt"
)

// BackendFlags binds the options of every backend to one flag set, so that
// a command line can take the options of whichever backend a model gets,
// while each option reaches its own backend and no other. Each backend
// defines its flags (RegisterFlags of its options) on a flag set of its
// own, which NewBackendFlags then takes in.
type BackendFlags struct {
	byBackend map[string]BackendOptions // by backend name
	flags     []string                  // flag names, in order of definition
	owner     map[string]string         // backend name by flag name
}

// NewBackendFlags defines the flags of every backend's options on fs. A
// flag of a backend whose name fs already has is an error, as two
// meanings of one flag would be.
func NewBackendFlags(fs *flag.FlagSet) (*BackendFlags, error) {
	bf := &BackendFlags{byBackend: map[string]BackendOptions{}, owner: map[string]string{}}
	for _, b := range backends {
		opts := b.NewOptions()
		own := flag.NewFlagSet(b.Name(), flag.ContinueOnError)
		opts.RegisterFlags(own)
		var err error
		own.VisitAll(func(f *flag.Flag) {
			if fs.Lookup(f.Name) != nil {
				err = fmt.Errorf("flag --%s of the %s backend is already a flag of %s", f.Name, b.Name(), fs.Name())
				return
			}
			fs.Var(f.Value, f.Name, f.Usage)
			bf.flags = append(bf.flags, f.Name)
			bf.owner[f.Name] = b.Name()
		})
		if err != nil {
			return nil, err
		}
		bf.byBackend[b.Name()] = opts
	}
	return bf, nil
}

// Options returns the options of backend b as the flags set them,
// validated, after checking that no flag of another backend was given
// (given reports whether the flag of that name was set on the command
// line). auto says that b was not named but picked for the model, which
// the error then says.
func (bf *BackendFlags) Options(b Backend, given func(name string) bool, auto bool) (BackendOptions, error) {
	for _, name := range bf.flags {
		if owner := bf.owner[name]; owner != b.Name() && given(name) {
			if auto {
				return nil, fmt.Errorf("--%s is an option of the %s backend, not of %s, which %s picked for this model (choose one with --backend)",
					name, owner, b.Name(), Auto)
			}
			return nil, fmt.Errorf("--%s is an option of the %s backend, not of %s", name, owner, b.Name())
		}
	}
	opts, ok := bf.byBackend[b.Name()]
	if !ok {
		return nil, fmt.Errorf("the %s backend has no flags here", b.Name())
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	return opts, nil
}
