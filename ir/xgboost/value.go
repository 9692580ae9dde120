package xgboost

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// kind is the type of a parsed value. JSON and UBJSON documents both parse
// into values, so one converter serves both formats.
type kind uint8

const (
	nullKind   kind = iota
	boolKind        // num is 0 or 1
	textKind        // a number written as text (JSON, UBJSON 'H'): str
	intKind         // a UBJSON integer: num holds its int64 bits
	floatKind       // a UBJSON float32 or float64: num holds its float64 bits
	stringKind      // str
	arrayKind       // list holds the elements
	objectKind      // list holds key, value, key, value, ...
)

// value is a parsed JSON or UBJSON value. Numbers written as text keep their
// text, so that a float32 is parsed from the decimal in one rounding.
type value struct {
	kind kind
	num  uint64
	str  string
	list []value
}

func (k kind) String() string {
	switch k {
	case nullKind:
		return "null"
	case boolKind:
		return "a boolean"
	case textKind, intKind, floatKind:
		return "a number"
	case stringKind:
		return "a string"
	case arrayKind:
		return "an array"
	}
	return "an object"
}

// field returns the member key of object v, or nil.
func (v *value) field(key string) *value {
	if v == nil || v.kind != objectKind {
		return nil
	}
	for i := 0; i+1 < len(v.list); i += 2 {
		if v.list[i].str == key {
			return &v.list[i+1]
		}
	}
	return nil
}

// pathError is an error about the value at a path of the document.
type pathError struct {
	path string
	msg  string
}

func (e *pathError) Error() string {
	if e.path == "" {
		return e.msg
	}
	return e.path + ": " + e.msg
}

func errorf(path, format string, args ...any) error {
	return &pathError{path: path, msg: fmt.Sprintf(format, args...)}
}

// object checks that v is an object.
func object(v *value, path string) error {
	switch {
	case v == nil:
		return errorf(path, "is missing")
	case v.kind != objectKind:
		return errorf(path, "want an object, got %s", v.kind)
	}
	return nil
}

// array returns the elements of array v.
func array(v *value, path string) ([]value, error) {
	switch {
	case v == nil:
		return nil, errorf(path, "is missing")
	case v.kind != arrayKind:
		return nil, errorf(path, "want an array, got %s", v.kind)
	}
	return v.list, nil
}

// str returns the string v.
func str(v *value, path string) (string, error) {
	switch {
	case v == nil:
		return "", errorf(path, "is missing")
	case v.kind != stringKind:
		return "", errorf(path, "want a string, got %s", v.kind)
	}
	return v.str, nil
}

// integer returns the integer v. With quoted set, a string holding a decimal
// integer is accepted too (XGBoost writes its parameters as strings).
func integer(v *value, path string, quoted bool) (int64, error) {
	if v == nil {
		return 0, errorf(path, "is missing")
	}
	var text string
	switch v.kind {
	case intKind:
		return int64(v.num), nil
	case floatKind:
		f := math.Float64frombits(v.num)
		if f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
			return int64(f), nil
		}
		return 0, errorf(path, "want an integer, got %v", f)
	case textKind:
		text = v.str
	case stringKind:
		if !quoted {
			return 0, errorf(path, "want an integer, got a string")
		}
		text = strings.TrimSpace(v.str)
	default:
		return 0, errorf(path, "want an integer, got %s", v.kind)
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		return 0, errorf(path, "want an integer, got %s", describe(v))
	}
	return n, nil
}

// float32Of returns the number v rounded once to float32. With quoted set, a
// string holding a number is accepted too. NaN and ±Inf are returned as such;
// callers decide whether they are allowed.
func float32Of(v *value, path string, quoted bool) (float32, error) {
	if v == nil {
		return 0, errorf(path, "is missing")
	}
	switch v.kind {
	case intKind:
		return float32(int64(v.num)), nil
	case floatKind:
		return float32(math.Float64frombits(v.num)), nil
	case textKind:
		return parseFloat32(v.str, path)
	case stringKind:
		if quoted {
			return parseFloat32(strings.TrimSpace(v.str), path)
		}
		return 0, errorf(path, "want a number, got a string")
	}
	return 0, errorf(path, "want a number, got %s", v.kind)
}

// parseFloat32 parses a decimal number, or NaN and ±Infinity as XGBoost
// writes them, into the nearest float32.
func parseFloat32(s, path string) (float32, error) {
	switch s {
	case "NaN", "-NaN", "nan", "-nan":
		return float32(math.NaN()), nil
	case "Infinity", "inf":
		return float32(math.Inf(1)), nil
	case "-Infinity", "-inf":
		return float32(math.Inf(-1)), nil
	}
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return float32(f), nil // ±Inf or 0: the caller checks
		}
		return 0, errorf(path, "want a number, got %q", s)
	}
	return float32(f), nil
}

// ints returns the elements of an array of integers.
func ints(v *value, path string) ([]int64, error) {
	list, err := array(v, path)
	if err != nil {
		return nil, err
	}
	out := make([]int64, len(list))
	for i := range list {
		if out[i], err = integer(&list[i], "", false); err != nil {
			_, err = integer(&list[i], fmt.Sprintf("%s[%d]", path, i), false) // the path, only now
			return nil, err
		}
	}
	return out, nil
}

// float32s returns the elements of an array of numbers, each rounded once to
// float32.
func float32s(v *value, path string) ([]float32, error) {
	list, err := array(v, path)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(list))
	for i := range list {
		if out[i], err = float32Of(&list[i], "", false); err != nil {
			_, err = float32Of(&list[i], fmt.Sprintf("%s[%d]", path, i), false)
			return nil, err
		}
	}
	return out, nil
}

// bools returns the elements of an array of booleans, written as true and
// false or as the integers 1 and 0 (XGBoost's schemas use both).
func bools(v *value, path string) ([]bool, error) {
	list, err := array(v, path)
	if err != nil {
		return nil, err
	}
	out := make([]bool, len(list))
	for i := range list {
		e := &list[i]
		if e.kind == boolKind {
			out[i] = e.num == 1
			continue
		}
		n, err := integer(e, "", false)
		if err != nil || (n != 0 && n != 1) {
			return nil, errorf(fmt.Sprintf("%s[%d]", path, i), "want a boolean (true, false, 1 or 0), got %s", describe(e))
		}
		out[i] = n == 1
	}
	return out, nil
}

// describe shows a scalar value in an error message.
func describe(v *value) string {
	switch v.kind {
	case textKind:
		return v.str
	case stringKind:
		return strconv.Quote(v.str)
	case intKind:
		return strconv.FormatInt(int64(v.num), 10)
	case floatKind:
		return strconv.FormatFloat(math.Float64frombits(v.num), 'g', -1, 64)
	}
	return v.kind.String()
}
