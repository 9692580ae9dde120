package xgboost

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// dump shows a parsed value as compact JSON-like text: numbers as their JSON
// text, or as i(n) and f(x) for UBJSON integers and floats.
func dump(v *value) string {
	switch v.kind {
	case nullKind:
		return "null"
	case boolKind:
		return strconv.FormatBool(v.num == 1)
	case textKind:
		return v.str
	case intKind:
		return "i(" + strconv.FormatInt(int64(v.num), 10) + ")"
	case floatKind:
		return "f(" + strconv.FormatFloat(math.Float64frombits(v.num), 'g', -1, 64) + ")"
	case stringKind:
		return strconv.Quote(v.str)
	}
	var parts []string
	if v.kind == arrayKind {
		for i := range v.list {
			parts = append(parts, dump(&v.list[i]))
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	for i := 0; i < len(v.list); i += 2 {
		parts = append(parts, strconv.Quote(v.list[i].str)+":"+dump(&v.list[i+1]))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// ub builds UBJSON from pieces: strings are copied, ints become single bytes.
func ub(pieces ...any) []byte {
	var b []byte
	for _, p := range pieces {
		switch p := p.(type) {
		case string:
			b = append(b, p...)
		case int:
			b = append(b, byte(p))
		case []byte:
			b = append(b, p...)
		}
	}
	return b
}

func TestUBJSONValues(t *testing.T) {
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"scalars", ub("[", "Z", "T", "F", "i", 0xff, "U", 0xff, "I", 0x80, 0, "l", 0xff, 0xff, 0xff, 0xfe,
			"L", 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, "d", 0x3f, 0xc0, 0, 0, "D", 0xc0, 0x09, 0x21, 0xfb, 0x54, 0x44, 0x2d, 0x18,
			"C", "x", "S", "i", 3, "abc", "H", "U", 4, "1E-5", "]"),
			`[null,true,false,i(-1),i(255),i(-32768),i(-2),i(9223372036854775807),f(1.5),f(-3.141592653589793),"x","abc",1E-5]`},
		{"no-ops", ub("[", "N", "i", 1, "N", "N", "i", 2, "N", "]"), "[i(1),i(2)]"},
		{"empty containers", ub("[", "[", "]", "{", "}", "[", "#", "i", 0, "[", "$", "d", "#", "U", 0, "]"), "[[],{},[],[]]"},
		{"typed array", ub("[", "$", "l", "#", "i", 3, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff, 0, 0, 1, 0), "[i(1),i(-1),i(256)]"},
		{"typed uint8", ub("[", "$", "U", "#", "L", 0, 0, 0, 0, 0, 0, 0, 2, 1, 0), "[i(1),i(0)]"},
		{"typed float32", ub("[", "$", "d", "#", "i", 2, 0x7f, 0xc0, 0, 0, 0xff, 0x80, 0, 0), "[f(NaN),f(-Inf)]"},
		{"typed booleans", ub("[", "$", "T", "#", "i", 2), "[true,true]"},
		{"typed strings", ub("[", "$", "S", "#", "i", 2, "i", 1, "a", "U", 2, "bc"), `["a","bc"]`},
		{"typed arrays", ub("[", "$", "[", "#", "i", 2, "$", "U", "#", "i", 1, 7, "i", 8, "]"), "[[i(7)],[i(8)]]"},
		{"counted array", ub("[", "#", "i", 2, "S", "i", 1, "a", "T"), `["a",true]`},
		{"object", ub("{", "i", 1, "a", "i", 1, "U", 2, "bc", "[", "]", "}"), `{"a":i(1),"bc":[]}`},
		{"counted object", ub("{", "#", "i", 1, "L", 0, 0, 0, 0, 0, 0, 0, 1, "k", "Z"), `{"k":null}`},
		{"typed object", ub("{", "$", "i", "#", "i", 2, "i", 1, "a", 5, "i", 1, "b", 6), `{"a":i(5),"b":i(6)}`},
		{"no-op in object", ub("{", "N", "i", 1, "a", "N", "T", "N", "}"), `{"a":true}`},
	}
	for _, c := range cases {
		v, err := parseUBJSON(c.data)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := dump(v); got != c.want {
			t.Errorf("%s: got\n  %s\nwant\n  %s", c.name, got, c.want)
		}
	}
}

func TestUBJSONErrors(t *testing.T) {
	deep := strings.Repeat("[", maxNesting+1) + strings.Repeat("]", maxNesting+1)
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "byte 0: invalid UBJSON: unexpected end of input (truncated file?)"},
		{"unknown marker", ub("[", "i", 1, "q", "]"), "byte 3: invalid UBJSON: unknown type marker 'q'"},
		{"binary marker", ub("[", 0x01), "byte 1: invalid UBJSON: unknown type marker 0x01"},
		{"truncated int", ub("[", "l", 0, 0), "byte 4: invalid UBJSON: unexpected end of input (truncated file?)"},
		{"unclosed array", ub("[", "i", 1), "byte 3: invalid UBJSON: unexpected end of input (truncated file?)"},
		{"unclosed object", ub("{", "i", 1, "a", "T"), "byte 5: invalid UBJSON: unexpected end of input (truncated file?)"},
		{"negative count", ub("[", "#", "i", 0xfe), "byte 2: invalid UBJSON: negative count -2"},
		{"huge count", ub("[", "$", "L", "#", "L", 0x7f, 0, 0, 0, 0, 0, 0, 0, 0),
			"byte 4: invalid UBJSON: count 9151314442816847872: the 1 bytes left in the input cannot hold that many (truncated file?)"},
		{"huge typed bool count", ub("[", "$", "T", "#", "l", 0x7f, 0, 0, 0),
			"byte 4: invalid UBJSON: count 2130706432: too many elements without payload for a document of 9 bytes"},
		{"typed null counts", ub("[", "[", "$", "Z", "#", "l", 0, 1, 0, 0, "[", "$", "Z", "#", "i", 19, "]"), // 65536 + the size of the document
			"byte 14: invalid UBJSON: count 19: too many elements without payload for a document of 17 bytes"},
		{"huge string", ub("S", "l", 0x10, 0, 0, 0, "abc"),
			"byte 1: invalid UBJSON: string length 268435456: the 3 bytes left in the input cannot hold that many (truncated file?)"},
		{"float count", ub("[", "#", "d", 0, 0, 0, 0), "byte 2: invalid UBJSON: want an integer type marker (i, U, I, l or L) for a length or count, got 'd'"},
		{"type without count", ub("[", "$", "i", "i", 1), "byte 3: invalid UBJSON: a container with a type ($) needs a count (#)"},
		{"bad element type", ub("[", "$", "x", "#", "i", 1, 0), "byte 2: invalid UBJSON: invalid container element type 'x'"},
		{"key without length", ub("{", "S", "i", 1, "a", "T", "}"), "byte 1: invalid UBJSON: want an integer type marker (i, U, I, l or L) for a length or count, got 'S'"},
		{"duplicate key", ub("{", "i", 1, "a", "T", "i", 1, "a", "F", "}"), `byte 5: invalid UBJSON: duplicate key "a"`},
		{"bad high-precision number", ub("H", "i", 3, "1.x"), `byte 0: invalid UBJSON: high-precision number "1.x" is not a number`},
		{"trailing data", ub("T", "T"), "byte 1: invalid UBJSON: data after the top-level value"},
		{"too deep", []byte(deep), "byte 256: invalid UBJSON: nesting deeper than 256 levels"},
	}
	for _, c := range cases {
		_, err := parseUBJSON(c.data)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: error\n  %v\nwant\n  %s", c.name, err, c.want)
		}
	}
}

