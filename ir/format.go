package ir

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
)

// lineWidth is the width under which Marshal keeps a JSON value on one line.
const lineWidth = 200

// jnode is a parsed JSON value that keeps its member order and its numbers'
// text.
type jnode struct {
	key   string // member name, or "" in arrays and at the top
	open  byte   // '{' or '[' for containers, 0 for scalars
	raw   string // a scalar's JSON text
	elems []*jnode
}

// reindent lays out compact JSON for people and diffs: a value whose compact
// form fits in lineWidth columns, or an array of scalars, stays on one line;
// anything larger opens one line per member.
func reindent(compact []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(compact))
	dec.UseNumber()
	root, err := parseNode(dec, "")
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	writeNode(&b, root, 0)
	b.WriteByte('\n')
	return b.Bytes(), nil
}

func parseNode(dec *json.Decoder, key string) (*jnode, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	n := &jnode{key: key}
	switch t := tok.(type) {
	case json.Delim:
		n.open = byte(t)
		for dec.More() {
			k := ""
			if n.open == '{' {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				k, _ = kt.(string)
			}
			child, err := parseNode(dec, k)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, child)
		}
		if _, err := dec.Token(); err != nil { // closing delimiter
			return nil, err
		}
	default:
		raw, err := json.Marshal(t)
		if err != nil {
			return nil, err
		}
		n.raw = string(raw)
	}
	return n, nil
}

func keyPrefix(n *jnode, inObject bool) string {
	if !inObject {
		return ""
	}
	k, _ := json.Marshal(n.key)
	return string(k) + ": "
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
	var one strings.Builder
	writeCompact(&one, n, inObject)
	if n.open == 0 || len(n.elems) == 0 || indent+one.Len() <= lineWidth || (n.open == '[' && scalarsOnly(n)) {
		b.WriteString(one.String())
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
