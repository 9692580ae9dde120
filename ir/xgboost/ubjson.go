package xgboost

import (
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
)

// ubjsonParser parses UBJSON (ubjson.org, draft 12), the binary JSON that
// XGBoost writes to .ubj files: big-endian numbers, strings and object keys
// prefixed by an integer length, and optimized containers whose "$" marker
// gives one type for every element and whose "#" marker gives their count.
type ubjsonParser struct {
	data  []byte
	pos   int
	depth int
	// free is how many more elements without payload ($Z, $T, $F) the
	// document may hold: they take no room, so the input's size does not
	// bound their number.
	free int64
}

// parseUBJSON parses one UBJSON document.
func parseUBJSON(data []byte) (*value, error) {
	p := &ubjsonParser{data: data, free: int64(len(data)) + 1<<16}
	var v value
	if err := p.value(&v, p.marker()); err != nil {
		return nil, err
	}
	if p.pos < len(p.data) {
		return nil, p.fail(p.pos, "data after the top-level value")
	}
	return &v, nil
}

func (p *ubjsonParser) fail(off int, format string, args ...any) error {
	return &syntaxError{ubjson: true, offset: off, msg: fmt.Sprintf(format, args...)}
}

func (p *ubjsonParser) eof() error {
	return p.fail(len(p.data), "unexpected end of input (truncated file?)")
}

// marker returns the next type marker, skipping no-ops ('N'); 0 at the end
// of the input.
func (p *ubjsonParser) marker() byte {
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		p.pos++
		if c != 'N' {
			return c
		}
	}
	return 0
}

// take returns the next n bytes.
func (p *ubjsonParser) take(n int) ([]byte, error) {
	if n < 0 || n > len(p.data)-p.pos {
		return nil, p.eof()
	}
	b := p.data[p.pos : p.pos+n]
	p.pos += n
	return b, nil
}

// fixedSize is the payload size of a fixed-size type, 0 for types without
// payload, -1 for variable sizes.
func fixedSize(m byte) int {
	switch m {
	case 'Z', 'T', 'F', 'N':
		return 0
	case 'i', 'U', 'C':
		return 1
	case 'I':
		return 2
	case 'l', 'd':
		return 4
	case 'L', 'D':
		return 8
	}
	return -1
}

// integer reads an integer whose marker m has been read (lengths and counts).
func (p *ubjsonParser) integer(m byte) (int64, error) {
	at := p.pos - 1
	n := fixedSize(m)
	switch m {
	case 'i', 'U', 'I', 'l', 'L':
	case 0:
		return 0, p.eof()
	default:
		return 0, p.fail(at, "want an integer type marker (i, U, I, l or L) for a length or count, got %s", quoteMarker(m))
	}
	b, err := p.take(n)
	if err != nil {
		return 0, err
	}
	switch m {
	case 'i':
		return int64(int8(b[0])), nil
	case 'U':
		return int64(b[0]), nil
	case 'I':
		return int64(int16(binary.BigEndian.Uint16(b))), nil
	case 'l':
		return int64(int32(binary.BigEndian.Uint32(b))), nil
	}
	return int64(binary.BigEndian.Uint64(b)), nil
}

// length reads a non-negative length or count that the remaining input can
// hold, at least min bytes per unit.
func (p *ubjsonParser) length(what string, min int) (int, error) {
	at := p.pos
	n, err := p.integer(p.marker())
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, p.fail(at, "negative %s %d", what, n)
	}
	rest := int64(len(p.data) - p.pos)
	if min == 0 {
		if n > p.free {
			return 0, p.fail(at, "%s %d: too many elements without payload for a document of %d bytes", what, n, len(p.data))
		}
		p.free -= n
	} else if n > rest/int64(min) {
		return 0, p.fail(at, "%s %d: the %d bytes left in the input cannot hold that many (truncated file?)", what, n, rest)
	}
	return int(n), nil
}

func quoteMarker(m byte) string {
	if m >= 0x20 && m < 0x7f {
		return strconv.QuoteRune(rune(m))
	}
	return fmt.Sprintf("0x%02x", m)
}

