package tao

import (
	"strconv"
	"strings"
	"testing"
)

// quotedList joins values as `"a", "b" or "c"`, as errors list them.
func quotedList[T ~string](values []T) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = strconv.Quote(string(v))
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// TestValues checks that Kinds and Inits list what Options takes and what
// its errors name, in their order.
func TestValues(t *testing.T) {
	for _, k := range Kinds() {
		if _, err := (Options{Kind: k}).settings(4, 3); err != nil {
			t.Errorf("kind %s: %v", k, err)
		}
	}
	for _, in := range Inits() {
		if _, err := (Options{Kind: ST, Init: in}).settings(4, 3); err != nil {
			t.Errorf("init %s: %v", in, err)
		}
	}
	for _, tc := range []struct {
		name string
		o    Options
		list string
	}{
		{"kind", Options{Kind: "forest"}, quotedList(Kinds())},
		{"init", Options{Kind: ST, Init: "random"}, quotedList(Inits())},
	} {
		if _, err := tc.o.settings(4, 3); err == nil || !strings.Contains(err.Error(), "(want "+tc.list+")") {
			t.Errorf("an unknown %s: %v; want the message to list %s", tc.name, err, tc.list)
		}
	}
}
