package xgboost

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxNesting bounds the nesting of arrays and objects in both formats.
// XGBoost's models nest six levels deep.
const maxNesting = 256

// syntaxError is a malformed document, located by line and column (JSON) or
// by byte offset (UBJSON).
type syntaxError struct {
	line, col int // JSON
	offset    int // UBJSON
	ubjson    bool
	msg       string
}

func (e *syntaxError) Error() string {
	if e.ubjson {
		return fmt.Sprintf("byte %d: invalid UBJSON: %s", e.offset, e.msg)
	}
	return fmt.Sprintf("%d:%d: invalid JSON: %s", e.line, e.col, e.msg)
}

// jsonParser parses JSON as XGBoost writes it: RFC 8259 plus the literals
// NaN, Infinity and -Infinity (XGBoost writes NaN as the split condition of
// a categorical split).
type jsonParser struct {
	src   string
	pos   int
	depth int
	// stack holds the elements of the arrays and objects being parsed,
	// innermost last; each container takes an exactly sized copy of its
	// own when it ends.
	stack []value
}

// parseJSON parses one JSON document.
func parseJSON(data []byte) (*value, error) {
	p := &jsonParser{src: string(data)}
	if strings.HasPrefix(p.src, "\ufeff") {
		p.pos = 3
	}
	p.space()
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.pos < len(p.src) {
		return nil, p.fail(p.pos, "data after the top-level value")
	}
	return &v, nil
}

// fail returns a syntax error at byte offset off.
func (p *jsonParser) fail(off int, format string, args ...any) error {
	line, col := 1, 1
	for i := 0; i < off && i < len(p.src); i++ {
		if p.src[i] == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return &syntaxError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
}

// eof is the error for input that ends too early.
func (p *jsonParser) eof() error {
	return p.fail(len(p.src), "unexpected end of input (truncated file?)")
}

func (p *jsonParser) space() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// unexpected reports the character at the current position.
func (p *jsonParser) unexpected(what string) error {
	if p.pos >= len(p.src) {
		return p.eof()
	}
	r, _ := utf8.DecodeRuneInString(p.src[p.pos:])
	return p.fail(p.pos, "invalid character %s %s", quoteRune(r), what)
}

func quoteRune(r rune) string {
	if r == '\'' {
		return `'\''`
	}
	return strconv.QuoteRune(r)
}

func (p *jsonParser) value() (value, error) {
	if p.pos >= len(p.src) {
		return value{}, p.eof()
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		s, err := p.string()
		return value{kind: stringKind, str: s}, err
	case c == '-' || (c >= '0' && c <= '9'):
		if strings.HasPrefix(p.src[p.pos:], "-Infinity") {
			p.pos += len("-Infinity")
			return value{kind: textKind, str: "-Infinity"}, nil
		}
		return p.number()
	}
	for _, lit := range [...]struct {
		text string
		v    value
	}{
		{"true", value{kind: boolKind, num: 1}},
		{"false", value{kind: boolKind}},
		{"null", value{kind: nullKind}},
		{"NaN", value{kind: textKind, str: "NaN"}},
		{"Infinity", value{kind: textKind, str: "Infinity"}},
	} {
		if strings.HasPrefix(p.src[p.pos:], lit.text) {
			p.pos += len(lit.text)
			return lit.v, nil
		}
		if strings.HasPrefix(lit.text, p.src[p.pos:]) {
			return value{}, p.eof()
		}
	}
	return value{}, p.unexpected("looking for beginning of value")
}

func (p *jsonParser) nest() error {
	p.depth++
	if p.depth > maxNesting {
		return p.fail(p.pos, "nesting deeper than %d levels", maxNesting)
	}
	return nil
}

func (p *jsonParser) object() (value, error) {
	if err := p.nest(); err != nil {
		return value{}, err
	}
	p.pos++ // '{'
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == '}' {
		p.pos++
		p.depth--
		return value{kind: objectKind}, nil
	}
	var seen map[string]bool // keys, once the object is large
	base := len(p.stack)
	for {
		p.space()
		if p.pos >= len(p.src) {
			return value{}, p.eof()
		}
		if p.src[p.pos] != '"' {
			return value{}, p.unexpected("looking for beginning of object key string")
		}
		keyPos := p.pos
		key, err := p.string()
		if err != nil {
			return value{}, err
		}
		if p.duplicate(base, key, &seen) {
			return value{}, p.fail(keyPos, "duplicate key %q", key)
		}
		p.space()
		if p.pos >= len(p.src) {
			return value{}, p.eof()
		}
		if p.src[p.pos] != ':' {
			return value{}, p.unexpected("after object key")
		}
		p.pos++
		p.space()
		e, err := p.value()
		if err != nil {
			return value{}, err
		}
		p.stack = append(p.stack, value{kind: stringKind, str: key}, e)
		p.space()
		if p.pos >= len(p.src) {
			return value{}, p.eof()
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			p.depth--
			return value{kind: objectKind, list: p.pop(base)}, nil
		default:
			return value{}, p.unexpected("after object key:value pair")
		}
	}
}

// duplicate reports whether the object whose members start at stack[base]
// already has key; seen indexes its keys once it is large.
func (p *jsonParser) duplicate(base int, key string, seen *map[string]bool) bool {
	members := p.stack[base:]
	if *seen == nil && len(members) >= 32 {
		*seen = make(map[string]bool)
		for i := 0; i < len(members); i += 2 {
			(*seen)[members[i].str] = true
		}
	}
	if *seen != nil {
		dup := (*seen)[key]
		(*seen)[key] = true
		return dup
	}
	for i := 0; i < len(members); i += 2 {
		if members[i].str == key {
			return true
		}
	}
	return false
}

func (p *jsonParser) array() (value, error) {
	if err := p.nest(); err != nil {
		return value{}, err
	}
	p.pos++ // '['
	p.space()
	if p.pos < len(p.src) && p.src[p.pos] == ']' {
		p.pos++
		p.depth--
		return value{kind: arrayKind}, nil
	}
	base := len(p.stack)
	for {
		p.space()
		e, err := p.value()
		if err != nil {
			return value{}, err
		}
		p.stack = append(p.stack, e)
		p.space()
		if p.pos >= len(p.src) {
			return value{}, p.eof()
		}
		switch p.src[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			p.depth--
			return value{kind: arrayKind, list: p.pop(base)}, nil
		default:
			return value{}, p.unexpected("after array element")
		}
	}
}

// pop removes the elements from base on from the stack and returns a copy.
func (p *jsonParser) pop(base int) []value {
	list := make([]value, len(p.stack)-base)
	copy(list, p.stack[base:])
	clear(p.stack[base:]) // let the collector have what they point to
	p.stack = p.stack[:base]
	return list
}

// number scans a number by the JSON grammar and keeps its text.
func (p *jsonParser) number() (value, error) {
	start := p.pos
	s := p.src
	i := p.pos
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		p.pos = i
		return value{}, p.eof()
	case s[i] == '0':
		i++
	case s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		p.pos = i
		return value{}, p.unexpected("in numeric literal")
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			p.pos = i
			return value{}, p.unexpected("after decimal point in numeric literal")
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			p.pos = i
			return value{}, p.unexpected("in exponent of numeric literal")
		}
	}
	p.pos = i
	return value{kind: textKind, str: s[start:i]}, nil
}

