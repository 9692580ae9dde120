package codegen_test

import (
	"flag"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/smoothstep"
)

// TestBackendFlags checks that a backend gets its own options from the
// flags, and that a flag of another backend is refused, naming both.
func TestBackendFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		backend codegen.Backend
		auto    bool
		prune   float64 // of smoothstep's options
		err     string
	}{
		{name: "defaults", backend: smoothstep.Backend{}},
		{name: "own flag", args: []string{"--prune", "0.25"}, backend: smoothstep.Backend{}, prune: 0.25},
		{name: "another's flag", args: []string{"--prune", "0.25"}, backend: ifelse.Backend{},
			err: "--prune is an option of the smoothstep backend, not of ifelse"},
		{name: "another's flag, auto", args: []string{"--prune", "0.25"}, backend: ifelse.Backend{}, auto: true,
			err: "--prune is an option of the smoothstep backend, not of ifelse, which auto picked for this model (choose one with --backend)"},
		{name: "invalid", args: []string{"--soft-path", "sideways"}, backend: smoothstep.Backend{},
			err: `--soft-path "sideways"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("gen", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			bf, err := codegen.NewBackendFlags(fs)
			if err != nil {
				t.Fatal(err)
			}
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			given := map[string]bool{}
			fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
			opts, err := bf.Options(tc.backend, func(name string) bool { return given[name] }, tc.auto)
			switch {
			case tc.err != "":
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
			case err != nil:
				t.Fatal(err)
			default:
				if o, ok := opts.(*smoothstep.Options); ok && o.Prune != tc.prune {
					t.Errorf("prune %v, want %v", o.Prune, tc.prune)
				}
			}
		})
	}
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.Bool("prune", false, "a flag of the command")
	if _, err := codegen.NewBackendFlags(fs); err == nil || !strings.Contains(err.Error(), "flag --prune of the smoothstep backend is already a flag of gen") {
		t.Errorf("a clash of flags: %v", err)
	}
}

// A command line that takes the options of whichever backend a model gets.
func ExampleBackendFlags() {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	bf, err := codegen.NewBackendFlags(fs)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := fs.Parse([]string{"--prune", "0.01"}); err != nil {
		fmt.Println(err)
		return
	}
	given := func(name string) bool { return name == "prune" }
	opts, err := bf.Options(smoothstep.Backend{}, given, false)
	fmt.Println(opts, err)
	_, err = bf.Options(ifelse.Backend{}, given, true)
	fmt.Println(err)
	// Output:
	// prune 0.01 <nil>
	// --prune is an option of the smoothstep backend, not of ifelse, which auto picked for this model (choose one with --backend)
}