func TestJSONValues(t *testing.T) {
	cases := []struct{ in, want string }{
		{`{"a": [1, -2.5e+3, 0, -0, 1E9], "b": "x\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00", "c": [true, false, null]}`,
			`{"a":[1,-2.5e+3,0,-0,1E9],"b":"x\"\\/\b\f\n\r\té😀","c":[true,false,null]}`},
		{`[NaN, Infinity, -Infinity]`, `[NaN,Infinity,-Infinity]`},
		{`"\ud800x"`, `"` + "\ufffd" + `x"`},
		{"\ufeff {} ", `{}`},
	}
	for _, c := range cases {
		v, err := parseJSON([]byte(c.in))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := dump(v); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
}

func TestJSONErrors(t *testing.T) {
	deep := strings.Repeat("[", maxNesting+1)
	cases := []struct{ in, want string }{
		{``, "1:1: invalid JSON: unexpected end of input (truncated file?)"},
		{`[1,]`, "1:4: invalid JSON: invalid character ']' looking for beginning of value"},
		{`[1 2]`, "1:4: invalid JSON: invalid character '2' after array element"},
		{`{"a" 1}`, "1:6: invalid JSON: invalid character '1' after object key"},
		{`{1: 2}`, "1:2: invalid JSON: invalid character '1' looking for beginning of object key string"},
		{`[-]`, "1:3: invalid JSON: invalid character ']' in numeric literal"},
		{`[1.]`, "1:4: invalid JSON: invalid character ']' after decimal point in numeric literal"},
		{`[1e+]`, "1:5: invalid JSON: invalid character ']' in exponent of numeric literal"},
		{"[\"a\nb\"]", `1:4: invalid JSON: invalid character '\n' in string literal`},
		{`["\q"]`, `1:4: invalid JSON: invalid character 'q' in string escape code`},
		{`["\u12g4"]`, `1:7: invalid JSON: invalid character 'g' in \u hexadecimal character escape`},
		{`["abc`, "1:6: invalid JSON: unexpected end of input (truncated file?)"},
		{`[nul`, "1:5: invalid JSON: unexpected end of input (truncated file?)"},
		{`[nil]`, "1:2: invalid JSON: invalid character 'n' looking for beginning of value"},
		{"[\n\n  é]", "3:3: invalid JSON: invalid character 'é' looking for beginning of value"},
		{deep, "1:257: invalid JSON: nesting deeper than 256 levels"},
	}
	for _, c := range cases {
		_, err := parseJSON([]byte(c.in))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: error\n  %v\nwant\n  %s", c.in, err, c.want)
		}
	}
}
