package data

import "testing"

// TestFlagValues checks that every value the flags offer is one their Set
// takes, and gives back that name.
func TestFlagValues(t *testing.T) {
	var a Absent
	var b IndexBase
	for _, tc := range []struct {
		name   string
		values []string
		set    func(string) error
		get    func() string
	}{
		{"absent", a.Values(), a.Set, func() string { return a.String() }},
		{"base", b.Values(), b.Set, func() string { return b.String() }},
	} {
		if len(tc.values) < 2 {
			t.Errorf("%s: Values = %v", tc.name, tc.values)
		}
		for _, v := range tc.values {
			if err := tc.set(v); err != nil || tc.get() != v {
				t.Errorf("%s: Set(%q) = %v, gives %q", tc.name, v, err, tc.get())
			}
		}
	}
}
