package ir

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/treegen/treegen/internal/atomicfile"
)

// Decode parses an IR document strictly: malformed JSON is reported with its
// line and column, an unknown field or a value of the wrong type with its JSON
// path, an unsupported format_version as such. name (a file name) prefixes
// every error. Decode does not call Validate; Load does.
func Decode(data []byte, name string) (*Model, error) {
	wrap := func(format string, args ...any) error {
		return fmt.Errorf("%s: %s", name, fmt.Sprintf(format, args...))
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.Offset)
			return nil, wrap("%d:%d: invalid JSON: %s", line, col, strings.TrimPrefix(se.Error(), "json: "))
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			line, col := lineCol(data, int64(len(data)))
			return nil, wrap("%d:%d: invalid JSON: unexpected end of input (truncated file?)", line, col)
		}
		return nil, wrap("invalid JSON: %v", err)
	}
	if dec.More() {
		line, col := lineCol(data, dec.InputOffset())
		return nil, wrap("%d:%d: invalid JSON: data after the top-level value", line, col)
	}
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, wrap("not a treegen model: the top level is %s, want an object", jsonKind(raw))
	}
	v, ok := obj["format_version"]
	if !ok {
		return nil, wrap("not a treegen model: format_version is missing")
	}
	version, ok := v.(string)
	if !ok {
		return nil, wrap("format_version: want a string such as %q, got %s", FormatVersion, jsonKind(v))
	}
	if err := CheckVersion(version); err != nil {
		return nil, wrap("%v", err)
	}
	if err := checkDuplicateKeys(data); err != nil {
		return nil, wrap("%v", err)
	}
	if err := checkShape(raw, reflect.TypeOf(Model{}), ""); err != nil {
		return nil, wrap("%v", err)
	}
	if err := checkAddedFields(obj, version); err != nil {
		return nil, wrap("%v", err)
	}
	var m Model
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		// checkShape should have caught it; report what the decoder says.
		return nil, wrap("%v", err)
	}
	return &m, nil
}

// addedIn maps each top-level field added after format version 1.0 to the
// minor version that added it.
var addedIn = map[string]int{"trees_per_round": 1}

// checkAddedFields refuses a field that the file's format version predates:
// a reader of that version would refuse the file (decoding is strict), so
// the version the file states is wrong.
func checkAddedFields(obj map[string]any, version string) error {
	_, m, _ := strings.Cut(version, ".")
	minor, _ := strconv.Atoi(m) // CheckVersion has checked it
	keys := make([]string, 0, len(addedIn))
	for k := range addedIn {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	major, _, _ := strings.Cut(version, ".")
	for _, k := range keys {
		if _, ok := obj[k]; ok && minor < addedIn[k] {
			return fmt.Errorf("%s: this field was added in format version %s.%d, but the file says format_version %q", k, major, addedIn[k], version)
		}
	}
	trees, _ := obj["trees"].([]any)
	if minor >= statsAddedIn {
		return nil
	}
	for i, t := range trees {
		t, ok := t.(map[string]any)
		if !ok {
			continue
		}
		if _, ok := t["activation"]; ok && minor < activationAddedIn {
			return fmt.Errorf("trees[%d].activation: this field was added in format version %s.%d, but the file says format_version %q", i, major, activationAddedIn, version)
		}
		nodes, _ := t["nodes"].([]any)
		for j, n := range nodes {
			n, ok := n.(map[string]any)
			if !ok {
				continue
			}
			for _, k := range [...]string{"gain", "cover"} {
				if _, ok := n[k]; ok {
					return fmt.Errorf("trees[%d].nodes[%d].%s: this field was added in format version %s.%d, but the file says format_version %q", i, j, k, major, statsAddedIn, version)
				}
			}
		}
	}
	return nil
}

// activationAddedIn is the minor version that added Tree.Activation,
// statsAddedIn the one that added Node.Gain and Node.Cover.
const (
	activationAddedIn = 2
	statsAddedIn      = 3
)

// stamped returns m as Marshal and Hash encode it: with the format version
// MinFormatVersion, the lowest that can represent it (a shallow copy when
// that is not m's). A model whose version this package does not read keeps
// it, so that it stays visibly invalid.
func stamped(m *Model) *Model {
	if CheckVersion(m.FormatVersion) != nil {
		return m
	}
	if v := m.MinFormatVersion(); v != m.FormatVersion {
		c := *m
		c.FormatVersion = v
		return &c
	}
	return m
}

// Load reads, decodes and validates the model file at path.
func Load(path string) (*Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := Decode(data, path)
	if err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: invalid model: %w", path, err)
	}
	return m, nil
}

