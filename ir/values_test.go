package ir

import (
	"strings"
	"testing"
)

// TestLinks checks that Links lists what Validate takes and what its
// error names, in their order.
func TestLinks(t *testing.T) {
	var names []string
	for _, l := range Links() {
		names = append(names, string(l))
	}
	want := "(want " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + ")"
	for _, l := range Links() {
		m := stump(t)
		m.Link = l
		if err := m.Validate(); err != nil && strings.Contains(err.Error(), "unknown link") {
			t.Errorf("link %s: %v", l, err)
		}
	}
	m := stump(t)
	m.Link = "tanh"
	if err := m.Validate(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an unknown link: %v; want the message to list %s", err, want)
	}
}

// TestPrecisionValues checks that every value Values offers is one Set
// takes.
func TestPrecisionValues(t *testing.T) {
	var p Precision
	values := p.Values()
	if len(values) != len(Precisions()) {
		t.Fatalf("Values = %v, Precisions = %v", values, Precisions())
	}
	for _, v := range values {
		if err := p.Set(v); err != nil || string(p) != v {
			t.Errorf("Set(%q) = %v, gives %q", v, err, p)
		}
	}
}
