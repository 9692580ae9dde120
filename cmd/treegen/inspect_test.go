package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

// TestInspectEscapes: strings from a model file reach the terminal and the
// dot graph escaped, so that a model cannot clear the screen, rewrite a
// line or forge one.
func TestInspectEscapes(t *testing.T) {
	m, err := ir.Load("../../ir/testdata/stump.json")
	if err != nil {
		t.Fatal(err)
	}
	const evil = "x\x1b[2J\rforged line\x00\u202e"
	m.Name = evil
	m.FeatureNames = []string{"age" + evil, "income"}
	m.Provenance = &ir.Provenance{Producer: evil, Params: map[string]string{"k" + evil: evil}, Data: map[string]string{"d": evil}}
	path := filepath.Join(t.TempDir(), "evil.json")
	if err := ir.Save(path, m); err != nil {
		t.Fatal(err)
	}
	out, _ := succeeds(t, "inspect", path)
	dot, _ := succeeds(t, "inspect", "--dot", path)
	for name, text := range map[string]string{"inspect": out, "inspect --dot": dot} {
		for _, bad := range []string{"\x1b", "\r", "\x00", "\u202e"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s writes %q raw:\n%s", name, bad, text)
			}
		}
	}
	if !strings.Contains(out, `producer     "x\x1b[2J\rforged line\x00\u202e"`) {
		t.Errorf("inspect does not quote the producer:\n%s", out)
	}
	if !strings.Contains(dot, `x\\x1b[2J\\rforged line\\x00\\u202e`) {
		t.Errorf("inspect --dot does not escape the name:\n%s", dot)
	}
}
