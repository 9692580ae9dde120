package codegen_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
)

// TestDocsNameEveryBackend checks that the command references in README.md
// and docs/CLI.md list the backends of codegen's list, in its order.
func TestDocsNameEveryBackend(t *testing.T) {
	names := codegen.BackendNames()
	gen := "--backend " + codegen.Auto + "|" + strings.Join(names, "|")
	bench := "--backends auto|" + strings.Join(names, ",") + ",interp"
	backendRE := regexp.MustCompile(`--backends? [a-z|,]+`)
	for _, doc := range []string{"README.md", "docs/CLI.md"} {
		data, err := os.ReadFile(filepath.Join("..", doc))
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, m := range backendRE.FindAllString(string(data), -1) {
			if !strings.ContainsAny(m, "|,") {
				continue // a flag named in prose
			}
			found++
			want := gen
			if strings.HasPrefix(m, "--backends") {
				want = bench
			}
			if m != want {
				t.Errorf("%s: %q, want %q", doc, m, want)
			}
		}
		if found < 2 {
			t.Errorf("%s: %d lists of backends, want the gen and bench ones", doc, found)
		}
	}
}
