package cart

import (
	"strings"
	"testing"
)

// TestCriteria checks that Criteria lists what Options takes and what its
// errors name, in their order.
func TestCriteria(t *testing.T) {
	var names []string
	for _, c := range Criteria() {
		if _, err := (Options{Criterion: c}).settings(); err != nil {
			t.Errorf("criterion %s: %v", c, err)
		}
		names = append(names, string(c))
	}
	want := "(want " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + ")"
	if _, err := (Options{Criterion: "gain"}).settings(); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an unknown criterion: %v; want the message to list %s", err, want)
	}
}