// Marshal encodes m as JSON laid out for people and diffs (a value that fits
// on a line stays on one line, one tree node per line in typical models),
// with a trailing newline. The encoding is deterministic: the same model
// gives the same bytes. The format_version written is m.MinFormatVersion(),
// the lowest version that can represent m, whatever m.FormatVersion says
// (provided it is a 1.x version): a model that uses no field added after
// 1.0 is written as 1.0, which every 1.x reader reads.
func Marshal(m *Model) ([]byte, error) {
	data, err := json.Marshal(stamped(m))
	if err != nil {
		return nil, err
	}
	return reindent(data)
}

// Save validates m and writes it to path atomically: on any error the file
// at path, if any, is left untouched.
func Save(path string, m *Model) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("refusing to write an invalid model: %w", err)
	}
	data, err := Marshal(m)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(path, data, 0o644)
}

// Hash returns the hex SHA-256 of the model's canonical encoding: its
// compact JSON (encoding/json, fields in declaration order, no spaces), with
// the format_version that Marshal writes, so that a model and the file
// Marshal makes of it hash alike.
func Hash(m *Model) (string, error) {
	data, err := json.Marshal(stamped(m))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// lineCol converts a byte offset into a 1-based line and column.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	if off < 0 {
		off = 0
	}
	prefix := data[:off]
	line = bytes.Count(prefix, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(prefix, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return fmt.Sprintf("%T", v)
}

// checkShape walks a generic JSON value against the Go type it will decode
// into and reports the first unknown field or mismatched kind with its path.
func checkShape(v any, t reflect.Type, path string) error {
	at := func() string {
		if path == "" {
			return "top level"
		}
		return path
	}
	if v == nil {
		// encoding/json reads null as the zero value: 0 for a number, ""
		// for a string, nothing for an optional field. Only an array may
		// be null, as Marshal writes an empty one (a model without trees).
		if t.Kind() == reflect.Slice {
			return nil
		}
		return fmt.Errorf("%s: null is not a value: leave an optional field out, or give its value", at())
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	mismatch := func(want string) error {
		return fmt.Errorf("%s: want %s, got %s", at(), want, jsonKind(v))
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return mismatch("an object")
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ft, ok := fields[k]
			if !ok {
				names := make([]string, 0, len(fields))
				for n := range fields {
					names = append(names, n)
				}
				sort.Strings(names)
				return fmt.Errorf("%s: unknown field %q (known: %s)", join(path, k), k, strings.Join(names, ", "))
			}
			if err := checkShape(obj[k], ft, join(path, k)); err != nil {
				return err
			}
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return mismatch("an object")
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if err := checkShape(obj[k], t.Elem(), join(path, k)); err != nil {
				return err
			}
		}
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			return mismatch("an array")
		}
		for i, e := range arr {
			if err := checkShape(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return mismatch("a string")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return mismatch("true or false")
		}
	case reflect.Int, reflect.Int32, reflect.Int64:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch("an integer")
		}
		if _, err := n.Int64(); err != nil {
			return fmt.Errorf("%s: want an integer, got %s", at(), n)
		}
	case reflect.Float64, reflect.Float32:
		n, ok := v.(json.Number)
		if !ok {
			return mismatch("a number")
		}
		if _, err := n.Float64(); err != nil {
			return fmt.Errorf("%s: %s is out of range", at(), n)
		}
	}
	return nil
}

// checkDuplicateKeys returns an error naming the JSON path of the first
// object key that appears twice in the same object: encoding/json keeps
// the last one, so {"task": "binary", "task": "regression"} would load as
// a regression without a word. data is valid JSON.
func checkDuplicateKeys(data []byte) error {
	type frame struct {
		path   string
		object bool
		keys   map[string]bool
		index  int    // arrays: the next element's index
		key    string // objects: the key whose value comes next
		want   bool   // objects: a key comes next
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*frame
	// child returns the path of the value that comes next in the top frame.
	child := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.object {
			return join(f.path, f.key)
		}
		p := fmt.Sprintf("%s[%d]", f.path, f.index)
		f.index++
		return p
	}
	// value records that a value was read in the top frame.
	value := func() {
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].want = true
		}
	}
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return nil // Decode reports malformed JSON
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.want {
			if k, ok := tok.(string); ok {
				if top.keys[k] {
					return fmt.Errorf("%s: the key %q appears twice in one object", join(top.path, k), k)
				}
				top.keys[k] = true
				top.key, top.want = k, false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{path: child(), object: true, keys: map[string]bool{}, want: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: child()})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			value()
		default:
			if top != nil && !top.object {
				top.index++
			}
			value()
		}
	}
}

// jsonFields maps the JSON names of a struct's fields to their types.
// It is computed once per type: checkShape asks for every object of a
// file.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldCache.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	fields := make(map[string]reflect.Type, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	fieldCache.Store(t, fields)
	return fields
}

// fieldCache holds jsonFields' maps by type.
var fieldCache sync.Map

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