// string scans a string and returns its value.
func (p *jsonParser) string() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// Fast path: no escapes.
	for i := p.pos; i < len(p.src); i++ {
		c := p.src[i]
		if c == '"' {
			p.pos = i + 1
			return p.src[start:i], nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
	}
	var b strings.Builder
	for {
		if p.pos >= len(p.src) {
			return "", p.eof()
		}
		c := p.src[p.pos]
		switch {
		case c == '"':
			p.pos++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail(p.pos, "invalid character %s in string literal", quoteRune(rune(c)))
		case c != '\\':
			b.WriteByte(c)
			p.pos++
			continue
		}
		p.pos++ // backslash
		if p.pos >= len(p.src) {
			return "", p.eof()
		}
		e := p.src[p.pos]
		p.pos++
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				r2 := utf8.RuneError
				if strings.HasPrefix(p.src[p.pos:], `\u`) {
					save := p.pos
					p.pos += 2
					if r2, err = p.hex4(); err != nil {
						return "", err
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
					} else {
						p.pos = save
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			b.WriteRune(r)
		default:
			p.pos--
			return "", p.unexpected("in string escape code")
		}
	}
}

func (p *jsonParser) hex4() (rune, error) {
	if p.pos+4 > len(p.src) {
		return 0, p.eof()
	}
	var r rune
	for i := 0; i < 4; i++ {
		c := p.src[p.pos]
		switch {
		case c >= '0' && c <= '9':
			r = r*16 + rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r*16 + rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r*16 + rune(c-'A'+10)
		default:
			return 0, p.unexpected("in \\u hexadecimal character escape")
		}
		p.pos++
	}
	return r, nil
}
