package latent

import (
	"strings"
	"testing"
)

// orList joins names as "a, b or c", as errors list them.
func orList[T ~string](values []T) string {
	names := make([]string, len(values))
	for i, v := range values {
		names[i] = string(v)
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// TestValues checks that Losses, Splits and Optimizers list what Options
// takes and what its errors name, in their order.
func TestValues(t *testing.T) {
	for _, tc := range []struct {
		name   string
		values []func(*Options)
		bad    func(*Options)
		list   string
	}{
		{"loss", setAll(Losses(), func(o *Options, v Loss) { *o = DefaultOptions(v) }), func(o *Options) { o.Loss = "hinge" }, orList(Losses())},
		{"split", setAll(Splits(), func(o *Options, v Split) { o.Split = v }), func(o *Options) { o.Split = "relu" }, orList(Splits())},
		{"optimizer", setAll(Optimizers(), func(o *Options, v Optimizer) { o.Optimizer = v }), func(o *Options) { o.Optimizer = "sgd" }, orList(Optimizers())},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i, set := range tc.values {
				o := DefaultOptions(SquaredError)
				set(&o)
				if _, err := o.settings(false); err != nil {
					t.Errorf("value %d: %v", i, err)
				}
			}
			o := DefaultOptions(SquaredError)
			tc.bad(&o)
			if _, err := o.settings(false); err == nil || !strings.Contains(err.Error(), "(want "+tc.list+")") {
				t.Errorf("an unknown %s: %v; want the message to list %s", tc.name, err, tc.list)
			}
		})
	}
}

// setAll returns, for each value, a function that sets it on options.
func setAll[T any](values []T, set func(*Options, T)) []func(*Options) {
	fs := make([]func(*Options), len(values))
	for i, v := range values {
		fs[i] = func(o *Options) { set(o, v) }
	}
	return fs
}
