package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
)

// Shell completion ("treegen completion bash|zsh|fish|powershell") offers
// the values of every flag that takes one of a fixed set. A flag whose
// value type has a method Values() []string (--precision, --libsvm-absent,
// --libsvm-base, a backend's options such as --soft-path, the trainers'
// enumerated options such as --objective and --loss) gets them
// without more ado; a plain string flag gets them from enumFlags, by name.
// The values come from the packages that take them, never from a list kept
// here. Flags that name a directory complete directories; every other flag
// completes file names, the shell's default.

// valuer is a flag value that lists the values it takes.
type valuer interface {
	Values() []string
}

// enumFlag gives the values of the string flag named flag of the commands
// named cmd ("" for every command that has it).
type enumFlag struct {
	cmd, flag string
	values    func() []string
	// list says that the flag takes a comma-separated list of the values.
	list bool
}

// enumFlags are the string flags that take one of a fixed set of values.
var enumFlags = []enumFlag{
	{"", "backend", backendValues, false},
	{"bench", "backends", backendValues, true},
	{"", "link", stringsOf(ir.Links), false},
}

// dirFlags are the flags, by command and flag name, that name a directory.
var dirFlags = []struct{ cmd, flag string }{
	{"gen", "out"},
	{"check", "dir"},
	{"demo", "dir"},
}

// backendValues returns the names of the backends and auto.
func backendValues() []string {
	return append(slices.Clone(codegen.BackendNames()), codegen.Auto)
}

// stringsOf turns a function that lists values of a string type into one
// that lists them as strings.
func stringsOf[T ~string](list func() []T) func() []string {
	return func() []string {
		values := list()
		names := make([]string, len(values))
		for i, v := range values {
			names[i] = string(v)
		}
		return names
	}
}

// registerCompletions walks the command tree under root and registers the
// completion of the values of every flag that takes one of a fixed set,
// and of the directory flags. It runs once the tree is built, so that
// every command's flags, whoever defined them, take part.
func registerCompletions(root *cobra.Command) {
	var walk func(*cobra.Command)
	walk = func(cmd *cobra.Command) {
		register := func(f *pflag.Flag) {
			if _, ok := cmd.GetFlagCompletionFunc(f.Name); ok {
				return
			}
			if values, list, ok := flagValues(cmd, f); ok {
				cmd.RegisterFlagCompletionFunc(f.Name, completeValues(values, list))
				return
			}
			for _, d := range dirFlags {
				if d.cmd == cmd.Name() && d.flag == f.Name {
					cmd.MarkFlagDirname(f.Name)
				}
			}
		}
		cmd.Flags().VisitAll(register)
		cmd.PersistentFlags().VisitAll(register)
		for _, sub := range cmd.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// flagValues returns the values the flag f of cmd takes, and whether it
// takes a comma-separated list of them; ok is false for a flag that takes
// any value.
func flagValues(cmd *cobra.Command, f *pflag.Flag) (values func() []string, list, ok bool) {
	if v, isValuer := f.Value.(valuer); isValuer {
		return v.Values, false, true
	}
	var found *enumFlag
	for i, e := range enumFlags {
		if e.flag != f.Name {
			continue
		}
		if e.cmd == cmd.Name() {
			found = &enumFlags[i]
			break
		}
		if e.cmd == "" && found == nil {
			found = &enumFlags[i]
		}
	}
	if found == nil {
		return nil, false, false
	}
	return found.values, found.list, true
}

// completeValues returns the completion function of a flag that takes one
// of values, or with list a comma-separated list of them: it offers the
// values that begin with what is typed (after its last comma, for a list,
// leaving out those the list has), and no file names.
func completeValues(values func() []string, list bool) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		prefix, last := "", toComplete
		var chosen []string
		if list {
			if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
				prefix, last = toComplete[:i+1], toComplete[i+1:]
				chosen = strings.Split(toComplete[:i], ",")
			}
		}
		var out []cobra.Completion
		for _, v := range values() {
			if strings.HasPrefix(v, last) && !slices.Contains(chosen, v) {
				out = append(out, prefix+v)
			}
		}
		directive := cobra.ShellCompDirectiveNoFileComp
		if list {
			directive |= cobra.ShellCompDirectiveNoSpace
		}
		return out, directive
	}
}
