package harness_test

import (
	"strings"
	"testing"

	"github.com/treegen/treegen/internal/tooling/harness"
	"github.com/treegen/treegen/ir"
)

func TestSameModel(t *testing.T) {
	m, err := ir.Load("../../../golden/axis100/model.json")
	if err != nil {
		t.Fatal(err)
	}
	hash, err := ir.Hash(m)
	if err != nil {
		t.Fatal(err)
	}
	const other = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	for _, tc := range []struct {
		name string
		pkg  harness.Package
		want string // "" for no error
	}{
		{"no hash", harness.Package{Name: "p", Dir: "d"}, ""},
		{"same", harness.Package{Name: "p", Dir: "d", ModelSHA256: hash, Source: "x.json"}, ""},
		{"another model", harness.Package{Name: "p", Dir: "d", ModelSHA256: other},
			"package p in d was generated from another model (model sha256 0123456789ab...), not from dir/model.json (sha256 " + hash[:12] + "...): check it against the model it came from, or regenerate it with: treegen gen --model dir/model.json --out d"},
		{"another file", harness.Package{Name: "p", Dir: "d", ModelSHA256: other, Source: "iris.json"},
			"package p in d was generated from iris.json (model sha256"},
		{"same file, other rounds", harness.Package{Name: "p", Dir: "d", ModelSHA256: other, Source: "model.json"},
			"--out d (a package generated with --iterations N is checked with the same --iterations N)"},
	} {
		err := tc.pkg.SameModel(m, "dir/model.json")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
	}
}
