package tel

import (
	"strings"
	"testing"
)

// TestLosses checks that Losses lists what Options takes and what its
// errors name, in their order.
func TestLosses(t *testing.T) {
	var names []string
	for _, l := range Losses() {
		if _, err := DefaultOptions(l).settings(false); err != nil {
			t.Errorf("loss %s: %v", l, err)
		}
		names = append(names, string(l))
	}
	_, err := Options{Loss: "hinge"}.settings(false)
	want := "(want " + strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1] + ")"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("an unknown loss: %v; want the message to list %s", err, want)
	}
}
