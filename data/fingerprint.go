package data

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"path/filepath"
	"strconv"
)

// Fingerprint describes d for a model's provenance: "rows", "features",
// "sha256" (of the little-endian float64 bits of X, then of Y) and, when d
// came from a file, "source" (the file's base name). Trainers record it so
// that a model names the exact data it was trained on.
func (d *Dataset) Fingerprint() map[string]string {
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
