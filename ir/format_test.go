package ir

import "testing"

// TestReindent checks Marshal's layout on encoding/json's compact output:
// short values on one line, long ones one member per line, arrays of
// scalars on one line however long, member names and strings (escapes
// included) and numbers kept as they are. The expected texts are those of
// the layout's first implementation, which parsed with encoding/json's
// Decoder; the hand-written parser must give the same bytes.
func TestReindent(t *testing.T) {
	for i, c := range []struct{ in, want string }{
		{"{}", "{}\n"},
		{"[]", "[]\n"},
		{"{\"a\":1}", "{\"a\": 1}\n"},
		{"{\"a\":[],\"b\":{}}", "{\"a\": [], \"b\": {}}\n"},
		{"{\"name\":\"a \\\"quoted\\\" \\\\ name\",\"x\":[1,2,3]}", "{\"name\": \"a \\\"quoted\\\" \\\\ name\", \"x\": [1, 2, 3]}\n"},
		{"{\"kéy\":\"\\u003chtml\\u003e\",\"n\":null,\"t\":true,\"f\":false}", "{\"kéy\": \"\\u003chtml\\u003e\", \"n\": null, \"t\": true, \"f\": false}\n"},
		{"{\"trees\":[{\"nodes\":[{\"kind\":\"leaf\",\"value\":[0.5]},{\"kind\":\"soft\",\"indices\":[0,1,2],\"weights\":[0.123456789012345,-1e-300,3]}],\"output\":0}],\"long\":[1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,1.5,2],\"nested\":{\"a\":{\"b\":{\"c\":\"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"}}}}", "{\n  \"trees\": [{\"nodes\": [{\"kind\": \"leaf\", \"value\": [0.5]}, {\"kind\": \"soft\", \"indices\": [0, 1, 2], \"weights\": [0.123456789012345, -1e-300, 3]}], \"output\": 0}],\n  \"long\": [1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 1.5, 2],\n  \"nested\": {\n    \"a\": {\n      \"b\": {\n        \"c\": \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"\n      }\n    }\n  }\n}\n"},
		{"[[1,2],[3,[4,5]],{\"\":\"empty key\"}]", "[[1, 2], [3, [4, 5]], {\"\": \"empty key\"}]\n"},
	} {
		got, err := reindent([]byte(c.in))
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if string(got) != c.want {
			t.Errorf("case %d:\ngot  %q\nwant %q", i, got, c.want)
		}
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":1`, `[1,]`, `"abc`, `{"a":1}x`, `[1 2]`} {
		if _, err := reindent([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
