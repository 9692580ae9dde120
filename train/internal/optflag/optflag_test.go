package optflag

import (
	"flag"
	"io"
	"math"
	"slices"
	"testing"
)

func TestGiven(t *testing.T) {
	tests := []struct {
		args  []string
		given []string
		n     int
		on    bool
	}{
		{nil, nil, 3, false},
		{[]string{"-n", "3"}, []string{"n"}, 3, false},
		{[]string{"-n=5", "-on"}, []string{"n", "on"}, 5, true},
		{[]string{"-on=false"}, []string{"on"}, 3, false},
	}
	for _, tt := range tests {
		fs := flag.NewFlagSet("t", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		s := New(fs)
		n, on := 3, false
		s.Int(&n, "n", "a number")
		s.Bool(&on, "on", "a switch")
		if err := fs.Parse(tt.args); err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		if n != tt.n || on != tt.on {
			t.Errorf("%v: n %d on %v, want %d %v", tt.args, n, on, tt.n, tt.on)
		}
		for _, name := range []string{"n", "on"} {
			want := false
			for _, g := range tt.given {
				want = want || g == name
			}
			if s.Given(name) != want {
				t.Errorf("%v: Given(%q) = %v, want %v", tt.args, name, !want, want)
			}
		}
	}
	var none *Set
	if none.Given("n") {
		t.Error("a nil Set gives a flag")
	}
}

func TestRecordedValue(t *testing.T) {
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	s := New(fs)
	var (
		i  int
		u  uint64 = 1
		f         = 0.5
		b  bool
		st = "x"
	)
	s.Int(&i, "i", "")
	s.Uint64(&u, "u", "")
	s.Float(&f, "f", "")
	s.Bool(&b, "b", "")
	s.String(&st, "s", "")
	tests := []struct{ name, typ, def string }{
		{"i", "int", "0"}, {"u", "uint64", "1"}, {"f", "float64", "0.5"}, {"b", "bool", "false"}, {"s", "string", "x"},
	}
	for _, tt := range tests {
		fl := fs.Lookup(tt.name)
		typ := fl.Value.(interface{ Type() string }).Type()
		if typ != tt.typ || fl.DefValue != tt.def || fl.Value.String() != tt.def {
			t.Errorf("--%s: type %q default %q value %q, want %q %q", tt.name, typ, fl.DefValue, fl.Value.String(), tt.typ, tt.def)
		}
		_, isBool := fl.Value.(interface{ IsBoolFlag() bool })
		if isBool != (tt.typ == "bool") {
			t.Errorf("--%s: IsBoolFlag %v", tt.name, isBool)
		}
	}
	if err := fs.Parse([]string{"-i", "x"}); err == nil || s.Given("i") {
		t.Errorf("a bad value: error %v, given %v", err, s.Given("i"))
	}
}

func TestChecks(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{AtLeast("trees", 0, 1), "--trees must be at least 1, got 0"},
		{AtLeast("trees", 1, 1), ""},
		{Between("depth", 11, 1, 10), "--depth must be between 1 and 10, got 11"},
		{Between("depth", 10, 1, 10), ""},
		{Positive("lr", 0), "--lr must be a finite number > 0, got 0"},
		{Positive("lr", math.Inf(1)), "--lr must be a finite number > 0, got +Inf"},
		{NonNegative("l2", -1), "--l2 must be a finite number >= 0, got -1"},
		{NonNegative("l2", 0), ""},
		{Fraction("subsample", 1.5), "--subsample must be in (0, 1], got 1.5"},
		{Fraction("subsample", 1), ""},
		{OneOf("loss", "x", "a", "b", "c"), `--loss must be a, b or c, got "x"`},
		{OneOf("loss", "b", "a", "b"), ""},
		{First(nil, AtLeast("a", 0, 1), AtLeast("b", 0, 1)), "--a must be at least 1, got 0"},
		{First(nil, nil), ""},
	}
	for _, tt := range tests {
		got := ""
		if tt.err != nil {
			got = tt.err.Error()
		}
		if got != tt.want {
			t.Errorf("got %q, want %q", got, tt.want)
		}
	}
}

// TestEnum checks that an enumerated flag lists its values, a fresh slice
// each time, and records that it was given.
func TestEnum(t *testing.T) {
	type kind string
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	s := New(fs)
	v := "a"
	s.Enum(&v, "kind", "a kind", Strings([]kind{"a", "b"}))
	values := fs.Lookup("kind").Value.(interface{ Values() []string })
	got := values.Values()
	if !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("Values() = %v", got)
	}
	got[0] = "changed"
	if values.Values()[0] != "a" {
		t.Error("Values shares its slice with the caller")
	}
	if s.Given("kind") {
		t.Error("given before parsing")
	}
	if err := fs.Parse([]string{"--kind", "b"}); err != nil {
		t.Fatal(err)
	}
	if v != "b" || !s.Given("kind") {
		t.Errorf("after --kind b: value %q, given %v", v, s.Given("kind"))
	}
}
