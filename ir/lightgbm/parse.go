package lightgbm

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Error is a problem found in a LightGBM model file: the file's name, the
// 1-based line the problem was found on (0 when no single line is to blame)
// and what is wrong.
type Error struct {
	Name string
	Line int
	Msg  string
}

// Error returns "name:line: message" ("name: message" without a line).
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, e.Msg)
	}
	return e.Name + ": " + e.Msg
}

// field is the value of one "key=value" line and the line it is on.
type field struct {
	val  string
	line int
}

// fields holds the "key=value" lines of the header or of a tree block.
type fields map[string]field

// rawModel is the text of a model file cut into the header and the tree
// blocks, before any interpretation.
type rawModel struct {
	header  fields
	trees   []rawBlock
	endLine int // the line "end of trees"
}

// rawBlock is one "Tree=N" block.
type rawBlock struct {
	index  int // N
	line   int // the line "Tree=N"
	fields fields
}

// parser reports errors against one file.
type parser struct {
	name string
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return &Error{Name: p.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// split cuts the file into lines (LF or CRLF) and the model into its
// header and tree blocks. Everything after "end of trees" (feature
// importances, parameters, pandas_categorical) is ignored.
func (p *parser) split(data []byte) (*rawModel, error) {
	if len(data) == 0 {
		return nil, p.errorf(0, "empty file: not a LightGBM model")
	}
	lines := bytes.Split(data, []byte{'\n'})
	if len(lines) > 0 && len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1] // the file ends with a newline
	}
	text := func(i int) string { return strings.TrimSuffix(string(lines[i]), "\r") }

	raw := &rawModel{header: fields{}}
	if first := text(0); first != "tree" {
		return nil, p.errorf(1, "not a LightGBM text model: the first line is %s, want \"tree\"", quote(first))
	}
	i := 1
	// Header: key=value lines (or a bare key, such as average_output) up to
	// the first tree.
	for ; i < len(lines); i++ {
		s := text(i)
		if s == "" {
			continue
		}
		if strings.HasPrefix(s, "Tree=") || s == "end of trees" {
			break
		}
		key, val, _ := strings.Cut(s, "=")
		if key == "" {
			return nil, p.errorf(i+1, "header line %s has no key", quote(s))
		}
		if prev, dup := raw.header[key]; dup {
			return nil, p.errorf(i+1, "%s is given twice (first on line %d)", key, prev.line)
		}
		raw.header[key] = field{val, i + 1}
	}
	// Tree blocks, each "Tree=N" followed by key=value lines up to a blank
	// line, the next tree or the end of the trees.
	for i < len(lines) {
		s := text(i)
		switch {
		case s == "":
			i++
			continue
		case s == "end of trees":
			raw.endLine = i + 1
			if len(raw.trees) == 0 {
				return nil, p.errorf(i+1, "the model has no trees (no Tree= block before \"end of trees\")")
			}
			return raw, nil
		case !strings.HasPrefix(s, "Tree="):
			return nil, p.errorf(i+1, "expected \"Tree=%d\" or \"end of trees\", found %s", len(raw.trees), quote(s))
		}
		n, err := strconv.Atoi(strings.TrimPrefix(s, "Tree="))
		if err != nil || n != len(raw.trees) {
			return nil, p.errorf(i+1, "expected \"Tree=%d\", found %s: trees must be numbered 0, 1, 2, ... in order", len(raw.trees), quote(s))
		}
		b := rawBlock{index: n, line: i + 1, fields: fields{}}
		for i++; i < len(lines); i++ {
			s := text(i)
			if s == "" || s == "end of trees" || strings.HasPrefix(s, "Tree=") {
				break
			}
			key, val, ok := strings.Cut(s, "=")
			if !ok || key == "" {
				return nil, p.errorf(i+1, "tree %d: expected key=value, found %s", n, quote(s))
			}
			if prev, dup := b.fields[key]; dup {
				return nil, p.errorf(i+1, "tree %d: %s is given twice (first on line %d)", n, key, prev.line)
			}
			b.fields[key] = field{val, i + 1}
		}
		raw.trees = append(raw.trees, b)
	}
	if len(raw.trees) == 0 {
		return nil, p.errorf(len(lines), "truncated model: no Tree= block and no \"end of trees\" line")
	}
	return nil, p.errorf(len(lines), "truncated model: the file ends after tree %d without an \"end of trees\" line", len(raw.trees)-1)
}

// quote shows a piece of the file in an error message, shortened.
func quote(s string) string {
	const max = 60
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

// where names the tree a value belongs to in error messages ("" for the
// header).
type where string

func (w where) prefix() string {
	if w == "" {
		return ""
	}
	return string(w) + ": "
}

// require returns a field or an error naming it; line is where the block
// starts.
func (p *parser) require(fs fields, w where, key string, line int) (field, error) {
	f, ok := fs[key]
	if !ok {
		return field{}, p.errorf(line, "%s%s is missing", w.prefix(), key)
	}
	return f, nil
}

// int parses a single integer field.
func (p *parser) int(f field, w where, key string) (int, error) {
	s := strings.TrimSpace(f.val)
	v, err := strconv.Atoi(s)
	if err != nil {
		return 0, p.errorf(f.line, "%s%s: %s is not an integer", w.prefix(), key, quote(s))
	}
	return v, nil
}

// ints parses a space-separated list of integers with want entries.
func (p *parser) ints(f field, w where, key string, want int, why string) ([]int, error) {
	toks := strings.Fields(f.val)
	if len(toks) != want {
		return nil, p.errorf(f.line, "%s%s has %d values, want %d (%s)", w.prefix(), key, len(toks), want, why)
	}
	out := make([]int, len(toks))
	for i, t := range toks {
		v, err := strconv.Atoi(t)
		if err != nil {
			return nil, p.errorf(f.line, "%s%s: value %d, %s, is not an integer", w.prefix(), key, i, quote(t))
		}
		out[i] = v
	}
	return out, nil
}

// floats parses a space-separated list of numbers with want entries.
// LightGBM writes them with enough digits to round-trip a double, and
// strconv.ParseFloat rounds correctly, so every value is recovered exactly.
func (p *parser) floats(f field, w where, key string, want int, why string) ([]float64, error) {
	toks := strings.Fields(f.val)
	if len(toks) != want {
		return nil, p.errorf(f.line, "%s%s has %d values, want %d (%s)", w.prefix(), key, len(toks), want, why)
	}
	out := make([]float64, len(toks))
	for i, t := range toks {
		v, err := strconv.ParseFloat(t, 64)
		if err != nil && !isRange(err) {
			return nil, p.errorf(f.line, "%s%s: value %d, %s, is not a number", w.prefix(), key, i, quote(t))
		}
		out[i] = v
	}
	return out, nil
}

// isRange reports whether err is strconv's "value out of range": the value
// is then ±Inf, which the callers reject where it matters.
func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// finite reports whether x is neither NaN nor ±Inf.
func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
