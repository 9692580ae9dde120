package ir

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// lineWidth is the width under which Marshal keeps a JSON value on one line.
const lineWidth = 200

// jnode is a parsed JSON value that keeps its member order and its numbers'
// text.
type jnode struct {
	keyJS string // the member name as JSON text, or "" in arrays and at the top
	open  byte   // '{' or '[' for containers, 0 for scalars
	raw   string // a scalar's JSON text
	elems []*jnode
}

// reindent lays out compact JSON for people and diffs: a value whose compact
// form fits in lineWidth columns, or an array of scalars, stays on one line;
// anything larger opens one line per member. compact is encoding/json's
// output, whose every member name and scalar is kept as it is.
func reindent(compact []byte) ([]byte, error) {
	p := &compactParser{data: compact}
	root, err := p.value("")
	if err != nil {
		return nil, err
	}
	if p.skipSpace(); p.pos != len(p.data) {
		return nil, p.errorf("data after the value")
	}
	var b bytes.Buffer
	b.Grow(len(compact) + len(compact)/8)
	writeNode(&b, root, 0)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// compactParser reads the jnodes of JSON text, keeping the text of every
// member name and scalar.
type compactParser struct {
	data []byte
	pos  int
}

func (p *compactParser) errorf(format string, args ...any) error {
	return fmt.Errorf("ir: reindenting JSON at byte %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *compactParser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

// value reads one value whose member name, as JSON text, is keyJS ("" in
// arrays and at the top).
func (p *compactParser) value(keyJS string) (*jnode, error) {
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end")
	}
	n := &jnode{keyJS: keyJS}
	switch c := p.data[p.pos]; c {
	case '{', '[':
		return p.container(n, c)
	case '"':
		raw, err := p.str()
		if err != nil {
			return nil, err
		}
		n.raw = raw
	default:
		start := p.pos
	scalar:
		for ; p.pos < len(p.data); p.pos++ {
			switch p.data[p.pos] {
			case ',', '}', ']', ':', ' ', '\t', '\n', '\r':
				break scalar
			}
		}
		if p.pos == start {
			return nil, p.errorf("want a value")
		}
		n.raw = string(p.data[start:p.pos])
	}
	return n, nil
}

// container reads the members of the object or array that opens with c.
func (p *compactParser) container(n *jnode, c byte) (*jnode, error) {
	n.open = c
	closer := byte(']')
	if c == '{' {
		closer = '}'
	}
	p.pos++
	if p.skipSpace(); p.pos < len(p.data) && p.data[p.pos] == closer {
		p.pos++
		return n, nil
	}
	for {
		k := ""
		if c == '{' {
			p.skipSpace()
			var err error
			if k, err = p.str(); err != nil {
				return nil, err
			}
			if p.skipSpace(); p.pos >= len(p.data) || p.data[p.pos] != ':' {
				return nil, p.errorf("want ':'")
			}
			p.pos++
		}
		e, err := p.value(k)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, e)
		p.skipSpace()
		switch {
		case p.pos >= len(p.data):
			return nil, p.errorf("unexpected end")
		case p.data[p.pos] == ',':
			p.pos++
		case p.data[p.pos] == closer:
			p.pos++
			return n, nil
		default:
			return nil, p.errorf("want ',' or %q", closer)
		}
	}
}

// str reads a string and returns its JSON text, quotes included.
func (p *compactParser) str() (string, error) {
	if p.pos >= len(p.data) || p.data[p.pos] != '"' {
		return "", p.errorf("want a string")
	}
	start := p.pos
	for p.pos++; p.pos < len(p.data); p.pos++ {
		switch p.data[p.pos] {
		case '\\':
			p.pos++
		case '"':
			p.pos++
			return string(p.data[start:p.pos]), nil
		}
	}
	return "", p.errorf("unterminated string")
}

func keyPrefix(n *jnode, inObject bool) string {
	if !inObject {
		return ""
	}
	return n.keyJS + ": "
}

// compactLen returns the length of what writeCompact writes for n, or,
// once that exceeds limit, some length above limit.
func compactLen(n *jnode, inObject bool, limit int) int {
	l := 0
	if inObject {
		l = len(n.keyJS) + len(": ")
	}
	if n.open == 0 {
		return l + len(n.raw)
	}
	l += 2
	for i, e := range n.elems {
		if i > 0 {
			l += 2
		}
		if l > limit {
			return l
		}
		l += compactLen(e, n.open == '{', limit-l)
	}
	return l
}

// writeCompact writes n compactly (with ", " and ": " separators) to w.
func writeCompact(w io.Writer, n *jnode, inObject bool) {
	io.WriteString(w, keyPrefix(n, inObject))
	if n.open == 0 {
		io.WriteString(w, n.raw)
		return
	}
	closer := "]"
	if n.open == '{' {
		closer = "}"
	}
	w.Write([]byte{n.open})
	for i, e := range n.elems {
		if i > 0 {
			io.WriteString(w, ", ")
		}
		writeCompact(w, e, n.open == '{')
	}
	io.WriteString(w, closer)
}

func scalarsOnly(n *jnode) bool {
	for _, e := range n.elems {
		if e.open != 0 {
			return false
		}
	}
	return true
}

func writeNode(b *bytes.Buffer, n *jnode, indent int) {
	writeMember(b, n, indent, false)
}

func writeMember(b *bytes.Buffer, n *jnode, indent int, inObject bool) {
	if n.open == 0 || len(n.elems) == 0 || (n.open == '[' && scalarsOnly(n)) || indent+compactLen(n, inObject, lineWidth-indent) <= lineWidth {
		writeCompact(b, n, inObject)
		return
	}
	b.WriteString(keyPrefix(n, inObject))
	b.WriteByte(n.open)
	pad := strings.Repeat(" ", indent+2)
	for i, e := range n.elems {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n" + pad)
		writeMember(b, e, indent+2, n.open == '{')
	}
	b.WriteString("\n" + strings.Repeat(" ", indent))
	if n.open == '{' {
		b.WriteByte('}')
	} else {
		b.WriteByte(']')
	}
}