// value parses a value whose type marker m has been read.
func (p *ubjsonParser) value(v *value, m byte) error {
	at := p.pos - 1
	switch m {
	case 0:
		return p.eof()
	case 'Z':
		*v = value{kind: nullKind}
	case 'T':
		*v = value{kind: boolKind, num: 1}
	case 'F':
		*v = value{kind: boolKind}
	case 'i', 'U', 'I', 'l', 'L':
		n, err := p.integer(m)
		if err != nil {
			return err
		}
		*v = value{kind: intKind, num: uint64(n)}
	case 'd':
		b, err := p.take(4)
		if err != nil {
			return err
		}
		f := math.Float32frombits(binary.BigEndian.Uint32(b))
		*v = value{kind: floatKind, num: math.Float64bits(float64(f))}
	case 'D':
		b, err := p.take(8)
		if err != nil {
			return err
		}
		*v = value{kind: floatKind, num: binary.BigEndian.Uint64(b)}
	case 'C':
		b, err := p.take(1)
		if err != nil {
			return err
		}
		*v = value{kind: stringKind, str: string(b)}
	case 'S', 'H':
		n, err := p.length("string length", 1)
		if err != nil {
			return err
		}
		b, _ := p.take(n)
		if m == 'S' {
			*v = value{kind: stringKind, str: string(b)}
			break
		}
		if !isNumber(string(b)) {
			return p.fail(at, "high-precision number %q is not a number", b)
		}
		*v = value{kind: textKind, str: string(b)}
	case '[', '{':
		p.depth++
		if p.depth > maxNesting {
			return p.fail(at, "nesting deeper than %d levels", maxNesting)
		}
		var err error
		if m == '[' {
			err = p.array(v)
		} else {
			err = p.object(v)
		}
		p.depth--
		return err
	default:
		return p.fail(at, "unknown type marker %s", quoteMarker(m))
	}
	return nil
}

// header reads the optional "$" type and "#" count of a container. count is
// -1 when there is none; elem is 0 when the elements carry their own markers.
func (p *ubjsonParser) header() (elem byte, count int, err error) {
	count = -1
	if p.pos < len(p.data) && p.data[p.pos] == '$' {
		at := p.pos
		p.pos++
		if p.pos >= len(p.data) {
			return 0, 0, p.eof()
		}
		elem = p.data[p.pos]
		p.pos++
		switch elem {
		case 'Z', 'T', 'F', 'i', 'U', 'I', 'l', 'L', 'd', 'D', 'C', 'S', 'H', '[', '{':
		default:
			return 0, 0, p.fail(at+1, "invalid container element type %s", quoteMarker(elem))
		}
		if p.pos >= len(p.data) {
			return 0, 0, p.eof()
		}
		if p.data[p.pos] != '#' {
			return 0, 0, p.fail(p.pos, "a container with a type ($) needs a count (#)")
		}
	}
	if p.pos < len(p.data) && p.data[p.pos] == '#' {
		p.pos++
		min := 1 // bytes per element: a marker, or a length
		if size := fixedSize(elem); elem != 0 && size >= 0 {
			min = size
		}
		if count, err = p.length("count", min); err != nil {
			return 0, 0, err
		}
	}
	return elem, count, nil
}

// element parses one element of a container with element type elem (0: the
// element has its own marker).
func (p *ubjsonParser) element(v *value, elem byte) error {
	if elem == 0 {
		return p.value(v, p.marker())
	}
	return p.value(v, elem)
}

func (p *ubjsonParser) array(v *value) error {
	elem, count, err := p.header()
	if err != nil {
		return err
	}
	*v = value{kind: arrayKind}
	if count >= 0 {
		// The count is checked against the bytes left, but nested
		// containers may each claim them: grow as elements arrive.
		v.list = make([]value, 0, min(count, 1024))
		for i := 0; i < count; i++ {
			v.list = append(v.list, value{})
			if err := p.element(&v.list[i], elem); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		if p.skipNoops(); p.pos >= len(p.data) {
			return p.eof()
		}
		if p.data[p.pos] == ']' {
			p.pos++
			return nil
		}
		v.list = append(v.list, value{})
		if err := p.element(&v.list[len(v.list)-1], 0); err != nil {
			return err
		}
	}
}

func (p *ubjsonParser) skipNoops() {
	for p.pos < len(p.data) && p.data[p.pos] == 'N' {
		p.pos++
	}
}

func (p *ubjsonParser) object(v *value) error {
	elem, count, err := p.header()
	if err != nil {
		return err
	}
	*v = value{kind: objectKind}
	seen := map[string]bool{}
	member := func() error {
		at := p.pos
		n, err := p.length("key length", 1)
		if err != nil {
			return err
		}
		b, _ := p.take(n)
		key := string(b)
		if seen[key] {
			return p.fail(at, "duplicate key %q", key)
		}
		seen[key] = true
		v.list = append(v.list, value{kind: stringKind, str: key}, value{})
		return p.element(&v.list[len(v.list)-1], elem)
	}
	if count >= 0 {
		for i := 0; i < count; i++ {
			if err := member(); err != nil {
				return err
			}
		}
		return nil
	}
	for {
		if p.skipNoops(); p.pos >= len(p.data) {
			return p.eof()
		}
		if p.data[p.pos] == '}' {
			p.pos++
			return nil
		}
		if err := member(); err != nil {
			return err
		}
	}
}

// isNumber reports whether s is a number by the JSON grammar.
func isNumber(s string) bool {
	p := &jsonParser{src: s}
	if s == "" || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	_, err := p.number()
	return err == nil && p.pos == len(s)
}
