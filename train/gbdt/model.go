package gbdt

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"path/filepath"
	"strconv"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
)

// toIR converts a grown tree into an IR tree writing output, its nodes
// numbered in pre-order (a node, its left subtree, its right subtree).
func toIR(nodes []tnode, output int) ir.Tree {
	out := make([]ir.Node, 0, len(nodes))
	values := make([]float64, 0, (len(nodes)+1)/2) // one backing array for the leaf values
	var walk func(i int) int
	walk = func(i int) int {
		id := len(out)
		out = append(out, ir.Node{})
		nd := &nodes[i]
		if nd.leaf {
			values = append(values, nd.value)
			k := len(values)
			out[id] = ir.Node{Kind: ir.Leaf, Value: values[k-1 : k : k]}
			return id
		}
		left := walk(nd.left)
		right := walk(nd.right)
		out[id] = ir.Node{
			Kind:        ir.Axis,
			Left:        left,
			Right:       right,
			DefaultLeft: nd.nanLeft,
			LessEqual:   nd.lessEqual,
			Feature:     nd.feature,
			Threshold:   nd.threshold,
		}
		return id
	}
	walk(0)
	return ir.Tree{Output: output, Nodes: out}
}

// fingerprint describes d for the model's provenance, as train/cart does:
// its file's base name, its size, and the SHA-256 of the IEEE 754 bits of X
// then Y, each value as 8 little-endian bytes.
func fingerprint(d *data.Dataset) map[string]string {
	h := sha256.New()
	buf := make([]byte, 0, 8*1024)
	for _, xs := range [][]float64{d.X, d.Y} {
		for _, v := range xs {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(v))
			if len(buf) == cap(buf) {
				h.Write(buf)
				buf = buf[:0]
			}
		}
	}
	h.Write(buf)
	fp := map[string]string{
		"rows":     strconv.Itoa(d.Rows),
		"features": strconv.Itoa(d.Cols),
		"sha256":   hex.EncodeToString(h.Sum(nil)),
	}
	if d.Source != "" {
		fp["source"] = filepath.Base(d.Source)
	}
	return fp
}
