package tooling_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/treegen/treegen/"

// deps returns, for every package of the module, the packages it
// depends on, directly or not, outside its tests.
func deps(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Deps \" \"}}", module+"...")
	out, err := cmd.Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, msg)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		m[f[0]] = f[1:]
	}
	return m
}

// TestLayering checks the two floors of internal/: a ground package
// (under internal/, not under internal/tooling) imports no package of the
// module outside the ground floor, and no package that ships (ir, runtime,
// data, codegen, the trainers, the importers, the public library packages)
// imports tooling outside its tests. The command is the exception: its
// check and bench build and run generated code.
func TestLayering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	graph := deps(t)
	ground := map[string]bool{}
	for p := range graph {
		if strings.HasPrefix(p, module+"internal/") && !strings.HasPrefix(p, module+"internal/tooling") {
			ground[p] = true
		}
	}
	if len(ground) == 0 {
		t.Fatal("no ground package found under internal/")
	}
	for p, ds := range graph {
		for _, d := range ds {
			if !strings.HasPrefix(d, module) {
				continue
			}
			switch {
			case ground[p] && !ground[d]:
				t.Errorf("ground package %s depends on %s, which is not on the ground floor", p, d)
			case strings.HasPrefix(d, module+"internal/tooling") && ships(p):
				t.Errorf("%s depends on %s: test and bench tooling must not ship in a library package", p, d)
			}
		}
	}
}

// ships reports whether the package p is one that users import or run: not
// tooling itself, nor the docs programs, examples, generated golden
// packages, test suites, or the command.
func ships(p string) bool {
	for _, prefix := range []string{"internal/", "docs/", "examples", "generated", "codegen/internal/gentest", "cmd/"} {
		if strings.HasPrefix(p, module+prefix) {
			return false
		}
	}
	return true
}
