package codegen_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
)

const module = "github.com/treegen/treegen/"

// deps returns the packages that pkg depends on, itself included.
func deps(t *testing.T, pkg string) map[string]bool {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", pkg).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", pkg, err)
	}
	set := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		set[p] = true
	}
	return set
}

// TestLayering checks the import graph of the code generator: no backend
// depends on another, and the emitter toolkit depends on no backend and on
// no codegen package: calls go from the driver to the backends and from
// both to the toolkit, never back.
func TestLayering(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go command not found")
	}
	var backends []string
	for _, name := range codegen.BackendNames() {
		backends = append(backends, module+"codegen/"+name)
	}
	for _, b := range backends {
		d := deps(t, b)
		if !d[module+"codegen/internal/emit"] {
			t.Errorf("%s does not use the emitter toolkit", b)
		}
		for _, other := range append(backends, module+"codegen") {
			if other != b && d[other] {
				t.Errorf("%s depends on %s", b, other)
			}
		}
	}
	for p := range deps(t, module+"codegen/internal/emit") {
		if strings.HasPrefix(p, module+"codegen") && p != module+"codegen/internal/emit" {
			t.Errorf("codegen/internal/emit depends on %s", p)
		}
	}
}
